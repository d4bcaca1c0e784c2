"""Buildings of Power's data: its state (RULES.md §P)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from ...records import HIDDEN, Record

Ids = Annotated[tuple[str, ...], msgspec.Meta(max_length=16)]


class HiddenTile(Record):
    """A tile face down under a market tile (power.architecture): only `owner` sees it."""

    tile: str
    above: str | None  # the market tile it lies under; None once that tile was bought
    currency: str  # the market space it lies at
    owner: str


class EndChoice(Record):
    """power.end-hidden: `chooser` takes one of `options` (the market tile and the one hidden
    under it); the other goes to `second` (a seat), or out of the game when `second` is -1."""

    options: tuple[str, str]
    chooser: int
    second: int = -1
    currency: str = ""


class PowerState(Record):
    """Dice in the supply, the powers bought this turn, what a power has drawn (seen only by
    the player using it), the tiles hidden under market tiles, and the end-of-game choices."""

    white: int = 0  # white dice in the supply
    black: int = 0
    white_out: int = 0  # white dice used up and out of the game
    due: Ids = ()  # architecture and wisdom tiles bought this turn, powers still to use
    using: str | None = None  # the special tile whose power is being used
    roll: int = 0  # the red die of that power
    drawn: Annotated[Ids, HIDDEN] = ()  # the tiles (architecture) or money cards (wisdom) it drew: hidden
    hidden: Annotated[tuple[HiddenTile, ...], HIDDEN] = ()
    used_white: Ids = ()  # prosperity tiles whose die lowered a price this turn
    choices: Annotated[tuple[EndChoice, ...], HIDDEN] = ()
