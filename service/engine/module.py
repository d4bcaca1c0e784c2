"""The module mechanism: how a part of the game plugs into the engine.

The base game, Dirk and every expansion are `Module`s with the same small set of hooks: their
actions (each with its check, apply, candidates and sampler), checks on other modules' actions,
setup steps, end-of-turn steps in the order of RULES.md §H, what follows a scoring round,
scoring categories, the components they own (for the consistency check) and what a player may
see of their state (for the views). The engine runs
the hooks of the modules a state has on, in registry order, and never asks which module is on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

import msgspec

from .actions import Action
from .events import Event
from .places import Place
from .rng import Generator
from .state import GameState
from .violations import Violation

if TYPE_CHECKING:
    from .scoring import Breakdown, Line, Position, PositionPlayer
    from .scoring.tally import Tally


class Context:
    """What one call of `apply` (or setup) accumulates: the generator, events and scorings."""

    __slots__ = ("events", "rng", "scoring")

    def __init__(self, rng: Generator) -> None:
        self.rng = rng
        self.events: list[Event] = []
        self.scoring: list[Breakdown] = []


CheckFn = Callable[[GameState, Any], list[Violation]]
ApplyFn = Callable[[GameState, Any, Context], GameState]
CandidatesFn = Callable[[GameState, int], Iterator[Action]]
SampleFn = Callable[[GameState, int, Generator], Action | None]
StepFn = Callable[[GameState, Context], GameState]
RoundFn = Callable[[GameState, int, Context], GameState]
ScoreFn = Callable[["Position", int], dict[str, list["Line"]]]
ComponentsFn = Callable[[GameState], Iterable[tuple[str, str]]]


PlacesFn = Callable[[GameState], Iterable[Place]]
ConsistencyFn = Callable[[GameState], list[Violation]]

# When an action may be taken: as the turn's action (uses `turn.actions`); while placing held
# buildings at the end of a turn or of the game; as the answer to a pending decision; or "free":
# by the active player, in play, at any moment of their turn (before, between or after its
# actions, also while held buildings are placed), without using up an action (a craftsman's
# ability, craftsmen.use-one); or "out-of-turn": by any player its own check allows, in its phases,
# without using up an action (a theft in the thieves' window).
ActionKind = Literal["action", "placement", "decision", "free", "out-of-turn"]


class Pending(NamedTuple):
    """A decision the game waits for: who, under which rule, and the actions that answer it.

    While one is pending nothing else may be done; a decision taken during the end of a turn
    resumes the end-of-turn steps where they stopped (`Turn.ending`).

    `what` says what is awaited and is told to every seat (RULES.md §8: it names nothing hidden,
    e.g. how many cards were drawn, not which); `own_what`, when given, says it to the seat the
    decision waits for and may name what only that seat sees (the cards it drew).

    `step` is the end-of-turn position (RULES.md §H) the decision belongs to, 0 for one that is
    part of an action (staff.move right after a take): when two wait, the earlier is asked first.
    """

    seat: int
    rule: str
    what: str
    actions: tuple[type[Action], ...]
    own_what: str | None = None
    step: int = 0

    def told_to(self, seat: int) -> str:
        """What is awaited, as `seat` may be told it."""
        return self.own_what if seat == self.seat and self.own_what is not None else self.what


class ViewPart(NamedTuple):
    """What a viewer may see of a module's state (RULES.md §8): the type of that public part (a
    Record: the view has an optional field of that type named after the module) and the function
    giving it for the viewer's seat (None: a spectator, who sees only what is public).

    Hidden information (deck, bag and pile contents and order, face-down things, secret choices)
    is left out or replaced by counts; the viewer's own secrets show in the viewer's view only.
    """

    type: type[Any]
    seen: Callable[[GameState, int | None], Any]


class Unseen(NamedTuple):
    """One place holding what some seat may not see (RULES.md §8), for dealing it anew
    (`sight.py`: what a bot may know of a state is the state with every such place dealt again).

    `pool`: the components it is dealt from together with every other place of the same pool
    ("money": the money cards of the deck and of others' hands; "tiles"; a module's own, such
    as "zoo.animals"). `items`: what lies there now that may be dealt (only that: the deck's
    scoring cards are not money), in order. `put(state, items, dealer)`: the state with
    `items` replaced by as many others of the pool (`dealer` arranges what else the place hides,
    such as where the deck's scoring cards lie). A place with no pool ("") deals nothing: its
    `put` redoes what it hides with the dealer alone (a secret choice: vendors.setup; the
    generator's state).
    """

    pool: str
    items: tuple[Any, ...]
    put: Callable[[GameState, tuple[Any, ...], Any], GameState]


class TallyPart(NamedTuple):
    """What a module adds to a tally, the counted form of a scoring position's player
    (`tally.Tally`; RULES.md scoring, issue 15). Every hook is optional.

    `type`: the Record of its counts; the tally has a field named after the module of this type
    (declared in `tally.py`, as the game state declares the module's state), null while off.
    `of_tiles(player)`: its part of the tally of a player given by tiles (a layout, or Dirk's
    tiles), None when the player has nothing of it (Dirk, for most modules). Scoring the counted
    tally gives the breakdown scoring the layout gives (a property test holds every module to it).
    `score(position, round, tallies)`: its breakdown lines from every player's tally (a player
    given by tiles is counted first), {name: [Line]} like `Module.scoring`.
    `bonus(part)`: buildings of each type its part adds for the majorities (extensions);
    `most_bonus`: the most it adds to the counts of each type on the whole table.
    `held(player)`: its part counted from every component a player given by tiles holds
    anywhere (the Alhambra, the reserve; Dirk: his tiles), for the table's totals; None: as
    `of_tiles` (the module's components lie only where that counts them).
    `check(position, tallies)`: its refusals of counts that cannot occur; `tallies` holds every
    player's (for those given by tiles all they hold: `held`, the buildings of the reserve too:
    `tally_checks.held_tallies`), so the table's totals can be checked too.
    `check_of_lines(position, tallies)`: those of its refusals that hold for tallies read back
    from an earlier round's lines (`of_lines`, a score sheet): only what cannot refuse a real
    sheet, whose lines carry no colours and whose majority counts may exceed the buildings by
    what modules add (`bonus`; `tally_checks.exact_buildings`). None: none of them hold.
    `of_lines(player, lines)`: its part of the tally a player's lines of an earlier round were
    scored from (a score sheet's `previous`, sheet.py), read from the counts its line carries;
    `lines` are all of that player's lines of the round. None when the player has nothing of it
    (as `of_tiles`). Scoring the parts read gives every real line back, so the sheet refuses a
    line that does not come back: every module whose `lines` score from counts reads them here.
    The last four widen what the base game's counts may reach: `more_buildings` of each type
    beyond the catalogue's tiles (grounds' buildings under construction), `more_tiles(round,
    modules)`: tiles an Alhambra can hold in that scoring round, with those modules on, that
    count for no type (grounds' bare sites), `fountain_walls` (walls' added walls),
    `more_leftovers`: tiles a market tile can take along when it is handed out at the game's
    end (power's hidden tile under it). `leftovers`: the field of its part that counts leftover
    tiles (staff's `leftover`): the base game's bounds on leftover tiles (base.end.leftovers)
    count it as they count the tiles marked leftover of a player given by tiles.
    """

    type: type[Any] | None = None
    of_tiles: Callable[[PositionPlayer], Any] | None = None
    score: Callable[[Position, int, Sequence[Tally]], dict[str, list[Line]]] | None = None
    bonus: Callable[[Any], Mapping[str, int]] | None = None
    most_bonus: Mapping[str, int] = MappingProxyType({})
    held: Callable[[PositionPlayer], Any] | None = None
    check: Callable[[Position, Sequence[Tally]], list[Violation]] | None = None
    check_of_lines: Callable[[Position, Sequence[Tally]], list[Violation]] | None = None
    of_lines: Callable[[PositionPlayer, Sequence[Line]], Any] | None = None
    more_buildings: Mapping[str, int] = MappingProxyType({})
    more_tiles: Callable[[int, Sequence[Module]], int] | None = None
    fountain_walls: int = 0
    more_leftovers: int = 0
    leftovers: str | None = None


@dataclass(frozen=True)
class ActionRule:
    action: type[Action]
    rule: str  # the rule id that introduces the action, cited when it is not available
    kind: ActionKind
    check: CheckFn
    apply: ApplyFn
    candidates: CandidatesFn
    sample: SampleFn | None = None
    phases: tuple[str, ...] = ("play",)
    # True when `candidates` yields only actions that `check` accepts (the property tests
    # hold every rule to it); listing then skips re-checking each one.
    exact_candidates: bool = True
    # True when `sample` proposes only actions that `check` accepts whenever the action's
    # moment has come (the timing of `validate` passes) in a consistent state: random_action then
    # skips re-checking them (the checks other modules add still run). tests/engine/
    # test_samplers.py holds every such rule to it.
    exact_sample: bool = False
    # What taking the action does, in words, for "who must act" (`flow.to_act`): shown to every
    # player for an out-of-turn action (e.g. "steal a money card from the display").
    what: str = ""


def hook() -> Any:
    """A field of `Module` that is a hook: a function, or None when the module has none. The
    plan of a set of modules gathers each hook of those that give it (`Plan.hooks`)."""
    return field(default=None, metadata={"hook": True})


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one object per module
class Module:
    id: str
    name: str
    rule_ids: tuple[str, ...]
    actions: tuple[ActionRule, ...] = ()
    checks: tuple[tuple[type[Action], CheckFn], ...] = ()
    # (position among all setup steps, step); the base game's are 10 prepare, 50 deal,
    # 52 display and market, 60 money piles.
    setup: tuple[tuple[int, StepFn], ...] = ()
    # (position in the end-of-turn order of RULES.md §H, step); the next player's turn starts
    # at 90, and steps after 90 are the start of that turn (e.g. turning up a craftsman).
    end_of_turn: tuple[tuple[int, StepFn], ...] = ()
    # Runs after every action's own apply (the action's events are in ctx.events).
    after_action: Callable[[GameState, Action, Context], GameState] | None = hook()
    pending: Callable[[GameState], Pending | None] | None = hook()
    # Extra buildings a player counts for majorities (e.g. an extension counts twice).
    count_bonus: Callable[[PositionPlayer], dict[str, int]] | None = hook()
    after_scoring_round: RoundFn | None = hook()
    scoring: ScoreFn | None = hook()
    components: ComponentsFn | None = hook()
    expected: Callable[[GameState], Iterable[str]] | None = hook()
    # The ids of `components` alone, fast (optional: the consistency check counts these first).
    census: Callable[[GameState], Iterable[str]] | None = hook()
    # Components of other modules (or the base game) this module takes out of the game box,
    # e.g. the base tiles that special tiles replace.
    withdrawn: Callable[[GameState], Iterable[str]] | None = hook()
    # The places holding components by bare catalogue ids, each with the ids it may hold.
    places: PlacesFn | None = hook()
    consistency: ConsistencyFn | None = hook()
    events: tuple[type[Event], ...] = ()
    # The tile tokens (fields of Tile / PlacedTile) this module gives meaning to.
    tokens: tuple[str, ...] = ()
    # Of `tokens`, those only a turn of play puts on a tile, each with the rule that puts it
    # there (a servant: staff.servant): a leftover tile, handed out after the last turn, never
    # carries one (base.end.leftovers). Its other tokens may lie on a leftover tile: they lay
    # on it on the market (animals) or its recipient puts them there placing it (a site's building).
    play_tokens: Mapping[str, str] = field(default_factory=dict)
    # Its scoring line types (members of the breakdown's `category` union).
    lines: tuple[type[Line], ...] = ()
    # Checks of a scoring position beyond the base game's (its tokens' counts and kinds).
    check_position: Callable[[Position], list[Violation]] | None = hook()
    # How much this module lowers the price of a purchase (BuyBuilding) that is being checked.
    price_reduction: Callable[[GameState, Any], int] | None = hook()
    # Money cards from outside the hand that count in a purchase's payment (BuyBuilding), e.g.
    # display cards (craftsmen.coiner); the module checks them and moves them itself.
    extra_payment: Callable[[GameState, Any], tuple[str, ...]] | None = hook()
    # The most a take of several cards (TakeMoney) may total; the base game's limit is the least.
    take_limit: Callable[[GameState, Any], int] | None = hook()
    # A module that takes over the §4 check of a placement (PlaceBuilding), e.g. a building that
    # replaces another (craftsmen.brickmaker): its violations, or None to leave it to the base.
    placement_check: Callable[[GameState, Any], list[Violation] | None] | None = hook()
    # The most money cards the display may hold in a consistent state (the base game's 4 is the
    # least); the base refill still tops up only to 4 (craftsmen.blacksmith).
    display_limit: Callable[[GameState], int] | None = hook()
    # Forms of other modules' actions that use this module's fields (e.g. a purchase with a
    # white die): (action type, candidates, sampler). Listed and sampled beside the plain ones,
    # each checked in full.
    variants: tuple[tuple[type[Action], CandidatesFn, SampleFn], ...] = ()
    # At the end of the game, a market space this module hands out itself (instead of
    # base.end.leftovers); returns None when it leaves the space to the base game.
    leftover: Callable[[GameState, Any, Context], GameState | None] | None = hook()
    # Cards this module shuffles into the money piles once the 5 piles are formed (RULES.md §H):
    # (pile number from 1, card) pairs; a pile given a card is shuffled (base/setup.py).
    pile_cards: Callable[[GameState, Context], Iterable[tuple[int, str]]] | None = hook()
    # A card turned up by any draw from the deck (the display's refill, a wisdom power's draw;
    # `base.turn.draw_card`) that this module takes (e.g. a wall card set aside, walls.reveal):
    # the state with the card taken (the draw goes on), or None to leave it to the draw.
    take_drawn: Callable[[GameState, str, Context], GameState | None] | None = hook()
    # Money that is no card in a payment (BuyBuilding, BuyTreasure), e.g. coins (change.spend):
    # (currency, value) pairs the payment counts; the module checks them and moves them.
    payment_values: Callable[[GameState, Any], tuple[tuple[str, int], ...]] | None = hook()
    # Runs in a building purchase's apply when the payment exceeds the (reduced) price, with the
    # excess (change.give).
    overpaid: Callable[[GameState, Any, int, Context], GameState] | None = hook()
    # Money beyond the hand a seat holds in a currency (the leftovers' richest), e.g. coins.
    money_held: Callable[[GameState, int, str], int] | None = hook()
    # What a player (or a spectator) may see of this module's state, for the views.
    view: ViewPart | None = None
    # The places of its state holding what a seat (None: a spectator) may not see, to be dealt
    # anew (`Unseen`, `sight.py`): every hidden part a view leaves out, and nothing else.
    unseen: Callable[[GameState, int | None], Iterable[Unseen]] | None = hook()
    # Its part of a tally (a scoring position's player given by counts instead of tiles).
    tally: TallyPart | None = None
    default_data: dict[str, Any] = field(default_factory=dict)


HOOKS = tuple(f.name for f in fields(Module) if f.metadata.get("hook"))
_REGISTRY: dict[str, Module] = {}


def register(module: Module) -> Module:
    """Add a module to the registry; registration order is the order hooks run in."""
    if module.id in _REGISTRY:
        raise ValueError(f"module {module.id} registered twice")
    if not set(module.play_tokens) <= set(module.tokens):
        raise ValueError(f"module {module.id}: play_tokens {sorted(module.play_tokens)} are not all "
                         f"among its tokens {list(module.tokens)}")
    from .scoring.tally import Tally  # here: the scoring package builds on this module

    part = module.tally.type if module.tally is not None else None
    tally_fields = {f.name: f.type for f in msgspec.structs.fields(Tally)}
    if part is not None and tally_fields.get(module.id) != part | None:
        raise ValueError(f"the tally has no field `{module.id}: {part.__name__} | None` (tally.py)")
    _REGISTRY[module.id] = module
    return module


@contextmanager
def temporarily_registered(module: Module) -> Iterator[Module]:
    """Register a module for the duration of a block (tests of the mechanism itself)."""
    register(module)
    try:
        yield module
    finally:
        del _REGISTRY[module.id]
        modules_of_ids.cache_clear()
        _plan.cache_clear()
        global _LAST_PLAN, _LAST_PENDING
        _LAST_PLAN = None
        _LAST_PENDING = (None, None)


def registered() -> tuple[Module, ...]:
    return tuple(_REGISTRY.values())


def module(module_id: str) -> Module:
    return _REGISTRY[module_id]


ALWAYS_ON = ("base",)


def modules_of(state: GameState) -> tuple[Module, ...]:
    """The modules a state has on: the base game, Dirk with two players, the chosen modules."""
    return plan_of(state).modules


@cache
def modules_of_ids(chosen: tuple[str, ...], with_dirk: bool) -> tuple[Module, ...]:
    wanted = set(chosen) | set(ALWAYS_ON)
    if with_dirk:
        wanted.add("dirk")
    return tuple(m for m in _REGISTRY.values() if m.id in wanted)


Observer = Callable[[GameState, Action, Context], GameState]


@dataclass(frozen=True, eq=False)
class Plan:
    """Everything the engine derives from a set of modules, computed once per set.

    `hooks[name]` holds the hook `name` (a field of `Module` declared with `hook()`) of every
    module of the set that gives it, in registry order: a new hook is one field of `Module`,
    and the plan gathers it with no edit here."""

    modules: tuple[Module, ...]
    rules: dict[type[Action], ActionRule]
    checks: dict[type[Action], tuple[CheckFn, ...]]
    end_of_turn: tuple[tuple[int, StepFn], ...]
    variants: dict[type[Action], tuple[tuple[CandidatesFn, SampleFn], ...]]
    hooks: Mapping[str, tuple[Any, ...]]


def _ordered(pairs: Iterable[tuple[int, int, StepFn]]) -> tuple[tuple[int, StepFn], ...]:
    return tuple((order, fn) for order, _, fn in sorted(pairs, key=lambda s: (s[0], s[1])))


@cache
def _plan(chosen: tuple[str, ...], with_dirk: bool) -> Plan:
    modules = modules_of_ids(chosen, with_dirk)
    return Plan(
        modules=modules,
        rules={rule.action: rule for m in modules for rule in m.actions},
        checks=_gathered(modules, lambda m: m.checks),
        end_of_turn=_ordered((order, i, fn) for i, m in enumerate(modules)
                             for order, fn in m.end_of_turn),
        variants=_gathered(modules, lambda m: ((t, (c, s)) for t, c, s in m.variants)),
        hooks=MappingProxyType({name: tuple(fn for m in modules if (fn := getattr(m, name)) is not None)
                                for name in HOOKS}),
    )


_Part = TypeVar("_Part")


def _gathered(modules: tuple[Module, ...], parts: Callable[[Module], Iterable[tuple[type[Action], _Part]]],
              ) -> dict[type[Action], tuple[_Part, ...]]:
    """Each action type's parts (extra checks, variants) of every module, in registry order."""
    out: dict[type[Action], list[_Part]] = {}
    for m in modules:
        for action_type, part in parts(m):
            out.setdefault(action_type, []).append(part)
    return {k: tuple(v) for k, v in out.items()}


# The plan asked for last, with the very tuple of module ids it was asked for: every state of a
# game holds the same tuple, and a search asks for its plan several times a step.
_LAST_PLAN: tuple[tuple[str, ...], bool, Plan] | None = None


def plan_of(state: GameState) -> Plan:
    global _LAST_PLAN
    last = _LAST_PLAN
    modules = state.modules
    with_dirk = state.dirk is not None
    if last is not None and last[0] is modules and last[1] is with_dirk:
        return last[2]
    plan = _plan(modules, with_dirk)
    _LAST_PLAN = (modules, with_dirk, plan)
    return plan


def payment_values(state: GameState, action: Any) -> tuple[tuple[str, int], ...]:
    """(currency, value) of the money in a payment that is no card (coins, change.spend)."""
    hooks = plan_of(state).hooks["payment_values"]
    return tuple([v for fn in hooks for v in fn(state, action)]) if hooks else ()


def action_rules(state: GameState) -> dict[type[Action], ActionRule]:
    return plan_of(state).rules


def extra_checks(state: GameState, action_type: type[Action]) -> tuple[CheckFn, ...]:
    return plan_of(state).checks.get(action_type, ())


def end_of_turn_steps(state: GameState) -> tuple[tuple[int, StepFn], ...]:
    return plan_of(state).end_of_turn


def after_action_hooks(state: GameState) -> tuple[Observer, ...]:
    return plan_of(state).hooks["after_action"]


# The decision of the state asked about last (that very object): random_action, advance and the
# end of a turn each ask again about the state they were handed or made.
_LAST_PENDING: tuple[GameState | None, Pending | None] = (None, None)


def pending_decision(state: GameState) -> Pending | None:
    """The decision the game waits for, if any: the one of the earliest `step` (RULES.md §H),
    then the first module's in registry order."""
    global _LAST_PENDING
    last = _LAST_PENDING
    if last[0] is state:
        return last[1]
    first = None
    for fn in plan_of(state).hooks["pending"]:
        found = fn(state)
        if found is not None and (first is None or found.step < first.step):
            if found.step == 0:
                first = found
                break
            first = found
    _LAST_PENDING = (state, first)
    return first


def setup_steps(modules: tuple[Module, ...]) -> tuple[StepFn, ...]:
    return tuple(fn for _, fn in _ordered((order, i, fn) for i, m in enumerate(modules)
                                          for order, fn in m.setup))


def all_action_types() -> tuple[type[Action], ...]:
    return tuple(rule.action for m in _REGISTRY.values() for rule in m.actions)


def all_event_types() -> tuple[type[Event], ...]:
    return tuple(e for m in _REGISTRY.values() for e in m.events)


def all_line_types() -> tuple[type[Line], ...]:
    """Every scoring line type: the base game's majority and wall lines first."""
    return tuple(line for m in _REGISTRY.values() for line in m.lines)


def rule_for(action_type: type[Action]) -> tuple[Module, ActionRule] | None:
    for m in _REGISTRY.values():
        for rule in m.actions:
            if rule.action is action_type:
                return m, rule
    return None
