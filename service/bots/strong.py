"""The `strong` level: a search over the seat's information (determinized Monte-Carlo).

The best few options by the basic level's reckoning are each tried in worlds the seat cannot
tell from the real one (`sight.sampled`: the deck, the bag, the others' hands and every other
hidden part dealt at random), the same worlds for every option (common random numbers, so the
options are compared on the same luck). In each world the game is played on past the option,
every seat by a quick greedy policy (the best of a few sampled legal actions by its own
reckoning), until the seat has played its next turn too; the position is then reckoned for the
seat (`evaluate.advantage`). The option with the best mean wins: what a money card taken now
buys next turn, what the others will likely take first, where a tile's wall leads.

The budget is spent as work, never by the clock: `WORK_PER_MS` units of work (an action
applied is one unit, a reckoning of a position `RECKONING` units) for each millisecond asked,
so the same request gives the same suggestion on every machine (it takes about `budget_ms`
on the 2-core VM the figure was measured on: bench/bots.py --calibrate).
"""

from __future__ import annotations

from service.engine import GameState, Generator, apply, random_action
from service.engine.actions import Action
from service.engine.flow import acting_seat
from service.engine.sight import sampled

from . import basic
from .evaluate import advantage
from .model import MOST_CONSIDERED, Considered, Suggestion

# Work per millisecond of budget, measured with bench/bots.py --calibrate on the 2-core VM.
WORK_PER_MS = 9
RECKONING = 3  # a reckoning of a position costs about three actions applied
CANDIDATES = 4  # the options searched: the best ones by the basic level's reckoning
SAMPLES = 3  # the legal actions a seat's quick policy draws and weighs in a simulated world
LONGEST_ROLLOUT = 60  # actions simulated past an option at most


class Work:
    """The work spent so far, in units."""

    __slots__ = ("spent",)

    def __init__(self) -> None:
        self.spent = 0


def quick_move(state: GameState, rng: Generator, work: Work) -> Action | None:
    """A seat's move in a simulated world: the best by its own reckoning of up to SAMPLES legal
    actions drawn at random (random_action: cheap, without listing them all)."""
    seat = acting_seat(state)
    drawn: list[Action] = []
    for _ in range(SAMPLES):
        action = random_action(state, rng)
        if action is None:
            return None
        if action not in drawn:
            drawn.append(action)
    if len(drawn) == 1:
        return drawn[0]
    best, best_value = drawn[0], float("-inf")
    for action in drawn:
        value = advantage(apply(state, action).state, seat)
        work.spent += 1 + RECKONING
        if value > best_value:
            best, best_value = action, value
    return best


def rollout(state: GameState, seat: int, rng: Generator, work: Work) -> GameState:
    """Play on, every seat by `quick_move`, until `seat` has played its next turn (or the game
    is over, or LONGEST_ROLLOUT actions)."""
    started = False  # whether the seat's next turn has begun
    for _ in range(LONGEST_ROLLOUT):
        if state.phase == "over":
            break
        mine = state.turn.player == seat
        if started and not mine:
            break
        started = started or mine
        action = quick_move(state, rng, work)
        if action is None:
            break
        state = apply(state, action).state
        work.spent += 1
    return state


def suggest(seen: GameState, seat: int, options: list[Action | None], rng: Generator,
            budget_ms: int) -> Suggestion:
    name = seen.players[seat].name
    first = basic.values(seen, seat, options)
    order = basic.ranked(options, first)
    work = Work()
    work.spent += len(basic.weighed(options)) * (1 + RECKONING)
    chosen = [i for i in order[:CANDIDATES] if first[i] > float("-inf")]
    totals = [0.0] * len(chosen)
    worlds = 0
    budget = budget_ms * WORK_PER_MS
    if len(chosen) > 1:
        while work.spent < budget:
            world = sampled(seen, seat, rng)
            luck = rng.next64()
            for k, i in enumerate(chosen):
                after = basic.after(world, options[i])
                work.spent += 1
                end = rollout(after, seat, Generator(luck), work)
                totals[k] += advantage(end, seat)
                work.spent += RECKONING
            worlds += 1
    means = [t / worlds for t in totals] if worlds else [first[i] for i in chosen]
    ranking = sorted(range(len(chosen)), key=lambda k: (-means[k], k))
    considered = tuple(Considered(action=options[chosen[k]], value=round(means[k], 3), simulations=worlds)
                       for k in ranking[:MOST_CONSIDERED])
    return Suggestion(player=name, level="strong", action=options[chosen[ranking[0]]],
                      legal=len(options), considered=considered, simulated=work.spent)
