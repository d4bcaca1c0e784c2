"""The Walls (RULES.md §W): one test that allows and one that refuses per rule id, the wall cards
in the money piles, and random complete games."""

from __future__ import annotations

import msgspec
import pytest
from litestar.testing import TestClient
from msgspec.structs import replace

from service.api.app import create_app
from service.engine import InconsistentState, check_consistency, new_game, score, score_state
from service.engine.actions import BuyBuilding, PlaceBuilding, RemoveToReserve, ReserveBuilding, TakeMoney
from service.engine.catalogue import CATALOGUE
from service.engine.grid import walls_of
from service.engine.modules.power.actions import KeepCard, UsePower
from service.engine.modules.walls.actions import AddWalls, WallCardSetAside
from service.engine.modules.walls.data import CARDS
from service.engine.modules.walls.model import UsedWall, WallsState
from service.engine.scoring import Position, PositionPlayer, WallLine
from service.engine.state import GameState, PlacedTile, Tile
from service.engine.view import view
from service.settings import Settings
from tests.support.helpers import NAMES, allowed, arrange, play, refused, seated
from tests.support.play import play_random_game


def walls_game(players: int = 3, seed: int = 1, modules: tuple[str, ...] = ()) -> GameState:
    return new_game(NAMES[:players], ["walls", *modules], seed=seed).state


def walls(state: GameState) -> WallsState:
    assert state.walls is not None
    return state.walls


def set_aside(state: GameState, *cards: str) -> GameState:
    """The wall cards taken out of the deck and set aside beside the display."""
    state = replace(state, deck=tuple(c for c in state.deck if c not in cards),
                    walls=replace(walls(state), aside=(*walls(state).aside, *cards)))
    assert check_consistency(state) == []
    return state


def ana_with(state: GameState, *tiles: tuple[str, int, int], reserve: tuple[str, ...] = ()) -> GameState:
    return arrange(state, alhambras={"Ana": tiles}, reserves={"Ana": reserve}, active="Ana")


def wall_line(state: GameState, name: str) -> WallLine:
    breakdown = score_state(state, 1)
    player = next(p for p in breakdown.players if p.name == name)
    return next(line for line in player.lines if isinstance(line, WallLine))


def tile_of(state: GameState, name: str, tile: str) -> Tile:
    player = state.player_named(name)
    assert player is not None
    return next(t for t in (*player.alhambra, *player.reserve) if t.tile == tile)


# --- walls.setup ----------------------------------------------------------------------------


def piles(state: GameState) -> list[list[str]]:
    """The deck of a new game cut back into its 5 piles (as formed at setup)."""
    money = [c for c in state.deck if c in CATALOGUE.money]
    size, extra = divmod(len(money), CATALOGUE.money_piles)
    added = {2: 1 + 2, 3: 2, 4: 1 + 2, 5: 2}  # scoring cards and wall cards per pile
    out, start = [], 0
    for number in range(1, CATALOGUE.money_piles + 1):
        end = start + size + (1 if number - 1 < extra else 0) + added.get(number, 0)
        out.append(list(state.deck[start:end]))
        start = end
    assert start == len(state.deck)
    return out


@pytest.mark.rule("walls.setup")
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_walls_setup_allows_two_wall_cards_shuffled_into_each_pile_2_to_5(seed: int) -> None:
    """seed 003.4: "Barregeu dues cartes de muralla a cadascuna de les piles de diners segona a
    cinquena." (shuffle two wall cards into each of the money piles 2 to 5)"""
    state = walls_game(seed=seed)
    assert check_consistency(state) == []
    assert walls(state) == WallsState()
    cut = piles(state)
    assert [sum(c in CARDS for c in pile) for pile in cut] == [0, 2, 2, 2, 2]
    assert "scoring-1" in cut[1] and "scoring-2" in cut[3]
    assert sorted(c for c in state.deck if c in CARDS) == sorted(CARDS)
    assert not any(c in CARDS for c in state.display)


