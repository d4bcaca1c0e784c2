"""`advance(state, action)` is `apply` without validating again, for actions the engine itself
produced for that state (issue 28 item 4): at every step of seeded random games of every module
(2 to 6 players), the action random_action drew and, every few steps, every listed legal action
give the same Outcome under advance as under apply, to the byte."""

from __future__ import annotations

import msgspec
import pytest

from service.engine import Generator, advance, apply, iter_legal_actions, new_game, random_action

MODULES = ("craftsmen", "zoo", "power", "extensions", "staff", "grounds", "walls", "treasure",
           "thieves", "vendors", "change")
CONFIGS = [(), *((m,) for m in MODULES), MODULES]
NAMES = ("Ana", "Ben", "Cy", "Di", "Ed", "Fay")
ENCODE = msgspec.json.Encoder().encode


@pytest.mark.parametrize("modules", CONFIGS, ids=["+".join(c) if len(c) < 2 else "all" for c in CONFIGS])
def test_advance_is_apply_on_the_engines_own_actions(modules: tuple[str, ...]) -> None:
    i = len(modules) + sum(map(len, modules))
    players = 2 + i % 5
    state = new_game(NAMES[:players], modules, seed=i + 7).state
    rng = Generator(i * 17 + players)
    listed = 0
    for step in range(400):
        if step % 7 == 0:
            for action in iter_legal_actions(state):
                assert ENCODE(advance(state, action)) == ENCODE(apply(state, action)), (step, action)
                listed += 1
        action = random_action(state, rng)
        assert action is not None
        outcome = apply(state, action)
        assert ENCODE(advance(state, action)) == ENCODE(outcome), (step, action)
        state = outcome.state
        if outcome.game_over:
            break
    assert listed
