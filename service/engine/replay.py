"""A game's record replayed: its setup, then each action judged and applied in order.

A record holds what a game needs to be played again exactly: the setup as a new game takes it
(players in seat order, modules, seed) and every action in the order it was applied. All chance
comes from the generator inside the state, so the states a replay reaches are the states the
game had, byte for byte. Pure: no I/O; the HTTP edge (`service.api.handlers.replay`) seals, views
and words the answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action
from .events import Event
from .game import apply, new_game
from .names import kept, name_problem
from .scoring import Breakdown
from .state import GameState, RankEntry
from .text import Text, t, tn
from .violations import IllegalAction, Violation

# The most actions a record may hold. A game has no longest: nothing ends one in which nobody
# buys (money is taken, the deck reshuffled, tiles moved to the reserve and back), so a bound
# is a policy. Measured (docs/records.md): 6 players with every module, played by bots that
# build as soon as they can (as people do), 531 to 855 actions over 8 seeds; uniform random
# legal play through the referee, up to 4,643 (3 players, zoo and craftsmen). 10,000 holds
# those, at some 0.05 ms an action (0.5 s at the bound) and 75 bytes (750 kB).
MAX_RECORD_ACTIONS = 10_000


class IllegalRecordAction(Exception):
    """The action at `index` (from 0) is illegal in `state`, the state the record reached."""

    def __init__(self, index: int, action: Action, state: GameState, violations: list[Violation]) -> None:
        super().__init__(f"action {index} of the record is illegal: "
                         + "; ".join(v.message for v in violations))
        self.index, self.action, self.state, self.violations = index, action, state, violations


@dataclass(frozen=True, slots=True)
class Replay:
    """Where a replay stopped: the state after `applied` actions, every scoring round held on
    the way (those of the setup first, if any), the events of the last action applied (the
    setup's with none), and whether the game is over."""

    state: GameState
    applied: int
    scoring: tuple[Breakdown, ...]
    events: tuple[Event, ...]
    game_over: bool


def replay(players: Sequence[str], modules: Sequence[str], seed: int, actions: Sequence[Action],
           upto: int | None = None) -> Replay:
    """The game set up as `new_game(players, modules, seed)` after its first `upto` actions (all
    of them when None). Raises GameRequestError for a setup that makes no game, and
    IllegalRecordAction at the first action that is illegal where it stands."""
    outcome = new_game(players, modules, seed=seed)
    state, scoring, events = outcome.state, list(outcome.scoring), outcome.events
    over = outcome.game_over
    count = len(actions) if upto is None else min(upto, len(actions))
    for index in range(count):
        action = actions[index]
        try:
            outcome = apply(state, action)
        except IllegalAction as e:
            raise IllegalRecordAction(index, action, state, e.violations) from None
        state, events, over = outcome.state, outcome.events, outcome.game_over
        scoring += outcome.scoring
    return Replay(state, count, tuple(scoring), events, over)


def result_differences(recorded: Sequence[RankEntry], replayed: Replay) -> list[Text]:
    """How the record's result (its final ranking) differs from the replay's: one line per
    player whose place or score differs, or who is in one ranking only; empty when they agree."""
    if not replayed.game_over:
        return [tn("the game is not over after the record's {n} action, so it has no final ranking",
                   "the game is not over after the record's {n} actions, so it has no final ranking",
                   replayed.applied)]
    ranking = {entry.name: entry for entry in replayed.state.ranking}
    # Names as the table keeps them (the setup's were: "Ana " and "Ana" are one player).
    names = [kept(e.name) if name_problem(e.name) is None else e.name for e in recorded]
    claimed = dict(zip(names, recorded, strict=True))
    out = [tn("{name} is named {n} time in the record's result",
              "{name} is named {n} times in the record's result", count, name=name)
           for name, count in Counter(names).items() if count > 1]
    for name in [*claimed, *(n for n in ranking if n not in claimed)]:
        mine, theirs = claimed.get(name), ranking.get(name)
        if mine is None and theirs is not None:
            out.append(t("{name} is not in the record's result; the replay ranks them {place} with "
                         "{score} points", name=name, place=theirs.place, score=theirs.score))
        elif theirs is None and mine is not None:
            out.append(t("{name} is in the record's result (place {place} with {score} points) but not "
                         "in the game's ranking", name=name, place=mine.place, score=mine.score))
        elif mine is not None and theirs is not None and (mine.place, mine.score) != (
                theirs.place, theirs.score):
            out.append(t("{name}: the record says place {place} with {score} points; the replay, place "
                         "{replayed_place} with {replayed_score}", name=name, place=mine.place,
                         score=mine.score, replayed_place=theirs.place, replayed_score=theirs.score))

    return out
