"""RULES.md §9 (two players: Dirk): each rule id allowing and refusing."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from service.engine import GameRequestError, InconsistentState, check_consistency, new_game, score
from service.engine.actions import BuyBuilding, PlaceBuilding, TakeMoney
from service.engine.catalogue import CATALOGUE
from service.engine.modules.dirk.actions import DirkReceivedTiles, GiveToDirk
from service.engine.scoring import MajorityLine, Position, PositionPlayer, WallLine
from service.engine.scoring.positions import position_problems
from service.engine.scoring.tally import Tally
from service.engine.state import Dirk, GameState, Tile
from tests.support.helpers import alhambra, allowed, arrange, game, play, refused

SIX = ("pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW", "garden-6-ESW", "tower-7-NEW")
# Dirk's tiles after round 1 (dirk.setup, dirk.refills: 6 and 6 more).
TWELVE = (*SIX, "pavilion-3-SW", "seraglio-4-NE", "arcades-5-NW", "chambers-7-SW", "garden-7-NSW",
          "tower-8-NES")


def duel(**kw: object) -> GameState:
    """A two-player game on Ana's turn; the display holds yellow-1-a."""
    args: dict[str, object] = {
        "active": "Ana",
        "display": ("yellow-1-a", "green-1-a", "blue-1-a", "orange-1-a"),
    }
    args.update(kw)
    return arrange(game(2), **args)  # type: ignore[arg-type]


# --- dirk.setup -----------------------------------------------------------------------------


@pytest.mark.rule("dirk.setup")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_dirk_setup_allows_six_tiles_and_a_deck_of_72_money_cards(seed: int) -> None:
    """RULES.md dirk.setup: "With two players one of the three copies of every money card is
    left in the box: the deck holds 72 money cards (each currency's values 1 to 9, two copies:
    ids ending `-a` and `-b`)." The starting money, the first player and the display come from
    those 72 (issue 12 item 9: the deal used all 108)."""
    state = new_game(["Ana", "Ben"], seed=seed).state
    assert state.dirk is not None and state.dirk.name == "Dirk"
    assert len(state.dirk.tiles) == 6 and len(state.bag) == 54 - 4 - 6
    cards = [*state.deck, *state.display, *(c for p in state.players for c in p.hand)]
    money = sorted(c for c in cards if c in CATALOGUE.money)
    assert len(money) == 72 == len(set(money))
    assert money == sorted(c for c in CATALOGUE.money if c[-2:] in ("-a", "-b"))
    assert sorted(c for c in cards if c not in CATALOGUE.money) == ["scoring-1", "scoring-2"]


@pytest.mark.rule("dirk.setup")
def test_dirk_setup_allows_all_108_money_cards_with_three_players() -> None:
    """RULES.md §1: 108 money cards; only "with two players the `c` copies stay in the box"."""
    state = new_game(["Ana", "Ben", "Cyd"], seed=1).state
    cards = [*state.deck, *state.display, *(c for p in state.players for c in p.hand)]
    assert sorted(c for c in cards if c in CATALOGUE.money) == sorted(CATALOGUE.money)


@pytest.mark.rule("dirk.setup")
@pytest.mark.parametrize("where", ["deck", "display", "hand"])
def test_dirk_setup_refuses_a_two_player_state_holding_a_third_copy(where: str) -> None:
    """RULES.md dirk.setup: "A two-player state holding a third copy (`-c`) cannot occur."
    The consistency check names the card, where it lies and why."""
    state = new_game(["Ana", "Ben"], seed=1).state
    assert check_consistency(state) == []
    if where == "deck":
        state = replace(state, deck=("blue-9-c", *state.deck))
    elif where == "display":
        state = replace(state, display=(*state.display[:3], "blue-9-c"), deck=(state.display[3], *state.deck))
    else:
        ana = state.players[0]
        state = replace(state, players=(replace(ana, hand=(*ana.hand, "blue-9-c")), state.players[1]))
    problems = check_consistency(state)
    assert [v.rule for v in problems] == ["inconsistent-state"], problems
    assert "'blue-9-c' stays in the box in this game (Two players: Dirk)" in problems[0].message


@pytest.mark.rule("dirk.setup")
def test_dirk_setup_refuses_dirk_with_three_players() -> None:
    state = new_game(["Ana", "Ben", "Cyd"], seed=1).state
    assert state.dirk is None and len(state.bag) == 50
    problems = check_consistency(replace(state, dirk=Dirk.new("Dirk")))
    assert any(v.rule == "dirk.setup" for v in problems), problems


