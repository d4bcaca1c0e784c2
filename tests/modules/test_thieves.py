"""The Thieves (RULES.md §T, seed 003 "Els lladres"): one test that allows and one that refuses per
rule id, tests of the seed's sentences (003.11 to 003.18, quoted in Catalan with an English
translation) written from the text, the thieves' window through the HTTP API, and random
complete games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec
import pytest
from litestar.testing import TestClient
from msgspec.structs import replace

from service.api.app import create_app
from service.engine import GameRequestError, check_consistency, new_game, validate
from service.engine.actions import BuyBuilding, TakeMoney
from service.engine.modules.thieves.actions import Steal, ThiefPlayed
from service.engine.modules.thieves.data import CARDS, CURRENCY, DEAL
from service.engine.modules.thieves.model import ThievesState
from service.engine.state import GameState
from service.settings import Settings
from tests.support.helpers import NAMES, SCORING_CARDS, allowed, arrange, play, refused
from tests.support.play import play_random_game

DISPLAY = ("yellow-1-a", "green-2-a", "blue-3-a", "orange-4-a")


def thieves(state: GameState) -> ThievesState:
    assert state.thieves is not None
    return state.thieves


def with_thieves(state: GameState, hands: Mapping[str, Sequence[str]]) -> GameState:
    """Each named player holds exactly the named thieves; the others none; the rest of the
    cards are out of the game (as many as setup removes) or played."""
    n = len(state.players)
    held = [c for h in hands.values() for c in h]
    rest = [c for c in CARDS if c not in held]
    gone = len(CARDS) - n * DEAL[n]
    new = ThievesState(hands=tuple(tuple(hands.get(p.name, ())) for p in state.players),
                       out=tuple(rest[:gone]), played=tuple(rest[gone:]))
    state = replace(state, thieves=new)
    assert check_consistency(state) == []
    return state


def window(players: int = 3, hands: Mapping[str, Sequence[str]] | None = None,
           deck_top: Sequence[str] = ("yellow-5-a", "green-6-a", "blue-7-a", "orange-8-a"),
           modules: tuple[str, ...] = ()) -> GameState:
    """Ana's turn just ended (she took yellow-1-a): the window is open and Ben is next."""
    state = new_game(NAMES[:players], ["thieves", *modules], seed=3).state
    state = arrange(state, display=DISPLAY, deck_top=deck_top, active="Ana")
    state = with_thieves(state, hands or {})
    state = allowed(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert thieves(state).window and thieves(state).ended == 0 and state.active.name == "Ben"
    return state


# --- thieves.setup ---------------------------------------------------------------------------


@pytest.mark.rule("thieves.setup")
@pytest.mark.parametrize(("players", "each"), [(2, 4), (3, 4), (4, 3), (5, 2), (6, 2)])
def test_setup_allows_dealing_thieves_by_player_count(players: int, each: int) -> None:
    """thieves.setup, seeds 003.11, 003.12: "Repartiu quatre lladres a cadascú amb dos o tres
    jugadors, tres amb quatre, i dos amb cinc o sis; retireu els sobrants." (Deal four thieves to
    each player with two or three players, three with four, and two with five or six; remove the
    rest.) "Cada carta mostra una moneda." (Each card shows a currency.)"""
    state = new_game(NAMES[:players], ["thieves"], seed=players).state
    t = thieves(state)
    assert [len(h) for h in t.hands] == [each] * players
    assert len(t.out) == 12 - players * each and not t.played and not t.window
    assert sorted([*t.out, *(c for h in t.hands for c in h)]) == sorted(CARDS)
    assert {c.split("-")[1] for c in CARDS} == {"yellow", "green", "blue", "orange"}
    assert sorted(CURRENCY.values()) == sorted(["yellow", "green", "blue", "orange"] * 3)  # Default data
    assert len(t.hands) == players  # with two players Dirk gets none


@pytest.mark.rule("thieves.setup")
def test_setup_refuses_a_state_with_thieves_for_dirk_or_the_wrong_count() -> None:
    """thieves.setup, seed 003.11: "Repartiu quatre lladres a cadascú amb dos o tres jugadors [...]
    retireu els sobrants." (Four each with two players, to the players only; the rest removed.)"""
    state = new_game(NAMES[:2], ["thieves"], seed=2).state
    t = thieves(state)
    bad = replace(state, thieves=replace(t, hands=(*t.hands, t.out[:2]), out=t.out[2:]))
    assert any(v.rule == "thieves.setup" for v in check_consistency(bad))
    bad = replace(state, thieves=replace(t, out=(), played=t.out))
    assert any(v.rule == "thieves.setup" for v in check_consistency(bad))


def dealt(players: int, sizes: Sequence[int]) -> GameState:
    """A new game whose thief hands hold `sizes` cards (in seat order); the rest of the deal
    (as many as setup deals) played, the others out of the game as at setup."""
    state = new_game(NAMES[:players], ["thieves"], seed=players).state
    gone = len(CARDS) - players * DEAL[players]
    cards = list(CARDS)
    hands = []
    for n in sizes:
        hands.append(tuple(cards[:n]))
        del cards[:n]
    return replace(state, thieves=ThievesState(hands=tuple(hands), out=tuple(cards[:gone]),
                                               played=tuple(cards[gone:])))


@pytest.mark.rule("thieves.setup")
@pytest.mark.parametrize(("players", "sizes"), [(4, (3, 3, 3, 3)), (4, (3, 0, 2, 1)), (2, (4, 0)),
                                                (6, (2, 2, 2, 2, 2, 1))])
def test_setup_allows_hands_up_to_the_deal_less_the_thieves_played(players: int,
                                                                   sizes: tuple[int, ...]) -> None:
    """thieves.setup, seed 003.11: "Repartiu quatre lladres a cadascú amb dos o tres jugadors,
    tres amb quatre, i dos amb cinc o sis" (Deal four thieves to each with two or three players,
    three with four, two with five or six): a hand holds the deal, less the thieves played."""
    assert check_consistency(dealt(players, sizes)) == []


@pytest.mark.rule("thieves.setup")
@pytest.mark.parametrize(("players", "sizes", "over"), [
    (4, (5, 1, 3, 3), "Ana"), (2, (8, 0), "Ana"), (4, (3, 3, 2, 4), "Dov"), (5, (3, 0, 0, 0, 0), "Ana")])
def test_setup_refuses_a_hand_above_the_deal(players: int, sizes: tuple[int, ...], over: str) -> None:
    """thieves.setup, seed 003.11: "Repartiu quatre lladres a cadascú amb dos o tres jugadors,
    tres amb quatre, i dos amb cinc o sis; retireu els sobrants." (Four each with two or three
    players, three with four, two with five or six; remove the rest.) Nothing ever gives a player
    a thief, so a hand above the deal cannot occur (it would let that player steal more often
    than the deal allows), even when the table's total is right."""
    problems = check_consistency(dealt(players, sizes))
    assert [v.rule for v in problems] == ["thieves.setup"]
    assert over in problems[0].message and str(DEAL[players]) in problems[0].message


@pytest.mark.rule("thieves.order")
def test_order_refuses_a_window_still_open_after_the_next_player_acted() -> None:
    """thieves.order (RULES.md: "The window closes when the next player takes an action"), seeds
    003.13, 003.14: the thief acts "Després d'un torn acabat" (after a completed turn), never
    once the next turn is under way: a state whose window is still open after Ben, the next
    player, bought a building cannot occur; the same state as Ben's turn starts can."""
    state = window(hands={"Cyd": ("thief-green-1",)})
    assert check_consistency(state) == []
    state = arrange(state, hands={"Ben": ("blue-2-a",)}, market={"blue": "pavilion-2-NEW"})
    after = allowed(state, BuyBuilding(player="Ben", tile="pavilion-2-NEW", payment=("blue-2-a",)))
    still_open = replace(after, thieves=replace(thieves(after), window=True, ended=0))
    problems = check_consistency(still_open)
    assert [v.rule for v in problems] == ["thieves.order"]
    assert "Ben" in problems[0].message


def full_deal_window() -> GameState:
    """Ana's turn just ended (she took yellow-1-a), Ben is next; every player holds the 4
    thieves dealt and none was played yet."""
    state = new_game(NAMES[:3], ["thieves"], seed=3).state
    state = arrange(state, display=DISPLAY, deck_top=("yellow-5-a", "green-6-a"), active="Ana")
    state = allowed(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert [len(h) for h in thieves(state).hands] == [4, 4, 4] and not thieves(state).played
    return state


@pytest.mark.rule("thieves.order")
def test_order_allows_a_window_naming_the_last_thief_once_that_player_stole() -> None:
    """thieves.order, seeds 003.13, 003.16: "pots descartar un lladre per agafar una carta
    visible d'aquella moneda" (you may discard a thief to take a visible card of that currency),
    "seguiu l'ordre de torn" (follow the turn order): once Cyd discarded a thief, the window
    names him as its last thief."""
    state = full_deal_window()
    thief = thieves(state).hands[2][0]
    card = next(c for c in state.display if c.split("-")[0] == CURRENCY[thief])
    after = allowed(state, Steal(player="Cyd", thief=thief, card=card))
    assert thieves(after).last == 2 and thieves(after).played == (thief,)
    assert check_consistency(after) == []


@pytest.mark.rule("thieves.order")
def test_order_refuses_a_window_naming_a_last_thief_when_no_thief_was_played() -> None:
    """thieves.order, seeds 003.13, 003.16: the last thief of a window is a player who
    discarded a thief ("pots descartar un lladre"); with every hand holding the 4 dealt and
    none played, no one stole yet, so a window naming Cyd as its last thief cannot occur (the
    order of the window's thefts is read from it)."""
    state = full_deal_window()
    assert check_consistency(state) == []
    named = replace(state, thieves=replace(thieves(state), last=2))
    problems = check_consistency(named)
    assert [v.rule for v in problems] == ["thieves.order"]
    assert "Cyd" in problems[0].message and "played no thief" in problems[0].message


@pytest.mark.rule("thieves.not-next")
def test_not_next_refuses_a_window_naming_the_next_player_as_its_last_thief_naming_him() -> None:
    """thieves.not-next, seed 003.14: "No pots fer-ho immediatament abans del teu propi torn."
    (You may not do it immediately before your own turn.) The refusal names Ben, the next
    player."""
    state = full_deal_window()
    problems = check_consistency(replace(state, thieves=replace(thieves(state), last=1)))
    assert [v.rule for v in problems] == ["thieves.not-next"]
    assert "Ben" in problems[0].message


@pytest.mark.rule("thieves.order")
def test_order_refuses_a_window_naming_the_wrong_seat_as_ended_naming_both_seats() -> None:
    """thieves.order, seed 003.13: "Després d'un torn acabat" (after a completed turn): the
    window follows Ana's turn (Ben is next), so naming Ben's turn as ended is refused, naming
    him and Ana."""
    state = full_deal_window()
    problems = check_consistency(replace(state, thieves=replace(thieves(state), ended=1)))
    assert [v.rule for v in problems] == ["thieves.order"]
    assert "seat 1 (Ben)" in problems[0].message and "seat 0 (Ana)" in problems[0].message


@pytest.mark.rule("thieves.steal")
def test_steal_refuses_a_closed_window_naming_seats_naming_them() -> None:
    """thieves.steal, seed 003.13: thieves act "Després d'un torn acabat" (after a completed
    turn), until the next player acts; a closed window names no seat, and the refusal names
    the seats it names."""
    state = full_deal_window()
    closed = replace(thieves(state), window=False, ended=0, last=2)
    problems = check_consistency(replace(state, thieves=closed))
    assert [v.rule for v in problems] == ["thieves.steal", "thieves.steal"]
    assert "seat 0 (Ana)" in problems[0].message and "seat 2 (Cyd)" in problems[1].message


# --- thieves.steal ---------------------------------------------------------------------------


@pytest.mark.rule("thieves.steal")
def test_steal_allows_several_thieves_in_the_window_and_refills_the_display() -> None:
    """thieves.steal, seeds 003.13, 003.15: "Després d'un torn acabat, pots descartar un lladre
    per agafar una carta visible d'aquella moneda" (After a completed turn, you may discard a
    thief to take a visible card of its currency). "Reposeu el mercat després de cada robatori;
    és possible jugar més d'un lladre, sempre que respecteu aquest moment d'ús." (Refill the
    market after each theft; playing more than one thief is possible, as long as you keep to
    this moment of use.)"""
    state = window(hands={"Cyd": ("thief-green-1", "thief-blue-1")})
    assert state.display == (*DISPLAY[1:], "yellow-5-a")
    outcome = play(state, Steal(player="Cyd", thief="thief-green-1", card="green-2-a"),
                   Steal(player="Cyd", thief="thief-blue-1", card="blue-3-a"))
    after = outcome.state
    cyd = after.players[2]
    assert {"green-2-a", "blue-3-a"} <= set(cyd.hand)
    assert thieves(after).hands[2] == () and set(thieves(after).played) >= {"thief-green-1", "thief-blue-1"}
    assert after.display == ("orange-4-a", "yellow-5-a", "green-6-a", "blue-7-a")
    assert any(isinstance(e, ThiefPlayed) for e in outcome.events)
    assert after.active.name == "Ben" and after.turn.actions == 1


@pytest.mark.rule("thieves.steal")
def test_steal_allows_a_scoring_card_drawn_in_the_refill_to_be_scored_at_once() -> None:
    """thieves.steal, seed 003.15: "Reposeu el mercat després de cada robatori" (Refill the market
    after each theft): a scoring card that refill draws is scored as at any refill."""
    state = window(hands={"Cyd": ("thief-green-1",)},
                   deck_top=("yellow-5-a", SCORING_CARDS[0], "green-6-a"))
    outcome = play(state, Steal(player="Cyd", thief="thief-green-1", card="green-2-a"))
    assert [b.round for b in outcome.scoring] == [1]
    assert outcome.state.rounds_held == (1,) and outcome.state.scoring_called == ()
    assert outcome.state.display[-1] == "green-6-a"


@pytest.mark.rule("thieves.steal")
def test_steal_allows_a_visible_card_of_any_value_but_refuses_one_not_visible() -> None:
    """thieves.steal, seed 003.13: "pots descartar un lladre per agafar una carta visible d'aquella
    moneda, de qualsevol valor" (you may discard a thief to take a visible card of that currency,
    of any value): a yellow 9, above the 5 of a take of several cards, but not the yellow 8
    still face down in the deck."""
    state = window(hands={"Cyd": ("thief-yellow-1", "thief-yellow-2")},
                   deck_top=("yellow-9-a", "green-6-a", "blue-7-a", "orange-8-a", "yellow-8-a"))
    assert "yellow-9-a" in state.display and "yellow-8-a" in state.deck
    refused(state, Steal(player="Cyd", thief="thief-yellow-2", card="yellow-8-a"), "thieves.steal",
            "yellow-8-a")
    after = allowed(state, Steal(player="Cyd", thief="thief-yellow-1", card="yellow-9-a"))
    assert "yellow-9-a" in after.players[2].hand and "thief-yellow-1" in thieves(after).played


@pytest.mark.rule("thieves.steal")
def test_steal_refuses_without_an_open_window_or_a_held_thief() -> None:
    """thieves.steal, seed 003.13: "Després d'un torn acabat, pots descartar un lladre" (After a
    completed turn you may discard a thief): not before the first turn, not with a thief one does
    not hold, not once the next player has acted."""
    state = new_game(NAMES[:3], ["thieves"], seed=3).state
    state = arrange(state, display=DISPLAY, active="Ana")
    state = with_thieves(state, {"Cyd": ("thief-green-1",)})
    refused(state, Steal(player="Cyd", thief="thief-green-1", card="green-2-a"), "thieves.steal", "window")
    state = window(hands={"Cyd": ("thief-green-1",)})
    refused(state, Steal(player="Cyd", thief="thief-green-2", card="green-2-a"), "thieves.steal",
            "thief-green-2")
    # Ana's window closes when Ben, the next player, takes an action; his turn ending opens his.
    after = allowed(state, TakeMoney(player="Ben", cards=("orange-4-a",)))
    assert thieves(after).window and thieves(after).ended == 1 and after.active.name == "Cyd"
    closed = replace(after, thieves=replace(thieves(after), window=False, ended=None))
    assert check_consistency(closed) == []
    refused(closed, Steal(player="Ana", thief="thief-green-1", card="green-2-a"), "thieves.steal", "window")


@pytest.mark.rule("thieves.steal")
def test_steal_refuses_once_the_next_player_took_an_action_that_leaves_the_turn_going() -> None:
    """thieves.steal, seeds 003.13, 003.15: only "Després d'un torn acabat" (after a completed
    turn) and "sempre que respecteu aquest moment d'ús" (keeping to this moment of use): once the
    next turn is under way, no theft until it is over."""
    state = window(hands={"Cyd": ("thief-green-1",)})
    state = arrange(state, hands={"Ben": ("blue-2-a",)}, market={"blue": "pavilion-2-NEW"})
    after = allowed(state, BuyBuilding(player="Ben", tile="pavilion-2-NEW", payment=("blue-2-a",)))
    assert after.active.name == "Ben" and after.turn.actions == 1  # exact: another action
    assert not thieves(after).window and thieves(after).ended is None
    refused(after, Steal(player="Cyd", thief="thief-green-1", card="green-2-a"), "thieves.steal", "window")


# --- thieves.not-next ------------------------------------------------------------------------


@pytest.mark.rule("thieves.not-next")
def test_not_next_allows_the_player_whose_turn_ended() -> None:
    """thieves.not-next, seed 003.14: "No pots fer-ho immediatament abans del teu propi torn." (You
    may not do it immediately before your own turn.) Ana's own turn just ended: with two players
    Ben's turn comes next, so she may."""
    state = window(players=2, hands={"Ana": ("thief-blue-1",)})
    after = allowed(state, Steal(player="Ana", thief="thief-blue-1", card="blue-3-a"))
    assert "blue-3-a" in after.players[0].hand


@pytest.mark.rule("thieves.not-next")
def test_not_next_refuses_the_next_player() -> None:
    """thieves.not-next, seeds 003.14, 003.18: "No pots fer-ho immediatament abans del teu propi
    torn." (You may not do it immediately before your own turn.) "A diferència del visir, que sí
    que pot intervenir abans del torn del propietari, el lladre té aquesta prohibició expressa."
    (Unlike the vizier, who may step in before its owner's turn, the thief is expressly
    forbidden to.) Ben's turn comes next."""
    state = window(hands={"Ben": ("thief-blue-1",)})
    refused(state, Steal(player="Ben", thief="thief-blue-1", card="blue-3-a"), "thieves.not-next", "Ben")


# --- thieves.order ---------------------------------------------------------------------------


@pytest.mark.rule("thieves.order")
def test_order_allows_thefts_from_the_second_player_on_the_left_round_to_the_one_whose_turn_ended() -> None:
    """thieves.order, seed 003.16: "Si diversos jugadors volen actuar, seguiu l'ordre de torn." (If
    several players want to act, follow the turn order.) RULES.md decides where it starts."""
    state = window(players=4, hands={"Cyd": ("thief-green-1",), "Dov": ("thief-blue-1",),
                                     "Ana": ("thief-orange-1",)})
    after = play(state, Steal(player="Cyd", thief="thief-green-1", card="green-2-a"),
                 Steal(player="Dov", thief="thief-blue-1", card="blue-3-a"),
                 Steal(player="Ana", thief="thief-orange-1", card="orange-4-a")).state
    assert thieves(after).last == 0


@pytest.mark.rule("thieves.order")
def test_order_refuses_a_theft_earlier_in_the_order_than_the_last_thief() -> None:
    """thieves.order, seed 003.16: "seguiu l'ordre de torn" (follow the turn order): after Dov's
    theft, Cyd (before him in the order) may no longer steal."""
    state = window(players=4, hands={"Cyd": ("thief-green-1",), "Dov": ("thief-blue-1",)})
    after = allowed(state, Steal(player="Dov", thief="thief-blue-1", card="blue-3-a"))
    refused(after, Steal(player="Cyd", thief="thief-green-1", card="green-2-a"), "thieves.order",
            "Dov", "Cyd")


# --- thieves.money-only ----------------------------------------------------------------------


@pytest.mark.rule("thieves.money-only")
def test_money_only_allows_a_money_card_of_the_thief_currency() -> None:
    """thieves.money-only, seeds 003.12, 003.13: the thief takes "una carta visible d'aquella
    moneda" (a visible card of that currency), the one the thief card shows."""
    state = window(hands={"Cyd": ("thief-orange-1",)})
    after = allowed(state, Steal(player="Cyd", thief="thief-orange-1", card="orange-4-a"))
    assert "orange-4-a" in after.players[2].hand


@pytest.mark.rule("thieves.steal")
def test_steal_refuses_a_money_card_of_another_currency_citing_steal() -> None:
    """thieves.steal, seed 003.13: "pots descartar un lladre per agafar una carta visible d'aquella
    moneda" (you may discard a thief to take a visible card of that currency): a blue thief
    taking a green card breaks thieves.steal (a card of the thief's currency), and only it: the
    green card is money, so thieves.money-only is not the rule it breaks."""
    state = window(hands={"Cyd": ("thief-blue-1",)})
    problems = validate(state, Steal(player="Cyd", thief="thief-blue-1", card="green-2-a"))
    assert [v.rule for v in problems] == ["thieves.steal"]
    assert "green-2-a" in problems[0].message and "blue" in problems[0].message
    after = allowed(state, Steal(player="Cyd", thief="thief-blue-1", card="blue-3-a"))
    assert "blue-3-a" in after.players[2].hand


@pytest.mark.rule("thieves.money-only")
def test_money_only_refuses_a_wall_card() -> None:
    """thieves.money-only, seed 003.17: "No pots robar oficines de canvi ni altres cartes
    especials." (You may not steal exchange offices or other special cards.) A wall card set
    aside beside the display is such a special card; exchange offices are not supported
    (RULES.md §H)."""
    state = window(hands={"Cyd": ("thief-orange-1",)}, modules=("walls",))
    assert state.walls is not None
    walled = replace(state, deck=tuple(c for c in state.deck if c != "wall-N"),
                     walls=replace(state.walls, aside=("wall-N",)))
    assert check_consistency(walled) == []
    refused(walled, Steal(player="Cyd", thief="thief-orange-1", card="wall-N"), "thieves.money-only",
            "wall-N")
    with pytest.raises(GameRequestError) as unsupported:
        new_game(NAMES[:3], ["thieves", "exchange-offices"])
    assert any(v.rule == "modules.unsupported" and "exchange-offices" in v.message
               for v in unsupported.value.violations)


# --- the HTTP API ----------------------------------------------------------------------------


def test_the_api_applies_a_theft_and_refuses_one_by_the_next_player() -> None:
    state = window(hands={"Ben": ("thief-blue-1",), "Cyd": ("thief-green-1",)})
    body = msgspec.json.decode(msgspec.json.encode(state))
    theft = {"type": "steal", "player": "Cyd", "thief": "thief-green-1", "card": "green-2-a"}
    with TestClient(create_app(Settings())) as client:
        listed = client.post("/v1/legal-actions", json={"state": body, "limit": 100}).json()
        assert theft in listed["actions"]
        r = client.post("/v1/apply", json={"state": body, "action": theft})
        assert r.status_code == 200
        after = r.json()["state"]
        assert "green-2-a" in after["players"][2]["hand"]
        assert after["thieves"]["last"] == 2
        r = client.post("/v1/validate", json={"state": after, "action": {
            "type": "steal", "player": "Ben", "thief": "thief-blue-1", "card": "blue-3-a"}})
        answer = r.json()
        assert answer["valid"] is False
        assert answer["violations"][0]["rule"] == "thieves.not-next"


# --- random complete games -------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_thieves_reach_the_end(players: int) -> None:
    game = play_random_game(600 + players, players, ("thieves",), list_every=40)
    assert game.states[-1].phase == "over"
    assert game.rounds[-1] == 3
    assert any(isinstance(a, Steal) for a in game.actions)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_with_thieves_zoo_and_craftsmen_reach_the_end(players: int) -> None:
    game = play_random_game(650 + players, players, ("thieves", "zoo", "craftsmen"), list_every=40)
    assert game.states[-1].phase == "over"
    assert game.rounds[-1] == 3
    assert any(isinstance(a, Steal) for a in game.actions)
