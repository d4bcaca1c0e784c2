"""The Thieves' data: its state (RULES.md §T). Everything here is public."""

from __future__ import annotations

from typing import Annotated

import msgspec

from ...records import Record, Text

Cards = Annotated[tuple[Text, ...], msgspec.Meta(max_length=16)]
Seat = Annotated[int, msgspec.Meta(ge=0, le=5)]


class ThievesState(Record):
    """Each seat's thief cards (`hands[seat]`, face up: public), those played (`played`) and
    those that left the game at setup (`out`); and the thieves' window: `window` is True from
    the end of a turn until the next player takes an action, `ended` is the seat whose turn
    ended, `last` the seat of the last thief of this window (None before the first theft)."""

    hands: Annotated[tuple[Cards, ...], msgspec.Meta(max_length=6)] = ()
    played: Cards = ()
    out: Cards = ()
    window: bool = False
    ended: Seat | None = None
    last: Seat | None = None


__all__ = ["ThievesState"]