@pytest.mark.rule("dirk.setup")
def test_dirk_setup_refuses_two_players_without_dirk_or_a_player_named_dirk() -> None:
    problems = check_consistency(replace(game(2), dirk=None))
    assert any(v.rule == "dirk.setup" for v in problems), problems
    with pytest.raises(GameRequestError) as refused_game:
        new_game(["Ana", "Dirk"])
    assert refused_game.value.violations[0].rule == "dirk.setup"
    assert "'Dirk'" in refused_game.value.violations[0].message


# --- dirk.refills ---------------------------------------------------------------------------


@pytest.mark.rule("dirk.refills")
def test_dirk_refills_allows_six_tiles_after_round_1() -> None:
    state = duel(deck_top=("scoring-1", "orange-9-b"), bag_top=SIX)
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    dirk = outcome.state.dirk
    assert dirk is not None and len(dirk.tiles) == 12
    assert tuple(t.tile for t in dirk.tiles[6:]) == SIX
    assert DirkReceivedTiles(tiles=SIX) in outcome.events
    assert outcome.state.bag == state.bag[6:]


@pytest.mark.rule("dirk.refills")
def test_dirk_refills_allows_a_third_of_the_bag_after_round_2() -> None:
    state = duel(deck_top=("scoring-2", "orange-9-b"), rounds_held=(1,))
    left = len(state.bag)
    assert left == 44 - 6 and state.dirk is not None and len(state.dirk.tiles) == 12
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    dirk = outcome.state.dirk
    assert dirk is not None and len(dirk.tiles) == 12 + 38 // 3 == 24
    assert len(outcome.state.bag) == 38 - 12


@pytest.mark.rule("dirk.refills")
def test_dirk_refills_refuses_a_tile_when_a_third_rounds_down_to_nothing() -> None:
    state = duel(deck_top=("scoring-2", "orange-9-b"), rounds_held=(1,), bag=("tower-13-E", "tower-12-open"),
                 dirk=TWELVE)
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert outcome.scoring[0].round == 2
    assert outcome.state.dirk is not None and state.dirk is not None
    assert outcome.state.dirk.tiles == state.dirk.tiles
    assert 0 < len(state.bag) < 3 and outcome.state.bag == state.bag  # a third of 1 or 2: none


@pytest.mark.rule("dirk.refills")
def test_dirk_refills_refuses_tiles_without_a_scoring_round() -> None:
    state = duel(deck_top=("orange-9-b",))
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert outcome.state.dirk == state.dirk and outcome.state.bag == state.bag
    assert not any(isinstance(e, DirkReceivedTiles) for e in outcome.events)


# --- dirk.scores ----------------------------------------------------------------------------


@pytest.mark.rule("dirk.scores")
def test_dirk_scores_allows_majorities_with_all_his_tiles_and_a_place_in_the_ranking() -> None:
    state = duel(
        deck_top=("scoring-1", "orange-9-b"),
        dirk=("tower-13-E", "tower-7-NEW", "garden-6-ESW", *SIX[:3]),  # his 6 setup tiles
        alhambras={
            "Ana": [("tower-11-open", 1, 0)],
            "Ben": [("garden-10-open", 1, 0), ("garden-11-open", 2, 0)],
        },
    )
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    (breakdown,) = outcome.scoring
    dirk = next(p for p in breakdown.players if p.name == "Dirk")
    assert MajorityLine(building="tower", count=2, place=1, points=6) in dirk.lines
    assert MajorityLine(building="garden", count=1, place=None, points=0) not in dirk.lines
    ana = breakdown.players[0]
    assert MajorityLine(building="tower", count=1, place=2, points=0) in ana.lines
    assert [r.name for r in breakdown.ranking] == ["Dirk", "Ben", "Ana"]
    # towers 6, and first with one pavilion, seraglio and arcades each: 1 + 2 + 3
    assert outcome.state.dirk is not None and outcome.state.dirk.score == 6 + 1 + 2 + 3


