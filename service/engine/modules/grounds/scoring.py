"""New Building Grounds in scoring: a site counts by its building (grounds.score), so the checks
of a scoring position's tokens and bare sites, and its part of a tally."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...catalogue import CATALOGUE
from ...module import Module, TallyPart, modules_of_ids
from ...records import counts_of
from ...scoring import Position
from ...scoring.tally import Tally
from ...scoring.tally_checks import field, given, most_bonus, most_buildings, most_leftovers
from ...text import t, word
from ...violations import Violation
from .data import COLUMN_SIZE, PER_TYPE, SITE_NUMBER, SITES, token_problems, waiting

FINAL_ROUND = 3  # base.end.final-scoring: the round after the leftover tiles are handed out


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: a `construction` only on a site, of a known type, at most 2 a type;
    bare sites only where they can be (`bare_sites`)."""
    out = []
    counts: Counter[str] = Counter()
    for p in position.players:
        for tile in (*p.alhambra, *p.reserve, *p.tiles):
            out += token_problems(tile, t("{tile} in {player}'s tiles", tile=tile.tile, player=p.name))
            if tile.construction is not None and tile.construction in PER_TYPE:
                counts[tile.construction] += 1
    out += [Violation("grounds.setup", t("{count} buildings under construction of type {building}: there "
                                         "are only {most}", count=n, building=word(b), most=PER_TYPE[b]))
            for b, n in sorted(counts.items()) if n > PER_TYPE[b]]
    return out + _bare_in_position(position)


# The sites that can find their column empty: a column loses a building only to a site of its
# number (seeds 001.5, 001.7, 001.12), so only the sites of a number beyond its column's size.
# With the default data (2 sites a number, columns of 3) none.
EMPTIABLE = sum(max(0, n - COLUMN_SIZE) for n in Counter(SITE_NUMBER.values()).values())


def bare_sites(round_: int, modules: Sequence[Module]) -> int:
    """The bare sites (no building on them) the Alhambras can hold in scoring round `round_`. A
    site is bought only while its column holds a building and is built before it is placed
    (grounds.buy), so before round 3 none; only a leftover site at the game's end can find its
    column empty, so in round 3 at most the leftover tiles the market hands out, and only as
    many as the columns can run out for (EMPTIABLE)."""
    if round_ < FINAL_ROUND:
        return 0
    return min(EMPTIABLE, most_leftovers(modules))


def _bare_in_position(position: Position) -> list[Violation]:
    """grounds.buy: the bare sites of players' Alhambras and reserves, at most `bare_sites`."""
    bare = [f"$.players[{i}].{where}[{j}]" for i, p in enumerate(position.players) if not p.dirk
            for where, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve))
            for j, tile in enumerate(tiles) if waiting(tile)]
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    most = bare_sites(position.round, modules)
    if len(bare) <= most:
        return []
    early = position.round < FINAL_ROUND
    when = (t("in round {round} none: a site is built before it is placed", round=position.round) if early
            else t("at most {most}: only leftover sites at the game's end can find their column empty, and a "
                   "column of {size} runs out for no more than {emptiable} of them", most=most,
                   size=COLUMN_SIZE, emptiable=EMPTIABLE))
    return [Violation("grounds.buy", t("{paths}: {count} building sites without a building, but {when}",
                                       paths=tuple(bare), count=len(bare), when=when))]


# --- a tally: the buildings under construction are among the buildings counted --------------

def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """grounds.setup (seeds 001.3, 001.7): each building under construction stands on one of
    the 8 building sites, so the buildings of the types on the table beyond the other tiles of
    each type are at most 8 (though 2 of each type, 12, exist)."""
    return _beyond_sites(position, tallies, Counter(), "")


def check_of_lines(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """`check_tally` on an earlier round's majority lines (a score sheet), whose counts may
    exceed the buildings by what modules add (extensions.score: an extended building counts
    twice): beyond that too."""
    spare = most_bonus(modules_of_ids(position.modules, any(p.dirk for p in position.players)))
    return _beyond_sites(position, tallies, spare, t(" and the most modules add to the counts (extensions)")
                         if spare else "")


def _beyond_sites(position: Position, tallies: Sequence[Tally], spare: Counter[str],
                  besides_tiles: str) -> list[Violation]:
    """The table's buildings of each type beyond its other tiles (and `spare`) are buildings
    under construction, on at most one site each."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    others = most_buildings(modules) - PER_TYPE
    table: Counter[str] = Counter()
    for tally in tallies:
        table.update(counts_of(tally.buildings))
    beyond = {k: n for k in CATALOGUE.building_types if (n := table[k] - others[k] - spare[k]) > 0}
    if sum(beyond.values()) <= len(SITES):
        return []
    named = [f"{field(i, f'buildings.{k}')} = {n}" for i, _, tally in given(position)
             for k in beyond if (n := getattr(tally.buildings, k))]
    tiles = [p.name for p, tally in zip(position.players, tallies, strict=True)
             if p.tally is None and any(getattr(tally.buildings, k) for k in beyond)]
    besides = t(" and {players}'s tiles", players=tuple(tiles)) if tiles else ""
    listed = tuple(t("{count} {building}", count=n, building=word(k)) for k, n in beyond.items())
    return [Violation("grounds.setup", t("{named}{besides}: {listed} beyond the other tiles of the "
                                         "type{besides_tiles} are {total} buildings under construction on "
                                         "the table, but each stands on a building site and there are only "
                                         "{sites}",
                                         named=tuple(named), besides=besides, listed=listed,
                                         besides_tiles=besides_tiles, total=sum(beyond.values()),
                                         sites=len(SITES)))]


# A tally counts a site by its building (grounds.score): the buildings under construction
# add to the buildings of each type, and a bare site is a tile of no type (its walls count).
TALLY = TallyPart(more_buildings=PER_TYPE, more_tiles=bare_sites, check=check_tally,
                  check_of_lines=check_of_lines)
