"""The memos of one Alhambra (grid.spot_index, open_spots, removal, swap_needs), computed on packed
positions for speed (issue 28 item 4), are what the plain geometry says: `spots`, `cut_tiles`,
the hemmed-in tiles and `requirements` over `layout_of`, for every Alhambra of seeded random
games of every module (rotated tiles, added walls, grounds' sites) and some drawn by hand."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec
import pytest

from service.engine import Generator, advance, new_game, random_action
from service.engine.catalogue import FOUNTAIN
from service.engine.grid import (
    around,
    cut_tiles,
    first_removable,
    layout_of,
    open_spots,
    reachable,
    removal,
    requirements,
    spot_index,
    spots,
    swap_needs,
)
from service.engine.state import GameState, PlacedTile

MODULES = ("craftsmen", "zoo", "power", "extensions", "staff", "grounds", "walls", "treasure",
           "thieves", "vendors", "change")
CONFIGS = [(), *((m,) for m in MODULES), MODULES]


def _states(modules: tuple[str, ...], steps: int) -> Iterator[GameState]:
    """Every state of seeded random 4-player games (seeds 1 and 2), up to `steps` each."""
    for seed in (1, 2):
        state = new_game(["Ana", "Ben", "Cy", "Di"], modules, seed=seed).state
        rng = Generator(seed)
        for _ in range(steps):
            yield state
            action = random_action(state, rng)
            assert action is not None
            outcome = advance(state, action)
            state = outcome.state
            if outcome.game_over:
                break


def _check(alhambra: tuple[PlacedTile, ...]) -> None:
    layout = layout_of(alhambra)
    cut = cut_tiles(layout)
    may_leave = tuple(p for p in alhambra if p.tile != FOUNTAIN and (p.x, p.y) not in cut
                      and not all(n in layout for n in around((p.x, p.y))))
    n = len(alhambra)
    for first in range(n):  # first_removable, before and after the cut tiles are known
        wanted = next((alhambra[(first + i) % n] for i in range(n) if alhambra[(first + i) % n] in may_leave),
                      None)
        assert first_removable(alhambra, first) == wanted
    found = tuple(spots(layout))
    index = spot_index(alhambra)
    assert index.spots == found
    assert index.at == {w.pos: w for w in found}
    assert index.open == tuple((w.pos, w.shared, w.required) for w in found if w.shared and not w.encloses)
    assert open_spots(alhambra) == index.open
    known = removal(alhambra)
    assert known.removable == may_leave
    assert known.all_reachable == (reachable(layout) == set(layout))
    assert swap_needs(alhambra) == tuple(
        (p.tile, *requirements(layout, (p.x, p.y))) for p in alhambra if p.tile != FOUNTAIN)


@pytest.mark.parametrize("modules", CONFIGS, ids=["+".join(c) if len(c) < 2 else "all" for c in CONFIGS])
def test_memos_are_the_geometry(modules: tuple[str, ...]) -> None:
    seen: set[tuple[PlacedTile, ...]] = set()
    for state in _states(modules, 600):
        for player in state.players:
            if player.alhambra not in seen:
                seen.add(player.alhambra)
                _check(player.alhambra)
                # Equal tuples of other tiles (requests', decoded): the first computed,
                # the second found by value (what the first learnt holds for it).
                for _ in range(2):
                    _check(msgspec.json.decode(msgspec.json.encode(player.alhambra),
                                               type=tuple[PlacedTile, ...]))
    assert len(seen) > 40


def _drawn(*cells: tuple[int, int, str]) -> tuple[PlacedTile, ...]:
    return (PlacedTile(tile=FOUNTAIN, x=0, y=0),
            *(PlacedTile(tile=t, x=x, y=y) for x, y, t in cells))


def test_memos_of_drawn_alhambras() -> None:
    """A ring (no cut tile), a chain (every inner tile cut), a tile cut off, far corners."""
    from service.engine.catalogue import CATALOGUE

    open_tiles = [t.id for t in CATALOGUE.tiles.values() if t.walls == 0]
    walled = [t.id for t in CATALOGUE.tiles.values() if t.walls == 15]
    ring = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
    cases = [
        _drawn(*((x, y, open_tiles[i]) for i, (x, y) in enumerate(ring))),
        _drawn(*((i, 0, open_tiles[i - 1]) for i in range(1, 6))),
        _drawn((1, 0, open_tiles[0]), (2, 0, open_tiles[1]), (0, 1, open_tiles[2]),
               (-1, 0, open_tiles[3])),
        _drawn((64, 64, open_tiles[0]), (-64, -64, open_tiles[1])),
    ]
    if walled:
        cases.append(_drawn((1, 0, open_tiles[0]), (2, 0, walled[0])))
    for alhambra in cases:
        _check(alhambra)


@pytest.mark.parametrize("modules", CONFIGS, ids=["+".join(c) if len(c) < 2 else "all" for c in CONFIGS])
def test_spots_for_one_tile_are_its_placements(modules: tuple[str, ...]) -> None:
    """grid.spots_for (a sampler's places for one tile, found before or after `open_spots` is
    made) lists what `placements` lists for that tile, in its order (base.place.*: §4)."""
    from service.engine import grid

    checked = 0
    for state in _states(modules, 300):
        for player in state.players:
            for tile in (*player.reserve, *player.held):
                before = grid.spots_for(player.alhambra, tile)
                wanted = [pos for _, pos in grid.placements(player.alhambra, [tile])]
                assert before == wanted
                assert grid.spots_for(player.alhambra, tile) == wanted  # open_spots made now
                checked += 1
    assert checked > 50
