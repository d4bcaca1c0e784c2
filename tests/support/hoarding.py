"""A hoarding player (issue 22): complete games where one seat piles things up, every state and
every scoring position checked as a client would send it.

One seat (the hoarder) plays to make one hoard as big as it can (its `focus`: the animals on one
tile, the hand, the reserve, the coins, the thieves kept, the longest wall, chests, servants,
extensions, inhabitants) and the others a little bigger too; the other seats play at random
(`random_action`). The hoarder looks one action ahead: among its candidate actions (the legal
ones of every rule, capped, plus a few built to hoard: the largest take, a purchase paid with
every card of its currency, a walk gathering the animals on one garden) it takes the one whose
next state holds the biggest hoard. Everything is deterministic from the seed.

Checked, and collected as `Failure`s (the game goes on after one):
- every state handed out decodes back to itself under the contract, as the HTTP layer decodes a
  body's `state` (`reading.decode`: a 400 otherwise), and passes `check_consistency`;
- at every scoring round, the position the engine scored (captured as it is scored) is accepted
  by /v1/score (`handlers.score`, after the contract's decode) and scores what the engine
  scored; so does the same position with every player given by the tally counted from their
  tiles, and with the hoarder alone given so (the others' tiles count in the table's totals);
  and from round 2 on, the score sheet of the rounds before (`previous`).

The test (tests/engine/test_hoarding.py) runs a few games; bench/hoarding.py runs many and
prints the largest hoards reached, which the contract's bounds must hold.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import combinations, islice
from pathlib import Path

import msgspec
from msgspec.structs import replace

import service.engine.base.turn as turn_module
from service.api.bodies import Position as PositionBody
from service.api.bodies import ScoreQuery, ViewQuery
from service.api.handlers import score as score_request
from service.api.reading import decode
from service.api.refusals import RequestError
from service.engine import (
    Action,
    GameState,
    Generator,
    apply,
    check_consistency,
    iter_legal_actions,
    new_game,
    random_action,
    validate,
)
from service.engine.actions import BuyBuilding, TakeMoney
from service.engine.catalogue import CATALOGUE
from service.engine.flow import acting_seat, out_of_turn_players
from service.engine.grid import layout_of, longest_wall
from service.engine.module import action_rules, modules_of_ids, pending_decision, plan_of, registered
from service.engine.modules.zoo.actions import _STEP, MoveAnimals
from service.engine.modules.zoo.data import is_garden
from service.engine.modules.zoo.model import AnimalStep
from service.engine.scoring import Breakdown, Position, tally_of

NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eli", "Fay")
MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
CONFIGS: tuple[tuple[str, ...], ...] = (*((m,) for m in MODULES), MODULES)
MAX_ACTIONS = 6000
CAP = 30  # candidates taken from each rule (a big hand has thousands of payments)
SAMPLES = 3  # random legal actions added to the candidates

ENCODE = msgspec.json.Encoder().encode

# --- what a seat hoards ------------------------------------------------------------------------


def _tiles(state: GameState, seat: int) -> tuple:
    p = state.players[seat]
    return (*p.alhambra, *p.reserve, *p.held)


def _coins(state: GameState, seat: int) -> int:
    change = state.change
    return len(change.coins[seat]) if change is not None and seat < len(change.coins) else 0


def _thieves(state: GameState, seat: int) -> int:
    thieves = state.thieves
    return len(thieves.hands[seat]) if thieves is not None and seat < len(thieves.hands) else 0


# Each kind of hoard: how big a seat's is in a state. `reserve` counts the held buildings too
# (a purchase is the way to a bigger reserve); the figures reported count the reserve alone.
MEASURES: dict[str, Callable[[GameState, int], int]] = {
    "animals": lambda s, i: max((len(t.animals) for t in _tiles(s, i)), default=0),
    "animals held": lambda s, i: sum(len(t.animals) for t in _tiles(s, i)),
    "animals placed": lambda s, i: sum(len(t.animals) for t in s.players[i].alhambra),
    "hand": lambda s, i: len(s.players[i].hand),
    "reserve": lambda s, i: len(s.players[i].reserve) + len(s.players[i].held),
    "coins": _coins,
    "thieves": _thieves,
    "wall": lambda s, i: longest_wall(layout_of(s.players[i].alhambra)),
    "chests": lambda s, i: sum(t.chest for t in _tiles(s, i)),
    "servants": lambda s, i: sum(t.servant for t in _tiles(s, i)),
    "extensions": lambda s, i: sum(t.extension for t in _tiles(s, i)),
    "inhabitants": lambda s, i: sum(t.inhabitant for t in _tiles(s, i)),
    "alhambra tiles": lambda s, i: len(s.players[i].alhambra),
    "vendor visit": lambda s, i: s.vendors is not None and s.vendors.discs[i].visiting,
}
# What the bench reports, per seat: the hoards (the reserve alone), the walls added.
FIGURES: dict[str, Callable[[GameState, int], int]] = {
    **{kind: fn for kind, fn in MEASURES.items() if kind != "vendor visit"},
    "reserve": lambda s, i: len(s.players[i].reserve),
    "added walls": lambda s, i: sum(len(t.added_walls) for t in _tiles(s, i)),
}
# What the bench reports of the last state: what a seat kept to the end.
FINAL_FIGURES: dict[str, Callable[[GameState, int], int]] = {"thieves kept to the end": _thieves}
# The hoards a module makes possible (the base game's: hand, reserve, wall).
KINDS_OF = {"zoo": "animals", "change": "coins", "thieves": "thieves", "walls": "wall",
            "treasure": "chests", "staff": "servants", "extensions": "extensions",
            "vendors": "inhabitants"}
BASE_KINDS = ("hand", "reserve", "wall")


def label(modules: tuple[str, ...]) -> str:
    return "all eleven" if modules == MODULES else "+".join(modules) or "base"


def focuses(modules: tuple[str, ...]) -> tuple[str, ...]:
    """The hoards worth aiming at with these modules on, the modules' own first."""
    own = [KINDS_OF[m] for m in modules if m in KINDS_OF]
    return tuple(dict.fromkeys((*own, *BASE_KINDS)))


