"""Random scoring positions of real tables, for property tests of scoring.

`random_position(rng, modules)` lays out 2 to 6 players' Alhambras with tiles of the modules on,
placed one by one where §4 allows (turned with the craftsmen on), the rest in reserves, Dirk's
tiles with two players, and every module's tokens where the rules allow them and in the numbers
that exist: animals, dice, extensions, servants, buildings under construction, added walls,
chests, inhabitants, and leftover tiles in round 3 (no more than the market hands out, each
without the tokens only play puts on a tile). The
position passes the referee's checks (the tests assert it), so what scoring does with it is
what a table would see.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from msgspec.structs import replace

from service.engine.catalogue import CATALOGUE, FOUNTAIN, NEIGHBOURS
from service.engine.grid import fits, layout_of, rotate, spots, walls_of
from service.engine.module import modules_of_ids
from service.engine.modules.extensions.data import PER_TYPE as EXTENSIONS
from service.engine.modules.grounds.data import PER_TYPE as CONSTRUCTIONS
from service.engine.modules.grounds.scoring import bare_sites
from service.engine.modules.power.data import DATA as POWER
from service.engine.modules.power.data import power_of
from service.engine.modules.staff.data import SERVANTS
from service.engine.modules.treasure.data import CHESTS
from service.engine.modules.vendors.data import PER_COLOUR
from service.engine.modules.walls.data import WALLS
from service.engine.modules.zoo.data import IN_PLAY, KINDS, PER_KIND
from service.engine.scoring import Position, PositionPlayer, building_type
from service.engine.scoring.tally_checks import most_leftovers, most_leftovers_each
from service.engine.state import PlacedTile, Tile

NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eli", "Fay")


def tile_pool(modules: Sequence[str]) -> list[str]:
    """The building tiles of a game with these modules: the base game's and the modules' (those
    a module replaces left out)."""
    on = {"base", *modules}
    tiles = [t for t in CATALOGUE.tiles.values() if t.module in on]
    replaced = {t.replaces for t in tiles if t.replaces}
    return sorted(t.id for t in tiles if t.id not in replaced)


def _lay_out(rng: random.Random, tiles: list[str], turn: bool) -> tuple[list[PlacedTile], list[Tile]]:
    """Tiles placed one by one where §4 allows (randomly turned if `turn`); those that fit
    nowhere, and a few others, go to the reserve."""
    alhambra = [PlacedTile(tile=FOUNTAIN, x=0, y=0)]
    reserve: list[Tile] = []
    layout = layout_of(alhambra)
    for tile in tiles:
        rotation = rng.choice((0, 90, 180, 270)) if turn and rng.random() < 0.3 else 0
        walls = rotate(walls_of(Tile(tile=tile)), rotation)
        free = [s.pos for s in spots(layout) if fits(s, walls)]
        if not free or rng.random() < 0.12:
            reserve.append(Tile(tile=tile))
            continue
        x, y = rng.choice(free)
        alhambra.append(PlacedTile(tile=tile, x=x, y=y, rotation=rotation))  # type: ignore[arg-type]
        layout[(x, y)] = walls
    return alhambra, reserve


class _Supply:
    """What is left of a module's components of each kind."""

    def __init__(self, counts: dict[str, int]) -> None:
        self.left = Counter(counts)

    def take(self, kind: str | None) -> bool:
        if kind is None or self.left[kind] <= 0:
            return False
        self.left[kind] -= 1
        return True


def random_position(rng: random.Random, modules: Sequence[str], players: int | None = None,
                    round_: int | None = None) -> Position:
    """A random position of `modules` (of `round_`, else a random round) that could occur."""
    on = set(modules)
    n = players or rng.randint(2, 6)
    pool = tile_pool(modules)
    rng.shuffle(pool)
    drawn = rng.randint(1, 3)  # drawn in any case, so that a seed gives the same tiles
    round_ = round_ or drawn
    seats: list[PositionPlayer] = []
    for name in NAMES[:n]:
        k = rng.randint(0, min(16, len(pool)))
        mine, pool = pool[:k], pool[k:]
        alhambra, reserve = _lay_out(rng, mine, "craftsmen" in on)
        score = rng.randint(0, 80) if rng.random() < 0.7 else 0
        seats.append(PositionPlayer(name=name, score=score if round_ > 1 else 0,  # base.score.rounds
                                    alhambra=tuple(alhambra), reserve=tuple(reserve)))
    if n == 2:  # dirk.setup: his 6 tiles at least
        k = rng.randint(CATALOGUE.dirk_tiles_at_setup, max(CATALOGUE.dirk_tiles_at_setup, min(12, len(pool))))
        score = rng.randint(0, 60)
        seats.append(PositionPlayer(name="Dirk", dirk=True, score=score if round_ > 1 else 0,
                                    tiles=tuple(Tile(tile=t) for t in pool[:k])))
    most = most_leftovers(modules_of_ids(tuple(modules), n == 2))  # the market's, at the end
    if "grounds" in on:
        seats = _constructions(rng, seats, bare_sites(round_, modules_of_ids(tuple(modules), n == 2)))
    walls = sorted(WALLS)  # the wall cards not used yet, shared by the table
    rng.shuffle(walls)
    leftovers = [most]
    seats = [_tokens(rng, p, on, round_, walls, leftovers) for p in seats]
    seats = _shared_tokens(rng, seats, on)
    return Position(round=round_, players=tuple(seats), modules=tuple(sorted(modules)))


