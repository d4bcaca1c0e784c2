"""Alhambra geometry (RULES.md §4, §5, base.score.wall): sides, placement, reachability, holes.

A layout is a plain mapping (x, y) -> walls mask built for one check; y grows to the south.
Checks return violations whose messages name the tile, its position and the side at fault.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import NamedTuple

from .catalogue import CATALOGUE, FOUNTAIN, NEIGHBOURS, parse_walls
from .state import PlacedTile, Tile
from .violations import Violation

Pos = tuple[int, int]
Layout = Mapping[Pos, int]
_SIDE_NAME = {1: "N", 2: "E", 4: "S", 8: "W"}


_PRINTED = {FOUNTAIN: 0, **{tile.id: tile.walls for tile in CATALOGUE.tiles.values()}}


def rotate(mask: int, degrees: int) -> int:
    """Walls turned clockwise: N goes to E, E to S, and so on."""
    k = (degrees // 90) % 4
    return ((mask << k) | (mask >> (4 - k))) & 15


def walls_of(tile: Tile) -> int:
    """The walls a tile shows: printed ones plus added ones (in the tile's own frame), turned
    with the tile when it is placed rotated."""
    mask = _PRINTED[tile.tile]
    if tile.added_walls:
        mask |= parse_walls(tile.added_walls)
    rotation = getattr(tile, "rotation", 0)
    return rotate(mask, rotation) if rotation else mask


def layout_of(alhambra: Iterable[PlacedTile]) -> dict[Pos, int]:
    return {(p.x, p.y): walls_of(p) if p.added_walls or p.rotation else _PRINTED[p.tile]
            for p in alhambra}


def names_of(alhambra: Iterable[PlacedTile]) -> dict[Pos, str]:
    return {(p.x, p.y): p.tile for p in alhambra}


def _side_text(mask: int, bit: int) -> str:
    return "walled" if mask & bit else "open"


def side_mismatches(layout: Layout, names: Mapping[Pos, str], pos: Pos, walls: int,
                    tile: str) -> list[str]:
    """Why `tile` with `walls` at `pos` does not match its neighbours (base.place.sides-match)."""
    x, y = pos
    out = []
    for dx, dy, bit, facing in NEIGHBOURS:
        npos = (x + dx, y + dy)
        nwalls = layout.get(npos)
        if nwalls is None or npos == pos:
            continue
        if bool(walls & bit) != bool(nwalls & facing):
            out.append(
                f"{tile} at {pos}: its {_SIDE_NAME[bit]} side is {_side_text(walls, bit)} but "
                f"{names.get(npos, 'the tile')} at {npos} has its {_SIDE_NAME[facing]} side "
                f"{_side_text(nwalls, facing)}"
            )
    return out


def reachable(layout: Layout, start: Pos = (0, 0)) -> set[Pos]:
    """Every position reachable on foot from `start` through open, matching sides."""
    if start not in layout:
        return set()
    seen = {start}
    todo = [start]
    while todo:
        x, y = todo.pop()
        walls = layout[(x, y)]
        for dx, dy, bit, facing in NEIGHBOURS:
            npos = (x + dx, y + dy)
            if npos in seen or walls & bit:
                continue
            nwalls = layout.get(npos)
            if nwalls is not None and not nwalls & facing:
                seen.add(npos)
                todo.append(npos)
    return seen


def walk_neighbours(layout: Layout, pos: Pos) -> Iterable[Pos]:
    x, y = pos
    walls = layout[pos]
    for dx, dy, bit, facing in NEIGHBOURS:
        npos = (x + dx, y + dy)
        nwalls = layout.get(npos)
        if nwalls is not None and not walls & bit and not nwalls & facing:
            yield npos


def cut_tiles(layout: Layout, start: Pos = (0, 0)) -> set[Pos]:
    """The tiles whose removal would cut others off from the fountain (articulation points of
    the walk graph, Tarjan's low-link); for a consistent Alhambra, one pass for all tiles."""
    order: dict[Pos, int] = {}
    low: dict[Pos, int] = {}
    cut: set[Pos] = set()

    def visit(pos: Pos, parent: Pos | None) -> None:
        order[pos] = low[pos] = len(order)
        children = 0
        for nxt in walk_neighbours(layout, pos):
            if nxt not in order:
                children += 1
                visit(nxt, pos)
                low[pos] = min(low[pos], low[nxt])
                if parent is not None and low[nxt] >= order[pos]:
                    cut.add(pos)
            elif nxt != parent:
                low[pos] = min(low[pos], order[nxt])
        if parent is None and children > 1:
            cut.add(pos)

    if start in layout:
        visit(start, None)
    return cut


def holes(layout: Layout, around: Iterable[Pos]) -> list[Pos]:
    """Empty positions among `around` that have tiles on all four sides (base.place.no-hole)."""
    out = []
    for x, y in around:
        if (x, y) in layout:
            continue
        if all((x + dx, y + dy) in layout for dx, dy, _, _ in NEIGHBOURS):
            out.append((x, y))
    return out


def around(pos: Pos) -> list[Pos]:
    x, y = pos
    return [(x + dx, y + dy) for dx, dy, _, _ in NEIGHBOURS]


class Spot(NamedTuple):
    """An empty position next to an Alhambra, and what a tile placed there must satisfy."""

    pos: Pos
    shared: int  # the sides (bits) that face a tile
    required: int  # of those, the sides that face a wall and so must be walled too
    encloses: tuple[Pos, ...]  # empty neighbours a tile here would enclose (base.place.no-hole)


def requirements(layout: Layout, pos: Pos) -> tuple[int, int]:
    """(shared, required): the sides of `pos` facing a tile, and those facing a wall."""
    x, y = pos
    shared = required = 0
    for dx, dy, bit, facing in NEIGHBOURS:
        nwalls = layout.get((x + dx, y + dy))
        if nwalls is not None:
            shared |= bit
            if nwalls & facing:
                required |= bit
    return shared, required


def spot(layout: Layout, pos: Pos) -> Spot:
    x, y = pos
    shared, required = requirements(layout, pos)
    encloses: tuple[Pos, ...] = ()
    if shared != 15:
        for dx, dy, bit, _ in NEIGHBOURS:
            if shared & bit:
                continue
            nx, ny = x + dx, y + dy
            # Its side towards `pos` will be covered: is it enclosed on the other three?
            if ((nx, ny - 1) in layout or dy == 1) and ((nx + 1, ny) in layout or dx == -1) and \
                    ((nx, ny + 1) in layout or dy == -1) and ((nx - 1, ny) in layout or dx == 1):
                encloses += ((nx, ny),)
    return Spot(pos, shared, required, encloses)


def fits(where: Spot, walls: int) -> bool:
    """§4 in bit operations: sides match, one shared side is open (so the tile is reachable,
    its neighbours being reachable already), and no hole is left."""
    return (bool(where.shared) and (walls & where.shared) == where.required
            and bool(where.shared & ~walls) and not where.encloses)


def spots(layout: Layout) -> list[Spot]:
    """Every empty position sharing a side with a tile: the only candidates for a placement."""
    return [spot(layout, pos) for pos in frontier(layout)]


def placements(alhambra: Iterable[PlacedTile], tiles: Iterable[Tile]) -> Iterator[tuple[Tile, Pos]]:
    """Every (tile, position) where one of `tiles` may be placed in this Alhambra (§4)."""
    free = spots(layout_of(alhambra))
    for tile in tiles:
        walls = walls_of(tile)
        for where in free:
            if fits(where, walls):
                yield tile, where.pos


def check_placement(alhambra: Iterable[PlacedTile], pos: Pos, tile: str,
                    walls: int) -> list[Violation]:
    """Can `tile` go on the empty space `pos` of this (consistent) Alhambra? §4."""
    layout = layout_of(alhambra)
    where = spot(layout, pos) if pos not in layout else None
    if where is not None and fits(where, walls):
        return []
    names = names_of(alhambra)  # only a refusal needs the names
    if where is None:
        return [Violation("base.place.empty",
                          f"{tile} cannot go to {pos}: {names.get(pos, 'a tile')} is there")]
    if not where.shared:
        return [Violation("base.place.adjacent",
                          f"{tile} at {pos} shares no side with a tile of the Alhambra "
                          "(a corner is not enough)")]
    out = [Violation("base.place.sides-match", m)
           for m in side_mismatches(layout, names, pos, walls, tile)]
    if not out and not where.shared & ~walls:
        out.append(Violation("base.place.reachable",
                             f"{tile} at {pos} could not be reached on foot from the fountain: "
                             "every side it shares with a tile is walled"))
    for hole in where.encloses:
        out.append(Violation("base.place.no-hole",
                             f"{tile} at {pos} would leave the empty space {hole} enclosed on "
                             "all four sides"))
    return out


def check_layout(alhambra: Iterable[PlacedTile]) -> list[Violation]:
    """Does a whole Alhambra obey §4? Used by the consistency check and scoring positions."""
    return list(_layout_problems(tuple(alhambra)))


# A pure function's memo: an Alhambra changes at most once a turn, and every request checks all
# of them, so most checks repeat one done a moment before.
@lru_cache(maxsize=16384)
def _layout_problems(tiles: tuple[PlacedTile, ...]) -> tuple[Violation, ...]:
    return tuple(_check_layout(tiles))


def _check_layout(tiles: tuple[PlacedTile, ...]) -> list[Violation]:
    out: list[Violation] = []
    layout: dict[Pos, int] = {}
    names: dict[Pos, str] = {}
    for p in tiles:
        if (p.x, p.y) in layout:
            out.append(Violation("base.place.empty",
                                 f"{p.tile} and {names[(p.x, p.y)]} are both at {(p.x, p.y)}"))
            continue
        layout[(p.x, p.y)] = walls_of(p)
        names[(p.x, p.y)] = p.tile
    if names.get((0, 0)) != FOUNTAIN:
        return [*out, Violation("base.place.fountain-fixed",
                                "the Lion Fountain must stand at (0, 0)")]
    for p in tiles:
        if p.tile == FOUNTAIN and (p.x, p.y) != (0, 0):
            out.append(Violation("base.place.fountain-fixed",
                                 f"a second fountain stands at {(p.x, p.y)}"))
    for pos, walls in layout.items():
        x, y = pos
        # Each shared side once: compare only with the east and south neighbours.
        for dx, dy, bit, facing in NEIGHBOURS[1:3]:
            npos = (x + dx, y + dy)
            if npos in layout and bool(walls & bit) != bool(layout[npos] & facing):
                out.append(Violation(
                    "base.place.sides-match",
                    f"{names[pos]} at {pos}: its {_SIDE_NAME[bit]} side is "
                    f"{_side_text(walls, bit)} but {names[npos]} at {npos} has its "
                    f"{_SIDE_NAME[facing]} side {_side_text(layout[npos], facing)}"))
    seen = reachable(layout)
    for pos in sorted(set(layout) - seen):
        out.append(Violation("base.place.reachable",
                             f"{names[pos]} at {pos} cannot be reached on foot from the fountain"))
    # An empty space touched by tiles on all four sides is a hole.
    touching = Counter((x + dx, y + dy) for x, y in layout for dx, dy, _, _ in NEIGHBOURS)
    for hole in sorted(pos for pos, n in touching.items() if n == 4 and pos not in layout):
        out.append(Violation("base.place.no-hole",
                             f"the empty space {hole} is enclosed on all four sides"))
    return out


def frontier(layout: Layout) -> list[Pos]:
    """Empty positions sharing a side with a tile: the only candidates for a placement."""
    out = {n for pos in layout for n in around(pos) if n not in layout}
    return sorted(out)


# --- The outer wall (base.score.wall) -------------------------------------------------------

Corner = tuple[int, int]
Edge = tuple[Corner, Corner]


def outer_wall_sides(layout: Layout) -> list[Edge]:
    """Every wall side whose other side holds no tile, as an edge between two grid corners."""
    edges: list[Edge] = []
    for (x, y), walls in layout.items():
        if not walls:
            continue
        if walls & 1 and (x, y - 1) not in layout:
            edges.append(((x, y), (x + 1, y)))
        if walls & 2 and (x + 1, y) not in layout:
            edges.append(((x + 1, y), (x + 1, y + 1)))
        if walls & 4 and (x, y + 1) not in layout:
            edges.append(((x, y + 1), (x + 1, y + 1)))
        if walls & 8 and (x - 1, y) not in layout:
            edges.append(((x, y), (x, y + 1)))
    return edges


def longest_wall(layout: Layout) -> int:
    """The number of wall sides in the longest continuous outer wall.

    A continuous wall is a trail: distinct wall sides, each sharing a corner with the next;
    corners may be revisited (a closed ring of n sides scores n). The longest trail of a
    connected piece uses every side when at most two corners have an odd number of sides;
    otherwise it starts at an odd corner, and a bounded search over trails finds it.
    """
    return longest_trail(outer_wall_sides(layout))


def _adjacency(edges: list[Edge]) -> dict[Corner, list[tuple[Corner, int]]]:
    adjacency: dict[Corner, list[tuple[Corner, int]]] = {}
    for i, (a, b) in enumerate(edges):
        adjacency.setdefault(a, []).append((b, i))
        adjacency.setdefault(b, []).append((a, i))
    return adjacency


def longest_trail(edges: list[Edge]) -> int:
    """The length of the longest trail (distinct edges, corners may repeat) in a set of sides."""
    if not edges:
        return 0
    adjacency = _adjacency(edges)
    best = 0
    seen: set[Corner] = set()
    for start in adjacency:
        if start in seen:
            continue
        component = _component(adjacency, start)
        seen |= component
        size = sum(len(adjacency[c]) for c in component) // 2
        if size <= best:
            continue
        odd = [c for c in component if len(adjacency[c]) % 2]
        if len(odd) <= 2:
            best = max(best, size)
            continue
        # Each side left out fixes the parity of at most two odd corners.
        bound = size - (len(odd) - 2) // 2
        best = max(best, _longest_trail(adjacency, sorted(odd), bound, len(edges)))
    return best


def longest_trails(edges: list[Edge], budget: int = 200_000) -> tuple[int, list[frozenset[int]], bool]:
    """The length of the longest trail, the distinct edge sets of every trail of that length,
    and whether the search finished within `budget` steps (for power.strength's second wall)."""
    length = longest_trail(edges)
    if length == 0:
        return 0, [frozenset()], True
    adjacency = _adjacency(edges)
    used = [False] * len(edges)
    path: list[int] = []
    found: set[frozenset[int]] = set()
    steps = 0

    def walk(corner: Corner) -> bool:
        nonlocal steps
        steps += 1
        if steps > budget:
            return False
        if len(path) == length:
            found.add(frozenset(path))
            return True
        for nxt, i in adjacency[corner]:
            if not used[i]:
                used[i] = True
                path.append(i)
                going = walk(nxt)
                path.pop()
                used[i] = False
                if not going:
                    return False
        return True

    complete = all(walk(start) for start in sorted(adjacency))
    return length, sorted(found, key=sorted), complete


def best_wall_pair(layout: Layout, cap: int) -> tuple[int, int, bool]:
    """power.strength: the longest outer wall and the best second wall sharing no side with it,
    counted up to `cap`: over every longest wall, the one that leaves the best second.
    The third value says whether the search was exhaustive."""
    edges = outer_wall_sides(layout)
    first, trails, complete = longest_trails(edges)
    best = 0
    for trail in trails:
        if best >= cap:
            break
        rest = [e for i, e in enumerate(edges) if i not in trail]
        best = max(best, min(longest_trail(rest), cap))
    return first, best, complete


def _component(adjacency: Mapping[Corner, list[tuple[Corner, int]]], start: Corner) -> set[Corner]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt, _ in adjacency[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _longest_trail(adjacency: Mapping[Corner, list[tuple[Corner, int]]], starts: list[Corner],
                   bound: int, n_edges: int) -> int:
    used = [False] * n_edges
    best = 0

    def walk(corner: Corner, length: int) -> bool:
        nonlocal best
        if length > best:
            best = length
            if best == bound:
                return True
        for nxt, i in adjacency[corner]:
            if not used[i]:
                used[i] = True
                done = walk(nxt, length + 1)
                used[i] = False
                if done:
                    return True
        return False

    for start in starts:
        if walk(start, 0):
            break
    return best