# What leads to a focus, weighted above the other hoards: animals are gathered on the tiles of
# the Alhambra, an inhabitant settles when a building is placed on the vendor disc's space,
# chests, servants and extensions go on buildings.
HELPERS: dict[str, dict[str, int]] = {
    "animals": {"animals held": 30, "animals placed": 30, "hand": 5},  # money buys the gardens
    "inhabitants": {"vendor visit": 30, "alhambra tiles": 30},
    "chests": {"alhambra tiles": 30}, "servants": {"alhambra tiles": 30},
    "extensions": {"alhambra tiles": 30},
}


def hoard_value(state: GameState, seat: int, focus: str) -> int:
    """The hoarder's aim: its focus first, then what leads to it, and a little of every other
    hoard beside but the hand (a hand kept besides would take every card and stop the game)."""
    helpers = HELPERS.get(focus, {})
    return sum(fn(state, seat) * (1000 if kind == focus else helpers.get(kind, kind != "hand"))
               for kind, fn in MEASURES.items())


# --- the hoarder's candidates ---------------------------------------------------------------


def _acting_rules(state: GameState, seat: int) -> list:
    pending = pending_decision(state)
    rules = action_rules(state).values()
    if pending is not None:
        return [r for r in rules if r.action in pending.actions] if pending.seat == seat else []
    if seat != state.turn.player:
        return [r for r in rules if r.kind == "out-of-turn" and state.phase in r.phases]
    return [r for r in rules if state.phase in r.phases and r.kind != "decision"]


def _buys(state: GameState, seat: int) -> Iterator[Action]:
    """Purchases built to hoard: every card of the currency (the most change), and the fewest
    cards from the highest (the biggest hand left)."""
    player = state.players[seat]
    for space in state.market:
        if space.tile is None:
            continue
        cards = sorted((c for c in player.hand if CATALOGUE.money[c].currency == space.currency),
                       key=lambda c: -CATALOGUE.money[c].value)
        price = CATALOGUE.tiles[space.tile].price
        fewest: list[str] = []
        for card in cards:
            if sum(CATALOGUE.money[c].value for c in fewest) >= price:
                break
            fewest.append(card)
        for payment in (tuple(cards), tuple(fewest)):
            yield BuyBuilding(player=player.name, tile=space.tile, payment=payment)


def _takes(state: GameState, seat: int) -> Iterator[Action]:
    """Every take of the display's cards (the rule's own listing; a hand grows most here)."""
    name = state.players[seat].name
    for size in range(len(state.display), 0, -1):
        for cards in combinations(state.display, size):
            yield TakeMoney(player=name, cards=cards)


