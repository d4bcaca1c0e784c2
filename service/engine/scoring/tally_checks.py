"""Tallies that cannot occur (issue 15): the base game's checks and the helpers modules use.

A tally is refused (422 `inconsistent-state`) when a count exceeds what the table could hold;
each violation names the field (`$.players[1].tally.treasure.chests.garden`) and the limit. The
base game checks its own counts (buildings per type against the tiles that exist, the wall
against the outline the tiles could make, Dirk without a wall) and who gives what (tiles or a
tally, not both; no counts of a module that is off); each module checks its part through its
`tally` hook (`module.TallyPart.check`), with every player's tally, so the table's totals count
the players given by tiles too: all they hold, the reserve included (`held_tallies`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from msgspec.structs import replace

from ..catalogue import CATALOGUE
from ..census import CENSUS
from ..module import Module, registered
from ..records import counts_of, per_type
from ..text import Text, Word, t, tn, word
from ..violations import INCONSISTENT, Violation
from .round import Position, PositionPlayer, building_type, tallies_of, tally_of
from .tally import Tally

LEFTOVERS = "base.end.leftovers"
LAST_ROUND = 3  # base.end.final-scoring: held once the leftover tiles are placed


def field(i: int, path: str) -> str:
    """The path of a field of player i's tally, as a message names it."""
    return f"$.players[{i}].tally.{path}"


def given(position: Position) -> Iterator[tuple[int, PositionPlayer, Tally]]:
    """The players given by a tally, with their seat in the position."""
    for i, p in enumerate(position.players):
        if p.tally is not None:
            yield i, p, p.tally


def over_table(position: Position, tallies: Sequence[Tally], count: Callable[[Tally], int],
               path: str, limit: int, rule: str, what: str) -> list[Violation]:
    """A violation when the table's total of a count (`count` of each player's tally, given or
    counted from tiles) exceeds the `limit` that exists; it names the given fields."""
    total = sum(count(t) for t in tallies)
    if total <= limit:
        return []
    named = [f"{field(i, path)} = {count(x)}" for i, _, x in given(position) if count(x)]
    tiles = [p.name for p, x in zip(position.players, tallies, strict=True)
             if p.tally is None and count(x)]
    return [Violation(rule, t("{counted}: {total} {what} on the table, but there are only {limit}",
                              counted=_counted(named, tiles), total=total, what=what, limit=limit))]


def _counted(named: Sequence[str], tiles: Sequence[str]) -> Text | tuple[str, ...]:
    """What a table's total counts: the tallies' fields named, and the tiles of players given by
    tiles."""
    if not tiles:
        return tuple(named)
    if not named:
        return t("{players}'s tiles", players=tuple(tiles))
    return t("{fields} and {players}'s tiles", fields=tuple(named), players=tuple(tiles))


def over_buildings(position: Position, part: Callable[[Tally], object | None], path: str,
                   rule: str, what: str | Callable[[Word], Text]) -> list[Violation]:
    """Per given tally and type: a count per type (`part` of the tally, a PerType) above the
    player's buildings of that type, each taking at most one (a chest, an inhabitant, ...).
    `what(kind)` words that limit ("one chest a {kind} at most", the kind a `word`); a str is
    the old English prefix ("one chest a", followed by "{kind} building at most")."""
    out = []
    for i, _, tally in given(position):
        counted = part(tally)
        if counted is None:
            continue
        have = counts_of(tally.buildings)
        for kind, n in counts_of(counted).items():  # type: ignore[arg-type]
            if n > have[kind]:
                limit = (what(word(kind)) if callable(what) else
                         t("{what} {kind} building at most", what=what, kind=word(kind)))
                out.append(Violation(rule, t("{field} is {n}, but {buildings} is {have}: {limit}",
                                             field=field(i, f"{path}.{kind}"), n=n,
                                             buildings=field(i, f"buildings.{kind}"), have=have[kind],
                                             limit=limit)))
    return out


