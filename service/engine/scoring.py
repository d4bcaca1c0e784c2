"""A scoring round (RULES.md §7): majorities with shared places, the longest outer wall,
module categories plugged in, and the ranking by running score.

Scoring works on a `Position` (API.md's scoring position), so a game state and a real table
are scored by the same code: `position_of(state)` turns a state into one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, ClassVar

import msgspec

from .catalogue import CATALOGUE, FOUNTAIN
from .grid import layout_of, longest_wall
from .records import Text
from .rules import Module, modules_of_ids
from .state import GameState, PlacedTile, RankEntry, Record, Tile

Round = Annotated[int, msgspec.Meta(ge=1, le=3)]


class PositionPlayer(Record):
    """A seat at a real table; with `dirk: true` the virtual player of §9 (only `tiles`)."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    dirk: bool = False
    score: Annotated[int, msgspec.Meta(ge=0, le=100_000)] = 0
    alhambra: Annotated[tuple[PlacedTile, ...], msgspec.Meta(max_length=64)] = ()
    reserve: Annotated[tuple[Tile, ...], msgspec.Meta(max_length=64)] = ()
    tiles: Annotated[tuple[Tile, ...], msgspec.Meta(max_length=64)] = ()


class Position(Record):
    """What scoring needs of a table (API.md, 'Scoring-as-a-service')."""

    round: Round
    players: Annotated[tuple[PositionPlayer, ...], msgspec.Meta(min_length=1, max_length=7)]
    modules: Annotated[tuple[Text, ...], msgspec.Meta(max_length=16)] = ()
    check_layout: bool = True


class Line(msgspec.Struct, frozen=True, gc=False, kw_only=True, tag_field="category"):
    points: int

    # A module's line listed right after the building types, before the wall (staff.score).
    after_buildings: ClassVar[bool] = False


class MajorityLine(Line, tag="majority"):
    """base.score.majority: a building type's count, place taken (none: null) and points."""

    building: str
    count: int
    place: int | None


class WallLine(Line, tag="wall"):
    """base.score.wall: the longest continuous outer wall."""

    length: int


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


def majority_lines(players: Sequence[PositionPlayer], round_: int,
                   modules: Sequence[Module] = ()) -> list[list[MajorityLine]]:
    table = CATALOGUE.majority_points[round_]
    per_player: list[list[MajorityLine]] = [[] for _ in players]
    types = [[building_type(t) for t in counted_buildings(p)] for p in players]
    bonus_fns = [m.count_bonus for m in modules if m.count_bonus is not None]
    bonuses = [[fn(p) for fn in bonus_fns] for p in players]
    for building in CATALOGUE.building_types:
        counts = [ts.count(building) + sum(b.get(building, 0) for b in bs)
                  for ts, bs in zip(types, bonuses, strict=True)]
        for i, (place, points) in enumerate(shared_places(counts, table[building])):
            per_player[i].append(
                MajorityLine(building=building, count=counts[i], place=place, points=points))
    return per_player


def wall_line(p: PositionPlayer) -> WallLine:
    if p.dirk:
        return WallLine(length=0, points=0)  # dirk.scores: Dirk scores no wall
    length = longest_wall(layout_of(p.alhambra))
    return WallLine(length=length, points=length)


def score_position(position: Position) -> Breakdown:
    """The breakdown of one scoring round for a (checked) position."""
    players = position.players
    modules = modules_of_ids(position.modules, any(p.dirk for p in players))
    lines: list[list[Line]] = [list(ls) for ls in majority_lines(players, position.round, modules)]
    later: list[list[Line]] = [[wall_line(p)] for p in players]
    for m in modules:
        if m.scoring is None:
            continue
        extra = m.scoring(position, position.round)
        for i, p in enumerate(players):
            for line in extra.get(p.name, ()):
                (lines if line.after_buildings else later)[i].append(line)
    for i, rest in enumerate(later):
        lines[i].extend(rest)
    scores = []
    for i, p in enumerate(players):
        total = sum(line.points for line in lines[i])
        scores.append(PlayerScore(name=p.name, total=total, lines=tuple(lines[i])))
    ranking = rank((s.name, p.score + s.total) for s, p in zip(scores, players, strict=True))
    return Breakdown(round=position.round, players=tuple(scores), ranking=ranking)


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
