"""The Change (RULES.md §K, seed 003 "El canvi"): one test that allows and one that refuses per
rule id, the seed's example (paying 17 for a building of 10 gives 3 coins), tests of its
sentences (003.19 to 003.27, quoted in Catalan with an English translation) written from the
text, coins with the treasure chamber and the leftovers, the listing, and random complete
games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest
from msgspec.structs import replace

from service.engine import GameRequestError, check_consistency, legal_actions, new_game
from service.engine.actions import BuyBuilding, ReserveBuilding
from service.engine.base.turn import hand_out_leftover, richest
from service.engine.module import Context
from service.engine.modules.change.actions import CoinsGiven, CoinsSpent
from service.engine.modules.change.data import COINS
from service.engine.modules.change.model import ChangeState
from service.engine.modules.treasure.actions import BuyTreasure
from service.engine.rng import Generator
from service.engine.state import GameState
from tests.support.helpers import NAMES, allowed, arrange, play, refused
from tests.support.play import play_random_game


def change_game(players: int = 3, seed: int = 1, modules: Sequence[str] = ("change",)) -> GameState:
    return new_game(NAMES[:players], list(modules), seed=seed).state


def change(state: GameState) -> ChangeState:
    assert state.change is not None
    return state.change


def with_coins(state: GameState, coins: Mapping[str, Sequence[str]],
               bag: Sequence[str] | None = None) -> GameState:
    """The named players hold the named coins (from the bag); with `bag`, the bag holds only
    those and the rest go to the last player (so every coin stays in the game once)."""
    c = change(state)
    held = [list(h) for h in c.coins]
    pool = set(c.bag)
    for name, mine in coins.items():
        seat = state.seat_of(name)
        for coin in mine:
            pool.remove(coin)
            held[seat].append(coin)
    if bag is not None:
        rest = sorted(pool - set(bag))
        held[-1] += rest
        pool = set(bag)
    state = replace(state, change=ChangeState(bag=tuple(sorted(pool)), coins=tuple(tuple(h) for h in held)))
    assert check_consistency(state) == [], check_consistency(state)
    return state


def coins_of(state: GameState, name: str) -> tuple[str, ...]:
    return change(state).coins[state.seat_of(name)]


def buy(state: GameState, space: str, tile: str, cards: tuple[str, ...],
        coins: Mapping[str, Sequence[str]] | None = None,
        bag: Sequence[str] | None = None) -> tuple[GameState, BuyBuilding]:
    """Ana, active, with `cards` in hand and `tile` on the `space` market space."""
    state = arrange(state, market={space: tile}, hands={"Ana": cards}, active="Ana")
    return with_coins(state, coins or {}, bag), BuyBuilding(player="Ana", tile=tile, payment=cards)


# --- change.give ----------------------------------------------------------------------------


@pytest.mark.rule("change.give")
def test_change_give_allows_the_seeds_example_paying_17_for_10_gives_3_coins() -> None:
    """change.give, seeds 003.20, 003.21: "Quan paguis de més per un edifici, treu a l'atzar una
    moneda per cada dues unitats de sobrepreu." (When you overpay for a building, draw one coin
    at random for every two units overpaid.) "Per exemple, pagar 17 per un edifici de 10 dona
    tres monedes; la unitat sobrant no dona res." (For example, paying 17 for a building of 10
    gives three coins; the unit left over gives nothing.)"""
    state, action = buy(change_game(), "green", "arcades-10-open", ("green-9-a", "green-8-a"))
    outcome = play(state, action)
    given = [e for e in outcome.events if isinstance(e, CoinsGiven)]
    assert len(given) == 1 and given[0].overpaid == 7 and len(given[0].coins) == 3
    assert sorted(coins_of(outcome.state, "Ana")) == sorted(given[0].coins)
    assert len(change(outcome.state).bag) == len(COINS) - 3
    assert outcome.state.turn.actions == 0  # not exact: no further action


@pytest.mark.rule("change.give")
def test_change_give_allows_a_bag_with_too_few_to_give_what_it_has() -> None:
    """change.give, seed 003.25: "Si la bossa és buida, no es dona canvi." (If the bag is empty, no
    change is given.) A bag with one coin gives that one."""
    state, action = buy(change_game(), "green", "arcades-10-open", ("green-9-a", "green-8-a"),
                        bag=("coin-blue-1",))
    after = allowed(state, action)
    assert coins_of(after, "Ana") == ("coin-blue-1",) and change(after).bag == ()
    empty, action = buy(change_game(), "green", "arcades-10-open", ("green-9-a", "green-8-a"), bag=())
    assert coins_of(allowed(empty, action), "Ana") == ()


@pytest.mark.rule("change.give")
def test_change_give_allows_coins_of_any_currency_drawn_at_random() -> None:
    """change.give, seeds 003.20, 003.22: "treu a l'atzar una moneda" (draw a coin at random); "No
    han de ser de la moneda amb què has pagat." (They need not be of the currency you paid
    with.) Paying in dirhams (green) from a bag of denars and ducats gives those; from the full
    bag, the coins drawn differ from game to game."""
    state, action = buy(change_game(), "green", "arcades-10-open", ("green-9-a", "green-8-a"),
                        bag=("coin-blue-1", "coin-blue-2", "coin-orange-1", "coin-orange-2"))
    given = coins_of(allowed(state, action), "Ana")
    assert len(given) == 3 and not any(c.startswith("coin-green") for c in given)
    drawn = set()
    for seed in range(1, 7):
        state, action = buy(change_game(seed=seed), "green", "arcades-10-open", ("green-9-a", "green-8-a"))
        drawn.add(tuple(sorted(coins_of(allowed(state, action), "Ana"))))
    assert len(drawn) > 1


@pytest.mark.rule("change.give")
def test_change_give_refuses_change_for_an_odd_unit_an_exact_payment_or_treasure_chests() -> None:
    """change.give, seeds 003.20, 003.21, 003.26: one coin "per cada dues unitats de sobrepreu"
    (for every two units overpaid), "la unitat sobrant no dona res" (the unit left over gives
    nothing). The seed also gives change for "les compres de campaments o personatges" (buying
    camps or characters, other expansions); RULES.md decides that among the supported purchases
    only buildings give change: a treasure room does not."""
    # 11 for 10: the odd unit earns nothing.
    state, action = buy(change_game(), "green", "arcades-10-open", ("green-9-a", "green-2-a"))
    after = allowed(state, action)
    assert coins_of(after, "Ana") == () and len(change(after).bag) == len(COINS)
    # An exact payment gives nothing either.
    state, action = buy(change_game(), "green", "arcades-10-open", ("green-9-a", "green-1-a"))
    after = allowed(state, action)
    assert coins_of(after, "Ana") == () and after.turn.actions == 1
    # Treasure chests: 12 for 8 gives nothing (change.give is only for buildings).
    state = change_game(modules=("change", "treasure"))
    state = arrange(state, hands={"Ana": ("blue-9-a", "green-3-a")}, active="Ana")
    after = allowed(state, BuyTreasure(player="Ana", room=1, payment=("blue-9-a", "green-3-a"),
                                       buildings=()))
    assert coins_of(after, "Ana") == () and len(change(after).bag) == len(COINS)


@pytest.mark.rule("change.give")
def test_change_give_refuses_a_game_with_diamonds_camps_or_characters() -> None:
    """change.give, seed 003.26: "El sobrepagament amb diamants i les compres de campaments o
    personatges també poden donar canvi." (Overpaying with diamonds and buying camps or
    characters may give change too.) Those are modules of other expansions, which the referee
    does not support (RULES.md §H): a game asking for one is refused."""
    for other in ("diamonds", "camps", "characters"):
        with pytest.raises(GameRequestError) as refused_game:
            new_game(NAMES[:3], ["change", other])
        assert any(v.rule == "modules.unsupported" and other in v.message
                   for v in refused_game.value.violations)


@pytest.mark.rule("change.give")
def test_change_give_allows_change_counted_from_the_reduced_price() -> None:
    """change.give, seed 003.20: "Quan paguis de més per un edifici" (when you overpay for a
    building): more than its price, here the price a carpenter reduced."""
    from tests.modules.test_craftsmen import hire

    state = change_game(modules=("change", "craftsmen"))
    state = arrange(state, market={"green": "garden-10-open"}, hands={"Ana": ("green-9-a", "green-3-a")},
                    active="Ana")
    state = hire(state, "carpenter")
    # 12 for 10 less 2: 4 overpaid, 2 coins (without the carpenter it would be 1).
    outcome = play(state, BuyBuilding(player="Ana", tile="garden-10-open", payment=("green-9-a", "green-3-a"),
                                      discount=2))
    assert len(coins_of(outcome.state, "Ana")) == 2


# --- change.spend ---------------------------------------------------------------------------


@pytest.mark.rule("change.spend")
def test_change_spend_allows_coins_alone_or_with_cards_and_they_go_back_to_the_bag() -> None:
    """change.spend, seed 003.24: "Valen 1 de la moneda indicada i es poden combinar amb bitllets
    de la mateixa moneda per pagar; quan les gastes tornen a la bossa." (They are worth 1 of the
    currency shown and may be combined with notes of the same currency to pay; when spent they
    go back into the bag.)"""
    # Coins alone, exactly the price: an exact payment, another action.
    state, _ = buy(change_game(), "blue", "pavilion-2-NEW", (), coins={"Ana": ("coin-blue-1", "coin-blue-2")})
    outcome = play(state, BuyBuilding(player="Ana", tile="pavilion-2-NEW", payment=(),
                                      coins=("coin-blue-1", "coin-blue-2")))
    assert outcome.state.turn.actions == 1
    assert coins_of(outcome.state, "Ana") == () and len(change(outcome.state).bag) == len(COINS)
    assert any(isinstance(e, CoinsSpent) for e in outcome.events)
    assert [t.tile for t in outcome.state.players[0].held] == ["pavilion-2-NEW"]
    # With a card of the currency: 5 + 1 for 6 is exact too.
    state, _ = buy(change_game(), "blue", "pavilion-6-N", ("blue-5-a",), coins={"Ana": ("coin-blue-3",)})
    after = allowed(state, BuyBuilding(player="Ana", tile="pavilion-6-N", payment=("blue-5-a",),
                                       coins=("coin-blue-3",)))
    assert after.turn.actions == 1 and coins_of(after, "Ana") == ()
    # Treasure chests: coins of any currency count.
    state = change_game(modules=("change", "treasure"))
    state = arrange(state, hands={"Ana": ("blue-7-a",)}, active="Ana")
    state = with_coins(state, {"Ana": ("coin-green-1",)})
    after = allowed(state, BuyTreasure(player="Ana", room=1, payment=("blue-7-a",), buildings=(),
                                       coins=("coin-green-1",)))
    assert coins_of(after, "Ana") == () and "coin-green-1" in change(after).bag


@pytest.mark.rule("change.spend")
def test_change_spend_refuses_coins_not_held_of_another_currency_or_without_the_module() -> None:
    """change.spend, seed 003.24: "Valen 1 de la moneda indicada i es poden combinar amb bitllets
    de la mateixa moneda" (worth 1 of the currency shown, combined with notes of the same
    currency): a dirham coin does not pay on the denar space, and 5 + 1 is not 7."""
    state, _ = buy(change_game(), "blue", "pavilion-6-N", ("blue-5-a",), coins={"Ben": ("coin-blue-1",)})
    refused(state, BuyBuilding(player="Ana", tile="pavilion-6-N", payment=("blue-5-a",),
                               coins=("coin-blue-1",)), "change.spend", "coin-blue-1")
    state, _ = buy(change_game(), "blue", "pavilion-6-N", ("blue-5-a",), coins={"Ana": ("coin-green-1",)})
    refused(state, BuyBuilding(player="Ana", tile="pavilion-6-N", payment=("blue-5-a",),
                               coins=("coin-green-1",)), "base.buy.currency", "green")
    # Too little with the coins.
    state, _ = buy(change_game(), "blue", "pavilion-7-E", ("blue-5-a",), coins={"Ana": ("coin-blue-1",)})
    refused(state, BuyBuilding(player="Ana", tile="pavilion-7-E", payment=("blue-5-a",),
                               coins=("coin-blue-1",)), "base.buy.amount", "6")
    # Treasure: 7 and one coin not held.
    tstate = arrange(change_game(modules=("change", "treasure")), hands={"Ana": ("blue-7-a",)}, active="Ana")
    refused(tstate, BuyTreasure(player="Ana", room=1, payment=("blue-7-a",), coins=("coin-red-1",)),
            "change.spend", "coin-red-1")
    refused(tstate, BuyTreasure(player="Ana", room=1, payment=("blue-7-a",)), "treasure.action", "7")
    # The module off: no coins.
    plain = arrange(new_game(NAMES[:3], seed=1).state, market={"blue": "pavilion-6-N"},
                    hands={"Ana": ("blue-5-a",)}, active="Ana")
    refused(plain, BuyBuilding(player="Ana", tile="pavilion-6-N", payment=("blue-5-a",),
                               coins=("coin-blue-1",)), "change.spend", "change")


@pytest.mark.rule("change.spend")
def test_change_spend_allows_an_empty_coins_list_as_paying_no_coin() -> None:
    """change.spend, seed 003.24: coins "es poden combinar amb bitllets de la mateixa moneda per
    pagar" (may be combined with notes of the same currency to pay): combining none is paying
    with notes alone, so `coins: []` gets the verdict of `coins` left out or null, on a building
    (allowed, and refused alike for a short payment) and on a treasure room."""
    state, _ = buy(change_game(), "blue", "pavilion-6-N", ("blue-6-a",))
    for coins in (None, ()):
        after = allowed(state, BuyBuilding(player="Ana", tile="pavilion-6-N", payment=("blue-6-a",),
                                           coins=coins))
        assert after.turn.actions == 1 and change(after) == change(state)
    short, _ = buy(change_game(), "blue", "pavilion-7-E", ("blue-6-a",))
    for coins in (None, ()):
        assert [v.rule for v in refused(short, BuyBuilding(
            player="Ana", tile="pavilion-7-E", payment=("blue-6-a",), coins=coins), "base.buy.amount")] \
            == ["base.buy.amount"]
    tstate = arrange(change_game(modules=("change", "treasure")), hands={"Ana": ("blue-8-a",)}, active="Ana")
    for coins in (None, ()):
        allowed(tstate, BuyTreasure(player="Ana", room=1, payment=("blue-8-a",), buildings=(), coins=coins))


@pytest.mark.rule("change.spend")
def test_change_spend_refuses_a_coin_bag_out_of_order_saying_the_order_expected() -> None:
    """change.spend, seed 003.24: "quan les gastes tornen a la bossa" (when spent they go back
    into the bag). The referee keeps the bag sorted (a coin is drawn from it at random): a bag
    listed in another order is refused, the message saying the bag is kept sorted and which
    order it expects; the same bag sorted is allowed."""
    state = change_game()
    assert check_consistency(state) == [] and list(change(state).bag) == sorted(COINS)
    shuffled = replace(state, change=replace(change(state), bag=tuple(reversed(change(state).bag))))
    problems = check_consistency(shuffled)
    assert [v.rule for v in problems] == ["change.spend"], problems
    message = problems[0].message
    assert "kept sorted" in message
    assert "item 0 is coin-yellow-6 where the sorted bag has coin-blue-1" in message
    assert message.endswith(", ".join(sorted(COINS)))


# --- change.count ---------------------------------------------------------------------------


@pytest.mark.rule("change.count")
def test_change_count_allows_coins_to_win_a_leftover_tile() -> None:
    """change.count, seed 003.27: "Les monedes compten en el repartiment final dels edificis
    sobrants." (The coins count in the final sharing out of the leftover buildings.)"""
    state = arrange(change_game(), hands={"Ana": ("yellow-5-a",), "Ben": ("yellow-5-b",), "Cyd": ()},
                    market={"yellow": "pavilion-8-open"})
    state = with_coins(state, {"Ben": ("coin-yellow-1",)})
    assert richest(state, "yellow") == [(6, [1]), (5, [0])]
    space = next(s for s in state.market if s.currency == "yellow")
    after = hand_out_leftover(state, space, Context(Generator(1)))
    assert [t.tile for t in after.players[1].held] == ["pavilion-8-open"]
    # Coins alone count too.
    state = with_coins(arrange(change_game(), hands={"Ana": (), "Ben": (), "Cyd": ()}),
                       {"Cyd": ("coin-blue-1",)})
    assert richest(state, "blue") == [(1, [2])]


