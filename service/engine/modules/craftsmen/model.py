"""The Travelling Craftsmen's data: its state (RULES.md §C)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from ...records import HIDDEN, Many, Record, Text

Cards = Annotated[tuple[Text, ...], msgspec.Meta(max_length=13)]


class CraftsmenState(Record):
    """Per seat, the face-up craftsmen (public) and the face-down one (hidden: only its holder
    knows it; at most one exists, between a pass and the receiver's next turn); the cards out
    of the game (hidden); the card whose ability the active player used this turn, if any, and
    whether the end of the turn waits for the craftsman to be passed (craftsmen.pass)."""

    face_up: Many[Cards] = ()
    face_down: Annotated[Many[Text | None], HIDDEN] = ()
    out: Annotated[Cards, HIDDEN] = ()
    used: Text | None = None
    passing: bool = False


__all__ = ["CraftsmenState"]
