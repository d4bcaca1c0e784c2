"""Alhambra geometry (RULES.md §4, §5, base.score.wall): sides, placement, reachability, holes.

A layout is a plain mapping (x, y) -> walls mask built for one check; y grows to the south.
Checks return violations whose messages name the tile, its position and the side at fault.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from functools import lru_cache, partial
from typing import Any, NamedTuple

from .catalogue import CATALOGUE, FOUNTAIN, NEIGHBOURS, parse_walls
from .state import PlacedTile, Tile
from .text import Text, t, word
from .violations import Violation

Pos = tuple[int, int]
Layout = Mapping[Pos, int]
_SIDE_NAME = {1: "N side", 2: "E side", 4: "S side", 8: "W side"}  # words (base/words.py)


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


def _mismatch(tile: str | Text, pos: Pos, walls: int, bit: int, other: str | Text, npos: Pos,
              nwalls: int, facing: int) -> Text:
    """base.place.sides-match: two sides that meet, one walled and one open."""
    return t("{tile} at {pos}: its {side} is {walls} but {other} at {other_pos} has its {other_side} "
             "{other_walls}", tile=tile, pos=str(pos), side=word(_SIDE_NAME[bit]),
             walls=word(_side_text(walls, bit)), other=other, other_pos=str(npos),
             other_side=word(_SIDE_NAME[facing]), other_walls=word(_side_text(nwalls, facing)))


def side_mismatches(layout: Layout, names: Mapping[Pos, str], pos: Pos, walls: int,
                    tile: str) -> list[Text]:
    """Why `tile` with `walls` at `pos` does not match its neighbours (base.place.sides-match)."""
    x, y = pos
    out = []
    for dx, dy, bit, facing in NEIGHBOURS:
        npos = (x + dx, y + dy)
        nwalls = layout.get(npos)
        if nwalls is None or npos == pos:
            continue
        if bool(walls & bit) != bool(nwalls & facing):
            out.append(_mismatch(tile, pos, walls, bit, names.get(npos) or t("the tile"), npos, nwalls,
                                 facing))
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


def walk_graph(layout: Layout) -> dict[Pos, list[Pos]]:
    """Every tile's `walk_neighbours`, in one pass over the layout."""
    get = layout.get
    graph: dict[Pos, list[Pos]] = {}
    for (x, y), walls in layout.items():
        out = graph[(x, y)] = []
        for dx, dy, bit, facing in NEIGHBOURS:
            if not walls & bit:
                npos = (x + dx, y + dy)
                nwalls = get(npos)
                if nwalls is not None and not nwalls & facing:
                    out.append(npos)
    return graph


def cut_tiles(layout: Layout, start: Pos = (0, 0)) -> set[Pos]:
    """The tiles whose removal would cut others off from the fountain (articulation points of
    the walk graph, Tarjan's low-link); for a consistent Alhambra, one pass for all tiles."""
    return _articulation(layout, start)[0]


def _articulation(layout: Layout, start: Pos) -> tuple[set[Pos], int]:
    """(`cut_tiles`, how many tiles are reachable from `start`)."""
    order: dict[Pos, int] = {}
    low: dict[Pos, int] = {}
    cut: set[Pos] = set()
    graph = walk_graph(layout)

    def visit(pos: Pos, parent: Pos | None) -> None:
        order[pos] = low[pos] = len(order)
        children = 0
        for nxt in graph[pos]:
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
    return cut, len(order)


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


# Spot(...) without NamedTuple's Python-level __new__ (a twentieth of its cost): a search makes
# one for every empty space next to every Alhambra that changes.
_spot = partial(tuple.__new__, Spot)


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
    get = layout.get
    shared = required = 0
    for dx, dy, bit, facing in NEIGHBOURS:  # requirements(), written out: the hottest loop
        nwalls = get((x + dx, y + dy))
        if nwalls is not None:
            shared |= bit
            if nwalls & facing:
                required |= bit
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
    return _spot((pos, shared, required, encloses))


def fits(where: Spot, walls: int) -> bool:
    """§4 in bit operations: sides match, one shared side is open (so the tile is reachable,
    its neighbours being reachable already), and no hole is left."""
    return (bool(where.shared) and (walls & where.shared) == where.required
            and bool(where.shared & ~walls) and not where.encloses)


def spots(layout: Layout) -> list[Spot]:
    """Every empty position sharing a side with a tile: the only candidates for a placement.

    `spot` of each position of `frontier`, computed in one pass over the tiles: each tells its
    empty neighbours which of their sides face it (and face a wall); an empty neighbour of a
    spot is enclosed by a tile there when its other three sides face tiles."""
    shared: dict[Pos, int] = {}
    required: dict[Pos, int] = {}
    for (x, y), walls in layout.items():
        for dx, dy, bit, facing in NEIGHBOURS:
            npos = (x + dx, y + dy)
            if npos not in layout:
                shared[npos] = shared.get(npos, 0) | facing
                if walls & bit:
                    required[npos] = required.get(npos, 0) | facing
    out = []
    for pos in sorted(shared):
        x, y = pos
        sides = shared[pos]
        encloses: tuple[Pos, ...] = ()
        if sides != 15:
            for dx, dy, bit, facing in NEIGHBOURS:
                npos = (x + dx, y + dy)
                if not sides & bit and shared.get(npos) == 15 ^ facing:
                    encloses += (npos,)
        out.append(_spot((pos, sides, required.get(pos, 0), encloses)))
    return out


