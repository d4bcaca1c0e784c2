"""The Treasure Chamber's scoring (treasure.score): its line, its scoring, its part of a tally
and its checks of a scoring position."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from ...module import TallyPart
from ...places import beyond_supply, tokens_per_kind
from ...records import Int, PerType, counts_of, per_type
from ...scoring import Line, Position, PositionPlayer, shared_places
from ...scoring.tally import Tally
from ...scoring.tally_checks import field, given, over_buildings, over_table
from ...state import Tile
from ...text import t, word
from ...violations import Violation
from .data import CHESTS, POINTS, chest_colour
from .model import ChestCount, TreasureTally


class TreasureLine(Line, tag="treasure"):
    """treasure.score: the chests on the player's buildings, the place taken and its points."""

    rule: ClassVar[str] = "treasure.score"

    count: ChestCount
    place: Int | None


# --- scoring --------------------------------------------------------------------------------

def chests_of(tiles: Sequence[Tile]) -> int:
    return sum(1 for t in tiles if t.chest)


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    """treasure.score: players (Dirk too, his tiles) ranked by their number of chests, ties as
    in base.score.ties; chests on reserve tiles never count."""
    counts = [chests_of(p.tiles if p.dirk else p.alhambra) for p in position.players]
    return ranked(position, counts, round_)


def ranked(position: Position, counts: Sequence[int], round_: int) -> dict[str, list[Line]]:
    places = shared_places(counts, POINTS[round_])
    return {p.name: [TreasureLine(count=n, place=place, points=points)]
            for p, n, (place, points) in zip(position.players, counts, places, strict=True)}


# --- a tally: the chests per colour, counted ------------------------------------------------

def count_tally(p: PositionPlayer) -> TreasureTally:
    colours = Counter(chest_colour(t) for t in (p.tiles if p.dirk else p.alhambra) if t.chest)
    return TreasureTally(chests=per_type({c: n for c, n in colours.items() if c is not None}))


def chests_counted(t: Tally) -> int:
    return sum(counts_of(t.treasure.chests).values()) if t.treasure is not None else 0


def score_tally(position: Position, round_: int, tallies: Sequence[Tally]) -> dict[str, list[Line]]:
    """treasure.score from the counts: only the number of chests ranks (seed 004.24)."""
    return ranked(position, [chests_counted(t) for t in tallies], round_)


def tally_of_lines(p: PositionPlayer, lines: Sequence[Line]) -> TreasureTally:
    """The chests as an earlier round's treasure line carries them: their number, which alone
    scores (seed 004.24); the line has no colours, so they are spread over the colours."""
    count = next(line.count for line in lines if isinstance(line, TreasureLine))
    kinds = PerType.__struct_fields__
    share, rest = divmod(count, len(kinds))
    return TreasureTally(chests=PerType(**{k: share + (i < rest) for i, k in enumerate(kinds)}))


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """One chest a building, of its colour (treasure.place); no more of a colour than exist."""
    out = over_buildings(position, lambda t: t.treasure.chests if t.treasure else None,
                         "treasure.chests", "treasure.place", "one chest a")
    for colour, n in CHESTS.items():
        out += over_table(position, tallies,
                          lambda t, c=colour: getattr(t.treasure.chests, c) if t.treasure else 0,  # type: ignore[misc]
                          f"treasure.chests.{colour}", n, "treasure.setup",
                          t("chests on {colour} buildings", colour=word(colour)))
    return out


def check_of_lines(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """`check_tally` on an earlier round's lines (a score sheet), which carry the chests' number
    but no colours: one chest a building (treasure.place, seed 004.15), so at most the buildings
    the majority lines count (which extensions can only raise); at most the 42 chests on the
    table (treasure.setup, seed 004.1)."""
    out = []
    for i, _, tally in given(position):
        chests, buildings = chests_counted(tally), sum(counts_of(tally.buildings).values())
        if chests > buildings:
            out.append(Violation("treasure.place", t("{field} counts {chests}, but {buildings_field} counts "
                                                     "{buildings} buildings: one chest a building at most",
                                                     field=field(i, "treasure.chests"), chests=chests,
                                                     buildings_field=field(i, "buildings"),
                                                     buildings=buildings)))
    return out + over_table(position, tallies, chests_counted, "treasure.chests", sum(CHESTS.values()),
                            "treasure.setup", t("chests"))


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: chests only on buildings of a colour in an Alhambra or Dirk's tiles,
    at most the printed number of each colour (a chest's colour is its building's)."""
    out = []
    counts: Counter[str] = Counter()
    for p in position.players:
        for tile in p.reserve:
            if tile.chest:
                out.append(Violation("treasure.removed", t("{player}'s {tile} in the reserve carries a "
                                                           "chest: a chest leaves with its building",
                                                           player=p.name, tile=tile.tile)))
        refused, found = tokens_per_kind(((p.name, tile) for tile in (*p.alhambra, *p.tiles)),
                                         lambda tile: tile.chest, chest_colour, lambda name, what: Violation(
            "treasure.place", t("{player}: {what} carries a chest (token `chest`), but only a building of "
                                "a colour takes one", player=name, what=what)))
        out += refused
        counts += found
    return out + beyond_supply(counts, CHESTS, "treasure.setup", lambda colour, n, held: (
        t("{n} chests on {colour} buildings: there are only {held}", n=n, colour=word(colour), held=held)))


TALLY = TallyPart(type=TreasureTally, of_tiles=count_tally, score=score_tally, check=check_tally,
                  of_lines=tally_of_lines, check_of_lines=check_of_lines)
