"""Street Vendors and Inhabitants (RULES.md §V, seed 003 "Els venedors ambulants i els
habitants"): one test that allows and one that refuses per rule id, tests of the seed's sentences
(003.28 to 003.41, quoted in Catalan with an English translation) written from the text, hidden
setup choices in the views, random games."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from service.engine import (
    GameRequestError,
    InconsistentState,
    apply,
    check_consistency,
    legal_actions,
    new_game,
    score,
    score_state,
    validate,
)
from service.engine.actions import PlaceBuilding, RemoveToReserve, TakeMoney
from service.engine.modules.vendors.actions import ChooseInhabitants, PlaceDisc, VisitVendor
from service.engine.modules.vendors.play import pending
from service.engine.modules.vendors.scoring import VendorsLine, sets_of
from service.engine.scoring import Position, PositionPlayer
from service.engine.state import GameState, PlacedTile, Turn
from service.engine.view import view
from tests.support.helpers import NAMES, allowed, arrange, play, refused, seated
from tests.support.play import play_random_game

CHOICE = ("garden", "tower", "pavilion")


def chosen_game(players: int = 3, seed: int = 1) -> GameState:
    """A vendors game after every player put garden, tower and pavilion on the disc, at (1, 0)."""
    state = new_game(NAMES[:players], ["vendors"], seed=seed).state
    for p in state.players:
        state = allowed(state, ChooseInhabitants(player=p.name, inhabitants=CHOICE, x=1, y=0))
    return state


def building_turn(held: str = "garden-10-open", alhambra: tuple[tuple[str, int, int], ...] = ()) -> GameState:
    """Ana's actions are over and she holds `held`; her disc stands at (1, 0)."""
    state = chosen_game()
    state = arrange(state, held={"Ana": [held]}, alhambras={"Ana": alhambra} if alhambra else None,
                    active="Ana", turn=Turn(player=0, actions=0, acted=True, ending=0))
    return state


def test_setup_choices_are_hidden_until_everyone_chose() -> None:
    """RULES.md §8, seed 003.28: "tria en secret tres habitants" (secretly chooses three
    inhabitants): nobody else sees the choice until every player has made theirs."""
    state = new_game(NAMES[:3], ["vendors"], seed=1).state
    state = allowed(state, ChooseInhabitants(player="Ana", inhabitants=CHOICE, x=0, y=-1))
    ben = view(state, "Ben").vendors
    assert ben is not None and ben.supply is None and ben.discs[0] is None
    ana = view(state, "Ana").vendors
    assert ana is not None and ana.discs[0] is not None and ana.discs[0].inhabitants
    assert view(state, None).vendors.discs == (None, None, None)  # type: ignore[union-attr]
    for name in ("Ben", "Cyd"):
        state = allowed(state, ChooseInhabitants(player=name, inhabitants=CHOICE, x=-1, y=0))
    seen = view(state, None).vendors
    assert seen is not None and seen.supply is not None and all(d is not None for d in seen.discs)


@pytest.mark.rule("vendors.setup")
def test_setup_allows_each_player_in_seat_order_before_the_first_turn() -> None:
    """vendors.setup, seeds 003.28, 003.29, 003.30: "Cadascú rep un disc de venedor i tria en secret
    tres habitants entre un de cada color." (Each player takes a vendor disc and secretly chooses
    three inhabitants from one of each colour.) "Poseu aquests tres sobre el disc i el disc al
    costat de la font." (Put these three on the disc and the disc beside the fountain.) "La resta
    forma la reserva comuna." (The rest form the common supply: 42 less the 9 on the discs.)"""
    state = new_game(NAMES[:3], ["vendors"], seed=2).state
    found = pending(state)
    assert found is not None and found.seat == 0 and found.rule == "vendors.setup"
    state = chosen_game()
    vendors = state.vendors
    assert vendors is not None
    assert all(d.inhabitants == ("pavilion", "garden", "tower") and (d.x, d.y) == (1, 0)
               for d in vendors.discs)
    assert len(vendors.supply) == 42 - 9
    assert sorted(vendors.supply).count("garden") == 7 - 3 and vendors.supply.count("seraglio") == 7
    assert pending(state) is None