@pytest.mark.rule("change.count")
def test_change_count_refuses_coins_of_another_currency() -> None:
    """change.count, seeds 003.27, 003.24: the coins count, each as 1 "de la moneda indicada" (of
    the currency shown): denar and dirham coins add nothing to florins."""
    state = arrange(change_game(), hands={"Ana": ("yellow-5-a",), "Ben": ("yellow-5-b",), "Cyd": ()},
                    market={"yellow": "pavilion-8-open"})
    state = with_coins(state, {"Ben": ("coin-blue-1", "coin-green-1")})
    assert richest(state, "yellow") == [(5, [0, 1])]
    space = next(s for s in state.market if s.currency == "yellow")
    after = hand_out_leftover(state, space, Context(Generator(1)))
    assert "pavilion-8-open" in [t.tile for t in after.removed]


# --- components, listing, view, random games ------------------------------------------------


def test_every_coin_is_in_the_game_once() -> None:
    """RULES.md §K components, seed 003.19: "Poseu les vint-i-quatre monedes d'1 a la bossa." (Put
    the twenty-four coins of 1 in the bag.)"""
    state = change_game()
    assert sorted(change(state).bag) == sorted(COINS) and len(COINS) == 24
    assert all(value == 1 for _, value in COINS.values()) and not any(change(state).coins)
    assert all(c.startswith("coin-") for c in COINS)
    twice = replace(state, change=replace(change(state), coins=(("coin-blue-1",), (), ())))
    assert any("coin-blue-1" in v.message for v in check_consistency(twice))


