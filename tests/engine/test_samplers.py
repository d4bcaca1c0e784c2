"""random_action draws a legal action cheaply, for every module (issue 28 item 4).

Every action rule (and every variant a module adds to another's action) has a sampler that
proposes one action without the engine listing all the legal ones; random_action asks the
samplers of the rules that may answer now, from one drawn at random on in the rules' order, and
takes the first proposal `validate` accepts.
"""

from __future__ import annotations

from collections import Counter

import pytest

from service.engine import Generator, apply, new_game, random_action, validate
from service.engine.game import _acting_rules, _moment, _proposal_legal, _timing, iter_legal_actions
from service.engine.module import pending_decision, plan_of, registered

MODULES = ("craftsmen", "zoo", "power", "extensions", "staff", "grounds", "walls", "treasure",
           "thieves", "vendors", "change")
CONFIGS = [(), *((m,) for m in MODULES), MODULES]
NAMES = ("Ana", "Ben", "Cy", "Di", "Ed", "Fay")


def test_every_action_rule_and_variant_has_a_sampler() -> None:
    missing = [f"{m.id}: {r.action.__name__}" for m in registered() for r in m.actions if r.sample is None]
    missing += [f"{m.id}: a variant of {t.__name__}" for m in registered() for t, _, s in m.variants
                if s is None]
    assert not missing


@pytest.mark.parametrize("modules", CONFIGS, ids=["+".join(c) if len(c) < 2 else "all" for c in CONFIGS])
def test_random_action_is_legal_and_every_sampler_proposes_legal_actions(modules: tuple[str, ...]) -> None:
    """At every step of seeded random games (2 to 6 players), random_action's action passes
    validate; every 3rd step, each rule that may answer and has a legal action is asked for
    one by its samplers: each such rule's samplers proposed a legal action somewhere."""
    could: Counter[str] = Counter()
    proposed: Counter[str] = Counter()
    i = len(modules) + sum(map(len, modules))
    for players in (2 + i % 5, 2 + (i + 2) % 5):
        state = new_game(NAMES[:players], modules, seed=i + players).state
        rng = Generator(i * 31 + players)
        for step in range(250):
            if step % 3 == 0:
                _ask_samplers(state, step, could, proposed)
            action = random_action(state, rng)
            assert action is not None
            assert validate(state, action) == [], (step, action)
            outcome = apply(state, action)
            state = outcome.state
            if outcome.game_over:
                break
    assert could, "no rule had a legal action"
    never = sorted(name for name in could if not proposed[name])
    assert not never, f"samplers that never proposed a legal action where one existed: {never}"


def _ask_samplers(state, step: int, could: Counter[str], proposed: Counter[str]) -> None:  # type: ignore[no-untyped-def]
    pending = pending_decision(state)
    seat = state.turn.player if pending is None else pending.seat
    variants = plan_of(state).variants
    legal_types = {type(a) for a in iter_legal_actions(state)}
    for rule in _acting_rules(state, pending):
        if rule.action not in legal_types:
            continue
        name = rule.action.__name__
        could[name] += 1
        samplers = [rule.sample, *(s for _, s in variants.get(rule.action, ()))]
        draws = (sample(state, seat, Generator(step * 97 + k * 7 + attempt))
                 for k, sample in enumerate(samplers) for attempt in range(16))
        if any(action is not None and not validate(state, action) for action in draws):
            proposed[name] += 1


@pytest.mark.parametrize("modules", CONFIGS, ids=["+".join(c) if len(c) < 2 else "all" for c in CONFIGS])
def test_exact_samplers_propose_what_their_rule_accepts(modules: tuple[str, ...]) -> None:
    """`ActionRule.exact_sample`: at every step of seeded random games, every proposal of an
    exact sampler whose moment has come passes its rule's own check; and random_action's
    judgement of every sampler's proposal (`_proposal_legal`) is validate's, and the rules
    whose timing it takes as passed (`_moment`'s third part) pass `_timing` (base.turn.order,
    base.turn.one-action)."""
    exact_seen = 0
    i = len(modules) + sum(map(len, modules))
    for players in (2 + i % 5, 2 + (i + 3) % 5):
        state = new_game(NAMES[:players], modules, seed=i + players + 40).state
        rng = Generator(i * 13 + players)
        for step in range(250):
            plan = plan_of(state)
            pending = pending_decision(state)
            seat = state.turn.player if pending is None else pending.seat
            name = state.players[seat].name
            _, samplers, timely = _moment(plan, state, pending)
            for rule in plan.rules.values():  # what random_action skips _timing for, it passes
                if id(rule) in timely:
                    assert _timing(state, rule, seat, pending) is None, (step, rule.action)
            for k, (sample, exact) in enumerate(samplers):
                for attempt in range(3):
                    action = sample(state, seat, Generator(step * 101 + k * 11 + attempt))
                    if action is None:
                        continue
                    legal = not validate(state, action)
                    judged = _proposal_legal(state, plan, pending, seat, name, action, exact, timely)
                    assert judged == legal, (step, action)
                    rule = plan.rules[type(action)]
                    if exact and _timing(state, rule, seat, pending) is None:
                        assert rule.check(state, action) == [], (step, action)
                        exact_seen += 1
            action = random_action(state, rng)
            assert action is not None
            outcome = apply(state, action)
            state = outcome.state
            if outcome.game_over:
                break
    assert exact_seen