def _gathering(state: GameState, seat: int) -> Iterator[Action]:
    """zoo.move: with each card value, a walk taking the animals one step at a time towards the
    tile holding the most (a garden first), by the shortest way through open sides."""
    player = state.players[seat]
    if state.zoo is None or not player.hand or not any(t.animals for t in player.alhambra):
        return
    layout = layout_of(player.alhambra)
    where = {(t.x, t.y): list(t.animals) for t in player.alhambra}
    target = max(where, key=lambda pos: (len(where[pos]), _garden_at(player.alhambra, pos)))
    distance = _distances(layout, target)
    cards = {CATALOGUE.money[c].value: c for c in sorted(player.hand)}
    for value, card in sorted(cards.items()):
        herd = {pos: list(kinds) for pos, kinds in where.items()}
        steps: list[AnimalStep] = []
        for _ in range(value):
            step = _step_closer(layout, herd, distance)
            if step is None:
                break
            steps.append(step)
        yield MoveAnimals(player=player.name, card=card, steps=tuple(steps))


def _garden_at(alhambra: tuple, pos: tuple[int, int]) -> bool:
    return any((t.x, t.y) == pos and (t.construction == "garden" or is_garden(t.tile)) for t in alhambra)


def _open(layout: dict, pos: tuple[int, int], side: str) -> tuple[int, int] | None:
    dx, dy, bit, facing = _STEP[side]
    nxt = (pos[0] + dx, pos[1] + dy)
    if nxt in layout and not layout[pos] & bit and not layout[nxt] & facing:
        return nxt
    return None


def _distances(layout: dict, target: tuple[int, int]) -> dict[tuple[int, int], int]:
    out = {target: 0}
    frontier = [target]
    while frontier:
        nxt_frontier = []
        for pos in frontier:
            for side in "NESW":
                nxt = _open(layout, pos, side)
                if nxt is not None and nxt not in out:
                    out[nxt] = out[pos] + 1
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    return out


def _step_closer(layout: dict, herd: dict, distance: dict) -> AnimalStep | None:
    """The step of the animal nearest the target (not on it) one side closer; `herd` moves."""
    movable = sorted((distance[pos], pos) for pos, kinds in herd.items()
                     if kinds and distance.get(pos, 0) > 0)
    for d, pos in movable:
        for side in "NESW":
            nxt = _open(layout, pos, side)
            if nxt is not None and distance.get(nxt) == d - 1:
                kind = herd[pos].pop()
                herd[nxt].append(kind)
                return AnimalStep(kind=kind, x=pos[0], y=pos[1], side=side)  # type: ignore[arg-type]
    return None


def candidates(state: GameState, seat: int, rng: Generator) -> list[Action]:
    """The hoarder's legal candidates now: each rule's first CAP (purchases built instead of
    listed), the built ones, and a few random legal actions; without duplicates."""
    name = state.players[seat].name
    found: list[Action] = []
    for rule in _acting_rules(state, seat):
        if rule.action is BuyBuilding:
            found += _buys(state, seat)
            continue
        found += islice((a for a in rule.candidates(state, seat) if a.player == name), CAP)
        for listing, _ in plan_of(state).variants.get(rule.action, ()):
            found += islice((a for a in listing(state, seat) if a.player == name), CAP)
    if seat == acting_seat(state):
        found += _takes(state, seat)
        found += _gathering(state, seat)
        found += (a for a in (random_action(state, rng) for _ in range(SAMPLES)) if a is not None)
    out: dict[bytes, Action] = {}
    for action in found:
        key = ENCODE(action)
        if key not in out and action.player == name and not validate(state, action):
            out[key] = action
    return list(out.values())


def best(state: GameState, seat: int, focus: str, rng: Generator) -> tuple[Action | None, int]:
    """The candidate whose next state holds the biggest hoard (ties: at random), and its value."""
    scored = []
    for action in candidates(state, seat, rng):
        scored.append((hoard_value(apply(state, action).state, seat, focus), action))
    if not scored:
        return None, -1
    top = max(v for v, _ in scored)
    return rng.choice([a for v, a in scored if v == top]), top


# --- the checks -----------------------------------------------------------------------------


@dataclass
class Failure:
    """A check that failed: where (the game and the step) and the referee's message."""

    modules: tuple[str, ...]
    players: int
    seed: int
    focus: str
    step: int
    check: str
    message: str
    body: bytes = b""  # the request refused (reproduce() keeps it)

    @property
    def key(self) -> tuple:
        """The same failure in another game: the check and the message without numbers."""
        words = "".join("#" if ch.isdigit() else ch for ch in self.message)
        return self.modules, self.check, words[:120]

    def script(self) -> str:
        """A reproducer: the state (or position) of the failing step, and the check."""
        return (f"# {self.check}: {self.message}\n"
                f"from tests.support.hoarding import reproduce\n"
                f"reproduce({self.modules!r}, players={self.players}, seed={self.seed}, "
                f"focus={self.focus!r}, step={self.step}, check={self.check!r})\n")


