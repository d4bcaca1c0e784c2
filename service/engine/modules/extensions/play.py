"""The Extensions module in the rest of play: the board laid at setup (extensions.setup)."""

from __future__ import annotations

from msgspec.structs import replace

from ...module import Context
from ...state import GameState
from .data import AMOUNTS, COLUMNS, TYPE_OF
from .model import ExtensionsState

SETUP_STEP = 56  # after the market (52) and Dirk's tiles (55), before the money piles (60)


def setup(state: GameState, ctx: Context) -> GameState:
    """extensions.setup: the 12 tiles shuffled face up onto the 12 spaces of the board."""
    tiles = ctx.rng.shuffled(sorted(TYPE_OF))
    rows = len(AMOUNTS)
    board = tuple(tuple(tiles[c * rows:(c + 1) * rows]) for c in range(len(COLUMNS)))
    return replace(state, extensions=ExtensionsState(board=board))