def tally_problems(position: Position, modules: Sequence[Module]) -> list[Violation]:
    """Why the tallies of a position cannot occur (empty when they can, or when none is given)."""
    if all(p.tally is None for p in position.players):
        return []
    out = _who_gives_what(position, modules)
    if out:
        return out
    tallies = held_tallies(position, modules)
    out += _buildings(position, modules)
    out += _walls(position, modules)
    for m in modules:
        if m.tally is not None and m.tally.check is not None:
            out += m.tally.check(position, tallies)
    return out


def held_tallies(position: Position, modules: Sequence[Module]) -> list[Tally]:
    """Every player's tally for the table's totals: the one given, or what a player given by
    tiles holds anywhere: the buildings of the Alhambra, the reserve (and Dirk's tiles), and each
    module's part of all of them (`TallyPart.held`; `of_tiles` where the module has none). A
    component in a reserve is on the table as much as one in an Alhambra (extensions.setup: 2
    extensions a type; zoo.setup: 22 animals in play), though it scores nothing."""
    return [p.tally if p.tally is not None else _held(p, modules) for p in position.players]


def _held(p: PositionPlayer, modules: Sequence[Module]) -> Tally:
    kinds = Counter(kind for t in (*p.alhambra, *p.reserve, *p.tiles)
                    if (kind := building_type(t)) is not None)
    parts = {m.id: m.tally.held(p) for m in modules if m.tally is not None and m.tally.held is not None}
    return replace(tally_of(p, modules), buildings=per_type(kinds), **parts)


def _who_gives_what(position: Position, modules: Sequence[Module]) -> list[Violation]:
    out = []
    on = {m.id for m in modules}
    for i, p, tally in given(position):
        if p.alhambra or p.reserve or p.tiles:
            out.append(Violation(INCONSISTENT, t("$.players[{i}]: {player} is given by tiles and by a tally; "
                                                 "give one of them", i=i, player=p.name)))
        for m in registered():
            if m.tally is not None and m.tally.type is not None and m.id not in on \
                    and getattr(tally, m.id) is not None:
                out.append(Violation(INCONSISTENT, t("{field}: counts of the module '{module}', which is "
                                                     "not on (`modules`)", field=field(i, m.id),
                                                     module=m.id)))
        if p.dirk and tally.wall:
            out.append(Violation("dirk.scores", t("{field} is {wall}: Dirk builds no Alhambra and scores no "
                                                  "wall", field=field(i, "wall"), wall=tally.wall)))
    return out


def most_buildings(modules: Sequence[Module]) -> Counter[str]:
    """How many buildings of each type exist with these modules: the catalogue's tiles of the
    modules on (those a module replaces left out) and what modules add (`more_buildings`)."""
    on = {m.id for m in modules}
    tiles = [t for t in CATALOGUE.tiles.values() if t.module in on]
    replaced = {t.replaces for t in tiles if t.replaces}
    out = Counter(t.type for t in tiles if t.type is not None and t.id not in replaced)
    for m in modules:
        if m.tally is not None:
            out.update(m.tally.more_buildings)
    return out


def most_bonus(modules: Sequence[Module]) -> Counter[str]:
    """How much the majority counts of each type on the table can exceed its buildings with
    these modules: what modules' bonuses add at most (`TallyPart.most_bonus`: extensions)."""
    out: Counter[str] = Counter()
    for m in modules:
        if m.tally is not None:
            out.update(m.tally.most_bonus)
    return out


def _buildings(position: Position, modules: Sequence[Module]) -> list[Violation]:
    """base.score.majority: no more buildings of a type on the table than exist (players given
    by tiles count theirs, the reserve's too)."""
    limits = most_buildings(modules)
    table: Counter[str] = Counter()
    for p in position.players:
        if p.tally is not None:
            table.update(counts_of(p.tally.buildings))
        else:
            table.update(kind for t in (*p.alhambra, *p.reserve, *p.tiles)
                         if (kind := building_type(t)) is not None)
    out = []
    for kind in CATALOGUE.building_types:
        if table[kind] <= limits[kind]:
            continue
        named = [f"{field(i, f'buildings.{kind}')} = {getattr(x.buildings, kind)}"
                 for i, _, x in given(position) if getattr(x.buildings, kind)]
        tiles = [p.name for p in position.players if p.tally is None
                 and any(building_type(x) == kind for x in (*p.alhambra, *p.reserve, *p.tiles))]
        out.append(Violation(INCONSISTENT, t("{counted}: {n} buildings of type {kind} on the table, but "
                                             "there are only {limit}", counted=_counted(named, tiles),
                                             n=table[kind], kind=word(kind), limit=limits[kind])))
    return out


