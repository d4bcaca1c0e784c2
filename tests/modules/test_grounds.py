"""New Building Grounds (RULES.md §G, seed 001): one test that allows and one that refuses per
rule id, the seed's example (a site of price 12 bought on the blue space), tests of its sentences
(001.1 to 001.12) written from the text, and random complete games."""

from __future__ import annotations

from collections import Counter

import pytest
from msgspec.structs import replace

from service.engine import (
    Generator,
    InconsistentState,
    apply,
    check_consistency,
    legal_actions,
    new_game,
    score,
    score_state,
    validate,
)
from service.engine.actions import BuyBuilding, PlaceBuilding, ReserveBuilding, TakeMoney
from service.engine.base.turn import end_game
from service.engine.module import Context
from service.engine.modules.dirk.actions import GiveToDirk
from service.engine.modules.grounds.actions import ChooseConstruction, GroundLaid, candidates_choose
from service.engine.modules.grounds.play import build_for_dirk, pending
from service.engine.scoring import MajorityLine, Position, PositionPlayer, building_type
from service.engine.scoring.positions import position_problems
from service.engine.state import GameState, PlacedTile, Tile, emptied
from tests.support.play import play_random_game

NAMES = ("Ana", "Ben", "Cyd")
SEED_COLUMNS = (("seraglio", "garden", "tower"), ("seraglio", "garden", "tower"),
                ("pavilion", "arcades", "chambers"), ("pavilion", "arcades", "chambers"))


def grounds_game(players: int = 3, seed: int = 1) -> GameState:
    return new_game(NAMES[:players] if players > 2 else ("Ana", "Ben"), ["grounds"], seed=seed).state


def with_columns(state: GameState, *columns: tuple[str, ...]) -> GameState:
    assert state.grounds is not None
    return replace(state, grounds=replace(state.grounds, columns=tuple(columns)))


def site_on(state: GameState, site: str, currency: str) -> GameState:
    """`site` onto the market space of `currency`; the tile there takes the site's place."""
    market = list(state.market)
    i = next(k for k, s in enumerate(market) if s.currency == currency)
    old = market[i].tile
    assert old is not None
    bag = list(state.bag)
    if site in bag:
        bag[bag.index(site)] = old
    elif old != site:
        j = next(k for k, s in enumerate(market) if s.tile == site)
        market[j] = replace(market[j], tile=old)
    market[i] = replace(market[i], tile=site)
    return replace(state, market=tuple(market), bag=tuple(bag))


def holding(state: GameState, seat: int, *cards: str) -> GameState:
    """Player `seat` holds exactly `cards`; whatever they held goes to the bottom of the deck."""
    wanted = set(cards)
    old = [c for c in state.players[seat].hand if c not in wanted]
    players = [replace(p, hand=tuple(c for c in p.hand if c not in wanted)) for p in state.players]
    players[seat] = replace(players[seat], hand=tuple(cards))
    return replace(state, players=tuple(players),
                   deck=(*(c for c in state.deck if c not in wanted), *old),
                   display=tuple(c for c in state.display if c not in wanted),
                   discard=tuple(c for c in state.discard if c not in wanted))


def seed_example() -> GameState:
    """The seed's example: site-4-12-ES on the blue space, column 4 pavilion, arcades, chambers;
    the active player holds blue 9 and blue 3."""
    state = with_columns(grounds_game(), *SEED_COLUMNS)
    state = site_on(state, "site-4-12-ES", "blue")
    state = holding(state, state.turn.player, "blue-9-a", "blue-3-a", "yellow-2-a")
    assert check_consistency(state) == []
    return state


def bought(state: GameState, site: str = "site-4-12-ES", payment: tuple[str, ...] = ("blue-9-a", "blue-3-a"),
           ) -> GameState:
    return apply(state, BuyBuilding(player=state.active.name, tile=site, payment=payment)).state


