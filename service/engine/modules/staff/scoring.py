"""Palace Staff's scoring: a point lost per building without a servant, never below a running score
of 0 (staff.score, staff.dirk), from a layout or from a tally (`TALLY`), and the checks of a
scoring position's servants and leftover tiles (`check_position`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import ClassVar

from ...module import TallyPart, modules_of_ids
from ...places import beyond_supply
from ...records import counts_of
from ...scoring import Line, Position, PositionPlayer, majority_lines, tally_majority_lines
from ...scoring.tally import Tally
from ...scoring.tally_checks import exact_buildings, field, given
from ...state import PlacedTile, Tile
from ...text import Text, t, tn, word
from ...violations import Violation
from .data import SERVANTS, servant_colour
from .model import BuildingCount, StaffTally

FINAL_ROUND = 3  # base.end.final-scoring: the third scoring round ends the game


class StaffLine(Line, tag="staff"):
    """staff.score: buildings without a servant (`unserved`) and the points lost (<= 0)."""

    unserved: BuildingCount

    after_buildings: ClassVar[bool] = True  # listed right after the building types
    rule: ClassVar[str] = "staff.score"


# --- scoring (staff.score, staff.dirk) ------------------------------------------------------

def unserved(alhambra: tuple[PlacedTile, ...]) -> int:
    """Buildings of the Alhambra (not the fountain, not leftover market tiles of the game's end)
    that have a colour and no servant."""
    return sum(1 for t in alhambra
               if not t.servant and not t.leftover and servant_colour(t) is not None)


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    """staff.score: -1 per unserved building, but never below a running score of 0 (`running`);
    staff.dirk: Dirk loses nothing."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    buildings = majority_lines(position.players, round_, modules)
    out: dict[str, list[Line]] = {}
    for p, lines in zip(position.players, buildings, strict=True):
        if p.dirk:
            out[p.name] = [StaffLine(unserved=0, points=0)]
            continue
        count = unserved(p.alhambra)
        out[p.name] = [deduction(count, running(p.score, lines, round_))]
    return out


def running(before: int, lines: Sequence[Line], round_: int) -> int:
    """staff.score: the score the deduction may not take below 0. In rounds 1 and 2 it comes
    right after the building types: the points before the round plus its building points. In
    round 3 it comes before the leftover tiles are handed out and so before any point of the
    round (seed 002.22): only the points before the round."""
    if round_ == FINAL_ROUND:
        return before
    return before + sum(line.points for line in lines)


def deduction(count: int, running: int) -> StaffLine:
    """staff.score: -1 per unserved building, never below a running score of 0."""
    return StaffLine(unserved=count, points=-min(count, max(running, 0)))


# --- a tally: the buildings without a servant, counted --------------------------------------

def count_tally(p: PositionPlayer) -> StaffTally | None:
    if p.dirk:
        return None
    bare = [t for t in p.alhambra if not t.servant and servant_colour(t) is not None]
    return StaffTally(unserved=len(bare), leftover=sum(1 for t in bare if t.leftover))


def _unserved_over_buildings(i: int, t: Tally) -> list[Violation]:
    """staff.score: the unserved buildings are buildings of the Alhambra, so at most as many."""
    buildings = sum(counts_of(t.buildings).values())
    unserved = t.staff.unserved if t.staff is not None else 0
    if unserved <= buildings:
        return []
    return [Violation("staff.score", tn("{unserved_field} is {unserved}, but {buildings_field} counts {n} "
                                       "building",
                                       "{unserved_field} is {unserved}, but {buildings_field} counts {n} "
                                       "buildings", buildings, unserved_field=field(i, "staff.unserved"),
                                       unserved=unserved, buildings_field=field(i, "buildings")))]


def check_of_lines(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """`check_tally` on an earlier round's lines (a score sheet), whose majority counts are the
    buildings or more (`exact_buildings`): then the unserved buildings are still at most those
    counts, but the servants the other buildings need could exceed the supply only because of
    buildings a module adds, so the servants are checked only when the counts are exact."""
    if exact_buildings(modules_of_ids(position.modules, any(p.dirk for p in position.players))):
        return check_tally(position, tallies)
    return [v for i, p, t in given(position) if not p.dirk for v in _unserved_over_buildings(i, t)]


def tally_of_lines(p: PositionPlayer, lines: Sequence[Line]) -> StaffTally | None:
    """The unserved buildings as an earlier round's staff line carries them: those deducted (the
    leftover tiles are not among them, and come only in round 3, which no earlier round is);
    Dirk has no servants (staff.dirk)."""
    if p.dirk:
        return None
    return StaffTally(unserved=next(line.unserved for line in lines if isinstance(line, StaffLine)))


def score_tally(position: Position, round_: int, tallies: Sequence[Tally]) -> dict[str, list[Line]]:
    """staff.score from the counts: the unserved buildings but the leftover tiles of round 3,
    floored as `running` says; staff.dirk: Dirk loses nothing."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    buildings = tally_majority_lines(tallies, round_, modules)
    out: dict[str, list[Line]] = {}
    for p, tally, lines in zip(position.players, tallies, buildings, strict=True):
        part = tally.staff or StaffTally()
        count = 0 if p.dirk else part.unserved - part.leftover
        out[p.name] = [deduction(count, running(p.score, lines, round_))]
    return out


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """Unserved buildings are buildings of the Alhambra; the leftover tiles among them come only
    at the game's end (round 3: seed 002.22, `staff.score`); Dirk has no servants (staff.dirk)."""
    out = []
    for i, p, tally in given(position):
        part = tally.staff
        if part is None:
            continue
        if p.dirk and part != StaffTally():
            out.append(Violation("staff.dirk", t("{field}: Dirk has no marshal, gets no servants and loses "
                                                 "nothing", field=field(i, "staff"))))
            continue
        out += _unserved_over_buildings(i, tally)
        if part.leftover > part.unserved:
            out.append(Violation("staff.score", t(
                "{leftover_field} is {leftover}, more than {unserved_field} ({unserved}): leftover tiles are "
                "among the buildings without a servant", leftover_field=field(i, "staff.leftover"),
                leftover=part.leftover, unserved_field=field(i, "staff.unserved"), unserved=part.unserved)))
        if part.leftover and position.round != FINAL_ROUND:
            out.append(Violation("staff.score", t("{field} is {leftover} in round {round}: leftover market "
                                                  "tiles are handed out only at the end, before round 3",
                                                  field=field(i, "staff.leftover"), leftover=part.leftover,
                                                  round=position.round)))
    return out + _servants_over_table(position)


def _leftover_tiles(p: PositionPlayer, i: int) -> list[str]:
    """The paths of the tiles of a player given by tiles that are marked leftover."""
    return [f"$.players[{i}].{where}[{j}].leftover"
            for where, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles))
            for j, t in enumerate(tiles) if t.leftover]