@pytest.mark.rule("vendors.setup")
def test_setup_refuses_a_bad_choice_another_seat_or_an_action_first() -> None:
    """vendors.setup, seeds 003.28, 003.29: three inhabitants "entre un de cada color" (from one of
    each colour: two gardens are not possible), the disc "al costat de la font" (beside the
    fountain: not two spaces away)."""
    state = new_game(NAMES[:3], ["vendors"], seed=1).state
    refused(state, ChooseInhabitants(player="Ana", inhabitants=("garden", "garden", "tower"), x=1, y=0),
            "vendors.setup", "different colours")
    refused(state, ChooseInhabitants(player="Ana", inhabitants=CHOICE, x=2, y=0), "vendors.setup", "(2, 0)")
    refused(state, ChooseInhabitants(player="Ben", inhabitants=CHOICE, x=1, y=0), "vendors.setup", "Ana")
    refused(state, TakeMoney(player=state.active.name, cards=(state.display[0],)), "vendors.setup")


@pytest.mark.rule("vendors.visit")
def test_visit_allows_settling_a_matching_inhabitant_and_restocking() -> None:
    """vendors.visit, seeds 003.31, 003.32: "Quan col·loquis un edifici a la casella ocupada pel
    venedor, aparta temporalment el disc." (When you place a building on the space the vendor
    occupies, set the disc aside for a while.) "Si hi té un habitant del color de l'edifici, en
    pots passar un a l'edifici i triar un habitant nou de la reserva per reposar-lo." (If it
    carries an inhabitant of the building's colour, you may move one onto the building and
    choose a new inhabitant from the supply to replace it.)"""
    state = building_turn()
    state = allowed(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0))
    assert state.vendors is not None and state.vendors.discs[0].lifted
    found = pending(state)
    assert found is not None and found.rule == "vendors.visit" and found.seat == 0
    state = allowed(state, VisitVendor(player="Ana", settle="garden", take="chambers"))
    vendors = state.vendors
    assert vendors is not None
    assert sorted(vendors.discs[0].inhabitants) == ["chambers", "pavilion", "tower"]
    assert next(t for t in state.players[0].alhambra if t.tile == "garden-10-open").inhabitant


@pytest.mark.rule("vendors.visit")
def test_visit_allows_a_swap_when_no_colour_matches() -> None:
    """vendors.visit, seed 003.33: "Si no coincideix cap color, pots intercanviar un habitant del
    disc per un de la reserva." (If no colour matches, you may swap an inhabitant of the disc for
    one from the supply.) Chambers on a disc of garden, tower and pavilion."""
    state = building_turn(held="chambers-10-open")
    state = allowed(state, PlaceBuilding(player="Ana", tile="chambers-10-open", x=1, y=0))
    state = allowed(state, VisitVendor(player="Ana", give="tower", take="seraglio"))
    vendors = state.vendors
    assert vendors is not None and sorted(vendors.discs[0].inhabitants) == ["garden", "pavilion", "seraglio"]
    assert not any(t.inhabitant for t in state.players[0].alhambra)


@pytest.mark.rule("vendors.visit")
def test_visit_refuses_a_wrong_colour_a_swap_on_a_match_and_a_missing_restock() -> None:
    """vendors.visit, seeds 003.32, 003.33: an inhabitant "del color de l'edifici" (of the
    building's colour) moves in, and the disc is restocked "per reposar-lo" (to replace it); the
    swap only "Si no coincideix cap color" (if no colour matches)."""
    state = building_turn()
    state = allowed(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0))
    refused(state, VisitVendor(player="Ana", settle="tower", take="garden"), "vendors.visit", "garden")
    refused(state, VisitVendor(player="Ana", give="tower", take="garden"), "vendors.visit", "no swap")
    refused(state, VisitVendor(player="Ana", settle="garden"), "vendors.visit", "take")
    refused(state, VisitVendor(player="Ben"), "vendors.visit", "Ana")
    other = building_turn(held="chambers-10-open")
    other = allowed(other, PlaceBuilding(player="Ana", tile="chambers-10-open", x=1, y=0))
    refused(other, VisitVendor(player="Ana", settle="chambers"), "vendors.visit", "chambers-10-open")


