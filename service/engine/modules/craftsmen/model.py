"""The Travelling Craftsmen's data: its state (RULES.md §C)."""

from __future__ import annotations

from typing import Annotated

from ...census import CENSUS
from ...records import HIDDEN, Record, Text, count_to, up_to

Cards = Annotated[tuple[Text, ...], up_to(CENSUS.craftsmen)]
Seats = up_to(CENSUS.players)  # one entry per seat


class CraftsmenState(Record):
    """Per seat, the face-up craftsmen (public) and the face-down one (hidden: only its holder
    knows it; at most one exists, between a pass and the receiver's next turn); the cards out
    of the game (hidden); the card whose ability the active player used this turn, if any, and
    whether the end of the turn waits for the craftsman to be passed (craftsmen.pass)."""

    face_up: Annotated[tuple[Cards, ...], Seats] = ()
    face_down: Annotated[tuple[Text | None, ...], Seats, HIDDEN] = ()
    out: Annotated[Cards, HIDDEN] = ()
    used: Text | None = None
    passing: bool = False


class CraftsmenSeen(Record):
    """What a viewer sees of the craftsmen (RULES.md §8, craftsmen.pass): the face-up cards;
    per seat whether it holds a face-down card (`face_down`), which one only in its holder's
    view (`own_face_down`); how many are out of the game, not which."""

    face_up: Annotated[tuple[Cards, ...], Seats] = ()
    face_down: Annotated[tuple[bool, ...], Seats] = ()
    own_face_down: Text | None = None
    out_size: Annotated[int, count_to(CENSUS.craftsmen)] = 0
    used: Text | None = None
    passing: bool = False


__all__ = ["CraftsmenSeen", "CraftsmenState"]
