"""Buildings of Power's data: its state (RULES.md §P)."""

from __future__ import annotations

from typing import Annotated

from ...census import CENSUS
from ...records import HIDDEN, Int, Record, Text, count_to, up_to

# The special tiles bought this turn or whose die lowered a price: at most all of them.
Ids = Annotated[tuple[Text, ...], up_to(CENSUS.power_tiles)]
# What a power drew: as many tiles or cards as the red die shows at most.
Drawn = Annotated[tuple[Text, ...], up_to(CENSUS.die_faces)]
# Tiles hidden under market tiles, and the end-of-game choices they make: at most every tile.
Tiles = up_to(CENSUS.building_tiles)
White = Annotated[int, count_to(CENSUS.white_dice)]
Black = Annotated[int, count_to(CENSUS.black_dice)]
Roll = Annotated[int, count_to(CENSUS.die_faces)]  # 0 while no die was rolled
BlackPips = Annotated[int, count_to(CENSUS.black_dice * CENSUS.die_faces)]  # power.strength


class HiddenTile(Record):
    """A tile face down under a market tile (power.architecture): only `owner` sees it."""

    tile: Text
    above: Text | None  # the market tile it lies under; None once that tile was bought
    currency: Text  # the market space it lies at
    owner: Text


class EndChoice(Record):
    """power.end-hidden: `chooser` takes one of `options` (the market tile and the one hidden
    under it); the other goes to `second` (a seat), or out of the game when `second` is -1."""

    options: tuple[Text, Text]
    chooser: Int
    second: Int = -1
    currency: Text = ""


class PowerState(Record):
    """Dice in the supply, the powers bought this turn, what a power has drawn (seen only by
    the player using it), the tiles hidden under market tiles, and the end-of-game choices."""

    white: White = 0  # white dice in the supply
    black: Black = 0
    white_out: White = 0  # white dice used up and out of the game
    due: Ids = ()  # architecture and wisdom tiles bought this turn, powers still to offer
    using: Text | None = None  # the special tile whose power is offered (nothing drawn yet) or in use
    roll: Roll = 0  # the red die of that power, once used (0 while offered)
    drawn: Annotated[Drawn, HIDDEN] = ()  # the tiles (architecture) or money cards (wisdom) it drew: hidden
    hidden: Annotated[tuple[HiddenTile, ...], Tiles, HIDDEN] = ()
    used_white: Ids = ()  # prosperity tiles whose die lowered a price this turn
    choices: Annotated[tuple[EndChoice, ...], Tiles, HIDDEN] = ()


class HiddenTileSeen(Record):
    """A tile face down under a market tile as a viewer sees it: `tile` only in its owner's
    view (absent: face down), where it lies and whose it is for everyone."""

    tile: Text | None = None
    above: Text | None = None
    currency: Text = ""
    owner: Text = ""


class PowerSeen(Record):
    """What a viewer sees of the powers (RULES.md §8, power.architecture, power.wisdom): all of
    the state but what a power has drawn, which only the player using it (the active player)
    sees (`drawn`; everyone sees how many, `drawn_size`), and the tiles hidden under market
    tiles, which only their owners see."""

    white: White = 0
    black: Black = 0
    white_out: White = 0
    due: Ids = ()
    using: Text | None = None
    roll: Roll = 0
    drawn_size: Annotated[int, count_to(CENSUS.die_faces)] = 0
    drawn: Drawn | None = None  # only in the view of the player using the power
    hidden: Annotated[tuple[HiddenTileSeen, ...], Tiles] = ()
    used_white: Ids = ()
    choices: Annotated[tuple[EndChoice, ...], Tiles] = ()


class PowerTally(Record):
    """power.strength at a real table: the pips of all the player's black dice (on strength tiles
    in the Alhambra or the reserve) and the length of the second wall, the longest outer wall
    sharing no side with the longest one (it scores up to the pips)."""

    black_pips: BlackPips = 0
    second_wall: Annotated[int, count_to(CENSUS.wall_length)] = 0  # as base.score.wall