@pytest.mark.rule("vendors.relocate")
def test_relocate_allows_an_empty_space_next_to_the_alhambra() -> None:
    """vendors.relocate, seed 003.34: "Al final de la construcció, situa el disc en una casella
    lliure adjacent per un costat a qualsevol edifici de la teva Alhambra." (At the end of the
    construction, put the disc on a free space sharing a side with any building of your
    Alhambra.)"""
    state = building_turn()
    state = allowed(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0))
    state = allowed(state, VisitVendor(player="Ana"))
    found = pending(state)
    assert found is not None and found.rule == "vendors.relocate"
    outcome = play(state, PlaceDisc(player="Ana", x=2, y=0))
    vendors = outcome.state.vendors
    assert vendors is not None and (vendors.discs[0].x, vendors.discs[0].y) == (2, 0)
    assert not vendors.discs[0].lifted and outcome.state.turn.player == 1


@pytest.mark.rule("vendors.relocate")
def test_relocate_refuses_a_taken_or_distant_space_and_other_actions() -> None:
    """vendors.relocate, seed 003.34: "una casella lliure adjacent per un costat" (a free space
    sharing a side): not the garden's space, not one two spaces away."""
    state = building_turn()
    state = allowed(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0))
    state = allowed(state, VisitVendor(player="Ana"))
    refused(state, PlaceDisc(player="Ana", x=1, y=0), "vendors.relocate", "(1, 0)")
    refused(state, PlaceDisc(player="Ana", x=3, y=0), "vendors.relocate", "(3, 0)")
    refused(state, TakeMoney(player="Ben", cards=(state.display[0],)), "vendors.relocate")


def _lifted(state: GameState, seat: int = 0) -> GameState:
    """`state` with the disc of `seat` marked lifted (nothing else changed)."""
    assert state.vendors is not None
    discs = list(state.vendors.discs)
    discs[seat] = replace(discs[seat], lifted=True)
    return replace(state, vendors=replace(state.vendors, discs=tuple(discs)))


@pytest.mark.rule("vendors.visit")
def test_visit_refuses_a_disc_lifted_over_an_empty_space_at_the_start_of_a_turn() -> None:
    """vendors.visit, seed 003.31: "Quan col·loquis un edifici a la casella ocupada pel venedor,
    aparta temporalment el disc." (When you place a building on the space the vendor occupies,
    set the disc aside for a while.) Only a building placed on its space lifts a disc: at the
    start of Ana's turn, nothing built, her disc lifted over the empty (1, 0) cannot occur (the
    review's state, which then asked her to put the disc down after taking money)."""
    state = chosen_game()
    assert state.turn.player == 0 and not state.turn.acted and check_consistency(state) == []
    problems = check_consistency(_lifted(state))
    assert [v.rule for v in problems] == ["vendors.visit"], problems
    assert "Ana's disc is lifted over the empty space (1, 0)" in problems[0].message


