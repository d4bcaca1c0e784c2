"""The Thieves in the rest of play: the deal at setup (thieves.setup), and the thieves'
window, opened after a complete turn and closed by the next player's action
(thieves.steal, thieves.order)."""

from __future__ import annotations

from msgspec.structs import replace

from ...actions import Action
from ...module import Context
from ...state import GameState
from .actions import Steal
from .data import CARDS, DEAL
from .model import ThievesState


def setup(state: GameState, ctx: Context) -> GameState:
    """thieves.setup: shuffle, deal to each player (not to Dirk); the rest leave the game."""
    cards = ctx.rng.shuffled(CARDS)
    n = len(state.players)
    each = DEAL[n]
    hands = tuple(tuple(sorted(cards[i * each:(i + 1) * each])) for i in range(n))
    return replace(state, thieves=ThievesState(hands=hands, out=tuple(sorted(cards[n * each:]))))


def open_window(state: GameState, ctx: Context) -> GameState:
    """thieves.steal: after a complete turn (RULES.md §H step 8) the window opens."""
    if state.phase != "play" or state.thieves is None:
        return state
    ended = (state.turn.player - 1) % len(state.players)
    return replace(state, thieves=replace(state.thieves, window=True, ended=ended, last=None))


def close_window(state: GameState, action: Action, ctx: Context) -> GameState:
    """thieves.order: the window closes when the next player takes an action (any but a theft)."""
    thieves = state.thieves
    if thieves is None or not thieves.window or isinstance(action, Steal):
        return state
    return replace(state, thieves=replace(thieves, window=False, ended=None, last=None))
