"""The Treasure Chamber's components (RULES.md §R): the chests, rooms, price and points of
`data/treasure.json`, and the colour of chest a tile takes."""

from __future__ import annotations

from ...catalogue import FOUNTAIN, load_data
from ...scoring import building_type
from ...state import Tile

DATA = load_data("treasure")
CHESTS: dict[str, int] = dict(DATA["chests"])
ROOMS: int = DATA["rooms"]
PER_ROOM: int = DATA["chests_per_room"]
PRICE: int = DATA["price"]
POINTS: dict[int, tuple[int, ...]] = {int(r): tuple(p) for r, p in DATA["points"].items()}


def chest_colour(tile: Tile) -> str | None:
    """The colour of chest a tile may take: its building type (a site's building); none for the
    fountain or a site without a building."""
    if tile.tile == FOUNTAIN:
        return None
    return building_type(tile)
