"""The engine's public functions: new_game, validate, apply, legal_actions, random_action,
score. Each is a pure function of its arguments; randomness comes from the state's generator."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache

import msgspec
from msgspec.structs import replace

from . import base as _base  # noqa: F401  (registers the base game first)
from .actions import Action
from .base.turn import after_final_placement, empty_market
from .catalogue import CATALOGUE
from .census import CENSUS
from .consistency import check_consistency
from .editions import EDITION
from .events import Event
from .flow import finish_turn, is_turn_over
from .module import (
    ActionRule,
    Context,
    Pending,
    Plan,
    SampleFn,
    extra_checks,
    modules_of_ids,
    pending_decision,
    plan_of,
    registered,
    rule_for,
    setup_steps,
)
from .modules import register_all
from .names import clash, kept, name_problem, table_problems
from .rng import Generator, seed_state
from .scoring import Breakdown, Position, position_of, score_position
from .scoring.positions import position_problems
from .state import Dirk, GameState, Player, Turn
from .text import t, tn
from .violations import IllegalAction, InconsistentState, Violation

register_all()

UNSUPPORTED = ("vizier", "exchange-offices", "camps", "diamonds", "characters", "city-gates",
               "workers-huts")


class Outcome(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    state: GameState
    events: tuple[Event, ...]
    scoring: tuple[Breakdown, ...]
    game_over: bool


class GameRequestError(ValueError):
    """A game that cannot be created as asked (player count, names, modules)."""

    def __init__(self, violations: list[Violation]) -> None:
        super().__init__("; ".join(v.message for v in violations))
        self.violations = violations


def setup_problems(players: Sequence[str], modules: Sequence[str]) -> list[Violation]:
    out = []
    fewest, most = CENSUS.players_at_least, CENSUS.players
    if not fewest <= len(players) <= most:
        out.append(Violation("base.setup.players", t("Alhambra is played by {fewest} to {most} players, "
                                                     "not {n}", fewest=fewest, most=most, n=len(players))))
    out += [Violation("base.setup.players", p) for p in filter(None, map(name_problem, players))]
    # Compared as the table keeps them: "Å" composed or decomposed, "Ana " and "Ana" are one name.
    names = [kept(n) for n in players if name_problem(n) is None]
    out += [Violation("base.setup.players", problem) for problem in table_problems(names)]
    if len(players) == 2:
        out += [Violation("dirk.setup", t("with two players {dirk} is the virtual third player's name; "
                                          "choose another ({problem})", dirk=repr(CATALOGUE.dirk_name),
                                          problem=problem))
                for problem in filter(None, (clash(CATALOGUE.dirk_name, n) for n in names))]
    known = {m.id for m in registered()} - {"base", "dirk"}
    for m in modules:
        if m in UNSUPPORTED:
            out.append(Violation("modules.unsupported", t("the module {module} (another Alhambra "
                                                          "expansion) is not supported", module=repr(m))))
        elif m not in known:
            out.append(Violation("modules.unknown", t("unknown module {module}; supported: {known}",
                                                      module=repr(m), known=tuple(sorted(known)))))
    out += [Violation("modules.unknown", tn("the module {module} is named {n} time in ({modules}): "
                                            "name each module once",
                                            "the module {module} is named {n} times in ({modules}): "
                                            "name each module once", n, module=repr(m),
                                            modules=tuple(modules)))
            for m, n in Counter(modules).items() if n > 1]
    return out


def new_game(players: Sequence[str], modules: Sequence[str] = (), seed: int = 0) -> Outcome:
    """A new game after the setup of §2 and of every module, from `seed`."""
    problems = setup_problems(players, modules)
    if problems:
        raise GameRequestError(problems)
    players = [kept(n) for n in players]  # the Nickname profile's output (names.py)
    order = {m.id: i for i, m in enumerate(registered())}
    chosen = tuple(sorted(set(modules), key=order.__getitem__))
    state = GameState.new(
        players=tuple(Player.new(n) for n in players),
        modules=chosen,
        turn=Turn.start(0),
        market=empty_market(),
        dirk=Dirk.new(CATALOGUE.dirk_name) if len(players) == 2 else None,
        edition=EDITION,
    )
    ctx = Context(Generator(seed_state(seed)))
    for step in setup_steps(modules_of_ids(chosen, state.dirk is not None)):
        state = step(state, ctx)
    state = replace(state, rng=ctx.rng.text())
    return Outcome(state=state, events=tuple(ctx.events), scoring=(), game_over=False)


def validate(state: GameState, action: Action) -> list[Violation]:
    """Why `action` is illegal in `state` (empty when legal). `state` must be consistent."""
    return _judge(state, action)[0]


def _judge(state: GameState, action: Action) -> tuple[list[Violation], ActionRule | None]:
    if state.phase == "over":
        return [Violation("base.end.final-scoring", t("the game is over; no action is possible"))], None
    plan = plan_of(state)
    found = plan.rules.get(type(action))
    if found is None:
        owner = rule_for(type(action))
        rule = owner[1].rule if owner else "base.turn.order"
        module_id = owner[0].id if owner else "?"
        return [Violation(rule, t("{action} needs the module '{module}', which is not on in this game",
                                  action=type(action).__name__, module=module_id))], None
    seat = state.seat_of(action.player)
    if seat < 0:
        if state.dirk is not None and action.player == state.dirk.name:
            return [Violation("dirk.scores", t("Dirk takes no turns"))], None
        return [Violation("base.turn.order",
                          t("no player is named {player}", player=repr(action.player)))], None
    problem = _timing(state, found, seat, _pending(state, plan))
    if problem:
        return [problem], None
    unknown = _module_fields(state, action)
    if unknown:
        return unknown, None
    out = found.check(state, action)
    for fn in plan.checks.get(type(action), ()):
        out += fn(state, action)
    return out, found


def _pending(state: GameState, plan: Plan) -> Pending | None:
    """`pending_decision`, asked only of a set of modules that has decisions."""
    return pending_decision(state) if plan.hooks["pending"] else None


def _module_fields(state: GameState, action: Action) -> list[Violation]:
    """Fields of an action that belong to a module which is not on."""
    out = []
    fields = type(action).module_fields
    if not fields:
        return out
    for name, (module_id, rule) in fields.items():
        if getattr(action, name) is not None and module_id not in state.modules:
            out.append(Violation(rule, t("`{field}` needs the module '{module}', which is not on",
                                         field=name, module=module_id)))
    return out


def _timing(state: GameState, rule: ActionRule, seat: int, pending: Pending | None) -> Violation | None:
    """base.turn.order and base.turn.one-action: is it this player's moment for this action?
    `pending`: the decision the game waits for."""
    if pending is not None:
        who = state.players[pending.seat].name
        what = pending.told_to(seat)  # the asking seat learns nothing it may not see
        if rule.action not in pending.actions and not _free_while(state, rule, pending):
            return Violation(pending.rule, t("the game waits for {player} to {what}", player=who, what=what))
        if seat != pending.seat and rule.kind == "free" and pending.seat == state.turn.player:
            # A free ability is its holder's during their own turn only, decision or not.
            return _not_your_turn(state, seat)
        if seat != pending.seat:
            return Violation(pending.rule, t("only {player} may {what}", player=who, what=what))
        return None
    if rule.kind == "decision":
        return Violation(rule.rule, t("no such decision is pending"))
    if state.phase not in rule.phases:
        what = (t("leftover market tiles are being placed") if state.phase == "final-placement"
                else t("the game is in the phase {phase}", phase=state.phase))
        return Violation(rule.rule, t("this action is not possible now: {why}", why=what))
    if rule.kind == "out-of-turn":  # its own check says who may take it now
        return None
    if seat != state.turn.player:
        return _not_your_turn(state, seat)
    if rule.kind == "action" and state.turn.actions == 0:
        held = tuple(h.tile for h in state.active.held)
        return Violation("base.turn.one-action",
                         t("{player} has no action left this turn; only placing the held buildings "
                           "({held}) remains", player=state.active.name, held=held))
    return None


def _not_your_turn(state: GameState, seat: int) -> Violation:
    return Violation("base.turn.order", t("it is {active}'s turn, not {player}'s",
                                          active=state.active.name, player=state.players[seat].name))


def _free_while(state: GameState, rule: ActionRule, pending: Pending) -> bool:
    """A free action (a craftsman's ability, craftsmen.use-one: "until the craftsman is passed")
    may be taken while the active player's own end-of-turn decision waits (RULES.md §H: moving
    animals, using a power), not during a decision that is part of an action (staff.move)."""
    return rule.kind == "free" and pending.step > 0 and pending.seat == state.turn.player


def apply(state: GameState, action: Action) -> Outcome:
    """The state after `action`, with the events and scoring rounds it caused.

    Raises IllegalAction (with the violations of `validate`) when the action is illegal.
    """
    violations, rule = _judge(state, action)
    if violations or rule is None:
        raise IllegalAction(violations)
    return _applied(state, action, rule)


def advance(state: GameState, action: Action) -> Outcome:
    """`apply` for an action the engine itself produced for this very state, legal already: one
    of `iter_legal_actions(state)` / `legal_actions(state)`, or `random_action(state, ...)`
    (which validated it). It is not validated again, so a search that plays such actions pays
    for the rules once, not twice.

    The same Outcome as `apply` for every such action (tests/engine/test_advance.py); for any
    other action (a client's, a record's) the result is undefined: use `apply`.
    """
    plan = plan_of(state)
    return _applied(state, action, plan.rules[type(action)], plan)


def _applied(state: GameState, action: Action, rule: ActionRule, plan: Plan | None = None) -> Outcome:
    """The state after a legal `action` of `rule`, with its events and scoring rounds (`plan`:
    the plan of `state`, if known: no action changes the modules a game has on)."""
    ctx = _DrawnContext(state.rng)
    state = rule.apply(state, action, ctx)
    if plan is None:
        plan = plan_of(state)
    for observe in plan.hooks["after_action"]:
        state = observe(state, action, ctx)
    if plan.hooks["pending"] and pending_decision(state) is not None:
        pass
    elif is_turn_over(state):
        state = finish_turn(state, ctx, plan)
    elif state.phase == "final-placement":
        state = after_final_placement(state, ctx)
    if ctx.drawn is not None:  # else the generator's text is the state's as it was
        state = replace(state, rng=ctx.drawn.text())
    return Outcome(state=state, events=tuple(ctx.events), scoring=tuple(ctx.scoring),
                   game_over=state.phase == "over")


class _DrawnContext(Context):
    """A Context whose generator is read from the state's text when a step first draws (most
    actions draw nothing): `drawn` is None until then."""

    __slots__ = ("drawn", "text")

    def __init__(self, text: str) -> None:  # Context.__init__ but the generator
        self.events: list[Event] = []
        self.scoring: list[Breakdown] = []
        self.text = text
        self.drawn: Generator | None = None

    @property
    def rng(self) -> Generator:  # type: ignore[override]
        if self.drawn is None:
            self.drawn = Generator.from_text(self.text)
        return self.drawn


def _acting_rules(state: GameState, pending: Pending | None) -> tuple[ActionRule, ...]:
    """The rules whose actions may answer now: those of the pending decision (and the free
    ones allowed beside it), else those of the phase."""
    return _moment(plan_of(state), state, pending)[0]


def _moment(plan: Plan, state: GameState, pending: Pending | None,
            ) -> tuple[tuple[ActionRule, ...], tuple[tuple[SampleFn, bool], ...], frozenset[int]]:
    """(`_acting_rules`, the samplers of those rules and of their variants, each with whether
    its proposals pass their rule's own check, `ActionRule.exact_sample`; without the samplers
    of actions (kind `action`, and their variants) when the turn has no action left: `_timing`
    refuses every proposal of theirs then, base.turn.one-action; and the rules `_timing` lets
    the acting seat take now (by id), which is every acting rule but those)."""
    if pending is None:
        return _rules_and_samplers(plan, state.phase, None, False, state.turn.actions == 0)
    return _rules_and_samplers(plan, None, pending.actions,
                               pending.step > 0 and pending.seat == state.turn.player, False)


@cache
def _rules_and_samplers(plan: Plan, phase: str | None, decision: tuple[type[Action], ...] | None,
                        free_too: bool, no_action: bool = False,
                        ) -> tuple[tuple[ActionRule, ...], tuple[tuple[SampleFn, bool], ...],
                                   frozenset[int]]:
    """The rules of a phase, or of a decision (`free_too`: with the free actions that may be
    taken beside it, `_free_while`), and their samplers with their variants', in order, each
    with whether it is exact (a variant's never is); `no_action`: no sampler of a rule of kind
    `action` (the turn has none left)."""
    if decision is None:
        rules = tuple(r for r in plan.rules.values() if phase in r.phases and r.kind != "decision")
    else:
        rules = tuple(r for r in plan.rules.values()
                      if r.action in decision or (free_too and r.kind == "free"))
    allowed = tuple(rule for rule in rules if not (no_action and rule.kind == "action"))
    samplers = tuple((s, exact) for rule in allowed for s, exact in (
        (rule.sample, rule.exact_sample),
        *((sample, False) for _, sample in plan.variants.get(rule.action, ()))) if s is not None)
    # By id: a rule is a frozen dataclass, hashed field by field; rules live as long as the registry.
    return rules, samplers, frozenset(id(rule) for rule in allowed)


def iter_legal_actions(state: GameState, player: str | None = None) -> Iterator[Action]:
    """Candidates of every action rule that `validate` accepts (two-stage filter); with
    `player`, only that player's.

    The timing checks of `validate` are made once per rule; a rule with exact candidates
    skips its own check, and the checks other modules add always run.
    """
    if state.phase == "over":
        return
    pending = pending_decision(state)
    seat = state.turn.player if pending is None else pending.seat  # acting_seat
    wanted = None if player is None else state.seat_of(player)
    for rule in _acting_rules(state, pending):
        if wanted is not None and wanted != seat and rule.kind != "out-of-turn":
            continue  # only an out-of-turn rule lists actions of a player who is not to act
        if _timing(state, rule, seat, pending) is not None:
            continue
        extra = extra_checks(state, rule.action)
        for action in rule.candidates(state, seat):
            if player is not None and action.player != player:
                continue
            if not rule.exact_candidates and rule.check(state, action):
                continue
            if any(fn(state, action) for fn in extra):
                continue
            yield action
        for candidates, _ in plan_of(state).variants.get(rule.action, ()):
            for action in candidates(state, seat):
                if (player is None or action.player == player) and not validate(state, action):
                    yield action


def legal_actions(state: GameState, limit: int = 1000,
                  player: str | None = None) -> tuple[list[Action], bool]:
    """Up to `limit` legal actions (with `player`, only that player's) and whether the list was
    cut short."""
    out: list[Action] = []
    for action in iter_legal_actions(state, player):
        if len(out) == limit:
            return out, True
        out.append(action)
    return out, False


def random_action(state: GameState, rng: Generator) -> Action | None:
    """One random legal action, fast: each action rule proposes one, the first legal is taken.

    Not uniform over all legal actions (that would need listing them); meant for simulations.
    The samplers are asked in a uniformly random order, drawn as it is needed: one draw picks
    the first, and only if its proposal is not legal (or it has none) another picks the next
    among the rest, and so on (the last one left needs no draw). Each sampler's own draws come
    after the draw that picked it.
    """
    if state.phase == "over":
        return None
    plan = plan_of(state)
    pending = _pending(state, plan)
    seat = state.turn.player if pending is None else pending.seat  # acting_seat
    name = state.players[seat].name
    _, samplers, timely = _moment(plan, state, pending)
    n = len(samplers)
    if n:
        k = rng.below(n) if n > 1 else 0
        sample, exact = samplers[k]
        action = sample(state, seat, rng)
        if action is not None and _proposal_legal(state, plan, pending, seat, name, action, exact, timely):
            return action
        rest = [*samplers[:k], *samplers[k + 1:]]
        while rest:
            j = rng.below(len(rest)) if len(rest) > 1 else 0
            sample, exact = rest[j]
            rest[j] = rest[-1]
            rest.pop()
            action = sample(state, seat, rng)
            if action is not None and \
                    _proposal_legal(state, plan, pending, seat, name, action, exact, timely):
                return action
    for action in iter_legal_actions(state):
        return action
    return None


def _proposal_legal(state: GameState, plan: Plan, pending: Pending | None, seat: int, name: str,
                    action: Action, exact: bool, timely: frozenset[int]) -> bool:
    """`not validate(state, action)` for a sampler's proposal for the acting `seat` (named
    `name`), given the plan and the pending decision random_action read already; an `exact`
    sampler's proposal skips its rule's own check (`ActionRule.exact_sample`), and one of the
    rules `_timing` lets the acting seat take now (`_moment`) skips `_timing`."""
    rule = plan.rules.get(type(action))
    if rule is None or action.player != name:
        return not validate(state, action)
    if id(rule) not in timely and _timing(state, rule, seat, pending) is not None:
        return False
    if type(action).module_fields and _module_fields(state, action):
        return False
    if not exact and rule.check(state, action):
        return False
    extra = plan.checks.get(type(action))
    if extra:
        for fn in extra:
            if fn(state, action):
                return False
    return True


def check_state(state: GameState) -> None:
    """Raise InconsistentState if `state` could not occur in a game."""
    problems = check_consistency(state)
    if problems:
        raise InconsistentState(problems)


def score(position: Position) -> Breakdown:
    """The scoring breakdown of a position (API.md); raises InconsistentState if impossible."""
    problems = position_problems(position)
    if problems:
        raise InconsistentState(problems)
    return score_position(position)


def score_state(state: GameState, round_: int) -> Breakdown:
    """A scoring round of a game state, as if it were held now (scores are not changed).

    A round the state already held is refused (InconsistentState, base.score.rounds): its
    points are in the players' scores, and the ranking would count them twice."""
    if round_ in state.rounds_held:
        raise InconsistentState([Violation("base.score.rounds", t(
            "round {round} was already held in this state (rounds_held {held}): its points are in "
            "the players' scores, so it is not scored again; ask for a round not yet held",
            round=round_, held=tuple(state.rounds_held)))])

    return score_position(position_of(state, round_))