@pytest.mark.rule("walls.setup")
def test_walls_setup_refuses_a_missing_wall_card_or_one_without_the_module() -> None:
    """seed 003.4: the eight wall cards are all in the piles, and only with the module."""
    state = walls_game()
    missing = replace(state, deck=tuple(c for c in state.deck if c != "wall-NE"))
    assert any("wall-NE" in v.message for v in check_consistency(missing))
    assert any(v.rule == "walls.setup" for v in check_consistency(replace(state, walls=None)))
    plain = new_game(NAMES[:3], seed=1).state
    problems = check_consistency(replace(plain, deck=(*plain.deck, "wall-N")))
    assert any("wall-N" in v.message and "not a component of this game" in v.message for v in problems)


# --- walls.reveal ---------------------------------------------------------------------------


@pytest.mark.rule("walls.reveal")
def test_walls_reveal_allows_a_drawn_wall_card_set_aside_and_drawing_going_on() -> None:
    """seed 003.5: "Quan n'aparegui una, deixeu-la a part, descoberta, i continueu fins que hi hagi
    quatre cartes al mercat de diners." (when one turns up, set it aside face up and go on until
    the money display holds four cards)"""
    state = arrange(walls_game(), display=("blue-1-a", "blue-2-a", "green-3-a", "yellow-4-a"),
                    deck_top=("wall-ES", "scoring-1", "wall-W", "orange-6-a"), active="Ana")
    outcome = play(state, TakeMoney(player="Ana", cards=("blue-1-a",)))
    after = outcome.state
    assert walls(after).aside == ("wall-ES", "wall-W")
    assert sorted(after.display) == sorted(("blue-2-a", "green-3-a", "yellow-4-a", "orange-6-a"))
    set_aside_events = [e for e in outcome.events if isinstance(e, WallCardSetAside)]
    assert [e.card for e in set_aside_events] == ["wall-ES", "wall-W"]
    assert after.rounds_held == (1,)  # the scoring card among them is scored as usual
    seen = view(after, None)  # set aside face up: everyone sees them
    assert seen.walls is not None and seen.walls.aside == ("wall-ES", "wall-W")


@pytest.mark.rule("walls.reveal")
def test_walls_reveal_refuses_a_wall_card_in_the_display_or_a_hand() -> None:
    """seed 003.5: a wall card is set aside, never one of the four cards of the money display."""
    state = walls_game()
    in_display = replace(state, deck=tuple(c for c in state.deck if c != "wall-S"),
                         display=(*state.display[:3], "wall-S"), discard=(*state.discard, state.display[3]))
    assert any(v.rule == "walls.reveal" and "wall-S" in v.message for v in check_consistency(in_display))
    ana = state.players[0]
    in_hand = replace(state, deck=tuple(c for c in state.deck if c != "wall-S"),
                      players=(replace(ana, hand=(*ana.hand, "wall-S")), *state.players[1:]))
    assert any(v.rule == "walls.reveal" and "Ana's hand" in v.message for v in check_consistency(in_hand))


WISDOM = "garden-9-E-wisdom"
TURNED_UP = ("wall-N", "green-3-a", "wall-E", "blue-4-a", "yellow-5-a", "wall-S", "orange-6-a", "green-7-a",
             "blue-8-a")


def wisdom_draw() -> GameState:
    """Walls and power: Ana bought a wisdom tile and uses it; the deck's top is TURNED_UP."""
    state = arrange(walls_game(modules=("power",)), deck_top=TURNED_UP, market={"green": WISDOM},
                    display=("yellow-1-a", "yellow-2-a", "orange-1-a", "orange-2-a"),
                    hands={"Ana": ("green-9-a",)}, active="Ana")
    return play(state, BuyBuilding(player="Ana", tile=WISDOM, payment=("green-9-a",)),
                ReserveBuilding(player="Ana", tile=WISDOM), UsePower(player="Ana", tile=WISDOM)).state


