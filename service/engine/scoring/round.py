"""A scoring round (RULES.md §7): majorities with shared places, the longest outer wall,
module categories plugged in, and the ranking by running score.

Scoring works on a `Position` (API.md's scoring position), so a game state and a real table
are scored by the same code: `position_of(state)` turns a state into one. A player of a
position is given by tiles (a layout) or by counts (a `tally.Tally`). A position of layouts is
scored from the tiles (each module's `scoring` hook); one with any tally from tallies, those
given and those counted from the others' tiles (each module's `tally` hook): the same rules,
the same lines, and a property test holds the two ways to the same breakdown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, ClassVar

import msgspec

from ..catalogue import CATALOGUE, FOUNTAIN
from ..census import CENSUS
from ..grid import layout_of, longest_wall
from ..module import Module, modules_of_ids
from ..records import Int, Text, count_to, counts_of, per_type, up_to
from ..state import GameState, PlacedTile, RankEntry, Record, Tile
from .tally import Tally, WallLength

Round = Annotated[int, msgspec.Meta(ge=1, le=3)]


class PositionPlayer(Record):
    """A seat at a real table, given by its tiles (`alhambra` and `reserve`; Dirk: `tiles`) or
    by what was counted of them (`tally`), not both; with `dirk: true` the virtual player of §9."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    dirk: bool = False
    score: Annotated[int, msgspec.Meta(ge=0, le=100_000)] = 0
    alhambra: Annotated[tuple[PlacedTile, ...], up_to(CENSUS.alhambra)] = ()  # tiles and the fountain
    reserve: Annotated[tuple[Tile, ...], up_to(CENSUS.building_tiles)] = ()
    tiles: Annotated[tuple[Tile, ...], up_to(CENSUS.building_tiles)] = ()
    tally: Tally | None = None


class Position(Record):
    """What scoring needs of a table (API.md, 'Scoring-as-a-service')."""

    round: Round
    # The players, Dirk among them in a game of two (RULES.md §9).
    players: Annotated[tuple[PositionPlayer, ...], msgspec.Meta(min_length=1, max_length=CENSUS.players)]
    modules: Annotated[tuple[Text, ...], up_to(CENSUS.modules)] = ()
    check_layout: bool = True


class Line(msgspec.Struct, frozen=True, gc=False, kw_only=True, tag_field="category",
           forbid_unknown_fields=True):
    """A line of a breakdown. Lines are also read back (the earlier rounds of a score sheet), so
    they are strict and bounded like every struct a client sends."""

    points: Int

    # A module's line listed right after the building types, before the wall (staff.score).
    after_buildings: ClassVar[bool] = False
    # The rule that scores the line, cited when a score sheet's line is not what it scores.
    rule: ClassVar[str]


class MajorityLine(Line, tag="majority"):
    """base.score.majority: a building type's count, place taken (none: null) and points."""

    rule: ClassVar[str] = "base.score.majority"

    building: Text
    count: Annotated[int, count_to(CENSUS.counted_of_one_type)]
    place: Int | None


class WallLine(Line, tag="wall"):
    """base.score.wall: the longest continuous outer wall."""

    rule: ClassVar[str] = "base.score.wall"

    length: WallLength


