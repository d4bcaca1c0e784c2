"""Who must act (`to_act`): the players who may act now and why, computed from the pending
decisions, the turn, the phase and the out-of-turn windows; and legal actions per player.

`turn.player` is the seat whose turn it is; it is not who acts while a decision waits for
another player, nor the only one who may act in the thieves' window."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from service.engine import (
    Generator,
    apply,
    iter_legal_actions,
    legal_actions,
    new_game,
    random_action,
    to_act,
)
from service.engine.module import registered
from service.engine.view import view
from tests.support.play import NAMES, play_until

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))


def test_vendors_choices_wait_for_each_player_in_seat_order_whoever_takes_the_first_turn() -> None:
    """vendors.setup: the choices come before the first turn, in seat order; seed 3 gives Cyd
    (seat 2) the first turn, and it is Ana who must act."""
    state = new_game(NAMES[:3], ("vendors",), seed=3).state
    assert state.turn.player == 2
    who = to_act(state)
    assert who.players == ("Ana",)
    (ana,) = who.actors
    assert (ana.player, ana.seat, ana.kind, ana.rule) == ("Ana", 0, "decision", "vendors.setup")
    assert "choose-inhabitants" in ana.what and ana.actions_left == 0
    assert {a.player for a in iter_legal_actions(state)} == {"Ana"}


def test_the_thieves_window_names_every_player_who_may_steal_beside_the_active_one() -> None:
    """thieves.steal: after a turn, players other than the next one may steal out of turn."""
    state = play_until(("thieves",), 4, seed=5, wanted=lambda s: len(to_act(s).players) > 2)
    who = to_act(state)
    first, *window = who.actors
    assert (first.player, first.kind, first.actions_left) == (state.active.name, "turn", 1)
    assert window and all(a.kind == "out-of-turn" and a.rule == "thieves.steal" for a in window)
    assert all(a.seat != state.turn.player and a.actions_left == 0 for a in window)
    assert [a.seat for a in window] == sorted(a.seat for a in window)
    listed = {a.player for a in iter_legal_actions(state)}
    assert listed == set(who.players)
    for actor in who.actors:
        own, _ = legal_actions(state, 10_000, actor.player)
        assert own and {a.player for a in own} == {actor.player}
        if actor.kind == "out-of-turn":
            assert {type(a).__name__ for a in own} == {"Steal"}
    assert len(legal_actions(state, 10_000)[0]) == sum(
        len(legal_actions(state, 10_000, name)[0]) for name in who.players)


def test_a_player_who_may_not_act_has_no_legal_actions() -> None:
    state = new_game(NAMES[:3], seed=1).state
    idle = next(p.name for i, p in enumerate(state.players) if i != state.turn.player)
    assert legal_actions(state, 100, idle) == ([], False)
    assert legal_actions(state, 100, "Nobody") == ([], False)


def test_the_zoo_decision_names_the_player_who_moves_animals() -> None:
    """zoo.move: after the turn's actions the active player may move animals, a decision."""
    state = play_until(("zoo",), 3, seed=2, wanted=lambda s: any(
        a.rule == "zoo.move" for a in to_act(s).actors))
    (mover,) = to_act(state).actors
    assert (mover.player, mover.kind, mover.actions_left) == (state.active.name, "decision", 0)
    assert "move-animals" in mover.what


def test_held_buildings_and_an_exact_payment_and_the_end_are_told_apart() -> None:
    state = play_until((), 3, seed=4, wanted=lambda s: s.active.held and s.turn.actions == 0)
    (placer,) = to_act(state).actors
    assert (placer.kind, placer.rule) == ("placement", "base.turn.placement")
    assert all(t.tile in placer.what for t in state.active.held)
    bonus = replace(state, turn=replace(state.turn, actions=1, acted=True),
                    players=tuple(replace(p, held=()) for p in state.players))
    (active,) = to_act(bonus).actors
    assert (active.kind, active.rule, active.actions_left) == ("turn", "base.buy.exact-bonus", 1)
    assert to_act(replace(state, phase="over")).players == ()


def test_every_view_says_who_must_act_as_the_state_does() -> None:
    state = new_game(NAMES[:3], ("vendors",), seed=3).state
    assert view(state, "Ben").to_act == view(state, None).to_act == to_act(state)


@pytest.mark.parametrize("modules", [(m,) for m in MODULES] + [MODULES],
                         ids=lambda m: m[0] if len(m) == 1 else "all")
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=5))
def test_the_players_named_are_exactly_those_with_a_legal_action(
        modules: tuple[str, ...], seed: int, players: int) -> None:
    """Over a random game: every `every`-th state's legal actions belong to exactly the players
    `to_act` names, and the first one named (the one the game waits for) has some."""
    state = new_game(NAMES[:players], modules, seed=seed).state
    rng = Generator(seed)
    for step in range(3000):
        if step % 7 == 0 or len(to_act(state).players) > 1:
            who = to_act(state)
            acting = {a.player for a in iter_legal_actions(state)}
            assert acting == set(who.players), (step, who)
            assert len(set(who.players)) == len(who.players)
        action = random_action(state, rng)
        assert action is not None
        assert action.player in to_act(state).players
        outcome = apply(state, action)
        state = outcome.state
        if outcome.game_over:
            assert to_act(state).players == ()
            return
    raise AssertionError("the game did not end")


def test_a_decision_names_what_only_its_player_sees_to_that_player_alone() -> None:
    """power.wisdom: the cards drawn are told to the player who drew them, their number to all."""
    state = play_until(("power",), 3, seed=11, wanted=lambda s: s.power is not None and bool(s.power.drawn)
                       and any(a.kind == "decision" for a in to_act(s).actors))
    (decider,) = to_act(state).actors
    drawn = state.power.drawn  # type: ignore[union-attr]
    assert not any(card in decider.what for card in drawn)
    own = view(state, decider.player).to_act.actors[0].what
    assert all(card in own for card in drawn)
    for other in (p.name for p in state.players if p.name != decider.player):
        assert view(state, other).to_act.actors[0].what == decider.what
