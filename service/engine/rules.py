"""The module mechanism: how a part of the game plugs into the engine.

The base game, Dirk and every expansion are `Module`s with the same small set of hooks: their
actions (each with its check, apply, candidates and sampler), checks on other modules' actions,
setup steps, end-of-turn steps in the order of RULES.md §H, what follows a scoring round,
scoring categories and the components they own (for the consistency check). The engine runs
the hooks of the modules a state has on, in registry order, and never asks which module is on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from .actions import Action
from .events import Event
from .rng import Generator
from .state import GameState
from .violations import Violation

if TYPE_CHECKING:
    from .scoring import Breakdown, Line, Position


class Context:
    """What one call of `apply` (or setup) accumulates: the generator, events and scorings."""

    __slots__ = ("events", "game_ending", "rng", "scoring")

    def __init__(self, rng: Generator) -> None:
        self.rng = rng
        self.events: list[Event] = []
        self.scoring: list[Breakdown] = []
        self.game_ending = False


CheckFn = Callable[[GameState, Any], list[Violation]]
ApplyFn = Callable[[GameState, Any, Context], GameState]
CandidatesFn = Callable[[GameState, int], Iterator[Action]]
SampleFn = Callable[[GameState, int, Generator], Action | None]
StepFn = Callable[[GameState, Context], GameState]
RoundFn = Callable[[GameState, int, Context], GameState]
ScoreFn = Callable[["Position", int], dict[str, list["Line"]]]
ComponentsFn = Callable[[GameState], Iterable[tuple[str, str]]]
ConsistencyFn = Callable[[GameState], list[Violation]]

# When an action may be taken: as the turn's action (uses `turn.actions`), or while placing
# held buildings at the end of a turn or of the game.
ActionKind = Literal["action", "placement", "free"]


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
    # (position in the end-of-turn order of RULES.md §H, step)
    end_of_turn: tuple[tuple[int, StepFn], ...] = ()
    after_scoring_round: RoundFn | None = None
    scoring: ScoreFn | None = None
    components: ComponentsFn | None = None
    expected: Callable[[GameState], Iterable[str]] | None = None
    consistency: ConsistencyFn | None = None
    events: tuple[type[Event], ...] = ()
    # The tile tokens (fields of Tile / PlacedTile) this module gives meaning to.
    tokens: tuple[str, ...] = ()
    default_data: dict[str, Any] = field(default_factory=dict)


_REGISTRY: dict[str, Module] = {}


def register(module: Module) -> Module:
    """Add a module to the registry; registration order is the order hooks run in."""
    if module.id in _REGISTRY:
        raise ValueError(f"module {module.id} registered twice")
    _REGISTRY[module.id] = module
    return module


def registered() -> tuple[Module, ...]:
    return tuple(_REGISTRY.values())


def module(module_id: str) -> Module:
    return _REGISTRY[module_id]


ALWAYS_ON = ("base",)


def modules_of(state: GameState) -> tuple[Module, ...]:
    """The modules a state has on: the base game, Dirk with two players, the chosen modules."""
    return modules_of_ids(state.modules, state.dirk is not None)


@cache
def modules_of_ids(chosen: tuple[str, ...], with_dirk: bool) -> tuple[Module, ...]:
    wanted = set(chosen) | set(ALWAYS_ON)
    if with_dirk:
        wanted.add("dirk")
    return tuple(m for m in _REGISTRY.values() if m.id in wanted)


@cache
def _action_rules(modules: tuple[Module, ...]) -> dict[type[Action], ActionRule]:
    return {rule.action: rule for m in modules for rule in m.actions}


def action_rules(state: GameState) -> dict[type[Action], ActionRule]:
    return _action_rules(modules_of(state))


@cache
def _extra_checks(modules: tuple[Module, ...]) -> dict[type[Action], tuple[CheckFn, ...]]:
    out: dict[type[Action], list[CheckFn]] = {}
    for m in modules:
        for action_type, fn in m.checks:
            out.setdefault(action_type, []).append(fn)
    return {k: tuple(v) for k, v in out.items()}


def extra_checks(state: GameState, action_type: type[Action]) -> tuple[CheckFn, ...]:
    return _extra_checks(modules_of(state)).get(action_type, ())


@cache
def _end_of_turn(modules: tuple[Module, ...]) -> tuple[StepFn, ...]:
    steps = [(order, i, fn) for i, m in enumerate(modules) for order, fn in m.end_of_turn]
    return tuple(fn for _, _, fn in sorted(steps, key=lambda s: (s[0], s[1])))


def end_of_turn_steps(state: GameState) -> tuple[StepFn, ...]:
    return _end_of_turn(modules_of(state))


def setup_steps(modules: tuple[Module, ...]) -> tuple[StepFn, ...]:
    steps = [(order, i, fn) for i, m in enumerate(modules) for order, fn in m.setup]
    return tuple(fn for _, _, fn in sorted(steps, key=lambda s: (s[0], s[1])))


def all_action_types() -> tuple[type[Action], ...]:
    return tuple(rule.action for m in _REGISTRY.values() for rule in m.actions)


def all_event_types() -> tuple[type[Event], ...]:
    return tuple(e for m in _REGISTRY.values() for e in m.events)


def rule_for(action_type: type[Action]) -> tuple[Module, ActionRule] | None:
    for m in _REGISTRY.values():
        for rule in m.actions:
            if rule.action is action_type:
                return m, rule
    return None
