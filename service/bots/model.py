"""What a bot answers: the action it suggests for a seat, at which level, and what it weighed."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from service.engine.actions import Action
from service.engine.text import t

# The levels, weakest first (issue 28): uniform over the legal actions; a one-step heuristic;
# a search over the seat's information within a budget.
Level = Literal["random", "basic", "strong"]
LEVELS: tuple[Level, ...] = ("random", "basic", "strong")

# The strong level's budget: what a request may ask (ms) and what it gets when it asks nothing.
# The budget is spent as a number of simulated actions (`WORK_PER_MS`, strong.py), never by
# the clock, so the same request gives the same suggestion on every machine.
BUDGET_MS = 200
LEAST_BUDGET_MS = 10
MOST_BUDGET_MS = 2000
Budget = Annotated[int, msgspec.Meta(ge=LEAST_BUDGET_MS, le=MOST_BUDGET_MS)]

# The most candidates a suggestion lists in `considered`: the best ones, best first.
MOST_CONSIDERED = 10
# The most of a seat's legal actions a bot lists and chooses among, in the engine's order: a
# hand of many cards of one currency pays a tile in tens of thousands of ways (a hoarded hand of
# 22 cards gives 23,272 legal actions, all 27 of a colour some 260,000 for one space), and no
# player weighs them all. A seat with more says so (`truncated`).
MOST_OPTIONS = 2000
# The bounds of what a suggestion reports (the contract's): `value` is a difference of points
# (far within any game's), `simulated` the work of the largest budget and one world more.
MOST_VALUE = 10_000_000
MOST_SIMULATED = 100_000_000


class Considered(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """One action the bot weighed: `value` is what it expects of it for its seat (points ahead
    of the best other player, as its level estimates them), `simulations` how many simulated
    worlds it was tried in (strong; 0 for the others). `action` null: waiting, for a seat that
    may only act out of turn (a theft in the thieves' window) and may as well not."""

    action: Action | None
    value: float
    simulations: int = 0


class Suggestion(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """A bot's move for `player`: `action` (null: wait, see `Considered`), the `level` that chose
    it, how many legal actions the seat had (`legal`; with `truncated`, it had more than
    MOST_OPTIONS and chose among the first MOST_OPTIONS in the engine's order), the best of
    those it weighed (`considered`, best first) and the work it simulated in all (`simulated`:
    an action applied one unit, strong.py)."""

    player: str
    level: Level
    action: Action | None
    legal: int
    considered: tuple[Considered, ...]
    simulated: int = 0
    truncated: bool = False


class NotToAct(ValueError):
    """The seat has nothing to decide now: no legal action, no decision waiting for it."""

    def __init__(self, player: str, waiting_for: tuple[str, ...]) -> None:
        if player in waiting_for:  # no rule lets the game go on (docs/bots.md)
            super().__init__(t("the game waits for {player}, but no action of {player}'s is legal now",
                               player=player))
        elif waiting_for:
            super().__init__(t("{player} has nothing to do now: the game waits for {who}", player=player,
                               who=waiting_for))
        else:
            super().__init__(t("{player} has nothing to do now: the game waits for nobody (the game is "
                               "over)", player=player))
        self.player = player
        self.waiting_for = waiting_for