@pytest.mark.rule("vendors.relocate")
def test_relocate_refuses_a_disc_still_lifted_outside_its_owners_construction() -> None:
    """vendors.relocate, seed 003.34: "Al final de la construcció, situa el disc en una casella
    lliure adjacent" (at the end of the construction, put the disc on a free space next to the
    Alhambra): a disc lifted in Ana's turn is put down before that turn ends. Lifted under her
    garden while she builds: allowed; the same disc lifted once Ben's turn has begun (Ana done),
    or at the start of her own next turn before she acts: refused."""
    state = building_turn()
    built = allowed(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0))
    assert built.vendors is not None and built.vendors.discs[0].lifted and check_consistency(built) == []
    # The market refilled as at the end of Ana's turn (base.turn.refill), so only the disc is off.
    bag = list(built.bag)
    market = tuple(space if space.tile is not None else replace(space, tile=bag.pop(0))
                   for space in built.market)
    built = replace(built, market=market, bag=tuple(bag))
    bens = replace(built, turn=Turn.start(1))
    assert [v.rule for v in check_consistency(bens)] == ["vendors.relocate"]
    assert "Ana's disc is lifted outside Ana's construction" in check_consistency(bens)[0].message
    again = replace(built, turn=Turn.start(0))
    assert [v.rule for v in check_consistency(again)] == ["vendors.relocate"]


@pytest.mark.rule("vendors.visit")
def test_visit_allows_a_disc_lifted_by_the_builders_redesign_before_the_first_action() -> None:
    """vendors.visit, seed 003.31 ("Quan col·loquis un edifici a la casella ocupada pel venedor,
    aparta temporalment el disc": when you place a building on the vendor's space, set the disc
    aside) with craftsmen.use-one (the builder's redesign the whole turn, before the actions
    too): a reserve building put on the disc's space before Ana acts lifts it, and the state is
    consistent."""
    from service.engine.modules.craftsmen.actions import BuilderRedesign
    from tests.modules.test_craftsmen import hire

    state = new_game(NAMES[:3], ["vendors", "craftsmen"], seed=1).state
    for p in state.players:
        state = allowed(state, ChooseInhabitants(player=p.name, inhabitants=CHOICE, x=1, y=0))
    state = hire(arrange(state, reserves={"Ana": ["garden-10-open"]}, active="Ana"), "builder")
    assert not state.turn.acted
    lifted = allowed(state, BuilderRedesign(player="Ana", tile="garden-10-open", x=1, y=0))
    assert lifted.vendors is not None and lifted.vendors.discs[0].lifted and not lifted.turn.acted
    assert check_consistency(lifted) == []


@pytest.mark.rule("vendors.one-per-building")
def test_one_per_building_allows_returning_an_inhabitant_to_the_supply() -> None:
    """vendors.one-per-building, seed 003.36: "Si retires un edifici habitat, retorna l'habitant a
    la reserva." (If you remove an inhabited building, return the inhabitant to the supply.)"""
    state = building_turn()
    state = allowed(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0))
    state = allowed(state, VisitVendor(player="Ana", settle="garden", take="chambers"))
    state = allowed(state, PlaceDisc(player="Ana", x=0, y=1))
    vendors = state.vendors
    assert vendors is not None
    before = vendors.supply.count("garden")
    # Ana's next turn: the garden goes to the reserve, the inhabitant to the supply.
    state = replace(state, turn=Turn.start(0))
    outcome = play(state, RemoveToReserve(player="Ana", tile="garden-10-open"))
    vendors = outcome.state.vendors
    assert vendors is not None and vendors.supply.count("garden") == before + 1
    assert not any(t.inhabitant for t in outcome.state.players[0].reserve)


@pytest.mark.rule("vendors.one-per-building")
def test_one_per_building_refuses_a_restock_from_an_empty_supply_and_inhabitants_off_the_alhambra() -> None:
    """vendors.one-per-building, seeds 003.37, 003.36: "Quan la reserva s'esgota, no es reposa."
    (When the supply runs out, the disc is not restocked.) An inhabitant never stays on a
    building off the Alhambra."""
    state = building_turn()
    state = allowed(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0))
    vendors = state.vendors
    assert vendors is not None
    # An empty supply (an impossible state here: only validated, never applied).
    empty = replace(state, vendors=replace(vendors, supply=()))
    refused(empty, VisitVendor(player="Ana", settle="garden", take="tower"), "vendors.one-per-building")
    assert validate(empty, VisitVendor(player="Ana", settle="garden")) == []
    ben = state.players[1]
    bad = replace(state, players=(state.players[0], replace(ben, reserve=(
        *ben.reserve, replace(state.players[0].alhambra[0], tile="tower-11-open", inhabitant=True)),),
        state.players[2]))
    assert any(v.rule == "vendors.one-per-building" for v in check_consistency(bad))