# Memos of pure functions of one Alhambra (a tuple of frozen tiles, the cache key): a player's
# Alhambra changes a few times in a game and is read at every step of a search, by the samplers
# of random_action, by validate and again by apply. `SEEN_MEMO` bounds the memo by identity
# (`_SEEN`): every player's Alhambra between two of their turns and the few made meanwhile fit
# in 32 (6 players, every module: no more computed than with 4,096), and a short memo keeps
# what a search touches in the processor's caches (some 15 % faster random games than 4,096).
ALHAMBRA_MEMO = 4096
SEEN_MEMO = 32


class SpotIndex(NamedTuple):
    """`spots` of one Alhambra three ways: in order, by position, and (pos, shared, required)
    of those where some tile fits (`fits` less its test of the tile's walls)."""

    spots: tuple[Spot, ...]
    at: dict[Pos, Spot]
    open: tuple[tuple[Pos, int, int], ...]


# The memos below compute on positions packed in one integer, (x + 128) * 256 + y + 128: a step
# east adds 256, a step south 1, and the integers sort as the (x, y) pairs do (coordinates stay
# within +-65, Coord). The same results as `spots`, `cut_tiles` and `requirements` over a
# layout (tests/engine/test_alhambra_memos.py), at a fraction of the cost.
_STEPS = tuple((dx * 256 + dy, bit, facing) for dx, dy, bit, facing in NEIGHBOURS)


def _packed(alhambra: tuple[PlacedTile, ...]) -> dict[int, int]:
    """`layout_of` keyed by packed positions."""
    printed = _PRINTED
    return {(p.x + 128) * 256 + p.y + 128: walls_of(p) if p.added_walls or p.rotation else printed[p.tile]
            for p in alhambra}


def _unpacked(key: int) -> Pos:
    return key // 256 - 128, key % 256 - 128


# The shape of an Alhambra on packed positions: its tiles' walls (`layout`), and for every empty
# position next to it the sides facing a tile (`shared`) and those of them facing a wall
# (`required`, no entry when none); then, once asked for, its cut tiles (`cut`, packed; None until
# known), how many tiles are reachable from the fountain (`reached`) and `open_spots` (`open`).
# Kept for the Alhambras seen last, by the tuple of tiles and by the layout alone (tokens moved
# leave the shape as it was); one that is another plus a tile at its end (a placement) is derived
# from it, as are the Alhambras after a removal or a swap (`derive_removed`, `derive_swapped`):
# the neighbours of one position updated, the cut tiles carried over where the walk graph allows.
# What is known of one Alhambra (`tiles`) is its shape and, once asked for, its `removal`,
# `swap_needs` and `spot_index` (`index`): one object, the fewer to make and free at every step
# of a search.
class _Shape:
    __slots__ = ("cut", "index", "layout", "open", "reached", "removal", "required", "shared", "swaps",
                 "tiles")

    def __init__(self, layout: dict[int, int], shared: dict[int, int], required: dict[int, int]) -> None:
        self.layout = layout
        self.shared = shared
        self.required = required
        self.cut: set[int] | None = None
        self.reached = 0
        self.open: tuple[tuple[Pos, int, int], ...] | None = None
        self.tiles: tuple[PlacedTile, ...] = ()
        self.index: SpotIndex | None = None
        self.removal: Removal | None = None
        self.swaps: tuple[tuple[str, int, int], ...] | None = None

    def known_as(self, tiles: tuple[PlacedTile, ...], same_tiles: bool) -> _Shape:
        """This shape as another tuple's: an equal one (`same_tiles`, all it knows holds), or
        one of the same layout (what depends on the tiles' ids is not carried over)."""
        other = _Shape(self.layout, self.shared, self.required)
        other.cut, other.reached, other.open, other.index = self.cut, self.reached, self.open, self.index
        if same_tiles:
            other.removal, other.swaps = self.removal, self.swaps
        other.tiles = tiles
        return other


# What is known of the Alhambras seen last, by the identity of their tuple (`_SEEN`: the entry
# holds the tuple, so its id is not reused while it is there), and of those computed from their
# tiles also by the tuple (`_KNOWN`: equal tuples from another request or decoding). A tuple
# does not keep its hash, and hashing a dozen frozen tiles costs more than most of what is
# looked up; a search hands the same tuples on from state to state, and those its own actions
# make (`derive_placed`, `derive_removed`, `derive_swapped`) are only ever met as themselves,
# so they go into `_SEEN` alone: each memo entry costs its eviction later, touching memory
# long cold (a third of a long search's time in the memos when both held every Alhambra).
# OrderedDicts: a plain dict's oldest key, `next(iter(memo))`, is found by walking past the
# slots its deletions left, a walk as long as the memo once it is full.
_KNOWN: OrderedDict[tuple[PlacedTile, ...], _Shape] = OrderedDict()
_SEEN: OrderedDict[int, _Shape] = OrderedDict()
_SHAPES: OrderedDict[tuple[tuple[int, int], ...], _Shape] = OrderedDict()
_START = 128 * 256 + 128


def _remember(memo: OrderedDict[Any, Any], key: object, value: object, size: int = ALHAMBRA_MEMO) -> None:
    if len(memo) >= size:  # the oldest goes (unless another thread took it)
        try:  # noqa: SIM105 (contextlib.suppress: three calls more at every step of a search)
            memo.popitem(last=False)
        except KeyError:
            pass
    memo[key] = value


def _peek(alhambra: tuple[PlacedTile, ...]) -> _Shape | None:
    """What is known of `alhambra` already, if anything."""
    seen = _SEEN.get(id(alhambra))
    if seen is not None and seen.tiles is alhambra:
        return seen
    known = _KNOWN.get(alhambra)
    if known is not None and known.tiles is not alhambra:
        # An equal tuple: what is known of it holds for this one (not the other way round:
        # an entry of _SEEN holds its own tuple).
        known = known.known_as(alhambra, True)
        _remember(_SEEN, id(alhambra), known, SEEN_MEMO)
    return known