@pytest.mark.rule("walls.reveal")
def test_walls_reveal_allows_a_wall_card_turned_up_by_a_wisdom_draw_set_aside_and_the_draw_going_on() -> None:
    """seed 003.5: "Quan n'aparegui una, deixeu-la a part, descoberta" (when one turns up, set it
    aside face up); walls.reveal: any draw from the deck, a wisdom power's too: the wall card
    does not count among the cards drawn and the draw goes on."""
    state = wisdom_draw()
    assert state.power is not None
    roll = state.power.roll
    money = [c for c in TURNED_UP if c not in CARDS]
    assert state.power.drawn == tuple(money[:roll])  # as many money cards as the die shows
    turned = TURNED_UP[:TURNED_UP.index(money[roll - 1]) + 1]
    assert walls(state).aside == tuple(c for c in turned if c in CARDS)  # face up, beside the display
    assert not set(walls(state).aside) & set(state.deck)
    seen = view(state, "Ben")
    assert seen.walls is not None and seen.walls.aside == walls(state).aside
    drawn = state.power.drawn
    after = allowed(state, KeepCard(player="Ana", card=drawn[0], order=drawn[1:]))
    assert after.deck[:roll - 1] == drawn[1:]  # only money cards go back on the deck
    assert walls(after).aside == walls(state).aside
    ben = arrange(after, active="Ben")
    allowed(ben, AddWalls(player="Ben", card="wall-N", tile="fountain"))  # in everyone's reach


@pytest.mark.rule("walls.reveal")
def test_walls_reveal_refuses_a_wall_card_kept_or_among_the_cards_a_wisdom_power_drew() -> None:
    """seed 003.5, walls.reveal: a wall card turned up by a wisdom draw is set aside, never
    among the cards drawn (so never kept, never put back on the deck)."""
    state = wisdom_draw()
    assert state.power is not None
    drawn = state.power.drawn
    refused(state, KeepCard(player="Ana", card="wall-N", order=drawn), "power.wisdom", "wall-N")
    among = replace(state, deck=(drawn[-1], *(c for c in state.deck if c != "wall-W")),
                    power=replace(state.power, drawn=(*drawn[:-1], "wall-W")))
    assert any("wall-W" in v.message for v in check_consistency(among))


# --- walls.action ---------------------------------------------------------------------------


@pytest.mark.rule("walls.action")
def test_walls_action_allows_adding_a_set_aside_card_to_the_fountain_as_the_action() -> None:
    """seed 003.6: "Com a acció, pots agafar una carta de muralla disponible i construir la
    disposició d'una o dues muralles que mostra sobre una única fitxa de la teva Alhambra o de la
    reserva, també sobre la font." (as your action, take an available wall card and build the one
    or two walls it shows on a single tile of your Alhambra or reserve, the fountain too)"""
    state = set_aside(ana_with(walls_game(), ("pavilion-8-open", 0, 1)), "wall-NE", "wall-W")
    outcome = play(state, AddWalls(player="Ana", card="wall-NE", tile="fountain"))
    after = outcome.state
    assert tile_of(after, "Ana", "fountain").added_walls == "NE"
    assert walls(after).aside == ("wall-W",)
    assert walls(after).used == (UsedWall(card="wall-NE", player="Ana", tile="fountain", walls="NE"),)
    assert after.active.name != "Ana"  # it was her action: the turn is over
    assert "WallsAdded" in [type(e).__name__ for e in outcome.events]


@pytest.mark.rule("walls.action")
def test_walls_action_allows_a_reserve_tile() -> None:
    """seed 003.6: "... sobre una única fitxa de la teva Alhambra o de la reserva" (a tile of
    your Alhambra or of the reserve)."""
    state = set_aside(ana_with(walls_game(), reserve=("garden-10-N",)), "wall-SW")
    after = allowed(state, AddWalls(player="Ana", card="wall-SW", tile="garden-10-N"))
    assert tile_of(after, "Ana", "garden-10-N").added_walls == "SW"


@pytest.mark.rule("walls.action")
def test_walls_action_refuses_a_card_not_set_aside_a_tile_not_hers_or_no_action_left() -> None:
    """seed 003.6: "Com a acció, pots agafar una carta de muralla disponible ... sobre una única
    fitxa de la teva Alhambra" (as your action, an available card, a tile of your own)."""
    state = set_aside(ana_with(walls_game(), ("pavilion-8-open", 0, 1)), "wall-N")
    refused(state, AddWalls(player="Ana", card="wall-E", tile="fountain"), "walls.action", "wall-E")
    refused(state, AddWalls(player="Ana", card="wall-N", tile="tower-13-E"), "walls.action",
            "tower-13-E", "Ana")
    refused(state, AddWalls(player="Ben", card="wall-N", tile="fountain"), "base.turn.order")
    # After her action (a wall card), a second one is refused.
    two = set_aside(state, "wall-E")
    after = replace(two, turn=replace(two.turn, actions=0, acted=True),
                    players=(replace(two.players[0], held=(Tile(tile=two.market[0].tile or ""),)),
                             *two.players[1:]),
                    market=(replace(two.market[0], tile=None), *two.market[1:]))
    refused(after, AddWalls(player="Ana", card="wall-E", tile="fountain"), "base.turn.one-action")
    plain = arrange(new_game(NAMES[:3], seed=1).state, active="Ana")
    refused(plain, AddWalls(player="Ana", card="wall-N", tile="fountain"), "walls.action", "walls")