class PlayerScore(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    name: str
    total: int
    lines: tuple[Line, ...]


class Breakdown(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    round: int
    players: tuple[PlayerScore, ...]
    ranking: tuple[RankEntry, ...]


def shared_places(counts: Sequence[int], points: Sequence[int]) -> list[tuple[int | None, int]]:
    """(place, points) per participant for one ranked category (base.score.ties).

    Participants with a count of 0 take no place. Tied participants add up the points of the
    places they occupy together and share the sum, rounded down; those places are used up.
    """
    out: list[tuple[int | None, int]] = [(None, 0)] * len(counts)
    ranked = sorted({c for c in counts if c > 0}, reverse=True)
    place = 1
    for count in ranked:
        tied = [i for i, c in enumerate(counts) if c == count]
        pool = sum(points[p - 1] for p in range(place, place + len(tied)) if p <= len(points))
        for i in tied:
            out[i] = (place, pool // len(tied))
        place += len(tied)
    return out


def rank(entries: Iterable[tuple[str, int]]) -> tuple[RankEntry, ...]:
    """Competition ranking by score, ties sharing a place (1, 1, 3); seat order breaks display."""
    items = list(entries)
    order = sorted(range(len(items)), key=lambda i: -items[i][1])
    out: list[RankEntry] = []
    for pos, i in enumerate(order):
        name, score = items[i]
        place = pos + 1
        if pos and items[order[pos - 1]][1] == score:
            place = out[-1].place
        out.append(RankEntry(name=name, place=place, score=score))
    return tuple(out)


def counted_buildings(p: PositionPlayer) -> list[Tile]:
    """The building tiles that count for majorities: the Alhambra, or all of Dirk's tiles."""
    if p.dirk:
        return list(p.tiles)
    return [t for t in p.alhambra if t.tile != FOUNTAIN]


def building_type(tile: Tile) -> str | None:
    """The type a tile counts as: its printed type, or the building put on a building site."""
    if tile.construction is not None:
        return tile.construction
    found = CATALOGUE.tiles.get(tile.tile)
    return found.type if found else None


def majority_of_counts(counts: Sequence[Mapping[str, int]], round_: int) -> list[list[MajorityLine]]:
    """base.score.majority: each player's lines, from the number of buildings of each type
    they count for majorities (module bonuses included)."""
    table = CATALOGUE.majority_points[round_]
    per_player: list[list[MajorityLine]] = [[] for _ in counts]
    for building in CATALOGUE.building_types:
        column = [c.get(building, 0) for c in counts]
        for i, (place, points) in enumerate(shared_places(column, table[building])):
            per_player[i].append(
                MajorityLine(building=building, count=column[i], place=place, points=points))
    return per_player


def majority_lines(players: Sequence[PositionPlayer], round_: int,
                   modules: Sequence[Module] = ()) -> list[list[MajorityLine]]:
    """The majorities of players given by tiles."""
    bonus_fns = [m.count_bonus for m in modules if m.count_bonus is not None]
    counts = []
    for p in players:
        mine = Counter(kind for t in counted_buildings(p) if (kind := building_type(t)) is not None)
        for fn in bonus_fns:
            mine.update(fn(p))
        counts.append(mine)
    return majority_of_counts(counts, round_)


def tally_counts(tally: Tally, modules: Sequence[Module]) -> dict[str, int]:
    """The buildings of each type a tally counts for majorities: its own and modules' bonuses."""
    counts = counts_of(tally.buildings)
    for m in modules:
        part = getattr(tally, m.id, None) if m.tally is not None and m.tally.bonus is not None else None
        if part is not None:
            for kind, n in m.tally.bonus(part).items():  # type: ignore[union-attr]
                counts[kind] += n
    return counts


def tally_majority_lines(tallies: Sequence[Tally], round_: int,
                         modules: Sequence[Module]) -> list[list[MajorityLine]]:
    """The majorities of players given by tallies."""
    return majority_of_counts([tally_counts(t, modules) for t in tallies], round_)


def wall_line(p: PositionPlayer) -> WallLine:
    if p.dirk:
        return WallLine(length=0, points=0)  # dirk.scores: Dirk scores no wall
    length = longest_wall(layout_of(p.alhambra))
    return WallLine(length=length, points=length)


def tally_of(p: PositionPlayer, modules: Sequence[Module]) -> Tally:
    """What a person would count of a player given by tiles: the buildings of the Alhambra per
    type (Dirk: of all his tiles), the longest outer wall, and each module's part."""
    kinds = Counter(kind for t in counted_buildings(p) if (kind := building_type(t)) is not None)
    wall = 0 if p.dirk else longest_wall(layout_of(p.alhambra))
    parts: dict[str, Any] = {}
    for m in modules:
        if m.tally is not None and m.tally.of_tiles is not None:
            part = m.tally.of_tiles(p)
            if part is not None:
                parts[m.id] = part
    return Tally(buildings=per_type(kinds), wall=wall, **parts)


def tallies_of(position: Position, modules: Sequence[Module]) -> list[Tally]:
    """Every player's tally: the one given, or counted from the tiles."""
    return [p.tally if p.tally is not None else tally_of(p, modules) for p in position.players]


def score_position(position: Position) -> Breakdown:
    """The breakdown of one scoring round for a (checked) position: from the tiles when every
    player is given by tiles, else from every player's tally."""
    players = position.players
    modules = modules_of_ids(position.modules, any(p.dirk for p in players))
    if any(p.tally is not None for p in players):
        majorities, walls, extra = _tally_lines(position, modules)
    else:
        majorities, walls, extra = _tile_lines(position, modules)
    lines = _in_order(players, majorities, walls, extra)
    scores = [PlayerScore(name=p.name, total=sum(line.points for line in ls), lines=tuple(ls))
              for p, ls in zip(players, lines, strict=True)]
    ranking = rank((s.name, p.score + s.total) for s, p in zip(scores, players, strict=True))
    return Breakdown(round=position.round, players=tuple(scores), ranking=ranking)


_Lines = tuple[Sequence[Sequence[Line]], list[WallLine], list[dict[str, list[Line]]]]


def _tally_lines(position: Position, modules: Sequence[Module]) -> _Lines:
    """Each player's majority and wall lines, and the modules' lines by player name, from every
    player's tally (given or counted from the tiles)."""
    tallies = tallies_of(position, modules)
    return (tally_majority_lines(tallies, position.round, modules),
            [WallLine(length=t.wall, points=t.wall) for t in tallies],
            [m.tally.score(position, position.round, tallies) for m in modules
             if m.tally is not None and m.tally.score is not None])


def _tile_lines(position: Position, modules: Sequence[Module]) -> _Lines:
    """Each player's majority and wall lines, and the modules' lines by player name, from the
    tiles (each module's `scoring` hook)."""
    return (majority_lines(position.players, position.round, modules),
            [wall_line(p) for p in position.players],
            [m.scoring(position, position.round) for m in modules if m.scoring is not None])


def _in_order(players: Sequence[PositionPlayer], majorities: Sequence[Sequence[Line]],
              walls: list[WallLine], extra: list[dict[str, list[Line]]]) -> list[list[Line]]:
    """Each player's lines in the breakdown's order: the majorities, the modules' lines that
    come after the buildings, the wall, then the modules' other lines (module order)."""
    lines: list[list[Line]] = [list(ls) for ls in majorities]
    later: list[list[Line]] = [[w] for w in walls]
    for by_name in extra:
        for i, p in enumerate(players):
            for line in by_name.get(p.name, ()):
                (lines if line.after_buildings else later)[i].append(line)
    for i, rest in enumerate(later):
        lines[i].extend(rest)
    return lines


def position_of(state: GameState, round_: int) -> Position:
    """The scoring position of a game state: every player's Alhambra and reserve, and Dirk."""
    players = [
        PositionPlayer(name=p.name, score=p.score, alhambra=p.alhambra, reserve=p.reserve)
        for p in state.players
    ]
    if state.dirk is not None:
        players.append(PositionPlayer(name=state.dirk.name, dirk=True, score=state.dirk.score,
                                      tiles=state.dirk.tiles))
    return Position(round=round_, players=tuple(players), modules=state.modules,
                    check_layout=False)
