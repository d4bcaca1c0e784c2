"""RULES.md §4 (placing a tile) and §5 (removing and swapping): each rule id allowing and
refusing, through the actions and through the consistency check of a whole Alhambra."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from service.engine import InconsistentState, check_consistency, score
from service.engine.actions import PlaceBuilding, PlaceFromReserve, RemoveToReserve, SwapWithReserve
from service.engine.catalogue import CATALOGUE
from service.engine.grid import check_layout, layout_of
from service.engine.scoring import Position, PositionPlayer
from service.engine.state import GameState, PlacedTile, Tile, Turn
from tests.support.helpers import Spec, alhambra, allowed, arrange, game, refused


def holding(tile: str, tiles: Sequence[Spec] = (), reserve: Sequence[str] = ()) -> GameState:
    """Ana's Alhambra of `tiles`; she has bought `tile` and must now place it."""
    return arrange(
        game(),
        alhambras={"Ana": tiles},
        reserves={"Ana": reserve},
        held={"Ana": (tile,)},
        turn=Turn(player=0, actions=0, acted=True, ending=0),
    )


def redesigning(tiles: Sequence[Spec], reserve: Sequence[str] = ()) -> GameState:
    """Ana's turn, with that Alhambra and reserve: her action is still to come."""
    return arrange(game(), alhambras={"Ana": tiles}, reserves={"Ana": reserve}, turn=Turn.start(0))


def at(state: GameState, name: str = "Ana") -> dict[tuple[int, int], str]:
    player = next(p for p in state.players if p.name == name)
    return {(p.x, p.y): p.tile for p in player.alhambra}


def inconsistent(tiles: Sequence[PlacedTile], rule: str, *names: str) -> None:
    """A state where Ana's Alhambra is `tiles` is refused, citing `rule` and naming `names`."""
    state = arrange(game(), alhambras={"Ana": tiles}, check=False)
    assert state.players[0].alhambra == tuple(tiles)
    problems = [v for v in check_consistency(state) if v.rule == rule]
    assert problems, f"no {rule} among {check_consistency(state)}"
    for name in names:
        assert any(name in v.message for v in problems), (name, problems)


# --- base.place.orientation -----------------------------------------------------------------


@pytest.mark.rule("base.place.orientation")
def test_base_place_orientation_allows_the_printed_walls_only() -> None:
    state = allowed(holding("garden-12-S"), PlaceBuilding(player="Ana", tile="garden-12-S", x=1, y=0))
    placed = next(p for p in state.players[0].alhambra if p.tile == "garden-12-S")
    assert placed.rotation == 0
    assert layout_of(state.players[0].alhambra)[(1, 0)] == CATALOGUE.tiles["garden-12-S"].walls == 4


@pytest.mark.rule("base.place.orientation")
def test_base_place_orientation_refuses_a_tile_that_fits_only_when_turned() -> None:
    # pavilion-7-E fits west of the fountain only with its wall turned away (W): never rotated.
    refused(
        holding("pavilion-7-E"),
        PlaceBuilding(player="Ana", tile="pavilion-7-E", x=-1, y=0),
        "base.place.sides-match",
        "pavilion-7-E",
        "E side is walled",
    )


@pytest.mark.rule("base.place.orientation")
def test_base_place_orientation_refuses_a_rotated_tile_without_the_mosaic_artist() -> None:
    state = game()
    turned = PlacedTile(tile="tower-11-open", x=1, y=0, rotation=90)
    bad = arrange(state, alhambras={"Ana": [turned]}, check=False)
    problems = check_consistency(bad)
    assert any("tower-11-open" in v.message and "rotation" in v.message for v in problems), problems


# --- base.place.empty -----------------------------------------------------------------------


@pytest.mark.rule("base.place.empty")
def test_base_place_empty_allows_an_empty_space() -> None:
    state = allowed(
        holding("tower-11-open", [("garden-10-open", 1, 0)]),
        PlaceBuilding(player="Ana", tile="tower-11-open", x=2, y=0),
    )
    assert at(state)[(2, 0)] == "tower-11-open" and at(state)[(1, 0)] == "garden-10-open"