def _learn(alhambra: tuple[PlacedTile, ...], shape: _Shape) -> _Shape:
    """`shape`, made for `alhambra` alone, is what is known of it."""
    shape.tiles = alhambra
    _remember(_SEEN, id(alhambra), shape, SEEN_MEMO)
    return shape


def _known(alhambra: tuple[PlacedTile, ...]) -> _Shape:
    known = _peek(alhambra)
    if known is None:
        known = _learn(alhambra, _shape_of(alhambra))
        _remember(_KNOWN, alhambra, known)
    return known


def _degree(layout: dict[int, int], key: int) -> int:
    """How many tiles a walk leads to from the tile at `key` (its degree in the walk graph)."""
    walls = layout[key]
    get = layout.get
    n = 0
    for step, bit, facing in _STEPS:
        if not walls & bit:
            other = get(key + step)
            if other is not None and not other & facing:
                n += 1
    return n


def _walk_neighbour(layout: dict[int, int], key: int) -> int:
    """The first tile a walk leads to from the tile at `key`."""
    walls = layout[key]
    for step, bit, facing in _STEPS:
        if not walls & bit:
            other = layout.get(key + step)
            if other is not None and not other & facing:
                return key + step
    raise ValueError("no walk neighbour")


def _shape_of(alhambra: tuple[PlacedTile, ...]) -> _Shape:
    """The shape of an Alhambra not known yet: derived from the one without its last tile if
    that is known, else found by its layout or computed."""
    known = _KNOWN.get(alhambra[:-1]) if len(alhambra) > 1 else None
    found = _placed_shape(known, alhambra[-1]) if known is not None else None
    if found is None:
        layout = _packed(alhambra)
        shape = tuple(layout.items())
        same = _SHAPES.get(shape)
        if same is not None:
            return same.known_as(alhambra, False)
        found = _Shape(layout, *_sides(layout))
        _remember(_SHAPES, shape, found)
    return found


def derive_placed(before: tuple[PlacedTile, ...], after: tuple[PlacedTile, ...]) -> None:
    """Note that `after` is `before` and one more tile at its end, so that its shape is derived
    from `before`'s if that is known: a search's placements."""
    known = _peek(before)
    if known is not None and len(known.layout) == len(before):
        found = _placed_shape(known, after[-1])
        if found is not None:
            _learn(after, found)


def _placed_shape(before: _Shape, last: PlacedTile) -> _Shape | None:
    """`before` with `last` placed, unless its space is taken."""
    key = (last.x + 128) * 256 + last.y + 128
    if key in before.layout:
        return None
    walls = walls_of(last)
    layout, shared, required = dict(before.layout), dict(before.shared), dict(before.required)
    layout[key] = walls
    shared.pop(key, None)
    required.pop(key, None)
    _face(layout, shared, required, key, walls)
    found = _Shape(layout, shared, required)
    if before.cut is not None and before.reached == len(before.layout) and _degree(layout, key) == 1:
        # A tile reached through one side only: the tile it hangs on is cut now (the
        # fountain once it has two ways out), no other tile changes.
        near = _walk_neighbour(layout, key)
        cut = set(before.cut)
        if near != _START or _degree(layout, near) > 1:
            cut.add(near)
        found.cut, found.reached = cut, before.reached + 1
    return found


def _sides(layout: dict[int, int]) -> tuple[dict[int, int], dict[int, int]]:
    """(shared, required) of a packed layout."""
    shared: dict[int, int] = {}
    required: dict[int, int] = {}
    for key, walls in layout.items():
        _face(layout, shared, required, key, walls)
    return shared, required


def _face(layout: dict[int, int], shared: dict[int, int], required: dict[int, int], key: int,
          walls: int) -> None:
    """Add to `shared` and `required` the sides the tile at `key` shows the empty spaces
    around it."""
    get = shared.get
    for step, bit, facing in _STEPS:
        near = key + step
        if near not in layout:
            shared[near] = get(near, 0) | facing
            if walls & bit:
                required[near] = required.get(near, 0) | facing


def _derivable(before: tuple[PlacedTile, ...], tile: PlacedTile) -> tuple[_Shape, int] | None:
    """`before`'s shape and the key of `tile`'s space, when the Alhambra after a change there is
    to be derived from it: None when `before`'s is unknown, holds two tiles on one space (a state
    that cannot occur) or has no tile there. (The new tuple is learnt even if an equal one is
    known: looking for it would hash it, and learning it again does no harm.)"""
    shape = _peek(before)
    if shape is None or len(shape.layout) != len(before):
        return None
    key = (tile.x + 128) * 256 + tile.y + 128
    return (shape, key) if key in shape.layout else None


def derive_removed(before: tuple[PlacedTile, ...], after: tuple[PlacedTile, ...], tile: PlacedTile) -> None:
    """Note that `after` is `before` without `tile` (in the same order), so that its shape is
    derived from `before`'s if that is known: a search's removals."""
    known = _derivable(before, tile)
    if known is None:
        return
    shape, key = known
    leaf = _degree(shape.layout, key) == 1
    near_of_leaf = _walk_neighbour(shape.layout, key) if leaf else -1
    layout, shared, required = dict(shape.layout), dict(shape.shared), dict(shape.required)
    del layout[key]
    mine = needed = 0
    for step, bit, facing in _STEPS:
        near = key + step
        other = layout.get(near)
        if other is not None:  # the space left faces that tile
            mine |= bit
            if other & facing:
                needed |= bit
        else:  # an empty space no longer faces the tile
            sides = shared[near] & ~facing
            if sides:
                shared[near] = sides
                walled = required.get(near, 0) & ~facing
                if walled:
                    required[near] = walled
                else:
                    required.pop(near, None)
            else:
                del shared[near]
                required.pop(near, None)
    if mine:
        shared[key] = mine
        if needed:
            required[key] = needed
    found = _Shape(layout, shared, required)
    cut = shape.cut
    if cut is not None and shape.reached == len(shape.layout) and leaf and key not in cut:
        # A tile reached through one side only leaves: no tile is cut that was not; the one it
        # hung on stays cut unless it now leads on to one tile or none.
        if near_of_leaf not in cut:
            found.cut, found.reached = cut, shape.reached - 1
        elif _degree(layout, near_of_leaf) <= 1:
            found.cut, found.reached = cut - {near_of_leaf}, shape.reached - 1
    _learn(after, found)


