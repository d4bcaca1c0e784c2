"""A table of bots: who moves next when every seat is a bot (the command line's games between
bots, bench/bots.py, the tests' bot games)."""

from __future__ import annotations

from collections.abc import Sequence

from service.engine import GameState, to_act
from service.engine.actions import Action

from . import suggest
from .model import BUDGET_MS, Level, Suggestion


def next_move(state: GameState, levels: Sequence[Level],
              budget_ms: int = BUDGET_MS) -> tuple[Action, Suggestion]:
    """The next action of a table whose seat i is played by `levels[i]`: the seats an
    out-of-turn window lets act are asked first, in seat order (a theft comes before the game
    goes on), then the seat the game waits for. Raises ValueError once the game is over."""
    actors = to_act(state).actors
    if not actors:
        raise ValueError("the game is over")
    for actor in (*actors[1:], actors[0]):
        suggestion = suggest(state, actor.player, levels[actor.seat], budget_ms)
        if suggestion.action is not None:
            return suggestion.action, suggestion
    raise ValueError(f"every seat that may act waits: {[a.player for a in actors]}")
