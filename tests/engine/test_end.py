"""RULES.md §6 (end of the game): the trigger, the leftover market tiles and the final scoring;
each rule id allowing and refusing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from msgspec.structs import replace

from service.engine import Outcome, check_consistency
from service.engine.actions import BuyBuilding, PlaceBuilding, ReserveBuilding, TakeMoney
from service.engine.events import GameEnded, LeftoverAwarded, LeftoverRemoved, MarketRefilled
from service.engine.scoring import MajorityLine, WallLine
from service.engine.state import GameState, RankEntry
from tests.support.helpers import arrange, game, play, refused

MARKET = {
    "yellow": "pavilion-8-open",
    "green": "seraglio-9-open",
    "blue": "tower-13-E",
    "orange": "garden-11-open",
}


def last_turn(
    bag: Sequence[str] = (),
    hands: Mapping[str, Sequence[str]] | None = None,
    scores: Mapping[str, int] | None = None,
) -> GameState:
    """Ana's turn with the bag holding `bag`; rounds 1 and 2 are over. Ana holds blue 9, 5 and 4."""
    return arrange(
        game(),
        bag=bag,
        market=MARKET,
        rounds_held=(1, 2),
        active="Ana",
        scores=scores,
        hands={"Ana": ("blue-9-a", "blue-5-a", "blue-4-a"), "Ben": (), "Cyd": (), **(hands or {})},
    )


def buy_tower_and_place(state: GameState) -> Outcome:
    """Ana overpays tower-13-E (14 for 13) and builds it east of the fountain."""
    return play(
        state,
        BuyBuilding(player="Ana", tile="tower-13-E", payment=("blue-9-a", "blue-5-a")),
        PlaceBuilding(player="Ana", tile="tower-13-E", x=1, y=0),
    )


# --- base.end.trigger -----------------------------------------------------------------------


@pytest.mark.rule("base.end.trigger")
def test_base_end_trigger_allows_the_end_when_the_bag_cannot_fill_the_market() -> None:
    outcome = buy_tower_and_place(last_turn(bag=()))
    assert outcome.game_over and outcome.state.phase == "over"
    assert any(isinstance(e, GameEnded) for e in outcome.events)
    assert [b.round for b in outcome.scoring] == [3]


@pytest.mark.rule("base.end.trigger")
def test_base_end_trigger_allows_filling_what_can_be_filled_first() -> None:
    # Two exact purchases empty two spaces; the one tile left fills the first (blue) of them.
    state = last_turn(
        bag=("pavilion-2-NEW",),
        hands={"Ana": ("blue-9-a", "blue-4-a", "orange-6-a", "orange-5-a"), "Ben": ("blue-2-a",)},
    )
    outcome = play(
        state,
        BuyBuilding(player="Ana", tile="tower-13-E", payment=("blue-9-a", "blue-4-a")),
        BuyBuilding(player="Ana", tile="garden-11-open", payment=("orange-6-a", "orange-5-a")),
        PlaceBuilding(player="Ana", tile="tower-13-E", x=1, y=0),
        PlaceBuilding(player="Ana", tile="garden-11-open", x=-1, y=0),
    )
    assert MarketRefilled(currency="blue", tile="pavilion-2-NEW") in outcome.events
    # ... and, the market not being full, the game ends: that tile is a leftover for Ben.
    assert LeftoverAwarded(tile="pavilion-2-NEW", currency="blue", player="Ben") in outcome.events
    assert outcome.state.phase == "final-placement" and outcome.state.turn.player == 1


@pytest.mark.rule("base.end.trigger")
def test_base_end_trigger_refuses_to_end_while_the_bag_fills_the_market() -> None:
    outcome = buy_tower_and_place(last_turn(bag=("pavilion-2-NEW",)))
    state = outcome.state
    assert not outcome.game_over and state.phase == "play" and state.turn.player == 1
    assert [s.tile for s in state.market] == [
        "pavilion-8-open",
        "seraglio-9-open",
        "pavilion-2-NEW",
        "garden-11-open",
    ]
    assert state.bag == () and outcome.scoring == ()


@pytest.mark.rule("base.end.trigger")
def test_base_end_trigger_refuses_to_end_while_an_empty_bag_has_no_empty_space_to_fill() -> None:
    outcome = play(last_turn(bag=()), TakeMoney(player="Ana", cards=(last_turn().display[0],)))
    assert not outcome.game_over and outcome.state.phase == "play"


# --- base.end.leftovers ---------------------------------------------------------------------


def leftovers() -> GameState:
    state = last_turn(hands={"Ben": ("yellow-9-a", "green-1-a"), "Cyd": ("yellow-5-a", "green-3-a")})
    return buy_tower_and_place(state).state


