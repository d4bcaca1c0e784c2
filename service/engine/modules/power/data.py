"""Buildings of Power's data (`data/power.json`): which special tile has which power and which
base tile it replaces, the dice; where its steps run among the others; the helpers the
files beside read."""

from __future__ import annotations

from ...catalogue import load_data
from ...state import GameState
from .model import PowerState

DATA = load_data("power")
SPECIAL = {tile["id"]: tile["id"].rsplit("-", 1)[1] for tile in DATA["tiles"]}  # tile -> its power
REPLACED = {tile["replaces"]: tile["id"] for tile in DATA["tiles"]}
FACES = DATA["die_faces"]
REVEAL, POWERS, TURN_START = 29, 50, 95  # RULES.md §H: before the refills; step 5; a new turn
SETUP = 11  # right after the bag is shuffled (10), before the market is laid (52)
DIE_OF = {"strength": "black", "prosperity": "white"}


def power_of(tile: str) -> str | None:
    return SPECIAL.get(tile)


def _power(state: GameState) -> PowerState:
    assert state.power is not None
    return state.power