@pytest.mark.rule("base.place.empty")
def test_base_place_empty_refuses_an_occupied_space() -> None:
    state = holding("tower-11-open", [("garden-10-open", 1, 0)])
    refused(
        state,
        PlaceBuilding(player="Ana", tile="tower-11-open", x=1, y=0),
        "base.place.empty",
        "tower-11-open",
        "garden-10-open",
    )
    refused(
        state,
        PlaceBuilding(player="Ana", tile="tower-11-open", x=0, y=0),
        "base.place.empty",
        "tower-11-open",
        "fountain",
    )


@pytest.mark.rule("base.place.empty")
def test_base_place_empty_refuses_two_tiles_on_one_space_in_a_state() -> None:
    inconsistent(
        alhambra(("garden-10-open", 1, 0), ("tower-11-open", 1, 0)),
        "base.place.empty",
        "garden-10-open",
        "tower-11-open",
    )


# --- base.place.adjacent --------------------------------------------------------------------


@pytest.mark.rule("base.place.adjacent")
def test_base_place_adjacent_allows_a_shared_side() -> None:
    state = allowed(
        holding("tower-11-open", [("garden-10-open", 1, 0)]),
        PlaceBuilding(player="Ana", tile="tower-11-open", x=1, y=1),
    )
    assert at(state)[(1, 1)] == "tower-11-open"


@pytest.mark.rule("base.place.adjacent")
def test_base_place_adjacent_refuses_a_corner_only_or_a_distant_space() -> None:
    state = holding("tower-11-open")
    refused(
        state,
        PlaceBuilding(player="Ana", tile="tower-11-open", x=1, y=1),
        "base.place.adjacent",
        "tower-11-open",
        "(1, 1)",
    )
    refused(
        state,
        PlaceBuilding(player="Ana", tile="tower-11-open", x=5, y=0),
        "base.place.adjacent",
        "tower-11-open",
        "(5, 0)",
    )


# --- base.place.sides-match -----------------------------------------------------------------


@pytest.mark.rule("base.place.sides-match")
def test_base_place_sides_match_allows_wall_against_wall_and_open_against_open() -> None:
    # tower-10-W at (1,-1): its W wall meets pavilion-7-E's E wall, its open S side the garden.
    tiles = [("pavilion-7-E", 0, -1), ("garden-10-open", 1, 0)]
    state = allowed(holding("tower-10-W", tiles), PlaceBuilding(player="Ana", tile="tower-10-W", x=1, y=-1))
    assert at(state)[(1, -1)] == "tower-10-W"


@pytest.mark.rule("base.place.sides-match")
def test_base_place_sides_match_refuses_wall_against_open() -> None:
    state = holding("garden-12-S", [("garden-10-open", 1, 0)])
    refused(
        state,
        PlaceBuilding(player="Ana", tile="garden-12-S", x=0, y=-1),
        "base.place.sides-match",
        "garden-12-S at (0, -1)",
        "S side is walled",
        "fountain",
    )
    state = holding("garden-10-open", [("pavilion-7-E", 0, -1)])
    refused(
        state,
        PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=-1),
        "base.place.sides-match",
        "garden-10-open at (1, -1)",
        "W side is open",
        "pavilion-7-E",
    )


@pytest.mark.rule("base.place.sides-match")
def test_base_place_sides_match_refuses_a_mismatch_in_a_state() -> None:
    inconsistent(
        alhambra(("garden-10-open", 1, 0), ("pavilion-7-E", 0, -1), ("tower-11-open", 1, -1)),
        "base.place.sides-match",
        "pavilion-7-E",
        "tower-11-open",
    )


# --- base.place.reachable -------------------------------------------------------------------


@pytest.mark.rule("base.place.reachable")
def test_base_place_reachable_allows_a_tile_reached_through_an_open_side() -> None:
    # garden-10-N at (1,-1): reached from the east tile (1,0) through its open S side.
    tiles = [("pavilion-6-N", 0, -1), ("garden-10-open", 1, 0)]
    state = allowed(holding("garden-10-N", tiles), PlaceBuilding(player="Ana", tile="garden-10-N", x=1, y=-1))
    assert at(state)[(1, -1)] == "garden-10-N"