# --- walls.no-overlap ----------------------------------------------------------------------


@pytest.mark.rule("walls.no-overlap")
def test_walls_no_overlap_allows_walls_on_open_outer_sides_beside_printed_ones() -> None:
    """seed 003.7: "No pots superposar fustes a muralles impreses" (no wooden wall on a printed
    one): beside one it is allowed."""
    # garden-12-S at (0, 1): its S side is printed; its E and W sides face no tile.
    state = set_aside(ana_with(walls_game(), ("garden-12-S", 0, 1)), "wall-W")
    after = allowed(state, AddWalls(player="Ana", card="wall-W", tile="garden-12-S"))
    assert walls_of(tile_of(after, "Ana", "garden-12-S")) == 4 | 8  # S printed, W added


@pytest.mark.rule("walls.no-overlap")
def test_walls_no_overlap_refuses_a_printed_or_added_wall_and_a_broken_alhambra() -> None:
    """seed 003.7: "No pots superposar fustes a muralles impreses i has de conservar les regles de
    col·locació i accés a peu." (no wooden wall on a printed one, and the placement and access on
    foot rules must still hold)"""
    state = set_aside(ana_with(walls_game(), ("garden-12-S", 0, 1)), "wall-S", "wall-N", "wall-SW")
    # on the printed S wall
    refused(state, AddWalls(player="Ana", card="wall-SW", tile="garden-12-S"), "walls.no-overlap",
            "garden-12-S", "S")
    # on the N side shared with the fountain (open): the sides would no longer match (§4)
    refused(state, AddWalls(player="Ana", card="wall-N", tile="garden-12-S"), "walls.no-overlap",
            "base.place.sides-match")
    refused(state, AddWalls(player="Ana", card="wall-S", tile="fountain"), "walls.no-overlap",
            "base.place.sides-match")
    # on a wall added before
    once = allowed(set_aside(ana_with(walls_game(), ("pavilion-8-open", 0, 1)), "wall-NE", "wall-N"),
                   AddWalls(player="Ana", card="wall-NE", tile="fountain"))
    again = arrange(once, active="Ana")
    refused(again, AddWalls(player="Ana", card="wall-N", tile="fountain"), "walls.no-overlap", "N")


@pytest.mark.rule("walls.no-overlap")
def test_walls_no_overlap_refuses_a_scoring_position_with_an_added_wall_on_a_printed_one() -> None:
    """seed 003.7: "No pots superposar fustes a muralles impreses" (scoring positions too)."""
    position = Position(round=1, modules=("walls",), players=(
        PositionPlayer(name="Ana", alhambra=(
            PlacedTile(tile="fountain", x=0, y=0),
            PlacedTile(tile="garden-12-S", x=0, y=1, added_walls="S"))),))
    with pytest.raises(InconsistentState) as raised:
        score(position)
    assert any(v.rule == "walls.no-overlap" for v in raised.value.violations)


ROW = ("pavilion-8-open", "seraglio-9-open", "arcades-9-open", "arcades-10-open", "chambers-10-open")
OTHER_ROW = ("chambers-11-open", "garden-10-open", "garden-11-open", "tower-11-open", "tower-12-open")


def walled_row(*added: str, fountain: str = "", row: tuple[str, ...] = ROW) -> tuple[PlacedTile, ...]:
    """The fountain and open tiles in a row to its east, with the given added walls (N and S of
    every tile face no neighbour, so §4 holds)."""
    tiles = zip(row, added, strict=False)
    return (PlacedTile(tile="fountain", x=0, y=0, added_walls=fountain),
            *(PlacedTile(tile=t, x=i, y=0, added_walls=a) for i, (t, a) in enumerate(tiles, 1)))


