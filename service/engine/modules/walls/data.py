"""The Walls' constants (data/walls.json: each wall card's walls) and the helpers on walls that
its actions, scoring and census share: the printed walls, sides, and the shapes a card's walls
can take on a tile that may have been turned."""

from __future__ import annotations

from collections.abc import Iterable

from ...catalogue import CATALOGUE, FOUNTAIN, SIDES, load_data, parse_walls
from ...grid import rotate
from ...module import registered

DATA = load_data("walls")
WALLS: dict[str, int] = {c["id"]: parse_walls(c["walls"]) for c in DATA["cards"]}  # card -> mask
CARDS: tuple[str, ...] = tuple(WALLS)
WALL_CARDS = frozenset(CARDS)
ADDED_AT_MOST = sum(bin(mask).count("1") for mask in WALLS.values())  # wall pieces of all cards
PRINTED = {FOUNTAIN: 0, **{t.id: t.walls for t in CATALOGUE.tiles.values()}}


def sides(mask: int) -> str:
    return ", ".join(side for side in SIDES if mask & parse_walls(side))


def turning(modules: Iterable[str]) -> bool:
    """Whether a module on may turn tiles (the `rotation` token: craftsmen.mosaic-artist)."""
    on = set(modules)
    return any("rotation" in m.tokens for m in registered() if m.id in on)


def turnable(tile: str, turned: bool) -> bool:
    """Whether `tile` may have been turned: a building, in a game where a module turns tiles
    (base.place.orientation: only by a Mosaic artist, never the fountain)."""
    return turned and tile != FOUNTAIN


def shapes(card: str, turns: bool) -> frozenset[int]:
    """walls.action: the walls `card` can have put on a tile, in the tile's own frame. They lie
    as shown in the Alhambra's frame, so on a tile never turned they are the card's; a tile
    that may have been turned (`turns`) could have been at any turn when the card was used."""
    if not turns:
        return frozenset((WALLS[card],))
    return frozenset(rotate(WALLS[card], degrees) for degrees in (0, 90, 180, 270))
