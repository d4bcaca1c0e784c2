"""Issue 13 item 4: the longest-wall search is exact and bounded. It equals an exhaustive
search on every small drawing, it is exact well within its bound on every Alhambra of random
games, and past its bound a position is refused (422 `position-too-complex`), never scored
with a number that might be wrong. The security review's body (41 tiles, `check_layout:
false`) took 4.4 s of CPU on the event loop; a lattice of 12 tiles took 7.9 s."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import grid
from service.engine.grid import Edge, PositionTooComplex, layout_of, longest_trail, longest_trails
from service.engine.scoring import WallLine
from tests.support.play import play_random_game


def _exhaustive(edges: list[Edge]) -> tuple[int, set[frozenset[int]]]:
    """Every trail walked: the longest length and the edge sets of every trail that long."""
    adjacency = grid._adjacency(edges)
    best, found = 0, set()
    used, path = [False] * len(edges), []

    def walk(corner: Any) -> None:
        nonlocal best
        if len(path) > best:
            best = len(path)
            found.clear()
        if path and len(path) == best:
            found.add(frozenset(path))
        for nxt, i in adjacency[corner]:
            if not used[i]:
                used[i] = True
                path.append(i)
                walk(nxt)
                path.pop()
                used[i] = False

    for corner in adjacency:
        walk(corner)
    return best, found


def _lattice_edges(n: int) -> list[Edge]:
    return [e for x in range(n + 1) for y in range(n + 1)
            for e in ((((x, y), (x + 1, y)),) if x < n else ()) + ((((x, y), (x, y + 1)),) if y < n else ())]


SMALL = st.integers(2, 4).flatmap(lambda n: st.lists(st.sampled_from(_lattice_edges(n)), min_size=1,
                                                      max_size=15, unique=True))


@settings(max_examples=300, deadline=None)
@given(edges=SMALL)
def test_the_search_equals_walking_every_trail(edges: list[Edge]) -> None:
    best, every = _exhaustive(edges)
    assert longest_trail(edges) == best
    length, trails, complete = longest_trails(edges)
    assert (length, set(trails), complete) == (best, every, True)


def _lattice_layout(columns: int, rows: int) -> dict[tuple[int, int], int]:
    """Tiles walled all round in a checkerboard (the walls meet at every shared corner), two of
    them open on one side: a drawing whose outer walls are a lattice with four odd corners."""
    layout = {(x + 1, y): 15 for x in range(columns) for y in range(rows) if (x + y) % 2 == 0}
    cells = sorted(layout)
    layout[cells[0]], layout[cells[-1]] = 15 & ~8, 15 & ~2
    return layout


@pytest.mark.parametrize(("columns", "rows", "length"), [(6, 4, 43), (9, 7, 123), (11, 9, 195)])
def test_a_lattice_of_walls_is_measured_at_once(columns: int, rows: int, length: int) -> None:
    """6 x 4 took the old search 7.9 s; the cheapest pairing of the odd corners proves the
    longest wall without a search (0 steps)."""
    budget = grid._Budget(grid.WALL_SEARCH_STEPS)
    assert grid._longest(grid.outer_wall_sides(_lattice_layout(columns, rows)), budget)[0] == length
    assert budget.steps == 0


# A drawing (check_layout: false) whose outer wall has 24 odd corners: beyond the bound.
BRANCHING = [[1, 1, 13], [0, 3, 3], [2, 1, 11], [0, 2, 15], [0, 0, 6], [3, 0, 12], [3, 4, 11], [2, 3, 14],
             [1, 4, 7], [6, 1, 15], [7, 2, 13], [2, 2, 15], [3, 6, 9], [7, 0, 11], [6, 4, 7], [5, 4, 3],
             [7, 5, 12], [2, 5, 11], [4, 3, 4], [6, 6, 3], [1, 6, 11], [4, 6, 2], [4, 0, 4], [2, 7, 11],
             [5, 2, 12], [4, 5, 14], [7, 3, 9], [5, 0, 12]]


def test_past_its_bound_the_search_refuses_rather_than_guess() -> None:
    edges = grid.outer_wall_sides({(x, y): w for x, y, w in BRANCHING})
    with pytest.raises(PositionTooComplex) as refused:
        longest_trail(edges)
    assert refused.value.limit == grid.WALL_SEARCH_STEPS
    assert longest_trail(edges, limit=10**6) == 34  # given the steps, the search finishes


def _position(layout: dict[tuple[int, int], int]) -> bytes:
    """A scoring position drawing `layout`: base tiles turned by the mosaic artist (craftsmen)
    to show as many of the walls as they can, the rest added by wall cards (walls)."""
    from service.engine.catalogue import CATALOGUE

    tiles = [t for t in CATALOGUE.tiles.values() if t.module == "base"]
    used: set[str] = set()
    alhambra: list[dict[str, Any]] = [{"x": 0, "y": 0, "tile": "fountain"}]
    for (x, y), mask in sorted(layout.items()):
        _, tile, turn = max((bin(grid.rotate(t.walls, r)).count("1"), t.id, r) for t in tiles
                                for r in (0, 90, 180, 270)
                                if t.id not in used and not grid.rotate(t.walls, r) & ~mask)
        used.add(tile)
        added = grid.rotate(mask & ~grid.rotate(CATALOGUE.tiles[tile].walls, turn), -turn % 360)
        placed: dict[str, Any] = {"x": x + 1, "y": y, "tile": tile}
        if turn:
            placed["rotation"] = turn
        if added:
            placed["added_walls"] = "".join(side for side, bit in zip("NESW", (1, 2, 4, 8), strict=True)
                                            if added & bit)
        alhambra.append(placed)
    return json.dumps({"round": 1, "modules": ["craftsmen", "walls"], "check_layout": False, "players": [
        {"name": "Ana", "alhambra": alhambra},
        {"name": "Ben", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},
        {"name": "Cyd", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]}]}).encode()


def test_a_position_past_the_bound_is_422_naming_the_limit() -> None:
    from service.api import endpoints, refusals

    with pytest.raises(refusals.RequestError) as refused:
        endpoints.handle("score", _position({(x, y): w for x, y, w in BRANCHING}))
    assert (refused.value.status, refused.value.error) == (422, "position-too-complex")
    assert f"{grid.WALL_SEARCH_STEPS} steps" in refused.value.message
    assert [v.rule for v in refused.value.violations] == ["base.score.wall"]
    breakdown = endpoints.handle("score", _position(_lattice_layout(4, 4)))
    assert [line.length for line in breakdown.players[0].lines if isinstance(line, WallLine)] == [27]


@pytest.mark.parametrize("modules", [(), ("walls", "craftsmen", "power", "grounds")])
def test_every_alhambra_of_random_games_is_measured_exactly_far_within_the_bound(
        modules: tuple[str, ...]) -> None:
    """Exact (the exhaustive walk agrees) and bounded with room to spare: a game's Alhambras
    need a fraction of the steps (bench/wall_search.py searches for the worst)."""
    worst = 0
    for seed in range(3):
        game = play_random_game(seed, 2 + seed, modules, check_every=50)
        for state in game.states[::25] + game.states[-1:]:
            for player in state.players:
                edges = grid.outer_wall_sides(layout_of(player.alhambra))
                budget = grid._Budget(grid.WALL_SEARCH_STEPS)
                length = grid._longest(edges, budget)[0]
                worst = max(worst, budget.steps)
                if len(edges) <= 40:
                    assert length == _exhaustive(edges)[0]
    assert worst * 10 < grid.WALL_SEARCH_STEPS


def _comb(k: int) -> list[Edge]:
    """A straight run of k sides with a tooth of one side at each of its k - 1 inner corners:
    2k odd corners (past the exact pairing's 10), every chain one side long."""
    spine = [((x, 0), (x + 1, 0)) for x in range(k)]
    teeth = [((x, 0), (x, 1)) for x in range(1, k)]
    return spine + teeth


@pytest.mark.rule("base.score.wall")
@pytest.mark.parametrize("k", [6, 7, 8])
def test_the_bound_past_ten_odd_corners_is_tight_on_a_comb(k: int) -> None:
    """RULES.md base.score.wall: "a continuous wall is a sequence of distinct outer wall sides".
    On a comb the longest such sequence is the k sides of the run (a tooth is a dead end: a
    trail takes at most the one it ends in, for one of the run's sides): the bound for more
    than 10 odd corners, 2k - 1 sides less half the lightest chains of all odd corners but two,
    is exactly k, so a bound one too low (issue 30: `+ 1` made `+ 2`) scores k - 1."""
    edges = _comb(k)
    chains = grid._chains(grid._adjacency(edges), {c for e in edges for c in e})
    assert sum(1 for ways in chains.at.values() if len(ways) % 2) == 2 * k > grid._PAIRED
    assert grid._upper_bound(chains, len(edges)).length == k
    assert longest_trail(edges) == _exhaustive(edges)[0] == k