@dataclass
class Record:
    """What a run of games found: failures, states checked, the largest hoards reached."""

    games: int = 0
    actions: int = 0
    states: int = 0
    positions: int = 0
    failures: list[Failure] = field(default_factory=list)
    largest: dict[str, tuple[int, str]] = field(default_factory=dict)
    keep_bodies: bool = False

    def note(self, state: GameState, where: str) -> None:
        figures = {**FIGURES, **FINAL_FIGURES} if state.phase == "over" else FIGURES
        for seat in range(len(state.players)):
            for kind, fn in figures.items():
                value = fn(state, seat)
                if value > self.largest.get(kind, (-1, ""))[0]:
                    self.largest[kind] = (value, where)

    def merge(self, other: Record) -> None:
        self.games += other.games
        self.actions += other.actions
        self.states += other.states
        self.positions += other.positions
        self.failures += other.failures
        for kind, (value, where) in other.largest.items():
            if value > self.largest.get(kind, (-1, ""))[0]:
                self.largest[kind] = (value, where)


def state_problem(state: GameState) -> tuple[str, str] | None:
    """(check, message) when the state does not decode back to itself under the contract, as
    a request body's `state`, or fails the consistency check."""
    body = b'{"state":' + ENCODE(state) + b"}"
    try:
        decoded = decode(ViewQuery, body).state
    except RequestError as e:
        return "contract", f"{e.status} {e.error}: {e.message}"
    if decoded != state:
        return "contract", "the state decodes to another state"
    problems = check_consistency(state)
    if problems:
        return "consistency", "; ".join(f"{v.rule}: {v.message}" for v in problems)
    return None


def score_body(position: Position, previous: tuple[Breakdown, ...] = ()) -> bytes:
    """The /v1/score body of a position; with `previous`, a score sheet (points from it)."""
    body = msgspec.structs.asdict(position)
    if previous:
        body = {**body, "previous": previous,
                "players": [replace(p, score=0) for p in position.players]}
    return ENCODE(body)


def _score(body: bytes) -> Breakdown | str:
    """What /v1/score answers for the body: the breakdown, or the refusal."""
    try:
        query = decode(ScoreQuery, body)
        assert isinstance(query, PositionBody)
        return score_request(query)  # type: ignore[return-value]
    except RequestError as e:
        return f"{e.status} {e.error}: {e.message}"