@pytest.mark.rule("base.place.reachable")
def test_base_place_reachable_refuses_a_tile_behind_walls_only() -> None:
    # tower-10-W matches pavilion-7-E wall against wall, but no open side leads in.
    state = holding("tower-10-W", [("pavilion-7-E", 0, -1)])
    refused(
        state,
        PlaceBuilding(player="Ana", tile="tower-10-W", x=1, y=-1),
        "base.place.reachable",
        "tower-10-W",
        "(1, -1)",
    )


@pytest.mark.rule("base.place.reachable")
def test_base_place_reachable_refuses_an_unreachable_tile_in_a_state() -> None:
    inconsistent(
        alhambra(("pavilion-7-E", 0, -1), ("tower-10-W", 1, -1)), "base.place.reachable", "tower-10-W"
    )


# --- base.place.no-hole ---------------------------------------------------------------------

OPEN = (
    "garden-10-open",
    "garden-11-open",
    "tower-11-open",
    "tower-12-open",
    "chambers-10-open",
    "chambers-11-open",
    "arcades-9-open",
    "arcades-10-open",
    "seraglio-9-open",
    "pavilion-8-open",
)


def _open_tiles(*positions: tuple[int, int]) -> list[Spec]:
    return [(OPEN[i], x, y) for i, (x, y) in enumerate(positions)]


@pytest.mark.rule("base.place.no-hole")
def test_base_place_no_hole_allows_a_larger_enclosed_area() -> None:
    # (1,1) and (2,1) end up enclosed together: a two-space area is no hole (Decision).
    tiles = _open_tiles((1, 0), (2, 0), (0, 1), (0, 2), (1, 2), (2, 2), (3, 0))
    state = allowed(
        holding("pavilion-8-open", tiles), PlaceBuilding(player="Ana", tile="pavilion-8-open", x=3, y=1)
    )
    assert at(state)[(3, 1)] == "pavilion-8-open"


@pytest.mark.rule("base.place.no-hole")
def test_base_place_no_hole_refuses_enclosing_a_single_space() -> None:
    tiles = _open_tiles((1, 0), (2, 0), (0, 1), (0, 2), (1, 2))
    refused(
        holding("pavilion-8-open", tiles),
        PlaceBuilding(player="Ana", tile="pavilion-8-open", x=2, y=1),
        "base.place.no-hole",
        "pavilion-8-open",
        "(1, 1)",
    )


@pytest.mark.rule("base.place.no-hole")
def test_base_place_no_hole_refuses_a_hole_in_a_state() -> None:
    tiles = _open_tiles((1, 0), (2, 0), (0, 1), (0, 2), (1, 2), (2, 1))
    inconsistent(alhambra(*tiles), "base.place.no-hole", "(1, 1)")


# --- base.place.fountain-fixed --------------------------------------------------------------


@pytest.mark.rule("base.place.fountain-fixed")
def test_base_place_fountain_fixed_allows_the_fountain_at_0_0_through_redesigns() -> None:
    state = redesigning([("garden-10-open", 1, 0)], reserve=("tower-11-open",))
    state = allowed(state, RemoveToReserve(player="Ana", tile="garden-10-open"))
    assert at(state) == {(0, 0): "fountain"}
    position = Position(
        round=1, players=(PositionPlayer(name="Ana", alhambra=alhambra(("tower-11-open", 0, 1))),
                          *(PositionPlayer(name=n, alhambra=alhambra()) for n in ("Ben", "Cyd")))
    )
    assert score(position).players[0].name == "Ana"


@pytest.mark.rule("base.place.fountain-fixed")
def test_base_place_fountain_fixed_refuses_moving_the_fountain() -> None:
    state = redesigning([("garden-10-open", 1, 0)], reserve=("tower-11-open",))
    refused(state, RemoveToReserve(player="Ana", tile="fountain"), "base.place.fountain-fixed", "Fountain")
    refused(
        state,
        SwapWithReserve(player="Ana", tile="tower-11-open", replaces="fountain"),
        "base.place.fountain-fixed",
        "Fountain",
    )