@pytest.mark.rule("vendors.one-per-building")
def test_one_per_building_refuses_a_second_inhabitant_and_a_game_with_workers_huts() -> None:
    """vendors.one-per-building, seeds 003.35, 003.33: "Un edifici només rep un habitant en aquesta
    operació; els cobertissos no en poden rebre." (A building takes only one inhabitant in this
    operation; the sheds cannot take any.) A garden that already has its inhabitant (moved onto
    the disc's space within the Alhambra, as a builder does) takes no second one; the sheds
    (workers' huts, another expansion) are not supported (RULES.md §H)."""
    state = building_turn()
    state = allowed(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0))
    vendors = state.vendors
    assert vendors is not None
    ana = state.players[0]
    supply = list(vendors.supply)
    supply.remove("garden")
    inhabited = replace(state, vendors=replace(vendors, supply=tuple(supply)), players=(
        replace(ana, alhambra=tuple(replace(t, inhabitant=t.tile == "garden-10-open") for t in ana.alhambra)),
        *state.players[1:]))
    assert check_consistency(inhabited) == []
    refused(inhabited, VisitVendor(player="Ana", settle="garden", take="chambers"),
            "vendors.one-per-building", "garden-10-open")
    # The disc's garden inhabitant matches the garden's colour, so no swap either (seed 003.33:
    # only "Si no coincideix cap color", if no colour matches): the visit brings nothing.
    refused(inhabited, VisitVendor(player="Ana", give="tower", take="chambers"), "vendors.visit", "garden")
    assert legal_actions(inhabited)[0] == [VisitVendor(player="Ana")]
    with pytest.raises(GameRequestError) as unsupported:
        new_game(NAMES[:3], ["vendors", "workers-huts"])
    assert any(v.rule == "modules.unsupported" and "workers-huts" in v.message
               for v in unsupported.value.violations)


def _position(*inhabited: str, disc_only: bool = False) -> Position:
    tiles = [PlacedTile(tile="fountain", x=0, y=0)]
    tiles += [PlacedTile(tile=t, x=i + 1, y=0, inhabitant=not disc_only) for i, t in enumerate(inhabited)]
    return Position(round=1, modules=("vendors",), check_layout=False,
                    players=(PositionPlayer(name="Ana", alhambra=tuple(tiles)),))


def _line(position: Position) -> VendorsLine:
    return next(ln for ln in score(seated(position)).players[0].lines if isinstance(ln, VendorsLine))


@pytest.mark.rule("vendors.score")
def test_score_allows_the_seed_example_three_colours_and_a_repeat_score_6_plus_1() -> None:
    """vendors.score, seeds 003.38, 003.40: "agrupa els habitants instal·lats en sèries de colors
    diferents" (group the settled inhabitants in sets of different colours); "Cada habitant
    només entra en una sèrie; els repetits formen sèries addicionals." (Each inhabitant is in
    one set only; repeated colours form further sets.)"""
    line = _line(_position("garden-10-open", "tower-11-open", "pavilion-8-open", "garden-11-open"))
    assert line.points == 6 + 1 and line.sets == (3, 1) and line.inhabitants == 4
    points = (1, 3, 6, 10, 15, 21)
    assert [sum(points[s - 1] for s in sets_of(list(c))) for c in ("abcdef", "aabb")] == [21, 6]