def _each_tile(p: PositionPlayer, fn: object) -> PositionPlayer:
    return replace(p, alhambra=tuple(fn(t, "alhambra") for t in p.alhambra),  # type: ignore[operator]
                   reserve=tuple(fn(t, "reserve") for t in p.reserve),  # type: ignore[operator]
                   tiles=tuple(fn(t, "dirk") for t in p.tiles))  # type: ignore[operator]


def _constructions(rng: random.Random, seats: list[PositionPlayer], bare: int) -> list[PositionPlayer]:
    """grounds.buy: a building under construction on most sites (2 of each type exist, 12 for 8
    sites); at most `bare` of the players' sites stay bare (in round 3: leftovers whose column
    was emptied). Dirk's sites are built (grounds.dirk: a leftover never reaches him, and a
    column runs out only for leftovers), so he holds his 6 buildings at least (dirk.setup)."""
    left = _Supply(dict(CONSTRUCTIONS))
    budget = [bare]

    def build(t: Tile, zone: str) -> Tile:
        if t.tile == FOUNTAIN or CATALOGUE.tiles[t.tile].type is not None:
            return t
        if zone != "dirk" and budget[0] and rng.random() < 0.15:
            budget[0] -= 1
            return t
        kind = rng.choice([k for k in CATALOGUE.building_types if left.left[k] > 0])
        left.take(kind)
        return replace(t, construction=kind)

    return [_each_tile(p, build) for p in seats]


def _tokens(rng: random.Random, p: PositionPlayer, on: set[str], round_: int,
            walls: list[str], leftovers: list[int]) -> PositionPlayer:
    """Tokens that belong to one player: added walls on outer sides (so §4 still holds), each
    card's as shown (walls.action), and leftover tiles of round 3."""
    if p.dirk:
        return p
    if "walls" in on:
        layout = layout_of(p.alhambra)
        alhambra = []
        for t in p.alhambra:
            if rng.random() < 0.2:
                outer = 0
                for dx, dy, bit, _ in NEIGHBOURS:
                    if (t.x + dx, t.y + dy) not in layout and not layout[(t.x, t.y)] & bit:
                        outer |= bit
                chosen = 0
                for card in list(walls):  # a card or two whose walls, as shown, fit there
                    fits_here = WALLS[card] & ~outer == 0 and not WALLS[card] & chosen
                    if fits_here and (not chosen or rng.random() < 0.5):
                        chosen |= WALLS[card]
                        walls.remove(card)
                own = rotate(chosen, -t.rotation) if chosen else 0  # in the tile's own frame
                if own:
                    t = replace(t, added_walls="".join(s for s, b in zip("NESW", (1, 2, 4, 8), strict=True)
                                                       if own & b))
            alhambra.append(t)
        p = replace(p, alhambra=tuple(alhambra))
    if round_ == 3 and rng.random() < 0.5:
        alhambra = []
        each = most_leftovers_each()  # one tile of each market space but the empty one
        for t in p.alhambra:
            # Handed out after the last turn: never turned, never given walls (base.end.leftovers).
            bare = not t.rotation and not t.added_walls
            if t.tile != FOUNTAIN and bare and leftovers[0] and each and rng.random() < 0.1:
                leftovers[0] -= 1
                each -= 1
                t = replace(t, leftover=True)
            alhambra.append(t)
        p = replace(p, alhambra=tuple(alhambra))
    return p


def _shared_tokens(rng: random.Random, seats: list[PositionPlayer], on: set[str]) -> list[PositionPlayer]:
    """Tokens of which the game holds a fixed number, dealt over the table within that number."""
    supplies = {
        "chest": _Supply(dict(CHESTS)), "servant": _Supply(dict(SERVANTS)),
        "inhabitant": _Supply({c: PER_COLOUR for c in CATALOGUE.building_types}),
        "extension": _Supply(dict(EXTENSIONS)),
        "die": _Supply({"strength": POWER["dice"]["black"], "prosperity": POWER["dice"]["white"]}),
    }
    animals = [k for k in KINDS for _ in range(PER_KIND)]
    rng.shuffle(animals)
    animals = animals[:IN_PLAY]

    def token(t: Tile, zone: str) -> Tile:
        nonlocal animals
        colour = building_type(t) if t.tile != FOUNTAIN else None
        # A leftover tile is handed out after the last turn: animals and an inhabitant at most.
        kind = None if t.leftover else colour
        if "treasure" in on and zone != "reserve" and rng.random() < 0.3 and supplies["chest"].take(kind):
            t = replace(t, chest=True)
        if zone == "dirk":
            if "extensions" in on and rng.random() < 0.2 and supplies["extension"].take(kind):
                t = replace(t, extension=True)
            return t
        if "staff" in on and not t.leftover and rng.random() < 0.4 and supplies["servant"].take(kind):
            t = replace(t, servant=True)
        settles = zone == "alhambra" and rng.random() < 0.3
        if "vendors" in on and settles and supplies["inhabitant"].take(colour):
            t = replace(t, inhabitant=True)
        if "extensions" in on and rng.random() < 0.15 and supplies["extension"].take(kind):
            t = replace(t, extension=True)
        if "power" in on and not t.leftover and rng.random() < 0.8 and supplies["die"].take(power_of(t.tile)):
            t = replace(t, die=rng.randint(1, 6))
        if "zoo" in on and animals and t.tile != FOUNTAIN and rng.random() < 0.3:
            k = rng.randint(1, 3)
            if rng.random() < 0.6:  # one kind: it scores on a garden
                kind_ = animals[0]
                group = [a for a in animals if a == kind_][:k]
            else:
                group = animals[:k]
            for a in group:
                animals.remove(a)
            t = replace(t, animals=tuple(group))
        return t

    return [_each_tile(p, token) for p in seats]