def derive_swapped(before: tuple[PlacedTile, ...], after: tuple[PlacedTile, ...], new: PlacedTile) -> None:
    """Note that `after` is `before` with `new` in the place of the tile at its position, so
    that its shape is derived from `before`'s if that is known: a search's swaps."""
    known = _derivable(before, new)
    if known is None:
        return
    shape, key = known
    was, walls = shape.layout[key], walls_of(new)
    layout, required = dict(shape.layout), dict(shape.required)
    layout[key] = walls
    facing_tiles = 0
    for step, bit, facing in _STEPS:
        near = key + step
        if near in layout:
            facing_tiles |= bit
        elif walls & bit:
            required[near] = required.get(near, 0) | facing
        else:
            walled = required.get(near, 0) & ~facing
            if walled:
                required[near] = walled
            else:
                required.pop(near, None)
    found = _Shape(layout, shape.shared, required)
    if (walls ^ was) & facing_tiles == 0:  # the same sides towards its neighbours: the same walks
        found.cut, found.reached = shape.cut, shape.reached
    _learn(after, found)


def spot_index(alhambra: tuple[PlacedTile, ...]) -> SpotIndex:
    """`spots(layout_of(alhambra))` indexed, computed as `spots` does on packed positions."""
    known = _known(alhambra)
    if known.index is None:
        known.index = _spot_index(known)
    return known.index


