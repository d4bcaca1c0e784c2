"""Street Vendors' constants, read from `data/vendors.json`: the inhabitants' colours and counts
(vendors.setup), the points of a set (vendors.score), and the small helpers on them and on the
vendors' part of a state that several files read."""

from __future__ import annotations

from msgspec.structs import replace

from ...catalogue import FOUNTAIN, load_data
from ...scoring import building_type
from ...state import GameState, PlacedTile, Player, Tile
from .model import VendorsState

DATA = load_data("vendors")
COLOURS: tuple[str, ...] = tuple(DATA["colours"])
PER_COLOUR: int = DATA["per_colour"]
ON_DISC: int = DATA["on_disc"]
SET_POINTS: tuple[int, ...] = tuple(DATA["set_points"])
_ORDER = {c: i for i, c in enumerate(COLOURS)}


def colour_of(tile: Tile) -> str | None:
    """The colour of inhabitant a tile may take: its building type; none for the fountain."""
    if tile.tile == FOUNTAIN:
        return None
    return building_type(tile)


def sorted_colours(colours: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(colours, key=lambda c: _ORDER.get(c, len(COLOURS))))


def _vendors(state: GameState) -> VendorsState:
    assert state.vendors is not None
    return state.vendors


def _with_disc(state: GameState, seat: int, **changes: object) -> GameState:
    vendors = _vendors(state)
    discs = list(vendors.discs)
    discs[seat] = replace(discs[seat], **changes)
    return replace(state, vendors=replace(vendors, discs=tuple(discs)))


def _building_at(player: Player, x: int, y: int) -> PlacedTile | None:
    for t in player.alhambra:
        if t.x == x and t.y == y:
            return t
    return None