@pytest.mark.rule("vendors.score")
def test_score_allows_1_3_6_10_15_21_for_sets_of_1_to_6_colours_in_each_round() -> None:
    """vendors.score, seeds 003.38, 003.39: "En cadascun dels tres recomptes" (in each of the three
    scorings); "Una sèrie d'1, 2, 3, 4, 5 o 6 colors dona respectivament 1, 3, 6, 10, 15 o 21
    punts." (A set of 1, 2, 3, 4, 5 or 6 colours scores 1, 3, 6, 10, 15 or 21 points.)"""
    one_of_each = ("pavilion-8-open", "seraglio-9-open", "arcades-9-open", "chambers-10-open",
                   "garden-10-open", "tower-11-open")
    for n, points in zip(range(1, 7), (1, 3, 6, 10, 15, 21), strict=True):
        for round_ in (1, 2, 3):
            position = replace(_position(*one_of_each[:n]), round=round_)
            line = _line(position)
            assert (line.points, line.sets) == (points, (n,)), (n, round_)


@pytest.mark.rule("vendors.score")
def test_score_refuses_points_for_inhabitants_still_on_the_disc() -> None:
    """vendors.score, seed 003.41: "Els que encara són al disc no puntuen." (Those still on the
    disc score nothing.) Every disc carries three; only Ana's settled garden scores, 1 point."""
    state = chosen_game()
    for round_ in (1, 2, 3):
        assert all(ln.points == 0 for p in score_state(state, round_).players
                   for ln in p.lines if isinstance(ln, VendorsLine))
    state = building_turn()
    state = allowed(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0))
    state = allowed(state, VisitVendor(player="Ana", settle="garden", take="chambers"))
    assert state.vendors is not None and len(state.vendors.discs[0].inhabitants) == 3
    ana = next(ln for ln in score_state(state, 1).players[0].lines if isinstance(ln, VendorsLine))
    assert (ana.points, ana.inhabitants) == (1, 1)


@pytest.mark.rule("vendors.score")
def test_score_refuses_points_for_buildings_without_inhabitants_and_too_many_of_a_colour() -> None:
    """vendors.score, seed 003.38: only "els habitants instal·lats" (the settled inhabitants)
    score; there are 7 of a colour."""
    assert _line(_position("garden-10-open", "tower-11-open", disc_only=True)).points == 0
    gardens = ("garden-6-ESW", "garden-7-NSW", "garden-8-SW", "garden-8-NE", "garden-8-NW", "garden-9-E",
               "garden-10-N", "garden-10-W")
    with pytest.raises(InconsistentState):
        score(_position(*gardens))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_vendors(players: int) -> None:
    game = play_random_game(700 + players, players, ("vendors",), list_every=40)
    assert game.states[-1].phase == "over"


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_with_vendors_zoo_and_staff(players: int) -> None:
    game = play_random_game(710 + players, players, ("vendors", "zoo", "staff"), list_every=40)
    assert game.states[-1].phase == "over"


def test_apply_of_a_choice_keeps_the_components() -> None:
    state = new_game(NAMES[:2], ["vendors"], seed=3).state
    outcome = apply(state, ChooseInhabitants(player="Ana", inhabitants=CHOICE, x=0, y=1))
    assert check_consistency(outcome.state) == []


@pytest.mark.rule("vendors.setup")
def test_vendors_setup_refuses_a_disc_more_than_players_naming_its_seat() -> None:
    """RULES.md vendors.setup (a disc per player): a state with a fourth disc at a table of three
    is refused, the extra disc's inhabitants counted where they are, "seat 3's vendor disc" (issue
    30's mutation run: `seat <= len(players)` read a fourth player and crashed)."""
    from msgspec.structs import replace

    from service.engine import check_consistency, new_game

    state = new_game(("Ana", "Ben", "Cyd"), ("vendors",), seed=3).state
    assert state.vendors is not None
    discs = state.vendors.discs
    extra = replace(state, vendors=replace(state.vendors, discs=(*discs, discs[0])))
    problems = check_consistency(extra)
    assert any(v.rule == "vendors.setup" and "4 vendor discs for 3 players" in v.message for v in problems)
    assert any("seat 3's vendor disc" in v.message for v in problems), problems