def tallied(position: Position, which: range | list[int]) -> Position:
    """The position with the players at `which` given by the tally counted from their tiles."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    players = tuple(replace(p, alhambra=(), reserve=(), tiles=(), tally=tally_of(p, modules))
                    if i in which else p for i, p in enumerate(position.players))
    return replace(position, players=players)


def position_problems(position: Position, scored: Breakdown, hoarder: int,
                      earlier: tuple[Breakdown, ...]) -> list[tuple[str, str, bytes]]:
    """(check, message, body) for each way of sending the scored position that /v1/score refuses or
    scores otherwise than the engine did."""
    sent = replace(position, check_layout=True)
    forms = {"position": sent, "tally": tallied(sent, range(len(sent.players))),
             "hoarder's tally": tallied(sent, [hoarder])}
    out = []
    for name, form in forms.items():
        sheets = [("", ())]
        if [b.round for b in earlier] == list(range(1, position.round)) and earlier:
            sheets.append((" as a score sheet", earlier))
        for sheet, previous in sheets:
            body = score_body(form, previous)
            answer = _score(body)
            if isinstance(answer, str):
                out.append((name + sheet, answer, body))
            elif ENCODE(answer) != ENCODE(scored):
                out.append((name + sheet, f"scores {ENCODE(answer).decode()} but the engine "
                                          f"scored {ENCODE(scored).decode()}", body))
    return out


@contextmanager
def scored_positions() -> Iterator[list[tuple[Position, Breakdown]]]:
    """Every position the engine scores while the block runs, with its breakdown: the scoring
    round sees the state inside `apply` (before Dirk's refill and the steps after it), which no
    state handed out shows."""
    seen: list[tuple[Position, Breakdown]] = []
    original = turn_module.score_position

    def recording(position: Position) -> Breakdown:
        breakdown = original(position)
        seen.append((position, breakdown))
        return breakdown

    turn_module.score_position = recording  # type: ignore[assignment]
    try:
        yield seen
    finally:
        turn_module.score_position = original  # type: ignore[assignment]


# --- a game ---------------------------------------------------------------------------------


@dataclass
class Game:
    modules: tuple[str, ...]
    players: int
    seed: int
    focus: str
    hoarder: int = 0
    actions: list[Action] = field(default_factory=list)


def setup(modules: tuple[str, ...], players: int, seed: int, focus: str) -> tuple[Game, GameState]:
    game = Game(modules, players, seed, focus, hoarder=seed % players)
    return game, new_game(NAMES[:players], modules, seed=seed).state


def next_action(game: Game, state: GameState, rng: Generator) -> Action | None:
    """The hoarder's choice when it is to act (at random while the display is empty), or when
    acting out of turn hoards more; else a random action of another seat."""
    seat = game.hoarder
    if acting_seat(state) == seat:
        if not state.display:  # it holds every card left: a game where nobody can buy never ends
            return random_action(state, rng)
        return best(state, seat, game.focus, rng)[0]
    if any(s == seat for s, _ in out_of_turn_players(state)):
        action, value = best(state, seat, game.focus, rng)
        if action is not None and value > hoard_value(state, seat, game.focus):
            return action
    hoarder = state.players[seat].name
    for _ in range(8):
        action = random_action(state, rng)
        if action is None or action.player != hoarder:
            return action
    return next((a for a in iter_legal_actions(state) if a.player != hoarder), None)


def play(modules: tuple[str, ...], players: int, seed: int, focus: str, record: Record,
         stop: int | None = None) -> GameState:
    """One complete game, every check made and collected in `record`; with `stop`, the state
    after that many actions (for a reproducer)."""
    game, state = setup(modules, players, seed, focus)
    rng = Generator(seed ^ 0x40A2D)
    where = f"{label(modules)} players={players} seed={seed} focus={focus}"
    earlier: tuple[Breakdown, ...] = ()
    fail = _failing(game, record)
    with scored_positions() as scored:
        for step in range(MAX_ACTIONS + 1):
            problem = state_problem(state)
            record.states += 1
            record.note(state, f"{where} step={step}")
            if problem is not None:
                fail(step, *problem, state_body(state))
            if step == stop:
                return state
            if state.phase == "over":
                record.games += 1
                return state
            try:
                action = next_action(game, state, rng)
                if action is None:
                    fail(step, "stuck", "no legal action")
                    return state
                scored.clear()  # the hoarder's look ahead scored rounds too: not this game's
                state = apply(state, action).state
            except Exception as e:  # an engine failure is reported, the run goes on
                fail(step, "engine", f"{type(e).__name__}: {e} {traceback.format_exc(limit=-2)}")
                return state
            game.actions.append(action)
            record.actions += 1
            while scored:
                position, breakdown = scored.pop(0)
                record.positions += 1
                for check, message, body in position_problems(position, breakdown, game.hoarder, earlier):
                    fail(step + 1, f"round {breakdown.round} {check}", message, body)
                earlier = (*earlier, breakdown)
    fail(MAX_ACTIONS, "stuck", f"the game did not end in {MAX_ACTIONS} actions")
    return state


def _failing(game: Game, record: Record) -> Callable[..., None]:
    def fail(step: int, check: str, message: str, body: bytes = b"") -> None:
        record.failures.append(Failure(game.modules, game.players, game.seed, game.focus, step,
                                       check, message, body if record.keep_bodies else b""))
    return fail


def state_body(state: GameState) -> bytes:
    """A /v1/validate body with the state (refused before its action is looked at)."""
    return ENCODE({"state": state, "action": {"type": "end-turn", "player": state.players[0].name}})


def reproduce(modules: tuple[str, ...], players: int, seed: int, focus: str, step: int,
              check: str) -> None:
    """Replay a failing game to the failing step, write the request the referee refuses (or
    scores otherwise) to a file and print how to send it: `referee validate FILE` for a state,
    `referee score --json FILE` for a position (the CLI answers as the HTTP referee does)."""
    record = Record(keep_bodies=True)
    play(modules, players, seed, focus, record, stop=step)
    for failure in record.failures:
        if failure.step == step and failure.check == check:
            path = Path(f"hoard-{seed}-{step}-{check.replace(' ', '-').replace(chr(39), '')}.json")
            path.write_bytes(failure.body)
            command = "validate" if check in ("contract", "consistency") else "score --json"
            print(f"{failure.check}: {failure.message}\nreferee {command} {path}")
            return
    print("no such failure: fixed?")