@pytest.mark.rule("base.place.fountain-fixed")
def test_base_place_fountain_fixed_refuses_a_fountain_elsewhere() -> None:
    moved = (PlacedTile(tile="fountain", x=1, y=0), PlacedTile(tile="garden-10-open", x=0, y=0))
    inconsistent(moved, "base.place.fountain-fixed", "(0, 0)")
    in_reserve = Position(
        round=1, players=(PositionPlayer(name="Ana", reserve=(Tile(tile="fountain"),), alhambra=alhambra()),)
    )
    with pytest.raises(InconsistentState) as refused_position:
        score(in_reserve)
    assert any(
        v.rule == "base.place.fountain-fixed" and "fountain" in v.message
        for v in refused_position.value.violations
    )


# --- base.remove.valid-after ----------------------------------------------------------------


@pytest.mark.rule("base.remove.valid-after")
def test_base_remove_valid_after_allows_removing_a_tile_that_cuts_nothing_off() -> None:
    # A loop: without (1,0), the tile (2,0) is still reached round the other way.
    tiles = _open_tiles((1, 0), (2, 0), (2, 1), (1, 1), (0, 1))
    state = allowed(redesigning(tiles), RemoveToReserve(player="Ana", tile=OPEN[0]))
    assert (1, 0) not in at(state) and at(state)[(2, 0)] == OPEN[1]
    assert check_layout(state.players[0].alhambra) == []


@pytest.mark.rule("base.remove.valid-after")
def test_base_remove_valid_after_refuses_cutting_a_tile_off() -> None:
    state = redesigning(_open_tiles((1, 0), (2, 0)))
    refused(
        state,
        RemoveToReserve(player="Ana", tile=OPEN[0]),
        "base.remove.valid-after",
        OPEN[0],
        f"{OPEN[1]} at (2, 0)",
    )


@pytest.mark.rule("base.remove.valid-after")
def test_base_remove_valid_after_refuses_leaving_a_hole() -> None:
    tiles = _open_tiles((1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (1, 1))
    refused(
        redesigning(tiles),
        RemoveToReserve(player="Ana", tile=OPEN[7]),
        "base.remove.valid-after",
        OPEN[7],
        "(1, 1)",
    )


# --- base.swap.same-space -------------------------------------------------------------------


@pytest.mark.rule("base.swap.same-space")
def test_base_swap_same_space_allows_a_tile_matching_every_neighbour() -> None:
    # garden-12-S's S side faces nothing, so it may replace the open garden east of the fountain.
    state = redesigning([("garden-10-open", 1, 0)], reserve=("garden-12-S",))
    state = allowed(state, SwapWithReserve(player="Ana", tile="garden-12-S", replaces="garden-10-open"))
    assert at(state) == {(0, 0): "fountain", (1, 0): "garden-12-S"}


@pytest.mark.rule("base.swap.same-space")
def test_base_swap_same_space_refuses_a_tile_that_does_not_match_there() -> None:
    state = redesigning([("garden-10-open", 1, 0)], reserve=("pavilion-2-NEW",))
    refused(
        state,
        SwapWithReserve(player="Ana", tile="pavilion-2-NEW", replaces="garden-10-open"),
        "base.swap.same-space",
        "pavilion-2-NEW",
        "garden-10-open",
        "W side is walled",
    )


@pytest.mark.rule("base.swap.same-space")
def test_base_swap_same_space_refuses_a_walled_side_towards_a_neighbour_it_would_cut_off() -> None:
    # garden-12-S in the middle of the column would wall off tower-11-open below it.
    state = redesigning([("garden-10-open", 0, 1), ("tower-11-open", 0, 2)], reserve=("garden-12-S",))
    refused(
        state,
        SwapWithReserve(player="Ana", tile="garden-12-S", replaces="garden-10-open"),
        "base.swap.same-space",
        "garden-12-S",
        "tower-11-open",
    )


def test_placements_place_the_reserve_tile_by_the_same_rules() -> None:
    """base.redesign (a) obeys §4 like a held building."""
    state = redesigning([("garden-10-open", 1, 0)], reserve=("pavilion-7-E",))
    refused(
        state,
        PlaceFromReserve(player="Ana", tile="pavilion-7-E", x=-1, y=0),
        "base.place.sides-match",
        "pavilion-7-E",
    )
    refused(
        state,
        PlaceFromReserve(player="Ana", tile="pavilion-7-E", x=3, y=3),
        "base.place.adjacent",
        "pavilion-7-E",
    )
