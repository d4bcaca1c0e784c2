"""Dirk in the rest of play: the money cards left in the box and his tiles at setup
(dirk.setup), and his refills after scoring rounds (dirk.refills)."""

from __future__ import annotations

from msgspec.structs import replace

from ...catalogue import CATALOGUE
from ...module import Context
from ...state import GameState, Tile
from .actions import DirkReceivedTiles
from .data import IN_THE_BOX


def give_from_bag(state: GameState, count: int, ctx: Context) -> GameState:
    assert state.dirk is not None
    tiles = state.bag[:count]
    if not tiles:
        return state
    ctx.events.append(DirkReceivedTiles(tiles=tiles))
    dirk = replace(state.dirk, tiles=(*state.dirk.tiles, *(Tile(tile=t) for t in tiles)))
    return replace(state, bag=state.bag[count:], dirk=dirk)


_IN_THE_BOX = frozenset(IN_THE_BOX)


def leave_copies_in_the_box(state: GameState, ctx: Context) -> GameState:
    """dirk.setup: the money deck just shuffled loses the copies that stay in the box (72 cards
    are left), before any card is dealt."""
    return replace(state, deck=tuple(c for c in state.deck if c not in _IN_THE_BOX))


def setup(state: GameState, ctx: Context) -> GameState:
    """dirk.setup: 6 tiles from the bag."""
    return give_from_bag(state, CATALOGUE.dirk_tiles_at_setup, ctx)


def after_scoring_round(state: GameState, round_: int, ctx: Context) -> GameState:
    """dirk.refills: 6 more tiles after round 1, a third of the bag (rounded down) after round 2."""
    if round_ == 1:
        return give_from_bag(state, CATALOGUE.dirk_tiles_after_round_1, ctx)
    if round_ == 2:
        return give_from_bag(state, len(state.bag) // CATALOGUE.dirk_bag_share_after_round_2, ctx)
    return state
