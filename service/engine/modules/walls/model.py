"""The Walls' data: its state (RULES.md §W). Everything here is public."""

from __future__ import annotations

from typing import Annotated

from ...census import CENSUS
from ...records import Record, Text, up_to

Cards = Annotated[tuple[Text, ...], up_to(CENSUS.wall_cards)]


class UsedWall(Record):
    """A wall card used (walls.action): its walls lie on `player`'s tile `tile` (Alhambra or
    reserve; tile ids are unique within a player's tiles, the fountain included)."""

    card: Text
    player: Text
    tile: Text
    walls: Text  # the walls it added, in the tile's own frame (turned back by a tile's rotation)


class WallsState(Record):
    """The wall cards out of the money deck: set aside face up beside the display (walls.reveal),
    and used, as added walls on a tile (walls.action). The rest are in the deck."""

    aside: Cards = ()
    used: Annotated[tuple[UsedWall, ...], up_to(CENSUS.wall_cards)] = ()


__all__ = ["UsedWall", "WallsState"]
