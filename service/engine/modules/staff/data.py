"""Palace Staff's constants (data/staff.json): the servants of each colour, the display's size and
the marshal's steps, with the staff part of a state and the colour of servant a tile takes, which
its actions, play, scoring and census read."""

from __future__ import annotations

from ...catalogue import FOUNTAIN, load_data
from ...scoring import building_type
from ...state import GameState, Tile
from .model import StaffState

DATA = load_data("staff")
SERVANTS: dict[str, int] = dict(DATA["servants"])
DISPLAY_SIZE: int = DATA["display_size"]
MARSHAL_STEPS: int = DATA["marshal_steps"]


def staff_of(state: GameState) -> StaffState:
    assert state.staff is not None
    return state.staff


def servant_colour(tile: Tile) -> str | None:
    """The colour (building type) of servant a tile takes: none for the fountain."""
    if tile.tile == FOUNTAIN:
        return None
    return building_type(tile)