def column_4_used_up(state: GameState) -> GameState:
    """Column 4's buildings (pavilion, arcades, chambers) stand on other sites in the reserve of
    the player after the active one: no state of a game with the default data (a column loses
    buildings only to the 2 sites of its number, seeds 001.5, 001.7), but the verdicts that
    follow stand for data where a column can run out."""
    other = (state.turn.player + 1) % len(state.players)
    players = list(state.players)
    on_sites = (Tile(tile="site-1-8-N", construction="pavilion"),
                Tile(tile="site-1-10-S", construction="arcades"),
                Tile(tile="site-2-8-E", construction="chambers"))
    players[other] = replace(players[other], reserve=on_sites)
    bag = tuple(t for t in state.bag if t not in {t.tile for t in on_sites})
    return with_columns(replace(state, players=tuple(players), bag=bag), *SEED_COLUMNS[:3], ())


def most_blue(state: GameState) -> GameState:
    """The active player alone holds blue (blue 9): a leftover on the blue space goes to them."""
    seat = state.turn.player
    state = holding(state, seat, "blue-9-a")
    others_blue = [c for i, p in enumerate(state.players) if i != seat
                   for c in p.hand if c.startswith("blue-")]
    return replace(state, deck=(*state.deck, *others_blue), players=tuple(
        replace(p, hand=tuple(c for c in p.hand if c not in others_blue)) for p in state.players))


def majority(breakdown_lines: tuple[object, ...], building: str) -> MajorityLine:
    return next(ln for ln in breakdown_lines if isinstance(ln, MajorityLine) and ln.building == building)


# --- grounds.setup --------------------------------------------------------------------------

