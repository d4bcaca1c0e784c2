"""RULES.md §3 (a turn): taking money, buying, redesign, turn order, placement, refills and the
scoring cards; each rule id allowing and refusing."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from service.engine import check_consistency, legal_actions, validate
from service.engine.actions import (
    Action,
    BuyBuilding,
    EndTurn,
    PlaceBuilding,
    PlaceFromReserve,
    RemoveToReserve,
    ReserveBuilding,
    SwapWithReserve,
    TakeMoney,
)
from service.engine.events import DeckReshuffled, ScoringCardDrawn
from service.engine.scoring import MajorityLine
from service.engine.state import GameState, Tile, Turn
from tests.support.helpers import allowed, arrange, event_types, game, play, refused

DISPLAY = ("blue-9-c", "yellow-1-a", "green-2-a", "orange-3-a")


def table(**kw: object) -> GameState:
    """Ana's turn; the display DISPLAY; Ana holds blue 5 and 7 and green 9; garden-12-S on the
    blue space and tower-13-E on the orange one."""
    args: dict[str, object] = {
        "hands": {
            "Ana": ("blue-5-a", "blue-7-a", "green-9-a", "orange-6-a", "orange-7-a"),
            "Ben": ("yellow-4-a",),
            "Cyd": ("green-4-b",),
        },
        "display": DISPLAY,
        "market": {"blue": "garden-12-S", "orange": "tower-13-E"},
        "active": "Ana",
    }
    args.update(kw)
    return arrange(game(), **args)  # type: ignore[arg-type]


def buy_exact(state: GameState) -> GameState:
    return allowed(state, BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-5-a", "blue-7-a")))


# --- base.money.take ------------------------------------------------------------------------


@pytest.mark.rule("base.money.take")
def test_base_money_take_allows_one_card_of_any_value() -> None:
    state = allowed(table(), TakeMoney(player="Ana", cards=("blue-9-c",)))
    assert "blue-9-c" in state.players[0].hand
    assert "blue-9-c" not in state.display


@pytest.mark.rule("base.money.take")
def test_base_money_take_allows_several_cards_totalling_5() -> None:
    state = allowed(table(), TakeMoney(player="Ana", cards=("green-2-a", "orange-3-a")))
    assert {"green-2-a", "orange-3-a"} <= set(state.players[0].hand)


@pytest.mark.rule("base.money.take")
def test_base_money_take_refuses_several_cards_totalling_more_than_5() -> None:
    refused(
        table(),
        TakeMoney(player="Ana", cards=("yellow-1-a", "green-2-a", "orange-3-a")),
        "base.money.take",
        "yellow-1-a",
        "orange-3-a",
        "total 6",
    )
    refused(
        table(),
        TakeMoney(player="Ana", cards=("blue-9-c", "yellow-1-a")),
        "base.money.take",
        "blue-9-c",
        "total 10",
    )


@pytest.mark.rule("base.money.take")
def test_base_money_take_refuses_a_card_not_in_the_display() -> None:
    refused(table(), TakeMoney(player="Ana", cards=("yellow-1-b",)), "base.money.take", "yellow-1-b")
    refused(
        table(), TakeMoney(player="Ana", cards=("yellow-1-a", "yellow-1-a")), "base.money.take", "yellow-1-a"
    )


# --- base.buy.currency ----------------------------------------------------------------------


@pytest.mark.rule("base.buy.currency")
def test_base_buy_currency_allows_paying_in_the_currency_of_the_space() -> None:
    # tower-13-E is a purple building, but it stands on the orange space: orange pays for it.
    state = allowed(
        table(), BuyBuilding(player="Ana", tile="tower-13-E", payment=("orange-6-a", "orange-7-a"))
    )
    assert [t.tile for t in state.players[0].held] == ["tower-13-E"]
    assert {"orange-6-a", "orange-7-a"} <= set(state.discard)


@pytest.mark.rule("base.buy.currency")
def test_base_buy_currency_refuses_a_card_of_another_currency() -> None:
    refused(
        table(),
        BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-5-a", "green-9-a")),
        "base.buy.currency",
        "green-9-a",
        "garden-12-S",
        "blue",
    )


@pytest.mark.rule("base.buy.currency")
def test_base_buy_currency_refuses_a_tile_not_on_the_market() -> None:
    refused(
        table(),
        BuyBuilding(player="Ana", tile="garden-10-open", payment=("blue-5-a", "blue-7-a")),
        "base.buy.currency",
        "garden-10-open",
    )


# --- base.buy.amount ------------------------------------------------------------------------


@pytest.mark.rule("base.buy.amount")
def test_base_buy_amount_allows_overpaying_without_change() -> None:
    state = table(hands={"Ana": ("blue-9-a", "blue-7-a")})
    after = allowed(state, BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-9-a", "blue-7-a")))
    assert after.players[0].hand == ()  # 16 paid for 12: nothing comes back
    assert after.discard[-2:] == ("blue-9-a", "blue-7-a")


@pytest.mark.rule("base.buy.amount")
def test_base_buy_amount_refuses_paying_less_than_the_price() -> None:
    state = table(hands={"Ana": ("blue-5-a", "blue-6-a")})
    refused(
        state,
        BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-5-a", "blue-6-a")),
        "base.buy.amount",
        "garden-12-S",
        "costs 12",
        "totals 11",
    )
    refused(
        state, BuyBuilding(player="Ana", tile="garden-12-S", payment=()), "base.buy.amount", "garden-12-S"
    )


@pytest.mark.rule("base.buy.amount")
def test_base_buy_amount_refuses_cards_of_the_right_currency_not_in_the_hand() -> None:
    """blue-9-c is blue, the currency of garden-12-S's space, but not Ana's: what is wrong is
    the amount paid, not the currency (a backend looking base.buy.currency up was misled)."""
    action = BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-5-a", "blue-9-c"))
    refused(table(), action, "base.buy.amount", "blue-9-c", "Ana's hand")
    assert [v.rule for v in validate(table(), action)] == ["base.buy.amount"]


# --- base.buy.exact-bonus -------------------------------------------------------------------


@pytest.mark.rule("base.buy.exact-bonus")
def test_base_buy_exact_bonus_allows_another_action_and_repeats() -> None:
    state = buy_exact(table())
    assert state.turn.actions == 1 and state.turn.player == 0
    state = allowed(state, BuyBuilding(player="Ana", tile="tower-13-E", payment=("orange-6-a", "orange-7-a")))
    assert state.turn.actions == 1  # exact again: yet another action
    state = allowed(state, TakeMoney(player="Ana", cards=("blue-9-c",)))
    assert state.turn.actions == 0
    assert {t.tile for t in state.players[0].held} == {"garden-12-S", "tower-13-E"}


@pytest.mark.rule("base.buy.exact-bonus")
def test_base_buy_exact_bonus_allows_declining_the_extra_action() -> None:
    state = buy_exact(table())
    state = allowed(state, ReserveBuilding(player="Ana", tile="garden-12-S"))
    # Placing a held building ends the actions of the turn: it passes to Ben.
    assert state.turn.player == 1


@pytest.mark.rule("base.buy.exact-bonus")
def test_base_buy_exact_bonus_refuses_another_action_after_overpaying() -> None:
    state = table(hands={"Ana": ("blue-9-a", "blue-7-a")})
    state = allowed(state, BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-9-a", "blue-7-a")))
    assert state.turn.actions == 0
    refused(state, TakeMoney(player="Ana", cards=("blue-9-c",)), "base.turn.one-action", "Ana", "garden-12-S")


@pytest.mark.rule("base.buy.exact-bonus")
def test_base_buy_exact_bonus_refuses_to_refill_the_market_during_the_turn() -> None:
    state = arrange(table(), bag_top=("pavilion-8-open",))
    state = buy_exact(state)
    blue = next(s for s in state.market if s.currency == "blue")
    assert blue.tile is None and state.bag[0] == "pavilion-8-open"
    refused(
        state,
        BuyBuilding(player="Ana", tile="pavilion-8-open", payment=("green-9-a",)),
        "base.buy.currency",
        "pavilion-8-open",
    )


# --- base.buy.hold --------------------------------------------------------------------------


@pytest.mark.rule("base.buy.hold")
def test_base_buy_hold_allows_holding_the_building_until_the_end_of_the_turn() -> None:
    state = buy_exact(table())
    ana = state.players[0]
    assert [t.tile for t in ana.held] == ["garden-12-S"]
    assert ana.reserve == () and [p.tile for p in ana.alhambra] == ["fountain"]
    state = allowed(state, PlaceBuilding(player="Ana", tile="garden-12-S", x=1, y=0))
    assert [p.tile for p in state.players[0].alhambra] == ["fountain", "garden-12-S"]


@pytest.mark.rule("base.buy.hold")
def test_base_buy_hold_refuses_a_redesign_with_the_held_building() -> None:
    state = arrange(table(), alhambras={"Ana": [("garden-10-open", 1, 0)]})
    state = buy_exact(state)
    refused(
        state, PlaceFromReserve(player="Ana", tile="garden-12-S", x=-1, y=0), "base.buy.hold", "garden-12-S"
    )
    refused(
        state,
        SwapWithReserve(player="Ana", tile="garden-12-S", replaces="garden-10-open"),
        "base.buy.hold",
        "garden-12-S",
    )
    refused(state, RemoveToReserve(player="Ana", tile="garden-12-S"), "base.buy.hold", "garden-12-S")


@pytest.mark.rule("base.buy.hold")
def test_base_buy_hold_refuses_more_held_buildings_than_empty_market_spaces() -> None:
    """RULES.md base.buy.hold: "a bought building is held until the end of the turn" and
    base.buy.exact-bonus: "The market is not refilled during the turn.": each held building left
    its market space empty, so one held with all four spaces filled, or five held, cannot occur
    in play; two bought with the exact bonus leave two spaces empty and can."""
    two = allowed(buy_exact(table()), BuyBuilding(player="Ana", tile="tower-13-E",
                                                  payment=("orange-6-a", "orange-7-a")))
    assert len(two.players[0].held) == 2 and check_consistency(two) == []
    start = table()
    for n in (1, 5):
        ana = replace(start.players[0], held=tuple(Tile(tile=t) for t in start.bag[:n]))
        state = replace(start, bag=start.bag[n:], players=(ana, *start.players[1:]),
                        turn=Turn(player=0, actions=1, acted=True, ending=0))
        assert all(s.tile for s in state.market)
        problems = [v.message for v in check_consistency(state)]
        held = f"{n} building is held" if n == 1 else f"{n} buildings are held"
        assert any(held in m and "only 0 market spaces are empty" in m
                   for m in problems), problems


# --- base.redesign --------------------------------------------------------------------------


def redesigning() -> GameState:
    return table(alhambras={"Ana": [("garden-10-open", 1, 0)]}, reserves={"Ana": ("tower-11-open",)})


@pytest.mark.rule("base.redesign")
def test_base_redesign_allows_a_reserve_tile_into_the_alhambra() -> None:
    state = allowed(redesigning(), PlaceFromReserve(player="Ana", tile="tower-11-open", x=-1, y=0))
    ana = state.players[0]
    assert ("tower-11-open", -1, 0) in [(p.tile, p.x, p.y) for p in ana.alhambra]
    assert ana.reserve == () and state.turn.player == 1  # it was the turn's action


@pytest.mark.rule("base.redesign")
def test_base_redesign_allows_an_alhambra_tile_to_the_reserve() -> None:
    state = allowed(redesigning(), RemoveToReserve(player="Ana", tile="garden-10-open"))
    ana = state.players[0]
    assert [p.tile for p in ana.alhambra] == ["fountain"]
    assert [t.tile for t in ana.reserve] == ["tower-11-open", "garden-10-open"]


@pytest.mark.rule("base.redesign")
def test_base_redesign_allows_a_swap_into_the_same_space() -> None:
    state = allowed(
        redesigning(), SwapWithReserve(player="Ana", tile="tower-11-open", replaces="garden-10-open")
    )
    ana = state.players[0]
    assert [(p.tile, p.x, p.y) for p in ana.alhambra] == [("fountain", 0, 0), ("tower-11-open", 1, 0)]
    assert [t.tile for t in ana.reserve] == ["garden-10-open"]


# A ring hanging off one tile: the fountain reaches garden-10-open at (1, 0) only, and the ring
# (1, 0) (2, 0) (2, 1) (1, 1) goes round back to it; every side open. Taking (1, 0) away would
# cut the three others off from the fountain; any one of the others can go.
RING = [("garden-10-open", 1, 0), ("chambers-10-open", 2, 0), ("arcades-9-open", 2, 1),
        ("tower-11-open", 1, 1)]
# Reserve tiles with walls on each side, and one without.
WALLED = ("tower-11-N", "tower-11-S", "chambers-9-W", "garden-9-E", "seraglio-9-open")


def _listed(state: GameState, kind: type) -> set[Action]:
    return {a for a in legal_actions(state, player="Ana")[0] if isinstance(a, kind)}


@pytest.mark.rule("base.remove.valid-after")
def test_base_remove_valid_after_lists_exactly_the_removals_it_allows() -> None:
    """RULES.md base.remove.valid-after: "a tile may be removed to the reserve only if the
    remaining Alhambra still obeys §4: every tile still reachable from the fountain". The
    listing and the validation agree on every tile of purpose-built layouts: the tile a ring
    hangs from is neither (issue 30: `cut_tiles` with `>` for `>=` listed it)."""
    for layout, cut in [(RING, {"garden-10-open"}),
                        ([("garden-10-open", 1, 0), ("chambers-10-open", 2, 0)], {"garden-10-open"}),
                        ([("garden-10-open", 1, 0), ("chambers-10-open", -1, 0)], set())]:
        state = table(alhambras={"Ana": layout}, reserves={"Ana": ()})
        allowed_removals = {RemoveToReserve(player="Ana", tile=t) for t, _, _ in layout
                            if validate(state, RemoveToReserve(player="Ana", tile=t)) == []}
        assert _listed(state, RemoveToReserve) == allowed_removals
        assert {a.tile for a in allowed_removals} == {t for t, _, _ in layout} - cut, layout


@pytest.mark.rule("base.swap.same-space")
def test_base_swap_same_space_lists_exactly_the_swaps_it_allows() -> None:
    """RULES.md base.swap.same-space: "the reserve tile goes exactly into the removed tile's
    space and must obey §4 there (sides match with every neighbour ...)". Every pair of a
    reserve tile (walled on each side, or open) and a placed tile of the ring: listed exactly
    when validation allows it, some of each (issue 30: a wrong mask in `candidates_swap`)."""
    state = table(alhambras={"Ana": RING}, reserves={"Ana": WALLED})
    pairs = [SwapWithReserve(player="Ana", tile=new, replaces=old) for new in WALLED for old, _, _ in RING]
    allowed_swaps = {a for a in pairs if validate(state, a) == []}
    assert _listed(state, SwapWithReserve) == allowed_swaps
    assert 0 < len(allowed_swaps) < len(pairs)
    assert {a.tile for a in allowed_swaps} > {"seraglio-9-open"}


@pytest.mark.rule("base.redesign")
def test_base_redesign_refuses_tiles_the_player_does_not_have_there() -> None:
    state = redesigning()
    refused(
        state,
        PlaceFromReserve(player="Ana", tile="garden-10-open", x=-1, y=0),
        "base.redesign",
        "garden-10-open",
        "reserve",
    )
    refused(
        state,
        RemoveToReserve(player="Ana", tile="tower-11-open"),
        "base.redesign",
        "tower-11-open",
        "Alhambra",
    )
    refused(
        state,
        SwapWithReserve(player="Ana", tile="tower-11-open", replaces="tower-12-open"),
        "base.redesign",
        "tower-12-open",
    )


# --- base.turn.order ------------------------------------------------------------------------


@pytest.mark.rule("base.turn.order")
def test_base_turn_order_allows_the_turn_to_pass_to_the_left_and_wrap_round() -> None:
    state = table()
    outcome = play(state, TakeMoney(player="Ana", cards=("blue-9-c",)))
    assert outcome.state.turn == Turn.start(1)
    state = arrange(table(), active="Cyd")
    assert allowed(state, TakeMoney(player="Cyd", cards=("blue-9-c",))).turn.player == 0


@pytest.mark.rule("base.turn.order")
def test_base_turn_order_refuses_a_player_out_of_turn() -> None:
    state = table()
    refused(state, TakeMoney(player="Ben", cards=("blue-9-c",)), "base.turn.order", "Ana", "Ben")
    refused(state, TakeMoney(player="Zed", cards=("blue-9-c",)), "base.turn.order", "Zed")
    state = buy_exact(state)
    refused(state, PlaceBuilding(player="Ben", tile="garden-12-S", x=1, y=0), "base.turn.order", "Ben")


# --- base.turn.one-action -------------------------------------------------------------------


@pytest.mark.rule("base.turn.one-action")
def test_base_turn_one_action_allows_the_first_action_of_a_turn() -> None:
    state = table()
    assert state.turn.actions == 1 and not state.turn.acted
    after = allowed(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert after.turn.player == 1 and after.turn.actions == 1


@pytest.mark.rule("base.turn.one-action")
def test_base_turn_one_action_refuses_a_second_action() -> None:
    state = table(hands={"Ana": ("blue-9-a", "blue-7-a", "orange-6-a", "orange-7-a")})
    state = allowed(state, BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-9-a", "blue-7-a")))
    refused(
        state,
        BuyBuilding(player="Ana", tile="tower-13-E", payment=("orange-6-a", "orange-7-a")),
        "base.turn.one-action",
        "Ana",
    )
    refused(state, EndTurn(player="Ana"), "base.turn.one-action", "Ana")


@pytest.mark.rule("base.turn.one-action")
def test_base_turn_one_action_refuses_ending_the_turn_without_an_action() -> None:
    refused(table(), EndTurn(player="Ana"), "base.turn.one-action", "Ana")


# --- base.turn.placement --------------------------------------------------------------------


@pytest.mark.rule("base.turn.placement")
def test_base_turn_placement_allows_the_alhambra_or_the_reserve() -> None:
    state = buy_exact(table())
    state = allowed(state, BuyBuilding(player="Ana", tile="tower-13-E", payment=("orange-6-a", "orange-7-a")))
    state = allowed(state, PlaceBuilding(player="Ana", tile="tower-13-E", x=1, y=0))
    assert state.turn.player == 0  # garden-12-S is still held
    state = allowed(state, ReserveBuilding(player="Ana", tile="garden-12-S"))
    ana = state.players[0]
    assert [(p.tile, p.x, p.y) for p in ana.alhambra][1:] == [("tower-13-E", 1, 0)]
    assert [t.tile for t in ana.reserve] == ["garden-12-S"] and ana.held == ()
    assert state.turn.player == 1


@pytest.mark.rule("base.turn.placement")
def test_base_turn_placement_refuses_ending_the_turn_with_a_held_building() -> None:
    state = buy_exact(table())
    state = allowed(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert state.turn.player == 0  # the turn waits for the placement
    refused(state, EndTurn(player="Ana"), "base.turn.one-action")
    state = buy_exact(table())
    refused(state, EndTurn(player="Ana"), "base.turn.placement", "garden-12-S")


@pytest.mark.rule("base.turn.placement")
def test_base_turn_placement_refuses_a_building_that_is_not_held() -> None:
    state = buy_exact(table())
    refused(
        state, PlaceBuilding(player="Ana", tile="tower-13-E", x=1, y=0), "base.turn.placement", "tower-13-E"
    )
    refused(state, ReserveBuilding(player="Ana", tile="tower-13-E"), "base.turn.placement", "tower-13-E")


# --- base.turn.refill -----------------------------------------------------------------------


@pytest.mark.rule("base.turn.refill")
def test_base_turn_refill_allows_the_display_then_the_market_to_be_refilled() -> None:
    state = arrange(table(), deck_top=("orange-9-c", "orange-8-c"), bag_top=("pavilion-8-open",))
    outcome = play(
        state,
        BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-5-a", "blue-7-a")),
        TakeMoney(player="Ana", cards=("green-2-a", "orange-3-a")),
        PlaceBuilding(player="Ana", tile="garden-12-S", x=1, y=0),
    )
    after = outcome.state
    assert after.display == ("blue-9-c", "yellow-1-a", "orange-9-c", "orange-8-c")
    assert next(s for s in after.market if s.currency == "blue").tile == "pavilion-8-open"
    kinds = event_types(outcome)
    assert kinds.index("DisplayRefilled") < kinds.index("MarketRefilled") < kinds.index("TurnStarted")


@pytest.mark.rule("base.turn.refill")
def test_base_turn_refill_refuses_to_refill_before_the_turn_ends() -> None:
    state = arrange(table(), deck_top=("orange-9-c",), bag_top=("pavilion-8-open",))
    state = buy_exact(state)
    state = allowed(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    # Actions over, but the held garden is not placed yet: nothing is refilled.
    assert len(state.display) == 3 and state.deck[0] == "orange-9-c"
    assert next(s for s in state.market if s.currency == "blue").tile is None


@pytest.mark.rule("base.turn.refill")
def test_base_turn_refill_refuses_more_than_four_display_cards() -> None:
    state = arrange(table(), deck_top=("orange-9-c",))
    after = allowed(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert len(after.display) == 4 and after.deck[0] != "orange-9-c"
    assert "orange-9-c" in after.display and after.display.count("orange-9-c") == 1


@pytest.mark.rule("base.turn.refill")
def test_base_turn_refill_refuses_a_short_display_at_the_start_of_a_turn_while_cards_are_left() -> None:
    """base.turn.refill: "then the money display is refilled to 4 cards from the deck", and
    base.turn.deck-empty: "when the money deck is empty, the discarded (paid) cards are shuffled
    into a new deck". So when a turn starts the display is short only if both are empty: 3
    cards with a deck of 90 (the review's state) is refused, and so is 3 cards with an empty
    deck but a discard pile to shuffle."""
    state = game(seed=31)
    assert not state.turn.acted and len(state.display) == 4 and check_consistency(state) == []
    short = replace(state, display=state.display[:-1], deck=(state.display[-1], *state.deck))
    problems = check_consistency(short)
    assert [v.rule for v in problems] == ["base.turn.refill"], problems
    assert "holds 3 cards at the start of a turn" in problems[0].message
    assert f"the deck holds {len(short.deck)}" in problems[0].message
    emptied = table(deck=(), rounds_held=(1, 2))  # rounds held: no scoring card left in the deck
    assert not emptied.turn.acted and emptied.discard and check_consistency(emptied) == []
    emptied = replace(emptied, display=emptied.display[:-1], discard=(*emptied.discard, emptied.display[-1]))
    assert [v.rule for v in check_consistency(emptied)] == ["base.turn.refill"]


@pytest.mark.rule("base.turn.refill")
def test_base_turn_refill_allows_a_short_display_within_a_turn_or_with_deck_and_discard_empty() -> None:
    """base.turn.refill: the display is refilled only at the end of the turn ("then the money
    display is refilled to 4 cards from the deck"), so after a take it is short until then; and
    with deck and discard both empty (base.turn.deck-empty has nothing to shuffle) the next turn
    starts with a short display."""
    state = arrange(table(), deck_top=("orange-9-c",), bag_top=("pavilion-8-open",))
    state = buy_exact(state)
    taken = allowed(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert len(taken.display) == 3 and taken.deck and check_consistency(taken) == []
    state = table(deck=(), rounds_held=(1, 2))
    state = arrange(state, hands={"Ben": (*state.discard, "yellow-4-a")}, discard=())
    after = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",))).state
    assert not after.turn.acted and len(after.display) == 3 and check_consistency(after) == []


# --- base.turn.deck-empty -------------------------------------------------------------------


@pytest.mark.rule("base.turn.deck-empty")
def test_base_turn_deck_empty_allows_the_discard_to_become_the_deck() -> None:
    state = table(deck=(), rounds_held=(1, 2))
    discard = state.discard
    assert discard
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    after = outcome.state
    assert DeckReshuffled(cards=len(discard)) in outcome.events
    assert after.discard == () and len(after.display) == 4
    assert sorted((*after.deck, after.display[-1])) == sorted(discard)


@pytest.mark.rule("base.turn.deck-empty")
def test_base_turn_deck_empty_refuses_to_reshuffle_while_the_deck_holds_cards() -> None:
    state = table(deck=("orange-9-c",), rounds_held=(1, 2))
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert "DeckReshuffled" not in event_types(outcome)
    assert outcome.state.discard == state.discard and outcome.state.deck == ()


@pytest.mark.rule("base.turn.deck-empty")
def test_base_turn_deck_empty_refuses_cards_that_do_not_exist_when_both_are_empty() -> None:
    # Every money card is in a hand or the display: nothing to draw.
    state = table(deck=(), rounds_held=(1, 2))
    state = arrange(state, hands={"Ben": (*state.discard, "yellow-4-a")}, discard=())
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert len(outcome.state.display) == 3 and "DeckReshuffled" not in event_types(outcome)


# --- base.turn.scoring-card -----------------------------------------------------------------


@pytest.mark.rule("base.turn.scoring-card")
def test_base_turn_scoring_card_allows_a_round_after_the_refill() -> None:
    state = table(deck_top=("scoring-1", "orange-9-c"), alhambras={"Ben": [("tower-11-open", 1, 0)]})
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    after = outcome.state
    assert ScoringCardDrawn(card="scoring-1", round=1) in outcome.events
    assert "scoring-1" not in after.display and "orange-9-c" in after.display and len(after.display) == 4
    assert [b.round for b in outcome.scoring] == [1] and after.rounds_held == (1,)
    ben = outcome.scoring[0].players[1]
    assert MajorityLine(building="tower", count=1, place=1, points=6) in ben.lines
    assert after.players[1].score == 6
    kinds = event_types(outcome)
    assert kinds.index("DisplayRefilled") < kinds.index("ScoringRoundHeld") < kinds.index("TurnStarted")


@pytest.mark.rule("base.turn.scoring-card")
def test_base_turn_scoring_card_allows_both_rounds_in_one_refill_1_then_2() -> None:
    state = table(deck_top=("scoring-2", "orange-9-c", "scoring-1", "orange-8-c"))
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a", "green-2-a")))
    assert [b.round for b in outcome.scoring] == [1, 2]
    assert outcome.state.rounds_held == (1, 2)
    assert outcome.state.display[-2:] == ("orange-9-c", "orange-8-c")


@pytest.mark.rule("base.turn.scoring-card")
def test_base_turn_scoring_card_refuses_a_round_without_a_scoring_card() -> None:
    state = table(deck_top=("orange-9-c",))
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert outcome.scoring == () and outcome.state.rounds_held == ()


@pytest.mark.rule("base.turn.scoring-card")
def test_base_turn_scoring_card_refuses_a_scoring_card_in_a_hand() -> None:
    state = table()
    bad = arrange(state, hands={"Ana": ("scoring-2",)}, check=False)
    problems = check_consistency(bad)
    assert any(v.rule == "inconsistent-state" and "scoring-2" in v.message for v in problems)


def order_problems(state: GameState) -> list[str]:
    return [v.message for v in check_consistency(state) if v.rule == "base.turn.scoring-card"]


@pytest.mark.rule("base.turn.scoring-card")
def test_base_turn_scoring_card_refuses_round_2_held_before_round_1() -> None:
    """RULES.md base.setup.scoring-cards: "`scoring-1` is shuffled into the 2nd pile and
    `scoring-2` into the 4th; the piles are stacked with the 1st on top", and base.turn.scoring-card:
    both in one refill are held "scoring 1 and then scoring 2". A wisdom draw (power.wisdom) spans
    at most 6 cards, never all of pile 3: round 2 held while scoring-1 is still in the deck is
    refused; rounds 1 and 2, or 1 alone, are allowed."""
    state = table()
    for held in ((1,), (1, 2)):
        assert order_problems(arrange(state, rounds_held=held, check=False)) == []
    early = arrange(state, rounds_held=(2,), check=False)
    assert "scoring-1" in early.deck
    assert any("round 2 was held" in m and "round 1 was not" in m for m in order_problems(early))


@pytest.mark.rule("base.turn.scoring-card")
def test_base_turn_scoring_card_refuses_scoring_2_called_before_scoring_1() -> None:
    """RULES.md base.turn.scoring-card: scoring-1 comes up first, so scoring-2 is called only
    after round 1 was held or scoring-1 was called (1 then 2): called [2] after round 1 and
    [1, 2] are allowed; [2] with no round held and [2, 1] are refused."""
    state = table()
    assert order_problems(replace(arrange(state, rounds_held=(1,)), scoring_called=(2,))) == []
    assert order_problems(replace(state, scoring_called=(1, 2))) == []
    assert any("round 2 is called" in m for m in order_problems(replace(state, scoring_called=(2,))))
    assert any("not in the order" in m for m in order_problems(replace(state, scoring_called=(2, 1))))
