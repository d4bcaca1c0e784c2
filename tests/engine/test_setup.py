"""RULES.md §2 (setup): each rule id allowing and refusing."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from service.engine import GameRequestError, check_consistency, new_game
from service.engine.base.setup import deal_starting_money, form_piles
from service.engine.catalogue import CATALOGUE
from service.engine.events import GameCreated
from service.engine.module import Context
from service.engine.rng import Generator
from service.engine.state import GameState
from tests.support.helpers import NAMES, SCORING_CARDS, arrange, game, money


def _dealt_from(deck_top: tuple[str, ...], players: int = 3) -> tuple[GameState, Context]:
    """Starting money dealt from a deck whose top cards are `deck_top` (hands emptied first)."""
    state = game(players)
    rest = [
        c
        for c in (*state.deck, *state.display, *(c for p in state.players for c in p.hand))
        if c not in deck_top and c not in SCORING_CARDS
    ]
    state = replace(
        state, deck=(*deck_top, *rest), display=(), players=tuple(replace(p, hand=()) for p in state.players)
    )
    ctx = Context(Generator(7))
    return deal_starting_money(state, ctx), ctx


# --- base.setup.players ---------------------------------------------------------------------


@pytest.mark.rule("base.setup.players")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_base_setup_players_allows_two_to_six_players(players: int) -> None:
    state = new_game(NAMES[:players], seed=3).state
    assert [p.name for p in state.players] == list(NAMES[:players])
    assert check_consistency(state) == []


@pytest.mark.rule("base.setup.players")
@pytest.mark.parametrize("players", [1, 7])
def test_base_setup_players_refuses_one_or_seven_players(players: int) -> None:
    names = [*NAMES, "Gus"][:players]
    with pytest.raises(GameRequestError) as refused:
        new_game(names)
    assert [v.rule for v in refused.value.violations] == ["base.setup.players"]
    assert f"not {players}" in refused.value.violations[0].message


@pytest.mark.rule("base.setup.players")
def test_base_setup_players_refuses_two_players_of_the_same_name() -> None:
    with pytest.raises(GameRequestError) as refused:
        new_game(["Ana", "Ben", "Ana"])
    assert refused.value.violations[0].rule == "base.setup.players"
    assert "'Ana'" in refused.value.violations[0].message


def test_a_module_named_twice_is_refused_naming_the_module() -> None:
    """seed 003.1: the modules "s'afegeixen al joc bàsic d'Alhambra, separadament o combinats"
    (are added to the base game, separately or combined): a module is on or off, so a game that
    names one twice is refused naming that module (the review's `["zoo", "zoo"]` got "a module
    is named twice"); a state naming it twice is inconsistent, naming it too. Each module named
    once is a game."""
    with pytest.raises(GameRequestError) as refused:
        new_game(["Ana", "Ben"], ["zoo", "walls", "zoo"])
    assert [v.rule for v in refused.value.violations] == ["modules.unknown"]
    assert "'zoo' is named 2 times" in refused.value.violations[0].message
    state = new_game(["Ana", "Ben"], ["zoo", "walls"], seed=1).state
    assert check_consistency(state) == []
    problems = check_consistency(replace(state, modules=("zoo", "walls", "zoo")))
    assert [v.rule for v in problems] == ["inconsistent-state"]
    assert "'zoo' is named 2 times" in problems[0].message


# --- base.setup.starting-money --------------------------------------------------------------


@pytest.mark.rule("base.setup.starting-money")
def test_base_setup_starting_money_allows_drawing_round_the_table_until_20() -> None:
    top = (
        "yellow-9-a",
        "yellow-9-b",
        "yellow-2-a",  # Ana: 20
        "green-5-a",
        "green-5-b",
        "green-5-c",
        "green-4-a",
        "green-1-a",  # Ben: 20
        "blue-9-a",
        "blue-8-a",
        "blue-7-a",
    )  # Cyd: 24
    state, _ = _dealt_from(top)
    assert [p.hand for p in state.players] == [top[:3], top[3:8], top[8:]]
    assert state.deck[0] not in top


@pytest.mark.rule("base.setup.starting-money")
@pytest.mark.parametrize("seed", range(8))
def test_base_setup_starting_money_allows_at_least_20_in_every_new_game(seed: int) -> None:
    for p in new_game(NAMES[:6], seed=seed).state.players:
        assert money(*p.hand) >= 20, p


@pytest.mark.rule("base.setup.starting-money")
def test_base_setup_starting_money_refuses_a_card_once_20_is_reached() -> None:
    # Ana reaches 20 with her third card: the 5 after it goes to Ben.
    top = (
        "yellow-9-a",
        "yellow-9-b",
        "yellow-2-a",
        "orange-5-a",
        "green-9-a",
        "green-9-b",
        "green-9-c",
        "blue-9-a",
        "blue-9-b",
        "blue-9-c",
    )
    state, _ = _dealt_from(top)
    assert state.players[0].hand == top[:3]
    assert state.players[1].hand[0] == "orange-5-a"


@pytest.mark.rule("base.setup.starting-money")
@pytest.mark.parametrize("seed", range(8))
def test_base_setup_starting_money_refuses_more_cards_than_needed_and_scoring_cards(seed: int) -> None:
    for p in new_game(NAMES[:6], seed=seed).state.players:
        assert money(*p.hand[:-1]) < 20, p  # the last card drawn was needed
        assert not set(p.hand) & set(SCORING_CARDS)


# --- base.setup.first-player ----------------------------------------------------------------


@pytest.mark.rule("base.setup.first-player")
def test_base_setup_first_player_allows_the_fewest_cards_to_start() -> None:
    top = (
        "yellow-1-a",
        "yellow-9-a",
        "yellow-9-b",
        "yellow-1-b",  # Ana: 4 cards, 20
        "green-9-a",
        "green-9-b",
        "green-9-c",  # Ben: 3 cards, 27
        "blue-5-a",
        "blue-5-b",
        "blue-5-c",
        "blue-6-a",
    )  # Cyd: 4 cards, 21
    state, ctx = _dealt_from(top)
    assert [len(p.hand) for p in state.players] == [4, 3, 4]
    assert state.turn.player == 1
    assert ctx.events == [GameCreated(players=NAMES[:3], first_player="Ben")]


@pytest.mark.rule("base.setup.first-player")
def test_base_setup_first_player_allows_the_lowest_total_among_the_fewest_cards() -> None:
    top = (
        "yellow-9-a",
        "yellow-9-b",
        "yellow-9-c",  # Ana: 27
        "green-9-a",
        "green-9-b",
        "green-3-a",  # Ben: 21
        "blue-8-a",
        "blue-8-b",
        "blue-8-c",
    )  # Cyd: 24
    state, _ = _dealt_from(top)
    assert state.turn.player == 1


@pytest.mark.rule("base.setup.first-player")
def test_base_setup_first_player_refuses_a_lower_total_with_more_cards() -> None:
    top = (
        "yellow-5-a",
        "yellow-5-b",
        "yellow-5-c",
        "green-5-a",  # Ana: 4, 20
        "blue-9-a",
        "blue-9-b",
        "blue-9-c",  # Ben: 3 cards, 27
        "orange-9-a",
        "orange-9-b",
        "orange-9-c",
    )  # Cyd: 3 cards, 27
    state, _ = _dealt_from(top)
    assert money(*state.players[0].hand) < money(*state.players[1].hand)
    assert state.turn.player != 0
    assert state.turn.player == 1  # tied on cards and total: the earliest seat


@pytest.mark.rule("base.setup.first-player")
def test_base_setup_first_player_refuses_the_later_seat_in_a_full_tie() -> None:
    top = (
        "yellow-9-a",
        "yellow-9-b",
        "yellow-3-a",  # Ana: 21
        "green-9-a",
        "green-9-b",
        "green-2-a",  # Ben: 20
        "blue-9-a",
        "blue-9-b",
        "blue-2-a",
    )  # Cyd: 20, same count and total as Ben
    state, _ = _dealt_from(top)
    assert state.turn.player == 1


# --- base.setup.display ---------------------------------------------------------------------


@pytest.mark.rule("base.setup.display")
@pytest.mark.parametrize("players", [3, 6])
def test_base_setup_display_allows_four_cards_and_four_market_tiles(players: int) -> None:
    state = game(players, seed=5)
    assert len(state.display) == 4 and all(c in CATALOGUE.money for c in state.display)
    assert [s.currency for s in state.market] == ["yellow", "green", "blue", "orange"]
    assert all(s.tile in CATALOGUE.tiles for s in state.market)
    assert len(state.bag) == 54 - 4


@pytest.mark.rule("base.setup.display")
def test_base_setup_display_refuses_a_fifth_display_card() -> None:
    state = game()
    bad = arrange(state, display=(*state.display, "yellow-1-c"), check=False)
    problems = check_consistency(bad)
    assert [v.rule for v in problems] == ["inconsistent-state"]
    assert "holds 5 cards" in problems[0].message


@pytest.mark.rule("base.setup.display")
def test_base_setup_display_refuses_an_empty_market_space_at_the_start_of_a_turn() -> None:
    state = arrange(game(), market={"green": None}, check=False)
    problems = check_consistency(state)
    assert [v.rule for v in problems] == ["inconsistent-state"]
    assert "green market space is empty" in problems[0].message


# --- base.setup.scoring-cards ---------------------------------------------------------------


def _pile_bounds(cards: int) -> list[tuple[int, int]]:
    """[start, end) of each of the 5 piles of a deck of `cards` money cards plus both scoring
    cards (piles as equal as possible, the first ones larger)."""
    size, extra = divmod(cards, 5)
    bounds, start = [], 0
    for i in range(5):
        end = start + size + (1 if i < extra else 0) + (1 if i in (1, 3) else 0)
        bounds.append((start, end))
        start = end
    return bounds


@pytest.mark.rule("base.setup.scoring-cards")
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (3, 99)])
def test_base_setup_scoring_cards_allows_them_in_the_2nd_and_4th_piles(players: int, seed: int) -> None:
    deck = new_game(NAMES[:players], seed=seed).state.deck
    bounds = _pile_bounds(len(deck) - 2)
    start, end = bounds[1]
    assert start <= deck.index("scoring-1") < end
    start, end = bounds[3]
    assert start <= deck.index("scoring-2") < end


@pytest.mark.rule("base.setup.scoring-cards")
def test_base_setup_scoring_cards_allows_piles_as_equal_as_possible() -> None:
    cards = (*tuple(f"{c}-{v}-a" for c in ("yellow", "green") for v in range(1, 10)), "blue-1-a", "blue-2-a")
    state = replace(game(), deck=cards)  # 20 cards: 5 piles of 4
    deck = form_piles(state, Context(Generator(11))).deck
    assert len(deck) == 22
    assert deck[:4] == cards[:4] and deck[9:13] == cards[8:12] and deck[18:] == cards[16:]
    assert sorted(deck[4:9]) == sorted((*cards[4:8], "scoring-1"))
    assert sorted(deck[13:18]) == sorted((*cards[12:16], "scoring-2"))


@pytest.mark.rule("base.setup.scoring-cards")
@pytest.mark.parametrize("seed", range(10))
def test_base_setup_scoring_cards_refuses_them_in_piles_1_3_and_5(seed: int) -> None:
    deck = new_game(NAMES[:3], seed=seed).state.deck
    bounds = _pile_bounds(len(deck) - 2)
    for pile in (0, 2, 4):
        start, end = bounds[pile]
        assert not set(deck[start:end]) & set(SCORING_CARDS), (pile, deck[start:end])


@pytest.mark.rule("base.setup.scoring-cards")
def test_base_setup_scoring_cards_refuses_a_scoring_card_in_the_display() -> None:
    state = game()
    bad = arrange(state, display=("scoring-1", *state.display[1:]), check=False)
    problems = check_consistency(bad)
    assert any(v.rule == "inconsistent-state" and "scoring-1" in v.message for v in problems)
