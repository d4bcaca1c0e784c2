"""The Walls in scoring: the checks of a scoring position's added walls (walls.action,
walls.no-overlap, walls.fixed) and its part of a tally."""

from __future__ import annotations

from functools import cache

from ...catalogue import parse_walls, walls_text
from ...module import TallyPart
from ...scoring import Position
from ...text import Detail, t
from ...violations import Violation
from .data import ADDED_AT_MOST, CARDS, PRINTED, shapes, sides, turnable, turning


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: added walls never on printed walls, no more pieces than the cards
    show, and (unless the position is a drawing, `check_layout: false`, like §4) only what the
    wall cards can have put there together (walls.action)."""
    out = []
    total = 0
    walled: list[tuple[str, str, int]] = []  # (field path, tile, added walls) of the players' tiles
    for i, p in enumerate(position.players):
        for zone, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles)):
            walled += [(f"$.players[{i}].{zone}[{j}].added_walls", one.tile, parse_walls(one.added_walls))
                       for j, one in enumerate(tiles) if one.added_walls and not p.dirk]
        for one in (*p.alhambra, *p.reserve, *p.tiles):
            if not one.added_walls:
                continue
            added = parse_walls(one.added_walls)
            total += bin(added).count("1")
            if p.dirk:
                out.append(Violation("walls.fixed", t("{player}: Dirk's {tile} carries added walls",
                                                      player=p.name, tile=one.tile)))
            overlap = added & PRINTED.get(one.tile, 0)
            if overlap:
                out.append(Violation("walls.no-overlap", t("{player}'s {tile}: the added walls on its "
                                                           "{sides} side lie on printed walls (in the tile's "
                                                           "own frame)", player=p.name, tile=one.tile,
                                                           sides=sides(overlap))))
    if total > ADDED_AT_MOST:
        out.append(Violation("walls.action", t("{total} added wall pieces: the wall cards show only {most}",
                                               total=total, most=ADDED_AT_MOST)))
    elif position.check_layout:  # a drawing (`check_layout: false`) may show any walls
        out += _beyond_the_cards(walled, turning(position.modules))
    return out


def _beyond_the_cards(walled: list[tuple[str, str, int]], turned: bool) -> list[Violation]:
    """walls.action: each wall card is used once, on one tile, so the added walls of all tiles
    must be shared out among the cards, each tile's walls being exactly the shapes of its cards
    (turned only where `shapes` allows). The first tile that no sharing of the cards can reach
    together with the tiles before it is named."""
    tiles = tuple((tile, mask) for _, tile, mask in walled)

    def fits(k: int) -> bool:  # the first k tiles can be shared out (so can fewer)
        return _share(tiles[:k], frozenset(CARDS), turned, {})

    if fits(len(tiles)):
        return []
    good, bad = 0, len(tiles)
    while bad - good > 1:  # bisect for the shortest beginning that cannot
        mid = (good + bad) // 2
        good, bad = (mid, bad) if fits(mid) else (good, mid)
    path, tile, mask = walled[good]
    details: dict[str, Detail] = {"path": path, "walls": repr(walls_text(mask)), "tile": tile,
                                  "n": len(CARDS), "cards": CARDS}
    if not good:
        why = t("{path} is {walls} on {tile}: no wall cards show these walls (each of the {n} cards {cards} "
                "adds its walls once, as shown, turned only on a building a Mosaic artist may have turned)",
                **details)
    elif good == 1:
        why = t("{path} is {walls} on {tile}: no wall cards show these walls, besides those of the tile "
                "before it (each of the {n} cards {cards} adds its walls once, as shown, turned only on a "
                "building a Mosaic artist may have turned)", **details)
    else:
        why = t("{path} is {walls} on {tile}: no wall cards show these walls, besides those of the {good} "
                "tiles before it (each of the {n} cards {cards} adds its walls once, as shown, turned only "
                "on a building a Mosaic artist may have turned)", good=good, **details)
    return [Violation("walls.action", why)]


def _share(tiles: tuple[tuple[str, int], ...], cards: frozenset[str], turned: bool,
           seen: dict[tuple[int, frozenset[str]], bool]) -> bool:
    """Whether `cards` can make up the added walls of `tiles` (each card on at most one tile)."""
    if not tiles:
        return True
    key = (len(tiles), cards)
    if key not in seen:
        tile, mask = tiles[0]
        seen[key] = any(_share(tiles[1:], cards - used, turned, seen)
                        for used in _covers(mask, cards, turnable(tile, turned)))
    return seen[key]


@cache  # at most 16 masks x 256 sets of cards x 2: bounded
def _covers(mask: int, cards: frozenset[str], turns: bool) -> frozenset[frozenset[str]]:
    """Each set of `cards` whose walls, as they can lie on a tile (`shapes`), make up `mask`
    exactly (no two on the same side: walls.no-overlap)."""
    if not mask:
        return frozenset((frozenset(),))
    first = mask & -mask  # some card must cover the lowest side left
    return frozenset(rest | {card} for card in cards for shape in shapes(card, turns)
                     if shape & first and shape & mask == shape
                     for rest in _covers(mask & ~shape, cards - {card}, turns))


# A tally's wall may run along the fountain too, which takes added walls (walls.action).
TALLY = TallyPart(fountain_walls=4)