def _servants_over_table(position: Position) -> list[Violation]:
    """staff.setup: the servants the tallies count (each player's buildings less the unserved
    ones) must fit the servants of each colour the players given by tiles leave. For every
    group of colours, what cannot stand on a player's buildings of the other colours needs a
    servant of the group; the counts fit exactly when no group falls short (the cut condition
    of a transport problem), so each group is checked, the smallest first."""
    left = Counter(SERVANTS)
    for p in position.players:
        if p.tally is None:
            left.subtract(c for t in (*p.alhambra, *p.reserve) if t.servant and (c := servant_colour(t)))
    counted = [(i, t) for i, p, t in given(position) if not p.dirk]
    for size in range(1, len(SERVANTS) + 1):
        for group in combinations(SERVANTS, size):
            need = {i: n for i, t in counted if (n := _served_in(t, group)) > 0}
            have = sum(max(0, left[c]) for c in group)
            if sum(need.values()) > have:
                return [_servants_short(dict(counted), group, need, have)]
    return []


def _served_in(t: Tally, group: tuple[str, ...]) -> int:
    """The buildings of a tally with a servant that must be of a colour of `group`: those with
    a servant (all but the unserved) beyond its buildings of the other colours."""
    buildings = counts_of(t.buildings)
    served = sum(buildings.values()) - (t.staff.unserved if t.staff is not None else 0)
    return served - sum(n for c, n in buildings.items() if c not in group)