def test_the_listing_offers_purchases_with_coins() -> None:
    state, _ = buy(change_game(), "blue", "pavilion-6-N", ("blue-5-a",), coins={"Ana": ("coin-blue-1",)})
    listed, _ = legal_actions(state, 1000)
    wanted = BuyBuilding(player="Ana", tile="pavilion-6-N", payment=("blue-5-a",), coins=("coin-blue-1",))
    assert wanted in listed


def test_the_view_shows_everyones_coins() -> None:
    """RULES.md §1 ("Coins of the Change module are visible"), seed 003.23: "Conserva-les
    visibles." (Keep them visible.) Another player and a spectator see Ben's coin."""
    from service.engine.view import view

    state = with_coins(change_game(), {"Ben": ("coin-blue-1",)})
    seen = view(state, "Ana").change
    assert seen is not None and seen.coins[1] == ("coin-blue-1",)
    spectator = view(state, None).change
    assert spectator is not None and spectator.coins[1] == ("coin-blue-1",)


def test_a_purchase_reserved_keeps_the_coins() -> None:
    state, action = buy(change_game(), "green", "arcades-10-open", ("green-9-a", "green-8-a"))
    outcome = play(state, action, ReserveBuilding(player="Ana", tile="arcades-10-open"))
    assert len(coins_of(outcome.state, "Ana")) == 3


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_change_reach_the_end(players: int) -> None:
    game = play_random_game(600 + players, players, ("change",), list_every=40)
    assert game.states[-1].phase == "over"
    assert any(isinstance(a, BuyBuilding) and a.coins for a in game.actions)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_change_treasure_and_craftsmen_reach_the_end(players: int) -> None:
    game = play_random_game(700 + players, players, ("change", "treasure", "craftsmen"), list_every=40)
    assert game.states[-1].phase == "over"
    assert any(isinstance(a, BuyBuilding) and a.coins for a in game.actions)