def most_wall(buildings: int, modules: Sequence[Module], round_: int = 3) -> int:
    """base.score.wall: the longest outer wall an Alhambra of the fountain, `buildings` and the
    tiles of no type it can hold in scoring round `round_` (`TallyPart.more_tiles`; by default
    round 3, when it can hold the most) could have.
    Every tile is reachable from the fountain, so the tiles form one connected shape, whose
    outline has at most 2 * tiles + 2 sides; a building has at most 3 walls (it needs an open
    side to be reached), and the fountain none unless a module adds some."""
    tiles = buildings + sum(m.tally.more_tiles(round_, modules) for m in modules
                            if m.tally is not None and m.tally.more_tiles is not None)
    fountain = max((m.tally.fountain_walls for m in modules if m.tally is not None), default=0)
    if tiles == 0:
        return fountain
    return min(2 * (tiles + 1) + 2, 3 * tiles + min(fountain, 3))


def most_leftovers(modules: Sequence[Module]) -> int:
    """base.end.leftovers: the most market tiles handed out at the game's end. The game ends
    when a refill leaves a market space empty, so at most every space but one holds a tile, and
    each takes along what modules put under it (`TallyPart.more_leftovers`: power.end-hidden)."""
    more = sum(m.tally.more_leftovers for m in modules if m.tally is not None)
    return (len(CATALOGUE.currencies) - 1) * (1 + more)


def most_leftovers_each() -> int:
    """base.end.leftovers, power.end-hidden: the most leftover tiles one player receives: at most
    one of each market space (the tile hidden under a market tile goes to another player than
    the one who takes the tile above it), and one space at least is empty when the game ends."""
    return CENSUS.leftovers_each


def leftovers_over(counts: Sequence[tuple[str, int, Sequence[str]]], table: int) -> list[Violation]:
    """base.end.leftovers: (player, leftover tiles, what names them: paths, fields or tiles) of
    each player beyond what one player receives (`most_leftovers_each`), and of the table
    beyond `table` (`most_leftovers`)."""
    each = most_leftovers_each()
    out = [Violation(LEFTOVERS, t("{player} has {n} leftover tiles ({named}), but one player receives at "
                                  "most {each}: one tile of each market space, and one space at least is "
                                  "empty when the game ends", player=name, n=n, named=tuple(named),
                                  each=each))
           for name, n, named in counts if n > each]
    total = sum(n for _, n, _ in counts)
    if total > table:
        listed = tuple(x for _, _, named in counts for x in named)
        out.append(Violation(LEFTOVERS, t("{named}: {n} leftover tiles on the table, but the market hands "
                                          "out at most {most} at the game's end", named=listed, n=total,
                                          most=table)))
    return out


def position_leftovers(position: Position, modules: Sequence[Module]) -> list[Violation]:
    """base.end.leftovers in a scoring position: tiles marked leftover (their paths) and the
    leftover tiles tallies count (`TallyPart.leftovers`: staff's) come only in round 3, never
    at Dirk's (he holds no money), and within `leftovers_over`'s bounds."""
    counts = [(p, n, named) for i, p in enumerate(position.players)
              for n, named in (_leftovers_of(i, p, modules),) if n]
    out = [Violation(LEFTOVERS, t("{named}: Dirk holds no money and receives no leftover tile (dirk.scores)",
                                  named=tuple(named))) for p, _, named in counts if p.dirk]
    if position.round != LAST_ROUND:
        out += [Violation(LEFTOVERS, t("{named}: a leftover tile in round {round}, but leftover tiles are "
                                       "handed out only at the game's end, before round {last}",
                                       named=tuple(named), round=position.round, last=LAST_ROUND))
                for p, _, named in counts if p.tally is None]
    return out + leftovers_over([(p.name, n, named) for p, n, named in counts], most_leftovers(modules))


