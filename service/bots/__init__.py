"""Bots that fill a seat (issue 28): a move for any seat, from what that seat may see, at three
strengths. Pure functions, like the engine they play by: no I/O, no clock, no global random
state.

    suggest(state, player, level, budget_ms) -> Suggestion

A bot never sees more than its seat: it starts from `sight.as_seen(state, seat)`, the state
with everything the seat may not see dealt in one fixed way, so two states the seat cannot tell
apart give the same suggestion (tests/bots/test_no_peeking.py). Its choices are seeded by that
state and the request, so the same request gives the same suggestion.

- `random` (uniform.py): any legal action, each as likely.
- `basic` (basic.py): one step ahead, by a player's reckoning of the position (evaluate.py).
- `strong` (strong.py): a search over worlds the seat cannot tell from the real one, within
  a budget counted in simulated actions.
"""

from __future__ import annotations

import msgspec

from service.engine import GameState
from service.engine.text import t

from . import basic, strong, uniform
from .model import BUDGET_MS, LEVELS, Considered, Level, NotToAct, Suggestion
from .seat import generator, options, seen_by, truncated

__all__ = ["BUDGET_MS", "LEVELS", "Considered", "Level", "NotToAct", "Suggestion", "UnknownSeat",
           "suggest"]


class UnknownSeat(ValueError):
    """No player of that name at the table."""


def suggest(state: GameState, player: str, level: Level = "basic",
            budget_ms: int = BUDGET_MS) -> Suggestion:
    """A legal action for `player` in `state` (or null: wait, see `model.Considered`), chosen by
    `level` from what `player` may see. Raises UnknownSeat, or NotToAct when the seat has
    nothing to decide now. `budget_ms` is the strong level's (it changes no other level)."""
    seat = state.seat_of(player)
    if seat < 0:
        raise UnknownSeat(t("no player is named {player}", player=repr(player)))
    if level != "strong":
        budget_ms = BUDGET_MS  # no other level spends it: the same choice whatever is asked
    seen = seen_by(state, seat)
    choices, cut = truncated(options(seen, seat))
    rng = generator(seen, seat, level, budget_ms)
    if level == "random":
        out = uniform.suggest(seen, seat, choices, rng)
    elif level == "basic":
        out = basic.suggest(seen, seat, choices)
    else:
        out = strong.suggest(seen, seat, choices, rng, budget_ms)
    return msgspec.structs.replace(out, truncated=True) if cut else out
