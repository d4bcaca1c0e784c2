"""The `strong` level (being written)."""
from __future__ import annotations

from service.engine import GameState, Generator

from . import basic
from .model import Suggestion


def suggest(seen: GameState, seat: int, options: list, rng: Generator, budget_ms: int) -> Suggestion:
    out = basic.suggest(seen, seat, options)
    return Suggestion(player=out.player, level="strong", action=out.action, legal=out.legal,
                      considered=out.considered)
