"""Travelling Craftsmen (RULES.md §C): one test that allows and one that refuses per rule id,
and random complete games."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from service.engine import check_consistency, new_game
from service.engine.actions import BuyBuilding, PlaceBuilding, PlaceFromReserve, TakeMoney
from service.engine.grid import walls_of
from service.engine.modules.craftsmen.model import CraftsmenState
from service.engine.modules.craftsmen.rules import (
    DATA,
    KIND,
    MARK,
    BuilderRedesign,
    ExchangeMoney,
    PassCraftsman,
    SwapMarketTiles,
    UseBlacksmith,
)
from service.engine.rules import pending_decision
from service.engine.state import GameState, Turn
from tests.engine.helpers import NAMES, allowed, arrange, play, refused
from tests.engine.play import play_random_game


def cgame(players: int = 3, seed: int = 1, modules: tuple[str, ...] = ("craftsmen",)) -> GameState:
    return new_game(NAMES[:players], modules, seed=seed).state


def cs(state: GameState) -> CraftsmenState:
    assert state.craftsmen is not None
    return state.craftsmen


def hire(state: GameState, *cards: str, used: str | None = None) -> GameState:
    """The active player holds `cards` face up (padded to three); the others two each."""
    n = len(state.players)
    marks = DATA["marks_in_play"][str(n)]
    pool = [c for c in KIND if MARK[c] in marks and c not in cards]
    mine = list(cards)
    while len(mine) < 3:
        mine.append(pool.pop(0))
    face_up = []
    for seat in range(n):
        if seat == state.turn.player:
            face_up.append(tuple(mine))
        else:
            face_up.append(tuple(pool[:2]))
            pool = pool[2:]
    out = (*pool, *(c for c in KIND if MARK[c] not in marks))
    state = replace(state, craftsmen=CraftsmenState(face_up=tuple(face_up), face_down=(None,) * n,
                                                    out=out, used=used))
    assert check_consistency(state) == [], check_consistency(state)
    return state


PLACING = Turn(player=0, actions=0, acted=True)  # Ana bought and places her buildings
NONE = ("builder", "stonemason", "goldsmith")  # for the refusals of the other abilities


def ana(state: GameState, *cards: str, **where: object) -> GameState:
    """Ana active, holding `cards` face up, with the components placed as `arrange` says."""
    return hire(arrange(state, active="Ana", **where), *cards)  # type: ignore[arg-type]


# --- craftsmen.setup ------------------------------------------------------------------------


@pytest.mark.rule("craftsmen.setup")
def test_craftsmen_setup_allows_two_each_and_a_third_for_the_first_player() -> None:
    for n, in_game in ((2, 9), (3, 9), (4, 9), (5, 11), (6, 13)):
        state = cgame(n)
        c = cs(state)
        first = state.turn.player
        assert [len(c.face_up[s]) for s in range(n)] == [3 if s == first else 2 for s in range(n)]
        in_play = [x for cards in c.face_up for x in cards]
        assert len(in_play) == 2 * n + 1 and len(in_play) + len(c.out) == 13
        assert sum(1 for x in KIND if MARK[x] in DATA["marks_in_play"][str(n)]) == in_game
        assert all(MARK[x] in DATA["marks_in_play"][str(n)] for x in in_play)
        assert check_consistency(state) == []


@pytest.mark.rule("craftsmen.setup")
def test_craftsmen_setup_refuses_a_marked_card_with_three_players() -> None:
    state = cgame(3)
    c = cs(state)
    first = state.turn.player
    face_up = list(c.face_up)
    face_up[first] = (*face_up[first][:2], "blacksmith-2")
    bad = replace(state, craftsmen=replace(c, face_up=tuple(face_up),
                                           out=tuple(x for x in (*c.out, c.face_up[first][2])
                                                     if x != "blacksmith-2")))
    problems = check_consistency(bad)
    assert any(v.rule == "craftsmen.setup" and "blacksmith-2" in v.message for v in problems)


# --- craftsmen.pass and craftsmen.flip ------------------------------------------------------


def after_take(players: int = 3) -> GameState:
    state = ana(cgame(players), "stonemason", "builder", "coiner", display=["blue-1-a", "green-2-a",
                                                                            "yellow-3-a", "orange-4-a"])
    return allowed(state, TakeMoney(player="Ana", cards=("blue-1-a",)))


@pytest.mark.rule("craftsmen.pass")
def test_craftsmen_pass_allows_any_face_up_card_when_none_was_used() -> None:
    state = after_take()
    waiting = pending_decision(state)
    assert waiting is not None and waiting.rule == "craftsmen.pass" and state.active.name == "Ana"
    after = allowed(state, PassCraftsman(player="Ana", craftsman="builder"))
    assert after.active.name == "Ben"
    assert "builder" not in cs(after).face_up[0]
    assert "builder" in cs(after).face_up[1]  # turned up at the start of Ben's turn


@pytest.mark.rule("craftsmen.pass")
def test_craftsmen_pass_refuses_another_card_than_the_one_used() -> None:
    state = ana(cgame(), "stonemason", "builder", "coiner", hands={"Ana": ["blue-2-a"]},
                display=["blue-9-a", "green-2-a", "yellow-3-a", "orange-4-a"])
    state = allowed(state, ExchangeMoney(player="Ana", give="blue-2-a", take="blue-9-a"))
    state = allowed(state, TakeMoney(player="Ana", cards=("green-2-a",)))
    refused(state, PassCraftsman(player="Ana", craftsman="builder"), "craftsmen.pass", "stonemason")
    refused(state, PassCraftsman(player="Ana", craftsman="carpenter"), "craftsmen.pass", "carpenter")
    after = allowed(state, PassCraftsman(player="Ana", craftsman="stonemason"))
    assert "stonemason" in cs(after).face_up[1]


@pytest.mark.rule("craftsmen.flip")
def test_craftsmen_flip_allows_the_passed_card_face_down_then_up_at_the_turn_start() -> None:
    state = after_take()
    outcome = play(state, PassCraftsman(player="Ana", craftsman="coiner"))
    names = [type(e).__name__ for e in outcome.events]
    assert names.index("CraftsmanPassed") < names.index("TurnStarted") < names.index("CraftsmanTurnedUp")
    assert cs(outcome.state).face_down == (None, None, None)
    assert len(cs(outcome.state).face_up[1]) == 3


@pytest.mark.rule("craftsmen.flip")
def test_craftsmen_flip_refuses_a_face_down_card_left_at_the_active_player() -> None:
    state = ana(cgame(), "stonemason", "builder", "coiner")
    c = cs(state)
    face_up = list(c.face_up)
    face_up[0] = ("stonemason", "builder")
    bad = replace(state, craftsmen=replace(c, face_up=tuple(face_up), face_down=("coiner", None, None)))
    assert any(v.rule == "craftsmen.flip" for v in check_consistency(bad))


# --- craftsmen.use-one ----------------------------------------------------------------------


@pytest.mark.rule("craftsmen.use-one")
def test_craftsmen_use_one_allows_one_ability_then_the_turn_action() -> None:
    state = ana(cgame(), "stonemason", "goldsmith", hands={"Ana": ["blue-2-a"]},
                display=["blue-9-a", "green-2-a", "yellow-3-a", "orange-4-a"])
    state = allowed(state, ExchangeMoney(player="Ana", give="blue-2-a", take="blue-9-a"))
    assert cs(state).used == "stonemason" and state.turn.actions == 1
    allowed(state, TakeMoney(player="Ana", cards=("green-2-a", "yellow-3-a")))


@pytest.mark.rule("craftsmen.use-one")
def test_craftsmen_use_one_refuses_a_second_ability_in_the_turn() -> None:
    state = ana(cgame(), "stonemason", "goldsmith", "carpenter", hands={"Ana": ["blue-2-a", "green-8-a"]},
                display=["blue-9-a", "green-2-a", "yellow-3-a", "orange-4-a"],
                market={"green": "garden-10-open"})
    state = allowed(state, ExchangeMoney(player="Ana", give="blue-2-a", take="blue-9-a"))
    refused(state, TakeMoney(player="Ana", cards=("green-2-a", "yellow-3-a", "orange-4-a"), goldsmith=True),
            "craftsmen.use-one", "stonemason")
    fresh = ana(cgame(), "coiner", "carpenter", hands={"Ana": ["green-4-a"]},
                display=["green-6-a", "green-2-a", "yellow-3-a", "orange-4-a"],
                market={"green": "garden-10-open"})
    refused(fresh, BuyBuilding(player="Ana", tile="garden-10-open", payment=("green-4-a",),
                               from_display=("green-6-a",), discount=1), "craftsmen.use-one")


# --- craftsmen.dirk -------------------------------------------------------------------------


@pytest.mark.rule("craftsmen.dirk")
def test_craftsmen_dirk_allows_two_players_passing_to_each_other() -> None:
    state = cgame(2)
    assert len(cs(state).face_up) == 2
    state = after_take(players=2)
    after = allowed(state, PassCraftsman(player="Ana", craftsman="builder"))
    assert after.active.name == "Ben" and "builder" in cs(after).face_up[1]


@pytest.mark.rule("craftsmen.dirk")
def test_craftsmen_dirk_refuses_craftsmen_held_by_dirk() -> None:
    state = cgame(2)
    c = cs(state)
    bad = replace(state, craftsmen=replace(c, face_up=(*c.face_up, c.out[:2]), face_down=(None, None, None),
                                           out=c.out[2:]))
    assert any(v.rule == "craftsmen.dirk" for v in check_consistency(bad))


# --- craftsmen.mosaic-artist ----------------------------------------------------------------


@pytest.mark.rule("craftsmen.mosaic-artist")
def test_craftsmen_mosaic_artist_allows_a_reserve_tile_turned() -> None:
    state = ana(cgame(), "mosaic-artist", reserves={"Ana": ["seraglio-8-S"]}, alhambras={"Ana": []})
    refused(state, PlaceFromReserve(player="Ana", tile="seraglio-8-S", x=0, y=-1), "base.place.sides-match")
    after = allowed(state, PlaceFromReserve(player="Ana", tile="seraglio-8-S", x=0, y=-1, rotation=180))
    tile = next(t for t in after.players[0].alhambra if t.tile == "seraglio-8-S")
    assert tile.rotation == 180 and walls_of(tile) == 1  # its wall is now on the north side
    assert cs(after).used == "mosaic-artist"


@pytest.mark.rule("craftsmen.mosaic-artist")
def test_craftsmen_mosaic_artist_refuses_a_rotation_without_the_artist_or_the_module() -> None:
    state = ana(cgame(), *NONE, held={"Ana": ["seraglio-8-S"]}, alhambras={"Ana": []})
    refused(state, PlaceBuilding(player="Ana", tile="seraglio-8-S", x=0, y=-1, rotation=180),
            "craftsmen.mosaic-artist", "mosaic-artist")
    base = arrange(new_game(NAMES[:3], seed=1).state, active="Ana", held={"Ana": ["seraglio-8-S"]})
    refused(base, PlaceBuilding(player="Ana", tile="seraglio-8-S", x=0, y=-1, rotation=180),
            "base.place.orientation", "craftsmen")


# --- craftsmen.carpenter --------------------------------------------------------------------


@pytest.mark.rule("craftsmen.carpenter")
def test_craftsmen_carpenter_allows_two_off_and_an_exact_payment() -> None:
    state = ana(cgame(), "carpenter", hands={"Ana": ["green-8-a"]}, market={"green": "garden-10-open"})
    after = allowed(state, BuyBuilding(player="Ana", tile="garden-10-open", payment=("green-8-a",),
                                       discount=2))
    assert after.turn.actions == 1  # exact at the reduced price
    assert cs(after).used == "carpenter"


@pytest.mark.rule("craftsmen.carpenter")
def test_craftsmen_carpenter_refuses_without_the_carpenter_or_too_little() -> None:
    state = ana(cgame(), "carpenter", hands={"Ana": ["green-7-a"]}, market={"green": "garden-10-open"})
    refused(state, BuyBuilding(player="Ana", tile="garden-10-open", payment=("green-7-a",), discount=2),
            "base.buy.amount", "8")
    other = ana(cgame(), *NONE, hands={"Ana": ["green-8-a"]}, market={"green": "garden-10-open"})
    refused(other, BuyBuilding(player="Ana", tile="garden-10-open", payment=("green-8-a",), discount=2),
            "craftsmen.carpenter", "carpenter")


# --- craftsmen.blacksmith -------------------------------------------------------------------


@pytest.mark.rule("craftsmen.blacksmith")
def test_craftsmen_blacksmith_allows_six_cards_without_using_the_action() -> None:
    state = ana(cgame(), "blacksmith")
    after = allowed(state, UseBlacksmith(player="Ana"))
    assert len(after.display) == 6 and after.turn.actions == 1 and not after.turn.acted
    after = allowed(after, TakeMoney(player="Ana", cards=after.display[:1]))
    after = allowed(after, PassCraftsman(player="Ana", craftsman="blacksmith"))
    assert len(after.display) == 5  # refills only top up to 4


@pytest.mark.rule("craftsmen.blacksmith")
def test_craftsmen_blacksmith_refuses_without_it_or_with_a_full_display() -> None:
    state = ana(cgame(), *NONE)
    refused(state, UseBlacksmith(player="Ana"), "craftsmen.blacksmith", "blacksmith")
    full = allowed(ana(cgame(), "blacksmith"), UseBlacksmith(player="Ana"))
    full = hire(replace(full, craftsmen=replace(cs(full), used=None)), "blacksmith")
    refused(full, UseBlacksmith(player="Ana"), "craftsmen.blacksmith", "6")
    refused(cgame(modules=()), UseBlacksmith(player=cgame().active.name), "craftsmen.blacksmith")


# --- craftsmen.goldsmith --------------------------------------------------------------------

DISPLAY = ["blue-3-a", "blue-5-a", "green-1-a", "yellow-2-a"]


@pytest.mark.rule("craftsmen.goldsmith")
def test_craftsmen_goldsmith_allows_taking_up_to_eight() -> None:
    state = ana(cgame(), "goldsmith", display=DISPLAY)
    refused(state, TakeMoney(player="Ana", cards=("blue-3-a", "blue-5-a")), "base.money.take")
    after = allowed(state, TakeMoney(player="Ana", cards=("blue-3-a", "blue-5-a"), goldsmith=True))
    assert {"blue-3-a", "blue-5-a"} <= set(after.players[0].hand)


@pytest.mark.rule("craftsmen.goldsmith")
def test_craftsmen_goldsmith_refuses_nine_or_no_goldsmith() -> None:
    state = ana(cgame(), "goldsmith", display=DISPLAY)
    refused(state, TakeMoney(player="Ana", cards=("blue-3-a", "blue-5-a", "green-1-a"), goldsmith=True),
            "base.money.take", "8")
    other = ana(cgame(), "builder", "stonemason", "coiner", display=DISPLAY)
    refused(other, TakeMoney(player="Ana", cards=("blue-3-a", "blue-5-a"), goldsmith=True),
            "craftsmen.goldsmith", "goldsmith")


# --- craftsmen.coiner -----------------------------------------------------------------------

COIN = {"hands": {"Ana": ["green-4-a"]}, "display": ["green-6-a", "blue-2-a", "yellow-3-a", "orange-4-a"],
        "market": {"green": "garden-10-open"}}


@pytest.mark.rule("craftsmen.coiner")
def test_craftsmen_coiner_allows_hand_and_display_cards() -> None:
    state = ana(cgame(), "coiner", **COIN)
    after = allowed(state, BuyBuilding(player="Ana", tile="garden-10-open", payment=("green-4-a",),
                                       from_display=("green-6-a",)))
    assert "green-6-a" in after.discard and "green-6-a" not in after.display
    assert after.turn.actions == 1  # 4 + 6 is exact


@pytest.mark.rule("craftsmen.coiner")
def test_craftsmen_coiner_refuses_other_currencies_or_cards_not_displayed() -> None:
    state = ana(cgame(), "coiner", **COIN)
    refused(state, BuyBuilding(player="Ana", tile="garden-10-open", payment=("green-4-a",),
                               from_display=("blue-2-a", "green-6-a")), "base.buy.currency", "blue-2-a")
    refused(state, BuyBuilding(player="Ana", tile="garden-10-open", payment=("green-4-a",),
                               from_display=("green-9-a",)), "craftsmen.coiner", "green-9-a")
    other = ana(cgame(), *NONE, **COIN)
    refused(other, BuyBuilding(player="Ana", tile="garden-10-open", payment=("green-4-a",),
                               from_display=("green-6-a",)), "craftsmen.coiner", "coiner")


# --- craftsmen.mortar-mixer -----------------------------------------------------------------

MARKET = {"green": "garden-10-open", "blue": "tower-12-open"}


@pytest.mark.rule("craftsmen.mortar-mixer")
def test_craftsmen_mortar_mixer_allows_swapping_two_market_tiles() -> None:
    state = ana(cgame(), "mortar-mixer", market=MARKET)
    after = allowed(state, SwapMarketTiles(player="Ana", first="garden-10-open", second="tower-12-open"))
    spaces = {s.currency: s.tile for s in after.market}
    assert spaces["green"] == "tower-12-open" and spaces["blue"] == "garden-10-open"
    assert after.turn.actions == 1


@pytest.mark.rule("craftsmen.mortar-mixer")
def test_craftsmen_mortar_mixer_refuses_a_tile_off_the_market_or_no_mixer() -> None:
    state = ana(cgame(), "mortar-mixer", market=MARKET)
    refused(state, SwapMarketTiles(player="Ana", first="garden-10-open", second="tower-13-E"),
            "craftsmen.mortar-mixer", "tower-13-E")
    other = ana(cgame(), *NONE, market=MARKET)
    refused(other, SwapMarketTiles(player="Ana", first="garden-10-open", second="tower-12-open"),
            "craftsmen.mortar-mixer", "mortar-mixer")


# --- craftsmen.builder ----------------------------------------------------------------------


@pytest.mark.rule("craftsmen.builder")
def test_craftsmen_builder_allows_moving_a_tile_within_the_alhambra() -> None:
    state = ana(cgame(), *NONE, alhambras={"Ana": [("arcades-9-open", 1, 0)]})
    after = allowed(state, BuilderRedesign(player="Ana", tile="arcades-9-open", x=0, y=1))
    assert {(t.x, t.y) for t in after.players[0].alhambra} == {(0, 0), (0, 1)}
    assert after.turn.actions == 1 and cs(after).used == "builder"


@pytest.mark.rule("craftsmen.builder")
def test_craftsmen_builder_refuses_a_move_that_cuts_a_tile_off_or_no_builder() -> None:
    state = ana(cgame(), *NONE, alhambras={"Ana": [("arcades-9-open", 1, 0), ("arcades-10-open", 2, 0)]})
    refused(state, BuilderRedesign(player="Ana", tile="arcades-9-open", x=0, y=1), "base.place.reachable",
            "arcades-10-open")
    refused(state, BuilderRedesign(player="Ana", tile="fountain", x=0, y=1), "base.place.fountain-fixed")
    other = ana(cgame(), "carpenter", "stonemason", "coiner", alhambras={"Ana": [("arcades-9-open", 1, 0)]})
    refused(other, BuilderRedesign(player="Ana", tile="arcades-9-open", x=0, y=1), "craftsmen.builder",
            "builder")


# --- craftsmen.brickmaker -------------------------------------------------------------------


@pytest.mark.rule("craftsmen.brickmaker")
def test_craftsmen_brickmaker_allows_displacing_a_building() -> None:
    where = {"alhambras": {"Ana": [("arcades-9-open", 1, 0)]}, "held": {"Ana": ["arcades-10-open"]},
             "turn": PLACING}
    state = ana(cgame(), "brickmaker", **where)
    after = allowed(state, PlaceBuilding(player="Ana", tile="arcades-10-open", x=1, y=0, displaced="reserve"))
    assert [t.tile for t in after.players[0].reserve] == ["arcades-9-open"]
    after = allowed(state, PlaceBuilding(player="Ana", tile="arcades-10-open", x=1, y=0, displaced=(0, 1)))
    assert {(t.tile, t.x, t.y) for t in after.players[0].alhambra} == {
        ("fountain", 0, 0), ("arcades-10-open", 1, 0), ("arcades-9-open", 0, 1)}


@pytest.mark.rule("craftsmen.brickmaker")
def test_craftsmen_brickmaker_refuses_mismatching_sides_or_no_brickmaker() -> None:
    where = {"alhambras": {"Ana": [("arcades-9-open", 1, 0)]}, "held": {"Ana": ["pavilion-2-NEW"]},
             "turn": PLACING}
    state = ana(cgame(), "brickmaker", **where)
    refused(state, PlaceBuilding(player="Ana", tile="pavilion-2-NEW", x=1, y=0, displaced="reserve"),
            "base.place.sides-match")
    refused(state, PlaceBuilding(player="Ana", tile="pavilion-2-NEW", x=0, y=0, displaced="reserve"),
            "base.place.fountain-fixed")
    other = ana(cgame(), *NONE, alhambras={"Ana": [("arcades-9-open", 1, 0)]},
                held={"Ana": ["arcades-10-open"]},
                turn=PLACING)
    refused(other, PlaceBuilding(player="Ana", tile="arcades-10-open", x=1, y=0, displaced="reserve"),
            "craftsmen.brickmaker", "brickmaker")


# --- craftsmen.stonemason -------------------------------------------------------------------


@pytest.mark.rule("craftsmen.stonemason")
def test_craftsmen_stonemason_allows_exchanging_cards_of_one_currency() -> None:
    state = ana(cgame(), "stonemason", hands={"Ana": ["blue-2-a"]}, display=["blue-9-a", "green-2-a"])
    after = allowed(state, ExchangeMoney(player="Ana", give="blue-2-a", take="blue-9-a"))
    assert after.players[0].hand == ("blue-9-a",) and "blue-2-a" in after.display


@pytest.mark.rule("craftsmen.stonemason")
def test_craftsmen_stonemason_refuses_another_currency() -> None:
    state = ana(cgame(), "stonemason", hands={"Ana": ["blue-2-a"]}, display=["blue-9-a", "green-2-a"])
    refused(state, ExchangeMoney(player="Ana", give="blue-2-a", take="green-2-a"), "craftsmen.stonemason",
            "same currency")


# --- random complete games ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_craftsmen(players: int) -> None:
    game = play_random_game(100 + players, players, ("craftsmen",), list_every=40)
    assert 3 in game.rounds
    assert any(isinstance(a, PassCraftsman) for a in game.actions)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_craftsmen_and_other_modules(players: int) -> None:
    game = play_random_game(200 + players, players, ("craftsmen", "zoo", "power", "extensions"),
                            list_every=40)
    assert 3 in game.rounds