@pytest.mark.rule("dirk.scores")
def test_dirk_scores_refuses_a_wall_for_dirk() -> None:
    position = Position(
        round=2,
        players=(
            PositionPlayer(name="Ana", alhambra=alhambra(("pavilion-7-E", 1, 0))),
            PositionPlayer(name="Ben", alhambra=alhambra()),
            PositionPlayer(name="Dirk", dirk=True, tiles=tuple(Tile(tile=t) for t in SIX)),
        ),
    )
    players = score(position).players
    assert WallLine(length=0, points=0) in players[2].lines
    assert WallLine(length=1, points=1) in players[0].lines


@pytest.mark.rule("dirk.scores")
def test_dirk_scores_refuses_turns_and_an_alhambra_for_dirk() -> None:
    refused(duel(), TakeMoney(player="Dirk", cards=("yellow-1-a",)), "dirk.scores", "Dirk")
    position = Position(
        round=1,
        players=(
            PositionPlayer(name="Ana", alhambra=alhambra()),
            PositionPlayer(name="Ben", alhambra=alhambra()),
            PositionPlayer(name="Dirk", dirk=True, alhambra=alhambra(("tower-11-open", 1, 0))),
        ),
    )
    with pytest.raises(InconsistentState) as refused_position:
        score(position)
    assert any(v.rule == "dirk.scores" and "Dirk" in v.message for v in refused_position.value.violations)


# --- dirk.gift ------------------------------------------------------------------------------


