"""Street Vendors' score, vendors.score: the inhabitants on the buildings of an Alhambra in sets
of different colours; its line, its part of a tally, and its checks of a scoring position."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from ...module import TallyPart
from ...records import counts_of, per_type
from ...scoring import Line, Position, PositionPlayer
from ...scoring.tally import Tally
from ...scoring.tally_checks import field, given, over_buildings, over_table
from ...state import PlacedTile
from ...text import t, tn, word
from ...violations import Violation
from .data import COLOURS, PER_COLOUR, SET_POINTS, colour_of
from .model import InhabitantCount, Sets, VendorsTally


class VendorsLine(Line, tag="vendors"):
    """vendors.score: the inhabitants on buildings and the sets they form (sizes)."""

    rule: ClassVar[str] = "vendors.score"

    inhabitants: InhabitantCount
    sets: Sets


def sets_of(colours: list[str]) -> list[int]:
    """The sizes of the sets of different colours that score the most: with points growing
    faster than the set size (convex), taking one of every colour left each time is best."""
    counts = Counter(colours)
    sizes = []
    while counts:
        sizes.append(len(counts))
        counts = Counter({c: n - 1 for c, n in counts.items() if n > 1})
    return sizes


def set_points(size: int) -> int:
    return SET_POINTS[size - 1]


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    """vendors.score: the inhabitants on buildings of the Alhambra in sets of different colours."""
    out: dict[str, list[Line]] = {}
    for p in position.players:
        colours = [] if p.dirk else settled(p.alhambra)
        out[p.name] = [line_of(colours)]
    return out


def settled(alhambra: Sequence[PlacedTile]) -> list[str]:
    """The colours of the inhabitants on buildings of the Alhambra."""
    return [c for t in alhambra if t.inhabitant and (c := colour_of(t)) is not None]


def line_of(colours: list[str]) -> VendorsLine:
    sizes = sets_of(colours)
    return VendorsLine(points=sum(set_points(s) for s in sizes), inhabitants=sum(sizes),
                       sets=tuple(sizes))


# --- a tally: the settled inhabitants per colour, counted -----------------------------------

def count_tally(p: PositionPlayer) -> VendorsTally | None:
    return None if p.dirk else VendorsTally(inhabitants=per_type(Counter(settled(p.alhambra))))


def score_tally(position: Position, round_: int, tallies: Sequence[Tally]) -> dict[str, list[Line]]:
    """vendors.score from the counts per colour: the same sets (seed 003.39: 1, 3, 6, 10, 15, 21)."""
    out: dict[str, list[Line]] = {}
    for p, tally in zip(position.players, tallies, strict=True):
        counts = counts_of(tally.vendors.inhabitants) if tally.vendors is not None else {}
        out[p.name] = [line_of([c for c, n in counts.items() for _ in range(n)])]
    return out


def tally_of_lines(p: PositionPlayer, lines: Sequence[Line]) -> VendorsTally | None:
    """The inhabitants as an earlier round's vendors line carries them: its sets (sizes) give the
    number of each colour but not which colour (the n-th colour is in every set of more than n
    colours), and the sets formed from that are the same; Dirk has none (vendors.one-per-building)."""
    if p.dirk:
        return None
    sizes = next(line.sets for line in lines if isinstance(line, VendorsLine))
    return VendorsTally(inhabitants=per_type({c: sum(1 for s in sizes if s > n)
                                              for n, c in enumerate(COLOURS)}))


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """One inhabitant a building, of its colour (vendors.one-per-building), none at Dirk's;
    at most 7 of a colour (vendors.setup)."""
    out = [Violation("vendors.one-per-building", t("{field}: Dirk has no Alhambra, so no inhabitant "
                                                   "settles with him", field=field(i, "vendors.inhabitants")))
           for i, p, tally in given(position)
           if p.dirk and tally.vendors is not None and tally.vendors != VendorsTally()]
    out += over_buildings(position, lambda tally: tally.vendors.inhabitants if tally.vendors else None,
                          "vendors.inhabitants", "vendors.one-per-building", t("one inhabitant a"))
    for colour in COLOURS:
        out += over_table(position, tallies,
                          lambda tally, c=colour: (getattr(tally.vendors.inhabitants, c)  # type: ignore[misc]
                                                   if tally.vendors else 0),
                          f"vendors.inhabitants.{colour}", PER_COLOUR, "vendors.setup",
                          t("{colour} inhabitants settled", colour=word(colour)))
    return out


def check_of_lines(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """`check_tally` on an earlier round's vendors lines (a score sheet), which carry the sets'
    sizes but no colours. An inhabitant settles on a building of its colour, one a building
    (vendors.one-per-building, seed 003.35), so the colours the sets hold (seeds 003.38-003.40)
    need as many types with a building, and the colours with n inhabitants or more as many types
    with n buildings or more: at most the buildings the majority lines count (which extensions
    only raise), no set of more colours than types counted. And the 42 inhabitants that exist
    (vendors.setup) at most on the table."""
    out = [v for i, _, tally in given(position) if (v := _unsettled(i, tally)) is not None]
    return out + over_table(position, tallies, _settled_count, "vendors.inhabitants",
                            PER_COLOUR * len(COLOURS), "vendors.setup", t("inhabitants settled"))


def _settled_count(t: Tally) -> int:
    return sum(counts_of(t.vendors.inhabitants).values()) if t.vendors is not None else 0


def _unsettled(i: int, t: Tally) -> Violation | None:
    """Player i's inhabitants that its buildings counted cannot hold, one a building of its colour:
    for some n, more colours with n inhabitants or more than types with n buildings or more."""
    if t.vendors is None:
        return None
    colours = [n for n in counts_of(t.vendors.inhabitants).values() if n]
    types = counts_of(t.buildings).values()
    for n in sorted(set(colours)):
        want, have = sum(1 for c in colours if c >= n), sum(1 for b in types if b >= n)
        if want > have:
            sets = sets_of([str(k) for k, c in enumerate(colours) for _ in range(c)])
            return Violation("vendors.one-per-building", tn(
                "{field}: the sets {sets} hold {at_least} or more inhabitants of each of {want} colours, "
                "but {buildings} counts {n} type with {at_least} or more buildings: one inhabitant a "
                "building, of its colour",
                "{field}: the sets {sets} hold {at_least} or more inhabitants of each of {want} colours, "
                "but {buildings} counts {n} types with {at_least} or more buildings: one inhabitant a "
                "building, of its colour",
                have, field=field(i, "vendors.inhabitants"), sets=str(sets), at_least=n, want=want,
                buildings=field(i, "buildings")))
    return None


TALLY = TallyPart(type=VendorsTally, of_tiles=count_tally, score=score_tally, check=check_tally,
                  of_lines=tally_of_lines, check_of_lines=check_of_lines)


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: inhabitants only on buildings of an Alhambra, at most 7 a colour."""
    out = []
    counts: Counter[str] = Counter()
    for p in position.players:
        for tile in (*p.reserve, *p.tiles):
            if tile.inhabitant:
                out.append(Violation("vendors.one-per-building",
                                     t("{player}'s {tile} is not in an Alhambra and holds no inhabitant",
                                       player=p.name, tile=tile.tile)))
        for placed in p.alhambra:
            if placed.inhabitant:
                colour = colour_of(placed)
                if colour is None:
                    out.append(Violation("vendors.one-per-building",
                                         t("{player}'s {tile} is no building and holds no inhabitant",
                                           player=p.name, tile=placed.tile)))
                else:
                    counts[colour] += 1
    out += [Violation("vendors.setup", t("{count} inhabitants of colour {colour}: there are only {most}",
                                         count=n, colour=word(c), most=PER_COLOUR))
            for c, n in sorted(counts.items()) if n > PER_COLOUR]
    return out