def _spot_index(shape: _Shape) -> SpotIndex:
    shared, required = shape.shared, shape.required
    get = shared.get
    found = []
    at = {}
    free = []
    for key in sorted(shared):
        sides = shared[key]
        encloses: tuple[Pos, ...] = ()
        if sides != 15:
            for step, bit, facing in _STEPS:
                if not sides & bit and get(key + step) == 15 ^ facing:
                    encloses += (_unpacked(key + step),)
        pos = (key // 256 - 128, key % 256 - 128)
        needed = required.get(key, 0)
        where = _spot((pos, sides, needed, encloses))
        found.append(where)
        at[pos] = where
        if not encloses:
            free.append((pos, sides, needed))
    return SpotIndex(tuple(found), at, tuple(free))


def free_spots(alhambra: tuple[PlacedTile, ...]) -> tuple[Spot, ...]:
    """`spots` of an Alhambra (§4): where a tile could go, and what it must satisfy there."""
    return spot_index(alhambra).spots


def open_spots(alhambra: tuple[PlacedTile, ...]) -> tuple[tuple[Pos, int, int], ...]:
    """`spot_index(alhambra).open` alone, without the spots themselves: all a search's
    placements need (the whole index is made only for what else asks for it)."""
    shape = _known(alhambra)
    if shape.open is not None:
        return shape.open
    shared = shape.shared
    # A space faced on three sides would be enclosed by a tile on its fourth: that space is not open.
    missing = _MISSING
    shut = {key + missing[sides] for key, sides in shared.items() if sides in missing}
    get = shape.required.get
    found = shape.open = tuple(((key // 256 - 128, key % 256 - 128), shared[key], get(key, 0))
                               for key in sorted(shared) if key not in shut)
    return found


# The step to the one side not faced, of a space faced on three.
_MISSING = {15 ^ bit: step for step, bit, _ in _STEPS}


@lru_cache(maxsize=ALHAMBRA_MEMO)
def _placements(alhambra: tuple[PlacedTile, ...], tiles: tuple[Tile, ...]) -> tuple[tuple[Tile, Pos], ...]:
    free = open_spots(alhambra)
    out = []
    for tile in tiles:
        walls = walls_of(tile)
        out += [(tile, pos) for pos, shared, required in free
                if walls & shared == required and shared & ~walls]  # fits()
    return tuple(out)


def spots_for(alhambra: tuple[PlacedTile, ...], tile: Tile) -> list[Pos]:
    """The positions where `tile` may be placed in this Alhambra (§4), in the order of
    `placements`: a sampler's pick among one tile's places, without every tile's."""
    shape = _known(alhambra)
    walls = walls_of(tile)
    if shape.open is not None:
        return [pos for pos, shared, required in shape.open
                if walls & shared == required and shared & ~walls]  # fits()
    # `open_spots` not made yet: only the spaces the tile fits are asked whether they are open
    # (a space faced on three sides that faces this one on its fourth would be enclosed).
    shared = shape.shared
    need = shape.required.get
    fitting = [key for key, sides in shared.items() if walls & sides == need(key, 0) and sides & ~walls]
    if not fitting:
        return []
    near = shared.get
    out = []
    for key in sorted(fitting):
        for step, _, facing in _STEPS:
            if near(key + step) == 15 ^ facing:
                break
        else:
            out.append((key // 256 - 128, key % 256 - 128))
    return out


def placements(alhambra: Iterable[PlacedTile], tiles: Iterable[Tile]) -> tuple[tuple[Tile, Pos], ...]:
    """Every (tile, position) where one of `tiles` may be placed in this Alhambra (§4), tile by
    tile in the order given, each over `spots` in their order."""
    tiles = tuple(tiles)
    return _placements(tuple(alhambra), tiles) if tiles else ()


def check_placement(alhambra: Iterable[PlacedTile], pos: Pos, tile: str,
                    walls: int) -> list[Violation]:
    """Can `tile` go on the empty space `pos` of this (consistent) Alhambra? §4."""
    alhambra = tuple(alhambra)
    where = spot_index(alhambra).at.get(pos)  # every empty space sharing a side with a tile
    if where is not None and fits(where, walls):
        return []
    layout = layout_of(alhambra)
    where = spot(layout, pos) if pos not in layout else None
    names = names_of(alhambra)  # only a refusal needs the names
    if where is None:
        return [Violation("base.place.empty", t("{tile} cannot go to {pos}: {other} is there", tile=tile,
                                                pos=str(pos), other=names.get(pos) or t("a tile")))]
    if not where.shared:
        return [Violation("base.place.adjacent",
                          t("{tile} at {pos} shares no side with a tile of the Alhambra (a corner is not "
                            "enough)", tile=tile, pos=str(pos)))]
    out = [Violation("base.place.sides-match", m)
           for m in side_mismatches(layout, names, pos, walls, tile)]
    if not out and not where.shared & ~walls:
        out.append(Violation("base.place.reachable",
                             t("{tile} at {pos} could not be reached on foot from the fountain: every "
                               "side it shares with a tile is walled", tile=tile, pos=str(pos))))
    for hole in where.encloses:
        out.append(Violation("base.place.no-hole",
                             t("{tile} at {pos} would leave the empty space {hole} enclosed on all four "
                               "sides", tile=tile, pos=str(pos), hole=str(hole))))
    return out


class Removal(NamedTuple):
    """What base.remove.valid-after allows in one Alhambra."""

    # The tiles (in Alhambra order) that may leave it if it is consistent: not the fountain, not
    # a tile whose removal cuts others off from it (`cut_tiles`), not one that leaves a hole.
    removable: tuple[PlacedTile, ...]
    all_reachable: bool  # every tile is reachable on foot from the fountain (§4)


def removal(alhambra: tuple[PlacedTile, ...]) -> Removal:
    """`cut_tiles` and the tiles hemmed in on four sides, on packed positions (Tarjan's
    low-link without recursion)."""
    known = _known(alhambra)
    if known.removal is None:
        known.removal = _removal(alhambra, known)
    return known.removal


def _removal(alhambra: tuple[PlacedTile, ...], shape: _Shape) -> Removal:
    layout = shape.layout
    cut = _cut_of(shape)
    kept = []
    for p in alhambra:
        if p.tile == FOUNTAIN:
            continue
        key = (p.x + 128) * 256 + p.y + 128
        if key in cut or _hemmed(layout, key):
            continue
        kept.append(p)
    return Removal(tuple(kept), shape.reached == len(layout))


def _cut_of(shape: _Shape) -> set[int]:
    """The shape's cut tiles, found (with `reached`) the first time they are asked for."""
    if shape.cut is None:
        shape.cut, shape.reached = _cut(shape.layout)
    return shape.cut


def _hemmed(layout: dict[int, int], key: int) -> bool:
    """A tile on every side of `key`: the space would be a hole if its tile left."""
    return key - 1 in layout and key + 256 in layout and key + 1 in layout and key - 256 in layout


def _cut(layout: dict[int, int]) -> tuple[set[int], int]:
    """(the cut tiles, how many tiles are reachable from the fountain) of a packed layout."""
    get = layout.get
    graph: dict[int, list[int]] = {}
    for key, walls in layout.items():
        out = graph[key] = []
        for step, bit, facing in _STEPS:
            if not walls & bit:
                near = key + step
                other = get(near)
                if other is not None and not other & facing:
                    out.append(near)
    start = 128 * 256 + 128
    order: dict[int, int] = {}
    low: dict[int, int] = {}
    cut: set[int] = set()
    if start in layout:
        order[start] = low[start] = 0
        roots = 0
        stack = [(start, -1, iter(graph[start]))]
        while stack:
            key, parent, todo = stack[-1]
            for near in todo:
                if near not in order:
                    order[near] = low[near] = len(order)
                    stack.append((near, key, iter(graph[near])))
                    break
                if near != parent and order[near] < low[key]:
                    low[key] = order[near]
            else:
                stack.pop()
                if parent >= 0:
                    if low[key] < low[parent]:
                        low[parent] = low[key]
                    if parent == start:
                        roots += 1
                    elif low[key] >= order[parent]:
                        cut.add(parent)
        if roots > 1:
            cut.add(start)
    return cut, len(order)


def removable(alhambra: tuple[PlacedTile, ...]) -> tuple[PlacedTile, ...]:
    return removal(alhambra).removable


def first_removable(alhambra: tuple[PlacedTile, ...], first: int) -> PlacedTile | None:
    """The first of `removable` in the Alhambra's order from its tile at `first` on, round to
    the start again: a sampler's pick. A tile a walk reaches through one side only is never a
    cut tile, so the cut tiles are found (`_cut`) only if a tile with more ways comes first."""
    shape = _known(alhambra)
    layout = shape.layout
    n = len(alhambra)
    for i in range(n):
        p = alhambra[(first + i) % n]
        if p.tile == FOUNTAIN:
            continue
        key = (p.x + 128) * 256 + p.y + 128
        if _hemmed(layout, key) or (_degree(layout, key) > 1 and key in _cut_of(shape)):
            continue
        return p
    return None


def swap_needs(alhambra: tuple[PlacedTile, ...]) -> tuple[tuple[str, int, int], ...]:
    """(tile, shared, required) of every tile but the fountain, in Alhambra order: the sides a
    tile swapped in for it faces tiles on, and those facing walls (base.swap.same-space)."""
    known = _known(alhambra)
    if known.swaps is None:
        known.swaps = _swap_needs(alhambra, known)
    return known.swaps


def _swap_needs(alhambra: tuple[PlacedTile, ...], shape: _Shape) -> tuple[tuple[str, int, int], ...]:
    get = shape.layout.get
    out = []
    for p in alhambra:
        if p.tile == FOUNTAIN:
            continue
        key = (p.x + 128) * 256 + p.y + 128
        shared = required = 0
        for step, bit, facing in _STEPS:  # requirements() on packed positions
            walls = get(key + step)
            if walls is not None:
                shared |= bit
                if walls & facing:
                    required |= bit
        out.append((p.tile, shared, required))
    return tuple(out)


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
            out.append(Violation("base.place.empty", t("{tile} and {other} are both at {pos}", tile=p.tile,
                                                       other=names[(p.x, p.y)], pos=str((p.x, p.y)))))
            continue
        layout[(p.x, p.y)] = walls_of(p)
        names[(p.x, p.y)] = p.tile
    if names.get((0, 0)) != FOUNTAIN:
        return [*out, Violation("base.place.fountain-fixed",
                                t("the Lion Fountain must stand at (0, 0)"))]
    for p in tiles:
        if p.tile == FOUNTAIN and (p.x, p.y) != (0, 0):
            out.append(Violation("base.place.fountain-fixed",
                                 t("a second fountain stands at {pos}", pos=str((p.x, p.y)))))
    for pos, walls in layout.items():
        x, y = pos
        # Each shared side once: compare only with the east and south neighbours.
        for dx, dy, bit, facing in NEIGHBOURS[1:3]:
            npos = (x + dx, y + dy)
            if npos in layout and bool(walls & bit) != bool(layout[npos] & facing):
                out.append(Violation("base.place.sides-match", _mismatch(
                    names[pos], pos, walls, bit, names[npos], npos, layout[npos], facing)))
    seen = reachable(layout)
    for pos in sorted(set(layout) - seen):
        out.append(Violation("base.place.reachable",
                             t("{tile} at {pos} cannot be reached on foot from the fountain",
                               tile=names[pos], pos=str(pos))))
    # An empty space touched by tiles on all four sides is a hole.
    touching = Counter((x + dx, y + dy) for x, y in layout for dx, dy, _, _ in NEIGHBOURS)
    for hole in sorted(pos for pos, n in touching.items() if n == 4 and pos not in layout):
        out.append(Violation("base.place.no-hole",
                             t("the empty space {hole} is enclosed on all four sides", hole=str(hole))))
    return out


def frontier(layout: Layout) -> list[Pos]:
    """Empty positions sharing a side with a tile: the only candidates for a placement."""
    out: set[Pos] = set()
    for x, y in layout:
        out.update(((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)))  # around((x, y))
    out.difference_update(layout)
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
    otherwise a bounded search finds it (`longest_trail`), or the position is refused as too
    complex: never a wrong number.
    """
    return _checked(_measured(_frozen(layout), None))[0]


def _frozen(layout: Layout) -> tuple[tuple[Pos, int], ...]:
    return tuple(sorted(layout.items()))


# A pure function's memo, as for `_layout_problems`: a scoring measures each Alhambra's wall
# for its wall line, for power's second wall and for a tally's checks, so one search serves
# them all (and a position past the bound costs its bound once, not once a use).
@lru_cache(maxsize=1024)
def _measured(layout: tuple[tuple[Pos, int], ...], cap: int | None) -> tuple[int, int]:
    """(the longest wall, power's best second wall up to `cap` or 0 without one); raises
    PositionTooComplex past the bound (remembered: the memo keeps the refusal as -1)."""
    edges = outer_wall_sides(dict(layout))
    try:
        if cap is None:
            return longest_trail(edges), 0
        return _best_pair(edges, cap)
    except PositionTooComplex:
        return -1, -1


def _checked(found: tuple[int, int]) -> tuple[int, int]:
    if found[0] < 0:
        raise PositionTooComplex(WALL_SEARCH_STEPS)
    return found


# The search's bound, in steps (one step: one corner reached with one set of used walls, about
# 1 us). The walls of every Alhambra a game can produce take far fewer (bench/wall_search.py
# searches for the worst: docs/hostile-input.md, "The longest wall"); past it a request is refused 422
# `position-too-complex` (a position with `check_layout: false` can be any drawing). A scoring
# makes at most one search per player and one more per strength die's owner (power), so a
# request's searches together stay within about 11 of these, some 45 ms of CPU.
WALL_SEARCH_STEPS = 5_000


class PositionTooComplex(ValueError):
    """An outer wall whose search would pass its bound: refused, never scored wrong."""

    def __init__(self, limit: int) -> None:
        self.message = t("an outer wall of this position branches too much to be measured within the "
                         "search's bound of {limit} steps (no Alhambra built by the rules comes near "
                         "it; a drawing with `check_layout: false` can)", limit=limit)
        super().__init__(self.message)
        self.limit = limit



class _Budget:
    """The steps one scoring of a wall may take (shared by every search it makes)."""

    __slots__ = ("limit", "steps")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.steps = 0

    def step(self) -> None:
        self.steps += 1
        if self.steps > self.limit:
            raise PositionTooComplex(self.limit)


def _adjacency(edges: list[Edge]) -> dict[Corner, list[tuple[Corner, int]]]:
    adjacency: dict[Corner, list[tuple[Corner, int]]] = {}
    for i, (a, b) in enumerate(edges):
        adjacency.setdefault(a, []).append((b, i))
        adjacency.setdefault(b, []).append((a, i))
    return adjacency


class _Chains(NamedTuple):
    """A connected piece of wall with its runs of plain corners (two sides each) contracted:
    each chain joins two branch corners (one, three or four sides) and weighs its sides."""

    ends: list[tuple[Corner, Corner]]
    weight: list[int]
    sides: list[tuple[int, ...]]  # the wall sides (indices of the edge list) of each chain
    at: dict[Corner, list[tuple[Corner, int]]]  # branch corner -> (other end, chain)


def _chains(adjacency: Mapping[Corner, list[tuple[Corner, int]]], component: set[Corner]) -> _Chains:
    branch = [c for c in sorted(component) if len(adjacency[c]) != 2]
    chains = _Chains([], [], [], {c: [] for c in branch})
    walked: set[int] = set()
    for start in branch:
        for nxt, first in adjacency[start]:
            if first in walked:
                continue
            sides = [first]
            walked.add(first)
            previous, corner = first, nxt
            while len(adjacency[corner]) == 2:  # a plain corner: go on along the other side
                (a, i), (b, j) = adjacency[corner]
                corner, previous = (b, j) if i == previous else (a, i)
                sides.append(previous)
                walked.add(previous)
            k = len(chains.weight)
            chains.ends.append((start, corner))
            chains.weight.append(len(sides))
            chains.sides.append(tuple(sides))
            chains.at[start].append((corner, k))
            if corner != start:
                chains.at[corner].append((start, k))
            else:
                chains.at[start].append((start, k))  # a loop: left and entered again
    return chains


def longest_trail(edges: list[Edge], limit: int = WALL_SEARCH_STEPS) -> int:
    """The length of the longest trail (distinct edges, corners may repeat) in a set of sides;
    PositionTooComplex past `limit` steps."""
    return _longest(edges, _Budget(limit))[0]


def _longest(edges: list[Edge], budget: _Budget, ties: bool = False
             ) -> tuple[int, list[tuple[set[Corner], int]]]:
    """The longest trail's length, and the connected pieces with their own longest: every
    piece whose longest may reach the longest overall (with `ties`, also those that may only
    equal it); a piece that cannot is not searched (its length is given as -1)."""
    if not edges:
        return 0, []
    adjacency = _adjacency(edges)
    best = 0
    pieces: list[tuple[set[Corner], int]] = []
    searched: list[tuple[_Bound, set[Corner], _Chains]] = []
    seen: set[Corner] = set()
    for start in sorted(adjacency):
        if start in seen:
            continue
        component = _component(adjacency, start)
        seen |= component
        size = sum(len(adjacency[c]) for c in component) // 2
        if sum(1 for c in component if len(adjacency[c]) % 2) <= 2:
            pieces.append((component, size))  # an Euler trail: every side
            best = max(best, size)
        else:
            chains = _chains(adjacency, component)
            searched.append((_upper_bound(chains, size), component, chains))
    for bound, component, chains in sorted(searched, key=lambda s: -s[0].length):  # the most promising first
        if bound.length < best or (bound.length == best and not ties):
            pieces.append((component, -1))  # cannot beat (or tie) the best found
            continue
        length = bound.length if bound.reached else _searcher(chains, budget).longest(bound.length)
        pieces.append((component, length))
        best = max(best, length)
    return best, pieces


class _Search:
    """The longest trail of a piece of wall over its chains, from its odd branch corners (where
    a longest trail of a piece with more than two of them starts and ends). `reach` asks
    whether a trail of at least `need` more sides goes on from (corner, chains used): it stops
    at the first that does, and a pair it explored in full keeps its exact best (`exact`). Each
    pair explored is a step of the budget."""

    def __init__(self, chains: _Chains, budget: _Budget) -> None:
        self.chains = chains
        self.budget = budget
        self.exact: dict[tuple[Corner, int], int] = {}
        self.starts = [c for c, ways in chains.at.items() if len(ways) % 2]

    def reach(self, corner: Corner, used: int, need: int) -> bool:
        if need <= 0:
            return True
        known = self.exact.get((corner, used))
        if known is not None:
            return known >= need
        self.budget.step()
        best = 0
        weight = self.chains.weight
        for other, k in self.chains.at[corner]:
            if used >> k & 1:
                continue
            if self.reach(other, used | 1 << k, need - weight[k]):
                return True
            best = max(best, weight[k] + self.exact[(other, used | 1 << k)])  # explored in full
        self.exact[(corner, used)] = best
        return False

    def longest(self, bound: int) -> int:
        """The longest trail, at most `bound` (an upper bound on it)."""
        for start in self.starts:
            if self.reach(start, 0, bound):
                return bound
        return max(self.exact[(start, 0)] for start in self.starts)


class _Bound(NamedTuple):
    """At most `length` sides; `reached` when a trail that long is known to exist."""

    length: int
    reached: bool


def _upper_bound(chains: _Chains, size: int) -> _Bound:
    """At most every side but those a trail must leave out. A trail from s to t leaves out a
    set of sides in which exactly the odd corners but s and t have an odd number of sides: at
    least a shortest pairing of those corners along the wall (a minimum T-join), so the
    longest trail has at most the sides less the cheapest such pairing over every choice of s
    and t. When what is left once the cheapest is taken out still hangs together, an Euler
    trail walks all of it: the bound is reached, no search needed. Exact for up to `_PAIRED`
    odd corners; beyond, each odd corner but two loses at least its lightest chain, each chain
    left out serving two of them."""
    odd = [c for c, ways in chains.at.items() if len(ways) % 2]
    if len(odd) > _PAIRED:
        lightest = sorted((min(chains.weight[k] for _, k in chains.at[c]) for c in odd), reverse=True)
        return _Bound(size - (sum(lightest[2:]) + 1) // 2, False)
    paths = [_shortest_paths(chains, c) for c in odd]
    n = len(odd)
    pairing = [0] + [_INFINITE] * ((1 << n) - 1)  # the cheapest pairing of the odd corners in a set
    partner = [0] * (1 << n)
    for mask in range(1, 1 << n):
        if mask.bit_count() % 2:
            continue
        first = (mask & -mask).bit_length() - 1
        rest = mask ^ (1 << first)
        other = rest
        while other:
            j = (other & -other).bit_length() - 1
            other ^= 1 << j
            found = paths[first].get(odd[j], (_INFINITE, 0))[0] + pairing[rest ^ (1 << j)]
            if found < pairing[mask]:
                pairing[mask], partner[mask] = found, j
    everything = (1 << n) - 1
    left_out, mask = min((pairing[everything ^ (1 << a) ^ (1 << b)], everything ^ (1 << a) ^ (1 << b))
                         for a in range(n) for b in range(a + 1, n))
    removed = 0  # the chains of the cheapest pairing's paths, each path's chains toggled
    while mask:
        first = (mask & -mask).bit_length() - 1
        j = partner[mask]
        removed ^= paths[first][odd[j]][1]
        mask ^= (1 << first) | (1 << j)
    return _Bound(size - left_out, _connected(chains, removed))


_PAIRED = 10  # odd corners paired exactly (at most 2^10 sets)
_INFINITE = 1 << 30


def _shortest_paths(chains: _Chains, start: Corner) -> dict[Corner, tuple[int, int]]:
    """The fewest sides along the wall from `start` to each branch corner, and the chains of
    such a path (a bit set), by Dijkstra."""
    import heapq

    out: dict[Corner, tuple[int, int]] = {}
    todo: list[tuple[int, Corner, int]] = [(0, start, 0)]
    while todo:
        d, corner, path = heapq.heappop(todo)
        if corner in out:
            continue
        out[corner] = (d, path)
        for other, k in chains.at[corner]:
            if other not in out:
                heapq.heappush(todo, (d + chains.weight[k], other, path | 1 << k))
    return out


def _connected(chains: _Chains, removed: int) -> bool:
    """Whether the chains not in `removed` hang together (corners left without one aside)."""
    kept = [k for k in range(len(chains.weight)) if not removed >> k & 1]
    if not kept:
        return False
    start = chains.ends[kept[0]][0]
    seen = {start}
    todo = [start]
    while todo:
        for other, k in chains.at[todo.pop()]:
            if not removed >> k & 1 and other not in seen:
                seen.add(other)
                todo.append(other)
    return all(chains.ends[k][0] in seen for k in kept)


def longest_trails(edges: list[Edge], limit: int = WALL_SEARCH_STEPS
                   ) -> tuple[int, list[frozenset[int]], bool]:
    """The length of the longest trail, the distinct edge sets of every trail of that length,
    and True (the search is exhaustive, or PositionTooComplex past `limit` steps)."""
    budget = _Budget(limit)
    return (*_every_longest(edges, budget), True)


def _every_longest(edges: list[Edge], budget: _Budget) -> tuple[int, list[frozenset[int]]]:
    length, pieces = _longest(edges, budget, ties=True)
    if length == 0:
        return 0, [frozenset()]
    adjacency = _adjacency(edges)
    found: set[frozenset[int]] = set()
    for component, best in pieces:
        if best != length:
            continue
        odd = [c for c in component if len(adjacency[c]) % 2]
        if len(odd) <= 2:  # an Euler trail: every side of the piece, the one edge set
            found.add(frozenset(i for c in component for _, i in adjacency[c]))
            continue
        found |= _trails_of(_searcher(_chains(adjacency, component), budget), length)
    return length, sorted(found, key=sorted)


def _searcher(chains: _Chains, budget: _Budget) -> _Search:
    if len(chains.weight) > 250:  # deeper than the recursion may go: no game comes near
        raise PositionTooComplex(budget.limit)
    return _Search(chains, budget)


def _trails_of(search: _Search, length: int) -> set[frozenset[int]]:
    """The edge sets of the trails of `length` sides in a piece (its longest), following only
    the chains from which the rest of such a trail goes on."""
    out: set[frozenset[int]] = set()
    chains = search.chains
    weight = chains.weight

    def follow(corner: Corner, used: int, walked: int) -> None:
        search.budget.step()
        if walked == length:
            out.add(frozenset(i for k in range(len(weight)) if used >> k & 1 for i in chains.sides[k]))
            return
        for other, k in chains.at[corner]:
            if not used >> k & 1 and search.reach(other, used | 1 << k, length - walked - weight[k]):
                follow(other, used | 1 << k, walked + weight[k])

    for start in search.starts:
        if search.reach(start, 0, length):
            follow(start, 0, 0)
    return out


def best_wall_pair(layout: Layout, cap: int) -> tuple[int, int, bool]:
    """power.strength: the longest outer wall and the best second wall sharing no side with it,
    counted up to `cap`: over every longest wall, the one that leaves the best second. The
    third value is True (the search is exhaustive; PositionTooComplex past the bound)."""
    first, second = _checked(_measured(_frozen(layout), cap))
    return first, second, True


def _best_pair(edges: list[Edge], cap: int, limit: int = WALL_SEARCH_STEPS) -> tuple[int, int]:
    budget = _Budget(limit)
    first, trails = _every_longest(edges, budget)
    best = 0
    for trail in trails:
        if best >= cap:
            break
        rest = [e for i, e in enumerate(edges) if i not in trail]
        best = max(best, min(_longest(rest, budget)[0], cap))
    return first, best


def _component(adjacency: Mapping[Corner, list[tuple[Corner, int]]], start: Corner) -> set[Corner]:
    seen = {start}
    todo = [start]
    while todo:
        for nxt, _ in adjacency[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