def _servants_short(tallies: dict[int, Tally], group: tuple[str, ...], need: dict[int, int],
                    have: int) -> Violation:
    named = [f"{field(i, f'buildings.{c}')} = {n}" for i in need for c in group
             if (n := getattr(tallies[i].buildings, c))]
    named += [f"{field(i, 'staff.unserved')} = {(tallies[i].staff or StaffTally()).unserved}" for i in need]
    colours = (word(group[0]) if len(group) == 1 else
               t("{colours} and {last}", colours=tuple(word(c) for c in group[:-1]), last=word(group[-1])))
    supply = sum(SERVANTS[c] for c in group)
    taken = t(" of {supply} (the others stand on tiles given)", supply=supply) if have < supply else ""
    return Violation("staff.setup", t("{named}: at least {need} {colours} buildings carry a servant, but "
                                      "there are only {have}{taken} {colours} servants for them",
                                      named=tuple(named), need=sum(need.values()), colours=colours,
                                      have=have, taken=taken))


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: servants only on coloured tiles of players, at most the printed
    number of each colour (the colour of a servant is its tile's); leftover tiles only in round
    3."""
    out = _leftovers_in_position(position)
    counts: Counter[str] = Counter()
    holders: dict[str, dict[str, list[str]]] = {}  # colour -> player -> paths of its servants
    for p, path, tile in _served(position):
        colour = servant_colour(tile)
        if p.dirk:
            out.append(Violation("staff.dirk", t("Dirk's {tile} carries a servant: Dirk has no marshal and "
                                                 "gets no servants", tile=tile.tile)))
        elif colour is None:
            out.append(Violation("staff.servant", t("{player}'s {tile} carries a servant but has no colour",
                                                    player=p.name, tile=tile.tile)))
        else:
            counts[colour] += 1
            holders.setdefault(colour, {}).setdefault(p.name, []).append(path)

    def says(colour: str, n: int, held: int) -> Text:
        by = tuple(t("{player} at {paths}", player=name, paths=tuple(paths))
                   for name, paths in holders[colour].items())
        return t("{count} servants on {colour} tiles: there are only {held} (held by {holders})", count=n,
                 colour=word(colour), held=held, holders=by)

    return out + beyond_supply(counts, SERVANTS, "staff.setup", says)


def _served(position: Position) -> Iterator[tuple[PositionPlayer, str, Tile | PlacedTile]]:
    """The tiles of a position that carry a servant: (player, field path, tile)."""
    for i, p in enumerate(position.players):
        for zone, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles)):
            yield from ((p, f"$.players[{i}].{zone}[{j}]", t) for j, t in enumerate(tiles) if t.servant)


def _leftovers_in_position(position: Position) -> list[Violation]:
    """staff.score: positions mark a leftover tile only in round 3 (handed out at the game's
    end, they would escape the deduction of rounds 1 and 2). How many there may be is the base
    game's (base.end.leftovers), which counts `staff.leftover` too (`TallyPart.leftovers`)."""
    if position.round == FINAL_ROUND:
        return []
    return [Violation("staff.score", t("{path} is true in round {round}: leftover market tiles are handed "
                                       "out only at the game's end, before round 3", path=path,
                                       round=position.round))
            for i, p in enumerate(position.players) if p.tally is None for path in _leftover_tiles(p, i)]


TALLY = TallyPart(type=StaffTally, of_tiles=count_tally, score=score_tally, check=check_tally,
                  of_lines=tally_of_lines, check_of_lines=check_of_lines, leftovers="leftover")
