"""The module mechanism, shown with a toy module plugged in beside the base game: an
end-of-turn step that waits for a decision (the end of the turn resumes after it), an
after-action observer, a scoring category, a majority bonus, and its own action. The toy lives in
`tests/support/toy/`, laid out as every module is, and plugs in with one registration line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.engine import apply, legal_actions, new_game, score_state, validate
from service.engine.actions import EndTurn, TakeMoney
from service.engine.module import Module, temporarily_registered
from tests.support.play import play_random_game
from tests.support.toy.actions import Bow, Bowed
from tests.support.toy.play import Watched
from tests.support.toy.plugin import MODULE as TOY
from tests.support.toy.scoring import ToyLine


@pytest.fixture
def toy() -> Iterator[Module]:
    with temporarily_registered(TOY) as module:
        yield module


def test_observer_scoring_category_and_majority_bonus_plug_in(toy: Module) -> None:
    state = new_game(["Ana", "Ben", "Cyd"], ["toy"], seed=3).state
    outcome = apply(state, TakeMoney(player=state.active.name, cards=(state.display[0],)))
    assert Watched(player=state.active.name) in outcome.events
    for p in score_state(outcome.state, 2).players:
        garden = next(line for line in p.lines if getattr(line, "building", None) == "garden")
        assert garden.count == 1  # no garden built yet: the bonus alone
        assert ToyLine(points=2) in p.lines


def test_a_decision_holds_the_end_of_turn_which_then_resumes(toy: Module) -> None:
    state = new_game(["Ana", "Ben", "Cyd"], ["toy"], seed=3).state
    first = state.active.name
    state = apply(state, TakeMoney(player=first, cards=(state.display[0],))).state
    assert state.active.name == first and len(state.display) == 3  # no refill before the bow
    assert [type(a) for a in legal_actions(state, 10)[0]] == [Bow]
    assert validate(state, EndTurn(player=first))[0].rule == "toy.bow"
    other = next(p.name for p in state.players if p.name != first)
    assert validate(state, Bow(player=other))[0].rule == "toy.bow"
    outcome = apply(state, Bow(player=first))
    assert Bowed(player=first) in outcome.events
    assert outcome.state.active.name != first and len(outcome.state.display) == 4
    assert outcome.state.turn.ending == 0


def test_a_decision_action_is_refused_when_nothing_is_pending(toy: Module) -> None:
    state = new_game(["Ana", "Ben", "Cyd"], ["toy"], seed=3).state
    refused = validate(state, Bow(player=state.active.name))
    assert refused[0].rule == "toy.bow" and "no such decision" in refused[0].message


def test_without_the_module_its_action_is_refused_naming_it(toy: Module) -> None:
    state = new_game(["Ana", "Ben", "Cyd"], seed=3).state
    refused = validate(state, Bow(player=state.active.name))
    assert refused[0].rule == "toy.bow" and "'toy'" in refused[0].message


def test_a_whole_game_with_the_toy_module_bows_once_per_turn(toy: Module) -> None:
    game = play_random_game(5, 3, ("toy",))
    assert game.states[-1].phase == "over"
    bows = sum(isinstance(a, Bow) for a in game.actions)
    assert bows > 50