def walls_position(*alhambras: tuple[PlacedTile, ...], modules: tuple[str, ...] = ("walls",),
                   check_layout: bool = True) -> Position:
    return seated(Position(round=1, modules=modules, check_layout=check_layout, players=tuple(
        PositionPlayer(name=name, alhambra=tiles) for name, tiles in zip(NAMES, alhambras, strict=False))))


def refusal_of(position: Position) -> list[str]:
    """The rules the position is refused under, having checked it is refused."""
    with pytest.raises(InconsistentState) as raised:
        score(position)
    return [v.rule for v in raised.value.violations]


@pytest.mark.rule("walls.action")
def test_walls_action_allows_a_scoring_position_whose_added_walls_the_cards_show() -> None:
    """seed 003.6: "construir la disposició d'una o dues muralles que mostra sobre una única fitxa"
    (build the layout of one or two walls it shows on a single tile); walls.action: "adds the
    walls it shows, as shown". Every card of the Default data (N, E, S, W, NE, ES, SW, NW) used
    once, as it shows its walls: the 12 pieces are scored."""
    ana = walled_row("N", "S", fountain="W")  # wall-N, wall-S, wall-W
    ben = (PlacedTile(tile="fountain", x=0, y=0, added_walls="NE"),  # wall-NE
           PlacedTile(tile="tower-12-open", x=-1, y=0, added_walls="SW"),  # wall-SW
           PlacedTile(tile="garden-11-open", x=0, y=1, added_walls="ES"))  # wall-ES
    cyd = (PlacedTile(tile="fountain", x=0, y=0, added_walls="NW"),  # wall-NW
           PlacedTile(tile="garden-10-open", x=0, y=1, added_walls="E"))  # wall-E
    breakdown = score(walls_position(ana, ben, cyd))
    walls_scored = [line.length for p in breakdown.players for line in p.lines if isinstance(line, WallLine)]
    # Ana: three lone pieces apart; Ben: the fountain's N, E on to the garden's E, S; Cyd: NW.
    assert walls_scored == [1, 4, 2]


@pytest.mark.rule("walls.action")
def test_walls_action_refuses_a_scoring_position_with_five_lone_north_walls_naming_the_tile() -> None:
    """seed 003.6: "pots agafar una carta de muralla disponible i construir la disposició d'una o
    dues muralles que mostra" (take an available wall card and build the layout of one or two
    walls it shows); walls.action: "adds the walls it shows, as shown". Only wall-N shows a lone
    north wall: five tiles with one (5 pieces, within the 12 the cards hold) cannot occur; the
    second is named by its field path. The same through the HTTP API: 422."""
    position = walls_position(walled_row("N", "N", "N", "N", "N"))
    with pytest.raises(InconsistentState) as raised:
        score(position)
    assert [v.rule for v in raised.value.violations] == ["walls.action"]
    message = raised.value.violations[0].message
    assert "$.players[0].alhambra[2].added_walls" in message and "seraglio-9-open" in message
    body = msgspec.json.decode(msgspec.json.encode(position))
    with TestClient(create_app(Settings())) as client:
        r = client.post("/v1/score", json=body)
    assert r.status_code == 422
    answer = r.json()
    assert answer["error"] == "inconsistent-state"
    assert any(v["rule"] == "walls.action" and "$.players[0].alhambra[2].added_walls" in v["message"]
               for v in answer["violations"])
    two = walls_position(walled_row("N"), walled_row("N", row=OTHER_ROW))
    assert refusal_of(two) == ["walls.action"]  # one wall-N for two lone N walls
    corners = [walled_row(fountain="NE")] * 3  # wall-NE; wall-N with wall-E; none left
    assert refusal_of(walls_position(*corners)) == ["walls.action"]
    score(walls_position(*corners[:2]))


