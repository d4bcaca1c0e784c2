"""The Thieves' data: its state (RULES.md §T). Everything here is public."""

from __future__ import annotations

from typing import Annotated

import msgspec

from ...census import CENSUS
from ...records import Record, Text, up_to

Cards = Annotated[tuple[Text, ...], up_to(CENSUS.thieves)]
Seat = Annotated[int, msgspec.Meta(ge=0, le=CENSUS.players - 1)]


class ThievesState(Record):
    """Each seat's thief cards (`hands[seat]`, face up: public), those played (`played`) and
    those that left the game at setup (`out`); and the thieves' window: `window` is True from
    the end of a turn until the next player takes an action, `ended` is the seat whose turn
    ended, `last` the seat of the last thief of this window (None before the first theft)."""

    hands: Annotated[tuple[Cards, ...], up_to(CENSUS.players)] = ()
    played: Cards = ()
    out: Cards = ()
    window: bool = False
    ended: Seat | None = None
    last: Seat | None = None


__all__ = ["ThievesState"]
