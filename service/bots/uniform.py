"""The `random` level: one of the seat's legal actions, each as likely (waiting too, where the
seat may only act out of turn)."""

from __future__ import annotations

from service.engine import GameState, Generator

from .model import Suggestion


def suggest(seen: GameState, seat: int, options: list, rng: Generator) -> Suggestion:
    action = rng.choice(options)
    return Suggestion(player=seen.players[seat].name, level="random", action=action,
                      legal=len(options), considered=())