def bought() -> GameState:
    state = duel(hands={"Ana": ("blue-5-a", "blue-7-a")}, market={"blue": "garden-12-S"})
    return allowed(state, BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-5-a", "blue-7-a")))


@pytest.mark.rule("dirk.gift")
def test_dirk_gift_allows_giving_a_bought_building_to_dirk() -> None:
    state = bought()
    before = state.dirk
    assert before is not None
    after = allowed(state, GiveToDirk(player="Ana", tile="garden-12-S"))
    assert after.dirk is not None and [t.tile for t in after.dirk.tiles] == [
        *(t.tile for t in before.tiles),
        "garden-12-S",
    ]
    assert after.players[0].held == () and after.turn.player == 1


@pytest.mark.rule("dirk.gift")
def test_dirk_gift_refuses_a_building_that_is_not_held() -> None:
    state = bought()
    refused(state, GiveToDirk(player="Ana", tile="tower-13-E"), "base.turn.placement", "tower-13-E")
    refused(state, GiveToDirk(player="Ben", tile="garden-12-S"), "base.turn.order", "Ben")


@pytest.mark.rule("dirk.gift")
def test_dirk_gift_refuses_a_gift_without_dirk() -> None:
    state = arrange(
        game(3), hands={"Ana": ("blue-5-a", "blue-7-a")}, market={"blue": "garden-12-S"}, active="Ana"
    )
    state = allowed(state, BuyBuilding(player="Ana", tile="garden-12-S", payment=("blue-5-a", "blue-7-a")))
    refused(state, GiveToDirk(player="Ana", tile="garden-12-S"), "dirk.gift", "dirk")


@pytest.mark.rule("dirk.gift")
def test_dirk_gift_refuses_a_leftover_tile_at_the_end() -> None:
    state = duel(
        bag=(),
        rounds_held=(1, 2),
        hands={"Ana": ("blue-9-a", "blue-5-a"), "Ben": ("yellow-9-a",)},
        market={"yellow": "pavilion-8-open", "blue": "tower-13-E"},
    )
    outcome = play(
        state,
        BuyBuilding(player="Ana", tile="tower-13-E", payment=("blue-9-a", "blue-5-a")),
        PlaceBuilding(player="Ana", tile="tower-13-E", x=1, y=0),
    )
    state = outcome.state
    assert state.phase == "final-placement" and [t.tile for t in state.players[1].held] == ["pavilion-8-open"]
    refused(state, GiveToDirk(player="Ben", tile="pavilion-8-open"), "dirk.gift", "leftover")


# --- dirk.setup, dirk.refills: the least Dirk holds (issue 22, review C) ---------------------


def dirk_problems(state: GameState) -> list[str]:
    return [v.rule for v in check_consistency(state) if v.rule in ("dirk.setup", "dirk.refills")]


@pytest.mark.rule("dirk.setup")
def test_dirk_setup_refuses_a_fresh_game_where_dirk_holds_fewer_than_6_tiles() -> None:
    """RULES.md dirk.setup: "Dirk, a virtual third player, receives 6 tiles drawn from the bag at
    setup", and no rule takes a tile from him: a fresh game of his 6 is allowed, 5 or 0 refused."""
    fresh = new_game(["Ana", "Ben"], seed=9).state
    assert fresh.dirk is not None and dirk_problems(fresh) == []
    five = replace(fresh, dirk=replace(fresh.dirk, tiles=fresh.dirk.tiles[1:]),
                   bag=(*fresh.bag, fresh.dirk.tiles[0].tile))
    assert dirk_problems(five) == ["dirk.setup"]
    assert "Dirk holds 5 tiles" in check_consistency(five)[0].message
    none = replace(fresh, dirk=replace(fresh.dirk, tiles=()),
                   bag=(*fresh.bag, *(t.tile for t in fresh.dirk.tiles)))
    assert dirk_problems(none) == ["dirk.setup"]


@pytest.mark.rule("dirk.refills")
def test_dirk_refills_refuses_round_1_held_with_only_the_setup_tiles_while_the_bag_holds_tiles() -> None:
    """RULES.md dirk.refills: "after scoring round 1 he receives 6 more tiles from the bag". With
    tiles still in the bag the refill was whole: 12 allowed, 6 refused. With the bag empty the
    refill may have come short (it takes what the bag holds): 8 allowed."""
    twelve = duel(rounds_held=(1,), dirk=TWELVE)
    assert len(twelve.bag) > 0 and dirk_problems(twelve) == []
    six = duel(rounds_held=(1,), dirk=SIX, check=False)
    assert len(six.bag) > 0 and dirk_problems(six) == ["dirk.refills"]
    market = dict(zip(("yellow", "green", "blue", "orange"),
                      ("tower-13-E", "tower-12-open", "tower-11-open", "tower-11-N"), strict=True))
    short = duel(rounds_held=(1,), dirk=TWELVE[:8], bag=(), market=market, check=False)
    assert dirk_problems(short) == []


@pytest.mark.rule("dirk.refills")
def test_dirk_refills_refuses_fewer_than_a_third_of_the_bag_after_round_2() -> None:
    """RULES.md dirk.refills: "after scoring round 2 he receives one third of the tiles then left
    in the bag, rounded down". 4 tiles left now: the bag held 5 or more then (a third of 4 is 1,
    leaving 3), so he took 1 at least: 12 + 1 allowed, 12 refused."""
    bag = ("tower-13-E", "tower-12-open", "tower-11-open", "tower-11-N")
    more = duel(rounds_held=(1, 2), bag=bag, dirk=(*TWELVE, "garden-12-S"))
    assert dirk_problems(more) == []
    twelve = duel(rounds_held=(1, 2), bag=bag, dirk=TWELVE, check=False)
    assert dirk_problems(twelve) == ["dirk.refills"]
    assert "Dirk holds 12 tiles, but he holds at least 13" in check_consistency(twelve)[0].message


def dirk_position(round_: int, dirk: PositionPlayer) -> Position:
    players = (PositionPlayer(name="Ana", alhambra=alhambra(("garden-10-open", 1, 0))),
               PositionPlayer(name="Ben", alhambra=alhambra(("tower-11-N", 1, 0))), dirk)
    return Position(round=round_, players=players)


@pytest.mark.rule("dirk.setup")
@pytest.mark.parametrize("round_", [1, 2, 3])
def test_dirk_setup_refuses_a_position_where_dirk_holds_fewer_than_6_buildings(round_: int) -> None:
    """RULES.md dirk.setup: 6 tiles at setup, never lost: Dirk given by 5 tiles or a tally of 5
    buildings is refused in every round, 6 allowed. (dirk.refills: a position does not show the
    bag, and a refill comes short when the bag runs out, so 6 is the least in rounds 2 and 3.)"""
    for held, allowed_ in ((SIX, True), (SIX[:5], False)):
        tiles = PositionPlayer(name="Dirk", dirk=True, tiles=tuple(Tile(tile=t) for t in held))
        counted = PositionPlayer(name="Dirk", dirk=True, tally=msgspec.convert(
            {"buildings": {"tower": len(held)}}, Tally))
        for dirk, at in ((tiles, "$.players[2].tiles"), (counted, "$.players[2].tally.buildings")):
            problems = position_problems(dirk_position(round_, dirk))
            if allowed_:
                assert problems == []
            else:
                assert [v.rule for v in problems] == ["dirk.setup"] and problems[0].message.startswith(at)