@pytest.mark.rule("walls.action")
def test_walls_action_allows_turned_card_shapes_only_where_a_mosaic_artist_may_have_turned_the_tile() -> None:
    """seed 003.6 ("la disposició ... que mostra", the layout the card shows) with RULES.md
    base.place.orientation ("tiles are never rotated; ... (exception: Mosaic artist)") and
    craftsmen.mosaic-artist ("its walls turn with it"): added walls are kept in the tile's own
    frame, so a building turned when the card was used shows the card's walls turned there.
    With the craftsmen on, four buildings each with a lone N wall can come from the four single
    cards; without them, or on the fountain (never turned), only wall-N shows a lone N."""
    four = walled_row("N", "N", "N", "N")
    score(walls_position(four, modules=("walls", "craftsmen")))
    assert refusal_of(walls_position(four)) == ["walls.action"]
    fountains = (walled_row(fountain="N"), walled_row(fountain="N"))
    assert refusal_of(walls_position(*fountains, modules=("walls", "craftsmen"))) == ["walls.action"]
    assert refusal_of(walls_position(walled_row("N", "N", "N", "N", "N"),
                                     modules=("walls", "craftsmen"))) == ["walls.action"]
    # A drawing (`check_layout: false`, as for §4) may show any walls within the 12 pieces.
    score(walls_position(walled_row("N", "N", "N", "N", "N"), check_layout=False))


@pytest.mark.rule("walls.action")
def test_walls_action_refuses_a_state_whose_card_shows_other_walls_than_those_it_added() -> None:
    """seed 003.6: the walls "que mostra" (it shows), as shown: in a game without the craftsmen no
    tile is ever turned, so wall-N added a lone north wall and nothing else; with them a building
    may have been turned (its walls kept in its own frame), never the fountain."""
    def used_as(state: GameState, tile: str, walls_added: str) -> GameState:
        state = allowed(set_aside(ana_with(state, ("pavilion-8-open", 1, 0)), "wall-N"),
                        AddWalls(player="Ana", card="wall-N", tile=tile))
        ana = state.players[0]
        alhambra = tuple(replace(t, added_walls=walls_added) if t.tile == tile else t for t in ana.alhambra)
        used = (replace(walls(state).used[0], walls=walls_added),)
        return replace(state, walls=replace(walls(state), used=used),
                       players=(replace(ana, alhambra=alhambra), *state.players[1:]))

    turned = used_as(walls_game(modules=("craftsmen",)), "pavilion-8-open", "E")
    assert check_consistency(turned) == []
    for state, tile in ((walls_game(), "pavilion-8-open"), (walls_game(modules=("craftsmen",)), "fountain")):
        problems = check_consistency(used_as(state, tile, "S"))
        assert any(v.rule == "walls.action" and "wall-N" in v.message and tile in v.message
                   for v in problems), problems


def test_walls_action_on_a_turned_tile_adds_walls_as_shown() -> None:
    """A tile turned by a Mosaic artist: the card's walls lie as shown, kept in the tile's frame
    (seed 003.6: "construir la disposició ... que mostra", build the layout it shows)."""
    state = walls_game(modules=("craftsmen",))
    turned = PlacedTile(tile="garden-12-S", x=0, y=1, rotation=90)  # shows its wall on W
    state = set_aside(arrange(state, alhambras={"Ana": (turned,)}, active="Ana"), "wall-E")
    after = allowed(state, AddWalls(player="Ana", card="wall-E", tile="garden-12-S"))
    tile = tile_of(after, "Ana", "garden-12-S")
    assert tile.added_walls == "N"  # E as shown is N of the tile turned by 90
    assert walls_of(tile) == 2 | 8
    refused(set_aside(arrange(state, active="Ana"), "wall-W"),
            AddWalls(player="Ana", card="wall-W", tile="garden-12-S"), "walls.no-overlap", "W")


# --- walls.fixed ---------------------------------------------------------------------------