def _leftovers_of(i: int, p: PositionPlayer, modules: Sequence[Module]) -> tuple[int, list[str]]:
    """How many leftover tiles player i has, and what names them: the fields of its tally that
    count them (`TallyPart.leftovers`), or the paths of its tiles marked leftover."""
    if p.tally is None:
        named = [f"$.players[{i}].{where}[{j}].leftover" for where, tiles in (
            ("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles))
            for j, t in enumerate(tiles) if t.leftover]
        return len(named), named
    parts = [(f"{m.id}.{m.tally.leftovers}", getattr(part, m.tally.leftovers)) for m in modules
             if m.tally is not None and m.tally.leftovers is not None
             and (part := getattr(p.tally, m.id)) is not None]
    return sum(n for _, n in parts), [f"{field(i, path)} = {n}" for path, n in parts if n]


def dirk_least(position: Position) -> list[Violation]:
    """dirk.setup: Dirk holds his setup tiles (6) in every round, each a building (a site
    reaching him takes one, grounds.dirk), and never loses one. dirk.refills can come short: the
    bag may run low before round 1 (the starting hands, the display and the first two piles can
    hold as much money as the 39 cheapest tiles cost, and the carpenter takes 2 off a price), so
    a position, which does not show the bag, holds Dirk to his setup tiles in rounds 2 and 3
    too. (States show the bag: `modules.dirk.census.least_tiles`.)"""
    least = CATALOGUE.dirk_tiles_at_setup
    out = []
    for i, p in enumerate(position.players):
        if not p.dirk:
            continue
        held, path = (len(p.tiles), f"$.players[{i}].tiles") if p.tally is None else (
            sum(counts_of(p.tally.buildings).values()), field(i, "buildings"))
        if held < least:
            out.append(Violation("dirk.setup", tn("{path}: Dirk holds {n} building in round {round}, but he "
                                                  "receives {least} tiles at setup and never loses one",
                                                  "{path}: Dirk holds {n} buildings in round {round}, but he "
                                                  "receives {least} tiles at setup and never loses one",
                                                  held, path=path, round=position.round, least=least)))
    return out


def _walls(position: Position, modules: Sequence[Module]) -> list[Violation]:
    out = []
    for i, p, tally in given(position):
        buildings = sum(counts_of(tally.buildings).values())
        limit = most_wall(buildings, modules, position.round)
        if not p.dirk and tally.wall > limit:
            out.append(Violation("base.score.wall", tn(
                "{field} is {wall}: the fountain and {n} building make an outer wall of at most {limit} "
                "sides",
                "{field} is {wall}: the fountain and {n} buildings make an outer wall of at most {limit} "
                "sides",
                buildings, field=field(i, "wall"), wall=tally.wall, limit=limit)))

    return out


def exact_buildings(modules: Sequence[Module]) -> bool:
    """Whether the majority counts are the buildings themselves: no module adds to them (an
    extension's `bonus`). A score sheet's earlier rounds give their buildings only as majority
    counts, which otherwise are an upper bound of the buildings."""
    return not any(m.tally is not None and m.tally.bonus is not None for m in modules)


def read_problems(position: Position, modules: Sequence[Module]) -> list[Violation]:
    """The checks of `tally_problems` that hold for tallies read back from an earlier round's
    lines (sheet.py): the wall within the outline of the buildings counted (more buildings only
    allow a longer wall), the buildings per type on the table when the majority counts are the
    buildings (`exact_buildings`), and each module's `check_of_lines`."""
    tallies = tallies_of(position, modules)
    out = _walls(position, modules) + dirk_least(position)
    if exact_buildings(modules):
        out += _buildings(position, modules)
    for m in modules:
        if m.tally is not None and m.tally.check_of_lines is not None:
            out += m.tally.check_of_lines(position, tallies)
    return out
