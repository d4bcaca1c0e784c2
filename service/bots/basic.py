"""The `basic` level: one step ahead, the option after which the seat's position is worth most
ahead of the best other player (`evaluate.advantage`): majorities within reach and the wall,
each module's points (the engine's own scoring of the rounds to come), money kept rather than
overpaid, and an exact payment's extra action. Ties go to the first option in the engine's
order, so the choice is deterministic."""

from __future__ import annotations

from service.engine import GameState, apply
from service.engine.actions import Action

from .evaluate import advantage
from .model import MOST_CONSIDERED, Considered, Suggestion


def after(seen: GameState, action: Action | None) -> GameState:
    """The state after `action` (None: waiting, the state as it is)."""
    return seen if action is None else apply(seen, action).state


def values(seen: GameState, seat: int, options: list[Action | None]) -> list[float]:
    return [advantage(after(seen, a), seat) for a in options]


def ranked(options: list[Action | None], vals: list[float]) -> list[int]:
    """The options' indices, best first (the engine's order among equals)."""
    return sorted(range(len(options)), key=lambda i: (-vals[i], i))


def choose(seen: GameState, seat: int, options: list[Action | None]) -> Action | None:
    vals = values(seen, seat, options)
    return options[ranked(options, vals)[0]]


def suggest(seen: GameState, seat: int, options: list[Action | None]) -> Suggestion:
    vals = values(seen, seat, options)
    order = ranked(options, vals)
    considered = tuple(Considered(action=options[i], value=round(vals[i], 3))
                       for i in order[:MOST_CONSIDERED])
    return Suggestion(player=seen.players[seat].name, level="basic", action=options[order[0]],
                      legal=len(options), considered=considered)