@pytest.mark.rule("walls.fixed")
def test_walls_fixed_allows_added_walls_moving_with_their_tile_and_scoring_as_outer_wall() -> None:
    """seeds 003.8, 003.9: "Les muralles afegides queden fixades a aquella fitxa: no les pots moure
    independentment, encara que més endavant reorganitzis l'edifici." (added walls stay fixed to
    that tile, even when the building is rearranged later) "Compten normalment per a la muralla
    exterior." (they count normally for the outer wall)"""
    state = set_aside(ana_with(walls_game(), ("pavilion-8-open", 1, 0)), "wall-ES")
    before = wall_line(state, "Ana").length
    after = allowed(state, AddWalls(player="Ana", card="wall-ES", tile="pavilion-8-open"))
    assert wall_line(after, "Ana").length == before + 2  # E and S of (1, 0) are outer walls
    # The tile goes to the reserve with its walls, and back.
    moved = allowed(arrange(after, active="Ana"), RemoveToReserve(player="Ana", tile="pavilion-8-open"))
    assert tile_of(moved, "Ana", "pavilion-8-open").added_walls == "ES"
    assert wall_line(moved, "Ana").length == 0
    # A scoring position with added walls: the fountain walled on three sides scores 3.
    position = Position(round=1, modules=("walls",), players=(
        PositionPlayer(name="Ana", alhambra=(PlacedTile(tile="fountain", x=0, y=0, added_walls="NES"),
                                             PlacedTile(tile="pavilion-8-open", x=-1, y=0))),))
    line = next(x for x in score(seated(position)).players[0].lines if isinstance(x, WallLine))
    assert line.length == 3


@pytest.mark.rule("walls.fixed")
def test_walls_fixed_refuses_a_placement_against_an_added_wall() -> None:
    """seed 003.9: added walls count as walls: a neighbour's open side may not meet one."""
    state = set_aside(ana_with(walls_game()), "wall-E")
    after = allowed(state, AddWalls(player="Ana", card="wall-E", tile="fountain"))
    later = arrange(after, held={"Ana": ("pavilion-8-open",)}, active="Ana")
    later = replace(later, turn=replace(later.turn, actions=0, acted=True))
    refused(later, PlaceBuilding(player="Ana", tile="pavilion-8-open", x=1, y=0), "base.place.sides-match",
            "fountain")
    allowed(later, PlaceBuilding(player="Ana", tile="pavilion-8-open", x=0, y=1))


@pytest.mark.rule("walls.fixed")
def test_walls_fixed_refuses_added_walls_without_their_card_or_off_their_tile() -> None:
    """seed 003.8: "no les pots moure independentment" (they cannot move on their own)."""
    state = set_aside(ana_with(walls_game(), ("pavilion-8-open", 1, 0)), "wall-ES")
    after = allowed(state, AddWalls(player="Ana", card="wall-ES", tile="pavilion-8-open"))
    ana = after.players[0]
    bare = replace(after, players=(replace(ana, alhambra=tuple(replace(t, added_walls="")
                                                               for t in ana.alhambra)),
                                   *after.players[1:]))
    assert any(v.rule == "walls.fixed" and "pavilion-8-open" in v.message for v in check_consistency(bare))
    moved = replace(after, players=(replace(ana, alhambra=tuple(
        replace(t, added_walls="ES" if t.tile == "fountain" else "") for t in ana.alhambra)),
        *after.players[1:]))
    assert any(v.rule == "walls.fixed" and "fountain" in v.message for v in check_consistency(moved))
    plain = new_game(NAMES[:3], seed=1).state
    p = plain.players[0]
    token = replace(plain, players=(replace(p, alhambra=(replace(p.alhambra[0], added_walls="N"),)),
                                    *plain.players[1:]))
    assert any("added_walls" in v.message for v in check_consistency(token))


def test_walls_with_city_gates_is_refused_as_an_unsupported_module() -> None:
    """seed 003.10: "Si combineu expansions, les portes de ciutat només travessen les muralles
    impreses, no aquestes muralles de fusta." (combined with expansions, city gates cross only
    printed walls): city gates are not supported (RULES.md §H), so a game asking for them with
    the walls is refused and no gate can cross a wall."""
    from service.engine import GameRequestError

    with pytest.raises(GameRequestError) as refused_game:
        new_game(NAMES[:3], ["walls", "city-gates"])
    assert any(v.rule == "modules.unsupported" and "city-gates" in v.message
               for v in refused_game.value.violations)


# --- random complete games -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_walls_reach_the_end(players: int) -> None:
    game = play_random_game(400 + players, players, ("walls",), list_every=40)
    assert game.states[-1].phase == "over"
    assert game.rounds[-1] == 3
    assert any(isinstance(a, AddWalls) for a in game.actions)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_with_walls_zoo_and_craftsmen_reach_the_end(players: int) -> None:
    game = play_random_game(450 + players, players, ("walls", "zoo", "craftsmen"), list_every=40)
    assert game.states[-1].phase == "over"
    assert game.rounds[-1] == 3