@pytest.mark.rule("base.end.leftovers")
def test_base_end_leftovers_allows_each_tile_to_the_richest_in_its_currency() -> None:
    state = leftovers()
    assert state.phase == "final-placement" and state.turn.player == 1
    ben, cyd = state.players[1], state.players[2]
    assert [(t.tile, t.leftover) for t in ben.held] == [("pavilion-8-open", True)]
    assert [(t.tile, t.leftover) for t in cyd.held] == [("seraglio-9-open", True)]
    assert [t.tile for t in state.removed if t.tile == "garden-11-open"] == ["garden-11-open"]
    assert all(s.tile is None for s in state.market)


@pytest.mark.rule("base.end.leftovers")
def test_base_end_leftovers_allows_recipients_to_place_them_in_seat_order_then_round_3() -> None:
    outcome = play(leftovers(), PlaceBuilding(player="Ben", tile="pavilion-8-open", x=0, y=1))
    assert outcome.state.phase == "final-placement" and outcome.state.turn.player == 2
    refused(
        outcome.state,
        PlaceBuilding(player="Ben", tile="seraglio-9-open", x=0, y=-1),
        "base.turn.order",
        "Ben",
    )
    outcome = play(outcome.state, ReserveBuilding(player="Cyd", tile="seraglio-9-open"))
    assert outcome.state.phase == "over" and [b.round for b in outcome.scoring] == [3]
    ben = outcome.scoring[0].players[1]
    assert MajorityLine(building="pavilion", count=1, place=1, points=16) in ben.lines
    cyd = outcome.scoring[0].players[2]
    assert MajorityLine(building="seraglio", count=0, place=None, points=0) in cyd.lines  # reserve


@pytest.mark.rule("base.end.leftovers")
def test_base_end_leftovers_refuses_a_tie_or_a_currency_nobody_holds() -> None:
    state = last_turn(hands={"Ben": ("yellow-5-a",), "Cyd": ("yellow-5-b",)})
    outcome = buy_tower_and_place(state)
    assert (
        LeftoverRemoved(tile="pavilion-8-open", currency="yellow", reason="tie for the most")
        in outcome.events
    )
    assert (
        LeftoverRemoved(tile="seraglio-9-open", currency="green", reason="nobody holds that currency")
        in outcome.events
    )
    # Ana holds blue-4-a, but the blue space stayed empty: nothing to hand out there.
    assert outcome.state.phase == "over"
    assert {"pavilion-8-open", "seraglio-9-open", "garden-11-open"} <= {t.tile for t in outcome.state.removed}
    assert all(p.held == () for p in outcome.state.players)


@pytest.mark.rule("base.end.leftovers")
def test_base_end_leftovers_refuses_actions_or_illegal_places_while_placing_them() -> None:
    state = leftovers()
    refused(state, TakeMoney(player="Ben", cards=(state.display[0],)), "base.money.take", "leftover")
    refused(
        state,
        PlaceBuilding(player="Ben", tile="pavilion-8-open", x=1, y=1),
        "base.place.adjacent",
        "pavilion-8-open",
        "(1, 1)",
    )


# --- base.end.final-scoring -----------------------------------------------------------------


@pytest.mark.rule("base.end.final-scoring")
def test_base_end_final_scoring_allows_round_3_and_the_ranking() -> None:
    outcome = buy_tower_and_place(last_turn(scores={"Ana": 5, "Ben": 30}))
    state = outcome.state
    (breakdown,) = outcome.scoring
    ana = breakdown.players[0]
    assert MajorityLine(building="tower", count=1, place=1, points=21) in ana.lines
    assert WallLine(length=1, points=1) in ana.lines and ana.total == 22
    assert state.ranking == (
        RankEntry(name="Ben", place=1, score=30),
        RankEntry(name="Ana", place=2, score=27),
        RankEntry(name="Cyd", place=3, score=0),
    )
    assert [p.score for p in state.players] == [27, 30, 0]
    assert state.rounds_held == (1, 2, 3)
    assert GameEnded(winners=("Ben",)) in outcome.events


@pytest.mark.rule("base.end.final-scoring")
def test_base_end_final_scoring_allows_tied_winners() -> None:
    outcome = buy_tower_and_place(last_turn(scores={"Ben": 22}))
    assert [(r.name, r.place) for r in outcome.state.ranking] == [("Ana", 1), ("Ben", 1), ("Cyd", 3)]
    assert GameEnded(winners=("Ana", "Ben")) in outcome.events


@pytest.mark.rule("base.end.final-scoring")
def test_base_end_final_scoring_refuses_any_action_once_the_game_is_over() -> None:
    state = buy_tower_and_place(last_turn()).state
    refused(state, TakeMoney(player="Ben", cards=(state.display[0],)), "base.end.final-scoring", "over")


@pytest.mark.rule("base.end.final-scoring")
def test_base_end_final_scoring_refuses_round_3_in_a_game_still_in_play() -> None:
    state = last_turn()
    bad = replace(state, rounds_held=(1, 2, 3))
    problems = check_consistency(bad)
    assert any(v.rule == "inconsistent-state" and "round 3" in v.message for v in problems), problems