@pytest.mark.rule("grounds.setup")
def test_grounds_setup_allows_sites_in_the_bag_and_four_columns_of_three() -> None:
    """grounds.setup, seeds 001.2, 001.3, 001.4, 001.5: "12 Buildings under construction (2 tiles
    of each building type with construction icon)". "Shuffle the 8 building site tiles in with
    the other Alhambra tiles." "Place the four number tiles in a row next to the building
    market. Then, randomly place 3 building under construction tiles in a column under each
    number tile.\""""
    outcome = new_game(NAMES, ["grounds"], seed=5)
    state = outcome.state
    sites = [t for t in (*state.bag, *(s.tile for s in state.market)) if t and t.startswith("site-")]
    assert len(sites) == 8 and len(state.bag) == 54 + 8 - 4
    assert state.grounds is not None
    assert [len(c) for c in state.grounds.columns] == [3, 3, 3, 3]
    assert Counter(b for c in state.grounds.columns for b in c) == {
        t: 2 for t in ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")}
    laid = next(e for e in outcome.events if isinstance(e, GroundLaid))
    assert laid.columns == state.grounds.columns
    assert check_consistency(state) == []
    # The sites are shuffled in with the game's generator: another seed, another bag.
    assert new_game(NAMES, ["grounds"], seed=6).state.bag != state.bag
    # "randomly place": the columns differ from game to game.
    assert len({grounds_game(seed=s).grounds.columns for s in range(1, 9)}) > 1  # type: ignore[union-attr]


@pytest.mark.rule("grounds.setup")
def test_grounds_setup_refuses_a_fourth_building_in_a_column_or_a_third_pavilion() -> None:
    state = with_columns(grounds_game(), ("pavilion", "arcades", "chambers", "seraglio"),
                         ("seraglio", "garden", "tower"), ("garden", "tower"),
                         ("pavilion", "arcades", "chambers"))
    assert any(v.rule == "grounds.setup" and "column 1" in v.message for v in check_consistency(state))
    position = Position(round=1, modules=("grounds",), players=(PositionPlayer(name="Ana", alhambra=(
        PlacedTile(x=0, y=0, tile="fountain"),
        PlacedTile(x=1, y=0, tile="site-2-10-W", construction="pavilion")), reserve=(
        Tile(tile="site-1-8-N", construction="pavilion"), Tile(tile="site-1-10-S", construction="pavilion"),
        Tile(tile="site-2-8-E", construction="palace"))),))
    with pytest.raises(InconsistentState) as refused:
        score(position)
    messages = [v.message for v in refused.value.violations if v.rule == "grounds.setup"]
    assert any("3 buildings under construction of type pavilion" in m for m in messages)
    assert any("'palace'" in m for m in messages)


# --- grounds.buy ----------------------------------------------------------------------------

@pytest.mark.rule("grounds.buy")
def test_grounds_buy_allows_the_seed_example_a_site_of_12_on_the_blue_space() -> None:
    """grounds.buy, seeds 001.1, 001.6, 001.7, 001.8, 001.9, 001.10: "New buildings are available
    from the new building ground." "Whenever a building site is available at the market, the
    active player may buy it for the price shown on it. Immediately, they choose one of the
    buildings under construction from the column with the matching number as the purchased tile
    and place it on that building site. It may be placed in the player's Alhambra or their
    reserve." "Example: This building site can be purchased for a price of 12 denari (blue
    currency). Then, the player decides if they want to build a pavilion, arcades or chambers,
    placing the chosen tile on top of the building site." (Here: the Alhambra; the reserve:
    the next test.)"""
    state = seed_example()
    buyer = state.active.name
    state = bought(state)
    # The buyer at once chooses one of the column's three buildings: nothing else is legal.
    listed, _ = legal_actions(state)
    assert listed == [ChooseConstruction(player=buyer, site="site-4-12-ES", building=b)
                      for b in ("pavilion", "arcades", "chambers")]
    found = pending(state)
    assert found is not None and found.rule == "grounds.buy"
    state = apply(state, ChooseConstruction(player=buyer, site="site-4-12-ES", building="arcades")).state
    assert state.grounds is not None and state.grounds.columns[3] == ("pavilion", "chambers")
    assert state.active.held == (Tile(tile="site-4-12-ES", construction="arcades"),)
    assert check_consistency(state) == []
    # The exact payment gives another action; the pair is placed by the usual rules, with the
    # site's walls (E and S): east of the fountain its open west side meets the fountain.
    assert state.turn.actions == 1
    assert validate(state, PlaceBuilding(player=buyer, tile="site-4-12-ES", x=0, y=-1))[0].rule == \
        "base.place.sides-match"
    state = apply(state, PlaceBuilding(player=buyer, tile="site-4-12-ES", x=1, y=0)).state
    me = next(p for p in state.players if p.name == buyer)
    assert PlacedTile(tile="site-4-12-ES", construction="arcades", x=1, y=0) in me.alhambra
    line = majority(next(s.lines for s in score_state(state, 1).players if s.name == buyer), "arcades")
    assert line.count == 1 and line.place == 1
    assert check_consistency(state) == []


@pytest.mark.rule("grounds.buy")
def test_grounds_buy_allows_the_site_with_its_building_into_the_reserve() -> None:
    """grounds.buy, seed 001.8: "It may be placed in the player's Alhambra or their reserve." The
    seed's example again, the pair put in the reserve; there it counts for no majority."""
    state = bought(seed_example())
    buyer = state.active.name
    state = apply(state, ChooseConstruction(player=buyer, site="site-4-12-ES", building="pavilion")).state
    state = apply(state, TakeMoney(player=buyer, cards=state.display[:1])).state  # the exact payment's action
    state = apply(state, ReserveBuilding(player=buyer, tile="site-4-12-ES")).state
    me = next(p for p in state.players if p.name == buyer)
    assert me.reserve[-1] == Tile(tile="site-4-12-ES", construction="pavilion")
    assert state.active.name != buyer  # the turn is over
    assert majority(next(s.lines for s in score_state(state, 1).players if s.name == buyer),
                    "pavilion").count == 0
    assert check_consistency(state) == []


@pytest.mark.rule("grounds.buy")
def test_grounds_buy_refuses_less_than_the_price_shown_on_the_site_or_another_currency() -> None:
    """grounds.buy, seeds 001.6, 001.9: the site is bought "for the price shown on it": "This
    building site can be purchased for a price of 12 denari (blue currency)." 11 denari are too
    little; the blue space takes no florins."""
    state = with_columns(grounds_game(), *SEED_COLUMNS)
    state = site_on(state, "site-4-12-ES", "blue")
    state = holding(state, state.turn.player, "blue-9-a", "blue-2-a", "yellow-3-a")
    buyer = state.active.name
    short = validate(state, BuyBuilding(player=buyer, tile="site-4-12-ES", payment=("blue-9-a", "blue-2-a")))
    assert short[0].rule == "base.buy.amount" and "12" in short[0].message
    florins = validate(state, BuyBuilding(player=buyer, tile="site-4-12-ES",
                                          payment=("blue-9-a", "yellow-3-a")))
    assert florins[0].rule == "base.buy.currency"


@pytest.mark.rule("grounds.buy")
def test_grounds_buy_allows_a_leftover_site_whose_recipient_chooses_its_building() -> None:
    state = most_blue(seed_example())
    # The game ends with a market space empty (base.end.trigger): the yellow one, its tile back
    # in the bag, so 3 tiles at most are handed out (base.end.leftovers).
    yellow = next(s for s in state.market if s.currency == "yellow")
    assert yellow.tile is not None
    state = replace(state, bag=(yellow.tile, *state.bag),
                    market=tuple(emptied(s) if s is yellow else s for s in state.market))
    seat = state.turn.player
    ctx = Context(Generator(1))
    ended = end_game(state, ctx)
    assert ended.phase == "final-placement" and ended.turn.player == seat
    name = ended.players[seat].name
    listed, _ = legal_actions(ended)
    chosen = {a.building for a in listed if isinstance(a, ChooseConstruction)}
    assert chosen == {"pavilion", "arcades", "chambers"}
    assert all(isinstance(a, ChooseConstruction) for a in listed)
    after = apply(ended, ChooseConstruction(player=name, site="site-4-12-ES", building="chambers")).state
    held = next(t for t in after.players[seat].held if t.tile == "site-4-12-ES")
    assert held.construction == "chambers" and held.leftover
    assert check_consistency(after) == []


@pytest.mark.rule("grounds.setup")
def test_grounds_setup_refuses_a_column_short_of_what_the_sites_of_its_number_took() -> None:
    """grounds.setup, seeds 001.5, 001.7, 001.12: "randomly place 3 building under construction
    tiles in a column under each number tile"; a buyer "choose[s] one of the buildings under
    construction from the column with the matching number", Dirk "takes the topmost building
    under construction of that column". So column n holds 3 less the sites numbered n that carry
    a building: a column emptied by sites of other numbers, or one short with no site to show
    for it, cannot occur; a real game's columns can."""
    state = seed_example()
    assert check_consistency(state) == []
    used_up = check_consistency(column_4_used_up(state))
    assert any(v.rule == "grounds.setup" and "column 4 holds 0 buildings" in v.message and
               "3 must be left" in v.message for v in used_up)
    assert state.grounds is not None
    short = replace(state, grounds=replace(state.grounds, columns=(*state.grounds.columns[:3],
                                                                   state.grounds.columns[3][1:])))
    assert any(v.rule == "grounds.setup" and "column 4 holds 2" in v.message
               for v in check_consistency(short))
    chosen = apply(bought(state), ChooseConstruction(player=bought(state).active.name, site="site-4-12-ES",
                                                     building="pavilion")).state
    assert check_consistency(chosen) == []


@pytest.mark.rule("grounds.buy")
def test_grounds_buy_refuses_a_site_whose_column_is_empty() -> None:
    state = column_4_used_up(seed_example())
    buy = BuyBuilding(player=state.active.name, tile="site-4-12-ES", payment=("blue-9-a", "blue-3-a"))
    refused = validate(state, buy)
    assert refused and refused[0].rule == "grounds.buy" and "column 4" in refused[0].message
    assert buy not in legal_actions(state)[0]


@pytest.mark.rule("grounds.buy")
def test_grounds_buy_refuses_a_building_not_in_the_column_and_anything_else_meanwhile() -> None:
    """grounds.buy, seed 001.7: "Immediately, they choose one of the buildings under construction
    from the column with the matching number": a tower is not in column 4, and nothing else
    happens before the choice."""
    state = bought(seed_example())
    buyer = state.active.name
    wrong = validate(state, ChooseConstruction(player=buyer, site="site-4-12-ES", building="tower"))
    assert wrong[0].rule == "grounds.buy" and "column 4" in wrong[0].message
    not_held = validate(state, ChooseConstruction(player=buyer, site="site-1-8-N", building="pavilion"))
    assert not_held[0].rule == "grounds.buy"
    meanwhile = validate(state, ReserveBuilding(player=buyer, tile="site-4-12-ES"))
    assert meanwhile[0].rule == "grounds.buy" and "choose-construction" in meanwhile[0].message
    money = validate(state, TakeMoney(player=buyer, cards=state.display[:1]))
    assert money[0].rule == "grounds.buy"
    other = next(p.name for p in state.players if p.name != buyer)
    assert validate(state, ChooseConstruction(player=other, site="site-4-12-ES", building="arcades"))
    # A site built into an Alhambra without its building is no state of a game.
    seat = state.turn.player
    bare = replace(state, players=tuple(
        replace(p, held=(), alhambra=(*p.alhambra, PlacedTile(tile="site-4-12-ES", x=1, y=0)))
        if i == seat else p for i, p in enumerate(state.players)), turn=replace(state.turn, actions=1))
    assert any(v.rule == "grounds.buy" and "site-4-12-ES" in v.message for v in check_consistency(bare))


@pytest.mark.rule("grounds.buy")
def test_grounds_buy_refuses_a_building_to_a_leftover_site_whose_column_is_empty() -> None:
    state = most_blue(column_4_used_up(seed_example()))
    seat = state.turn.player
    ended = end_game(state, Context(Generator(1)))
    me = ended.players[seat]
    assert ended.phase == "final-placement" and pending(ended) is None
    assert Tile(tile="site-4-12-ES", leftover=True) in me.held
    refused = validate(ended, ChooseConstruction(player=me.name, site="site-4-12-ES", building="arcades"))
    assert refused[0].rule == "grounds.buy" and "no such decision" in refused[0].message
    assert not any(isinstance(a, ChooseConstruction) for a in legal_actions(ended)[0])
    # Placed, the bare site is a tile of no type: it counts for no majority.
    while ended.active.name != me.name:  # recipients of other leftovers place theirs first
        ended = apply(ended, ReserveBuilding(player=ended.active.name, tile=ended.active.held[0].tile)).state
    after = apply(ended, PlaceBuilding(player=me.name, tile="site-4-12-ES", x=1, y=0)).state
    placed = next(p for p in after.players[seat].alhambra if p.tile == "site-4-12-ES")
    assert placed.construction is None and building_type(placed) is None


# --- grounds.score --------------------------------------------------------------------------

def _position(*tiles: PlacedTile, modules: tuple[str, ...] = ("grounds",), round_: int = 1) -> Position:
    return Position(round=round_, modules=modules, players=(
        PositionPlayer(name="Ana", alhambra=(PlacedTile(x=0, y=0, tile="fountain"), *tiles)),
        PositionPlayer(name="Ben", alhambra=(PlacedTile(x=0, y=0, tile="fountain"),
                                             PlacedTile(x=1, y=0, tile="garden-10-open"))),
        PositionPlayer(name="Cyd", alhambra=(PlacedTile(x=0, y=0, tile="fountain"),))))


@pytest.mark.rule("grounds.score")
def test_grounds_score_allows_a_site_to_count_as_its_building_type() -> None:
    """grounds.score, seed 001.11: "Buildings under construction count as any other buildings of
    that type.\""""
    # Two gardens for Ana (one printed, one under construction) beat Ben's one.
    breakdown = score(_position(PlacedTile(x=-1, y=0, tile="garden-11-open"),
                                PlacedTile(x=1, y=0, tile="site-2-8-E", construction="garden")))
    ana = majority(breakdown.players[0].lines, "garden")
    assert ana.count == 2 and ana.place == 1 and ana.points == 5
    assert building_type(Tile(tile="site-2-8-E", construction="garden")) == "garden"


@pytest.mark.rule("grounds.score")
def test_grounds_score_refuses_a_bare_site_or_a_building_on_a_printed_tile() -> None:
    """grounds.score, seed 001.11: only a building under construction (on its site) counts as a
    building of its type; a bare site counts as none (and with the default data there is none,
    `test_grounds_buy_refuses_a_bare_site_in_any_round_with_the_default_data`)."""
    assert building_type(Tile(tile="site-2-8-E")) is None
    with pytest.raises(InconsistentState) as refused:
        score(_position(PlacedTile(x=1, y=0, tile="garden-11-open", construction="tower")))
    assert any(v.rule == "grounds.buy" and "garden-11-open" in v.message for v in refused.value.violations)
    with pytest.raises(InconsistentState):  # the token of a module that is off
        score(_position(PlacedTile(x=1, y=0, tile="site-2-8-E", construction="garden"), modules=()))


@pytest.mark.rule("grounds.buy")
def test_grounds_buy_refuses_a_bare_site_in_any_round_with_the_default_data() -> None:
    """grounds.buy, seeds 001.5, 001.6, 001.7: "randomly place 3 building under construction
    tiles in a column under each number tile" and "Immediately, they choose one of the buildings
    under construction ... and place it on that building site." A site is built before it is
    placed, so in rounds 1 and 2 no Alhambra or reserve holds a bare site; and only the 2 sites
    of a number take from its column of 3, so none ever finds it empty, not even a leftover
    site in round 3."""
    for round_ in (1, 2):
        with pytest.raises(InconsistentState) as refused:
            score(_position(PlacedTile(x=1, y=0, tile="site-2-8-E"), round_=round_))
        assert any(v.rule == "grounds.buy" and "$.players[0].alhambra[1]" in v.message and
                   f"in round {round_} none" in v.message for v in refused.value.violations)
    with pytest.raises(InconsistentState) as refused:
        score(_position(PlacedTile(x=1, y=0, tile="site-2-8-E"), round_=3))
    assert any(v.rule == "grounds.buy" and "at most 0" in v.message and "a column of 3" in v.message
               for v in refused.value.violations)
    built = PlacedTile(x=1, y=0, tile="site-2-8-E", construction="garden")
    assert score(_position(built, round_=3)).players[0].total >= 0


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_allows_a_tally_wall_of_the_tiles_an_alhambra_holds_with_grounds() -> None:
    """RULES.md base.score.wall with grounds.buy (seeds 001.5, 001.7: a site is built at once, and
    no column runs out): an Alhambra holds only the fountain and its buildings, so 2 gardens make
    a wall of 6 at most, in every round."""
    from tests.engine.test_tally import table, tally

    for round_ in (1, 2, 3):
        assert position_problems(table(tally(buildings={"garden": 2}, wall=6), modules=("grounds",),
                                       round_=round_)) == []


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_refuses_a_tally_wall_of_bare_sites_before_round_3() -> None:
    """RULES.md base.score.wall with grounds.buy (seeds 001.5, 001.7): no bare site stands in an
    Alhambra, so a wall of 7 for 2 gardens is refused in every round."""
    from tests.engine.test_tally import refused, table, tally

    for round_ in (1, 2, 3):
        refused(table(tally(buildings={"garden": 2}, wall=7), modules=("grounds",), round_=round_),
                "base.score.wall", "$.players[0].tally.wall is 7", "at most 6")


# --- grounds.dirk ---------------------------------------------------------------------------

def _dirk_game_with_a_site(site: bool = True) -> tuple[GameState, GroundLaid]:
    """A two-player game where Dirk drew a site at setup (or, with `site=False`, none)."""
    for seed in range(1, 300):
        outcome = new_game(("Ana", "Ben"), ["grounds"], seed=seed)
        assert outcome.state.dirk is not None
        if any(t.tile.startswith("site-") for t in outcome.state.dirk.tiles) == site:
            laid = next(e for e in outcome.events if isinstance(e, GroundLaid))
            return outcome.state, laid
    raise AssertionError("no seed deals Dirk such tiles at setup")


@pytest.mark.rule("grounds.dirk")
def test_grounds_dirk_allows_a_site_from_the_bag_to_take_the_top_of_its_column() -> None:
    """grounds.dirk, seed 001.12: "If Dirk buys a building site, he takes the topmost building
    under construction of that column." (Dirk buys nothing: a site reaches him from the bag.)"""
    state, laid = _dirk_game_with_a_site()
    assert state.dirk is not None and state.grounds is not None
    for t in state.dirk.tiles:
        if t.tile.startswith("site-"):
            number = int(t.tile.split("-")[1])
            assert t.construction == laid.columns[number - 1][0]
    assert check_consistency(state) == []
    # Given the way of the refills after a scoring round: a bare site reaching him is built.
    site = next(t for t in state.bag if t.startswith("site-"))
    number = int(site.split("-")[1])
    top = state.grounds.columns[number - 1][0]
    arrived = replace(state, bag=tuple(t for t in state.bag if t != site),
                      dirk=replace(state.dirk, tiles=(*state.dirk.tiles, Tile(tile=site))))
    built = build_for_dirk(arrived, Context(Generator(1)))
    assert built.dirk is not None and built.grounds is not None
    assert built.dirk.tiles[-1] == Tile(tile=site, construction=top)
    assert built.grounds.columns[number - 1] == state.grounds.columns[number - 1][1:]
    assert check_consistency(built) == []


@pytest.mark.rule("grounds.dirk")
def test_grounds_dirk_allows_a_gift_with_the_building_its_buyer_chose() -> None:
    state = with_columns(_dirk_game_with_a_site(site=False)[0], *SEED_COLUMNS)
    state = site_on(state, "site-4-12-ES", "blue")
    state = holding(state, state.turn.player, "blue-9-a", "blue-3-a")
    state = bought(state)
    buyer = state.active.name
    state = apply(state, ChooseConstruction(player=buyer, site="site-4-12-ES", building="pavilion")).state
    state = apply(state, GiveToDirk(player=buyer, tile="site-4-12-ES")).state
    assert state.dirk is not None and state.grounds is not None
    assert Tile(tile="site-4-12-ES", construction="pavilion") in state.dirk.tiles
    assert state.grounds.columns[3] == ("arcades", "chambers")
    assert check_consistency(state) == []


@pytest.mark.rule("grounds.dirk")
def test_grounds_dirk_refuses_a_building_from_an_empty_column_or_a_bare_site_beside_a_full_one() -> None:
    """grounds.dirk, seed 001.12: Dirk "takes the topmost building under construction of that
    column": none when the column is empty, always one while it holds any."""
    state, _ = _dirk_game_with_a_site()
    assert state.dirk is not None and state.grounds is not None
    # A site whose column is empty stays bare and counts for nothing.
    site = next(t for t in state.bag if t.startswith("site-"))
    number = int(site.split("-")[1])
    columns = list(state.grounds.columns)
    emptied, columns[number - 1] = columns[number - 1], ()
    bare_sites = [t for t in state.bag if t.startswith("site-") and t != site][:len(emptied)]
    assert len(bare_sites) == len(emptied)
    ana = replace(state.players[0], reserve=tuple(Tile(tile=s, construction=b)
                                                  for s, b in zip(bare_sites, emptied, strict=True)))
    arrived = replace(state, players=(ana, *state.players[1:]),
                      bag=tuple(t for t in state.bag if t != site and t not in bare_sites),
                      dirk=replace(state.dirk, tiles=(*state.dirk.tiles, Tile(tile=site))),
                      grounds=replace(state.grounds, columns=tuple(columns)))
    built = build_for_dirk(arrived, Context(Generator(1)))
    assert built.dirk is not None and built.dirk.tiles[-1] == Tile(tile=site)
    # Sites of other numbers cannot have emptied the column (seeds 001.5, 001.7): no game's state.
    assert any(v.rule == "grounds.setup" and f"column {number}" in v.message
               for v in check_consistency(built))
    dirk_lines = score_state(built, 1).players[-1].lines
    assert sum(ln.count for ln in dirk_lines if isinstance(ln, MajorityLine)) == len(state.dirk.tiles)
    # A bare site of Dirk's while its column still holds buildings is no state of a game.
    full = replace(arrived, grounds=state.grounds, players=state.players,
                   bag=tuple(t for t in state.bag if t != site))
    assert any(v.rule == "grounds.dirk" and site in v.message for v in check_consistency(full))


# --- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_building_grounds_reach_the_end(players: int) -> None:
    game = play_random_game(200 + players, players, ("grounds",), list_every=40)
    assert game.states[-1].phase == "over"
    assert any(isinstance(a, ChooseConstruction) for a in game.actions)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_zoo_and_the_building_grounds_reach_the_end(players: int) -> None:
    game = play_random_game(300 + players, players, ("zoo", "grounds"), list_every=40)
    assert game.states[-1].phase == "over"


def test_the_choice_candidates_are_the_distinct_buildings_of_the_column() -> None:
    state = with_columns(seed_example(), ("tower", "tower", "seraglio"), ("seraglio", "garden", "garden"),
                         ("pavilion", "arcades", "chambers"), ("pavilion", "arcades", "chambers"))
    state = site_on(state, "site-1-8-N", "yellow")
    state = holding(state, state.turn.player, "yellow-8-a")
    state = bought(state, "site-1-8-N", ("yellow-8-a",))
    assert [a.building for a in candidates_choose(state, state.turn.player)] == ["tower", "seraglio"]
