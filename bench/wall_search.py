"""The longest-wall search on Alhambras a game can produce: how many steps the worst needs.

The wall search (service/engine/grid.py) is exact within WALL_SEARCH_STEPS steps and refuses a
position past them (422 `position-too-complex`). This searches for the Alhambras whose walls
take the most steps among those that obey RULES.md §4 (sides match, every tile reachable, no
hole), built as a game builds them: tile by tile where §4 allows, and taken away again where
§4 still holds after (redesign). Every tile's walls may be any of the 16 (a superset of the
printed tiles, turned by the mosaic artist and with wall cards added), up to 75 tiles (every
tile of the game with power and grounds, and the fountain). Random restarts and hill climbing
on the steps of the plain longest wall and of power's second wall.

    python bench/wall_search.py [--seconds 120] [--seed 1]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.engine import grid

Layout = dict[tuple[int, int], int]
MAX_TILES = 75


def steps(layout: Layout, pair: bool) -> int:
    """The steps the search takes on this Alhambra's walls (power's pair search with `pair`)."""
    budget = grid._Budget(10**9)
    edges = grid.outer_wall_sides(layout)
    if pair:
        _, trails = grid._every_longest(edges, budget)
        for trail in trails:
            grid._longest([e for i, e in enumerate(edges) if i not in trail], budget)
    else:
        grid._longest(edges, budget)
    return budget.steps


def grow(layout: Layout, rnd: random.Random) -> Layout | None:
    """One more tile where §4 allows it, with random walls."""
    spots = grid.spots(layout)
    rnd.shuffle(spots)
    for _ in range(20):
        walls = rnd.randrange(16)
        for where in spots:
            if grid.fits(where, walls):
                return {**layout, where.pos: walls}
    return None


def shrink(layout: Layout, rnd: random.Random) -> Layout | None:
    """One tile taken away where §4 still holds after (no tile cut off, no hole left)."""
    cut = grid.cut_tiles(layout)
    candidates = [p for p in layout if p != (0, 0) and p not in cut]
    rnd.shuffle(candidates)
    for pos in candidates[:20]:
        rest = {p: w for p, w in layout.items() if p != pos}
        if not grid.holes(rest, [pos, *grid.around(pos)]):
            return rest
    return None


def valid(layout: Layout) -> bool:
    from service.engine.state import PlacedTile

    tiles = [PlacedTile(tile="fountain" if p == (0, 0) else "x", x=p[0], y=p[1]) for p in layout]
    names = {(t.x, t.y): t.tile for t in tiles}
    out = []
    for pos, walls in layout.items():
        if pos != (0, 0):
            rest = {p: w for p, w in layout.items() if p != pos}
            out += grid.side_mismatches(rest, names, pos, walls, "x")
    return not out and grid.reachable(layout) == set(layout) and not [
        h for h in {n for p in layout for n in grid.around(p)} if grid.holes(layout, [h])]


def climb(seconds: float, rnd: random.Random, pair: bool) -> tuple[int, Layout]:
    best: Layout = {(0, 0): 0}
    best_steps = 0
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        layout: Layout = {(0, 0): 0}  # a restart: a random Alhambra of random size
        for _ in range(rnd.randint(10, MAX_TILES - 1)):
            layout = grow(layout, rnd) or layout
        current = steps(layout, pair)
        for _ in range(400):
            candidate = layout
            for _ in range(rnd.randint(1, 4)):
                step = grow(candidate, rnd) if (rnd.random() < 0.5 and len(candidate) < MAX_TILES) \
                    else shrink(candidate, rnd)
                candidate = step or candidate
            found = steps(candidate, pair)
            if found >= current:
                layout, current = candidate, found
        if current > best_steps:
            best, best_steps = layout, current
    return best_steps, best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}; the bound: "
          f"{grid.WALL_SEARCH_STEPS} steps a search")
    worst = 0
    for pair, what in ((False, "the longest wall"), (True, "power's second wall (every longest wall)")):
        found, layout = climb(args.seconds / 2, rnd, pair)
        assert valid(layout), "the search left §4"
        worst = max(worst, found)
        print(f"{what}: at most {found} steps found, on {len(layout)} tiles "
              f"({found / grid.WALL_SEARCH_STEPS:.1%} of the bound)")
    return 0 if worst * 4 <= grid.WALL_SEARCH_STEPS else 1


if __name__ == "__main__":
    raise SystemExit(main())
