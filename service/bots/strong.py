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

from itertools import islice

from service.engine import GameState, Generator, advance, iter_legal_actions
from service.engine.actions import Action
from service.engine.flow import acting_seat
from service.engine.sight import sampled

from . import basic
from .evaluate import advantage
from .model import MOST_CONSIDERED, MOST_OPTIONS, Considered, Suggestion

# Work per millisecond of budget: bench/bots.py --calibrate measured some 25 units a CPU
# millisecond on the 2-core VM (2026-12-07, the machine shared), so 200 ms buys some 4,800.
WORK_PER_MS = 24
RECKONING = 3  # a reckoning of a position costs about three actions applied
CANDIDATES = 3  # the options searched: the best ones by the basic level's reckoning ...
MOST_CANDIDATES = 5  # ... and the best of each other kind of action, up to this many
SAMPLES = 6  # the options another seat's quick policy weighs in a simulated world, at most
LISTING = 4  # listing a seat's legal actions costs about four actions applied
LONGEST_ROLLOUT = 60  # actions simulated past an option at most


class Work:
    """The work spent so far, in units."""

    __slots__ = ("spent",)

    def __init__(self) -> None:
        self.spent = 0


def quick_move(state: GameState, rng: Generator, work: Work) -> Action | None:
    """Another seat's move in a simulated world: the basic level's choice among at most SAMPLES
    of its options (those worth weighing, drawn at random when there are more), so the others
    buy what is good for them as basic players do, at a fraction of the cost."""
    seat = acting_seat(state)
    listed: list[Action | None] = list(islice(iter_legal_actions(state), MOST_OPTIONS))
    work.spent += LISTING
    if not listed:
        return None
    pool = basic.weighed(listed)
    if len(pool) > SAMPLES:
        pool = sorted(rng.shuffled(pool)[:SAMPLES])
    if len(pool) == 1:
        return listed[pool[0]]
    best, best_value = None, float("-inf")
    for i in pool:
        value = advantage(advance(state, listed[i]).state, seat)  # type: ignore[arg-type]
        work.spent += 1 + RECKONING
        if value > best_value:
            best, best_value = listed[i], value
    return best


def own_move(state: GameState, seat: int, work: Work) -> Action | None:
    """The seat's own move in a simulated world: the basic level's, over all its options (what
    it can make of the money it takes now is the point of looking ahead)."""
    listed: list[Action | None] = list(islice(iter_legal_actions(state, state.players[seat].name),
                                              MOST_OPTIONS))
    if not listed:
        return None
    vals = basic.values(state, seat, listed)
    work.spent += LISTING + _weighed(vals) * (1 + RECKONING)
    return listed[basic.ranked(listed, vals)[0]]


def rollout(state: GameState, seat: int, rng: Generator, work: Work) -> GameState:
    """Play on until `seat` has played its next turn (or the game is over, or LONGEST_ROLLOUT
    actions): the seat by the basic level, the others by `quick_move`. Every option is followed
    to the same point (the end of the seat's next turn), whether it ended the seat's turn or
    left it an action (an exact payment's)."""
    others_played = state.turn.player != seat  # the others' turns between this one and the next
    for _ in range(LONGEST_ROLLOUT):
        if state.phase == "over":
            break
        mine = state.turn.player == seat
        if not mine:
            if others_played is None:
                break  # the seat's next turn is over
            others_played = True
        elif others_played:
            others_played = None  # the seat's next turn has begun
        actor = acting_seat(state)
        action = own_move(state, seat, work) if actor == seat else quick_move(state, rng, work)
        if action is None:
            break
        state = advance(state, action).state  # listed as legal here: not validated again
        work.spent += 1
    return state


def _weighed(values: list[float]) -> int:
    """How many options the basic level reckoned (the others it left at -inf)."""
    return sum(v > float("-inf") for v in values)


def cost_factor(state: GameState) -> float:
    """How much dearer each unit of work is with the state's modules on than in the base game,
    where WORK_PER_MS was measured: every module adds hooks to each action and lines to each
    reckoning (all eleven: some 4.7 times; a strong move of 6 players with every module took
    1.3 s of CPU at 200 ms before this, issue 28's review). The base game's is 1."""
    return 1 + len(state.modules) / 3


def candidates(options: list[Action | None], first: list[float], order: list[int]) -> list[int]:
    """The options searched: the best CANDIDATES by the basic level's reckoning, and the best
    of each other kind of action (a money card that reckons low now may buy most next turn),
    at most MOST_CANDIDATES."""
    weighed = [i for i in order if first[i] > float("-inf")]
    chosen = weighed[:CANDIDATES]
    kinds = {_kind(options[i]) for i in chosen}
    for i in weighed[CANDIDATES:]:
        if len(chosen) == MOST_CANDIDATES:
            break
        if _kind(options[i]) not in kinds:
            chosen.append(i)
            kinds.add(_kind(options[i]))
    return chosen


def _kind(action: Action | None) -> str:
    return "wait" if action is None else action.type


def suggest(seen: GameState, seat: int, options: list[Action | None], rng: Generator,
            budget_ms: int) -> Suggestion:
    name = seen.players[seat].name
    first = basic.values(seen, seat, options)
    order = basic.ranked(options, first)
    work = Work()
    work.spent += _weighed(first) * (1 + RECKONING)
    chosen = candidates(options, first, order)
    totals = [0.0] * len(chosen)
    worlds = 0
    budget = budget_ms * WORK_PER_MS / cost_factor(seen)
    if len(chosen) > 1:
        while worlds == 0 or work.spent < budget:  # one world at least, whatever the budget
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
