"""Buildings of Power's scoring (power.strength): the second wall, up to the black dice's
pips; its part of a tally; its checks of a scoring position."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from ...grid import best_wall_pair, layout_of
from ...module import TallyPart, modules_of_ids
from ...records import counts_of
from ...scoring import Line, Position, PositionPlayer, WallLine
from ...scoring.tally import Tally
from ...scoring.tally_checks import field, given, most_wall, over_table
from ...text import t
from ...violations import Violation
from .data import DATA, DIE_OF, FACES, REPLACED, power_of
from .model import BlackPips, PowerTally


class PowerLine(Line, tag="power"):
    """power.strength: the second wall, counted up to the pips of the player's black dice."""

    rule: ClassVar[str] = "power.strength"

    dice: BlackPips
    # Always true: a wall past the search's bound is refused (PositionTooComplex), never guessed.
    exhaustive: bool = True


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    """power.strength: the longest wall as usual (the wall line) plus the best second wall
    sharing no side with it, up to the pips of all the player's black dice."""
    out: dict[str, list[Line]] = {}
    for p in position.players:
        pips = black_pips(p)
        if p.dirk or not pips:
            out[p.name] = [PowerLine(points=0, dice=pips)]
            continue
        _, second, exhaustive = best_wall_pair(layout_of(p.alhambra), pips)
        out[p.name] = [PowerLine(points=second, dice=pips, exhaustive=exhaustive)]
    return out


def black_pips(p: PositionPlayer) -> int:
    """power.strength: the pips of the black dice, on strength tiles in the Alhambra or reserve."""
    return sum(t.die or 0 for t in (*p.alhambra, *p.reserve) if power_of(t.tile) == "strength")


# --- a tally: the black dice's pips and the second wall, counted -----------------------------

def count_tally(p: PositionPlayer) -> PowerTally | None:
    """The pips, and the second wall searched up to the pips only (a longer one scores no more,
    and the search of walls is the costly part)."""
    if p.dirk:
        return None
    pips = black_pips(p)
    second = best_wall_pair(layout_of(p.alhambra), pips)[1] if pips else 0
    return PowerTally(black_pips=pips, second_wall=second)


def score_tally(position: Position, round_: int, tallies: Sequence[Tally]) -> dict[str, list[Line]]:
    """power.strength from the counts: the second wall up to the pips (8 + 5 = 13, seed 000.65)."""
    out: dict[str, list[Line]] = {}
    for p, tally in zip(position.players, tallies, strict=True):
        part = tally.power or PowerTally()
        out[p.name] = [PowerLine(points=min(part.second_wall, part.black_pips), dice=part.black_pips)]
    return out


def tally_of_lines(p: PositionPlayer, lines: Sequence[Line]) -> PowerTally | None:
    """The pips and the second wall as an earlier round's lines carry them. The power line holds
    the second wall only as far as it scored (up to the pips), so its points stand for it, no
    longer than the longest wall (the wall line; power.strength: the second is another wall);
    Dirk has no dice (power.dirk)."""
    if p.dirk:
        return None
    line = next(line for line in lines if isinstance(line, PowerLine))
    longest = next(line.length for line in lines if isinstance(line, WallLine))
    return PowerTally(black_pips=line.dice, second_wall=max(0, min(line.points, longest)))


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """The second wall shares no side with the longest, so it is no longer (power.strength); the
    3 black dice show at most 18 pips on the table; Dirk rolls no dice and has no wall."""
    out = []
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    for i, p, tally in given(position):
        part = tally.power or PowerTally()
        second, wall = field(i, "power.second_wall"), field(i, "wall")
        if p.dirk and part.black_pips:
            out.append(Violation("power.dirk", t("{field} is {pips}: Dirk rolls no dice",
                                                 field=field(i, "power.black_pips"), pips=part.black_pips)))
        if p.dirk and part.second_wall:
            out.append(Violation("dirk.scores", t("{field} is {length}: Dirk scores no wall", field=second,
                                                  length=part.second_wall)))
        elif part.second_wall > tally.wall:
            out.append(Violation("power.strength", t("{field} is {length}, longer than {wall} ({longest}): "
                                                     "the second wall is at most as long as the longest",
                                                     field=second, length=part.second_wall, wall=wall,
                                                     longest=tally.wall)))
        elif part.second_wall + tally.wall > (most := most_wall(sum(counts_of(tally.buildings).values()),
                                                                 modules)):
            out.append(Violation("power.strength", t("{field} is {length} beside {wall} ({longest}): the two "
                                                     "share no side, and the fountain and buildings counted "
                                                     "make at most {most} outer wall sides", field=second,
                                                     length=part.second_wall, wall=wall, longest=tally.wall,
                                                     most=most)))
    black = DATA["dice"]["black"]
    return out + over_table(position, tallies, lambda tally: tally.power.black_pips if tally.power else 0,
                            "power.black_pips", black * FACES, "power.strength",
                            t("pips of black dice ({dice} dice of at most {faces})", dice=black,
                              faces=FACES))


# power.strength: its checks hold for counts read from lines (more buildings only allow
# a longer wall; the pips are the line's).
# power.end-hidden: a market tile handed out at the end takes the tile hidden under it along
# (power.architecture: at most one under each).
TALLY = TallyPart(type=PowerTally, of_tiles=count_tally, score=score_tally, check=check_tally,
                  check_of_lines=check_tally,
                  of_lines=tally_of_lines, more_leftovers=1)


# --- a scoring position ----------------------------------------------------------------------

def check_position(position: Position) -> list[Violation]:
    out = _replaced_in_position(position)
    counts: Counter[str] = Counter()
    for p in position.players:
        for one in (*p.alhambra, *p.reserve, *p.tiles):
            if one.die is None:
                continue
            kind = power_of(one.tile)
            if kind not in DIE_OF:
                out.append(Violation("power.strength", t("{player}: a die lies on {tile}, which is no "
                                                         "strength or prosperity tile", player=p.name,
                                                         tile=one.tile)))
            else:
                counts[DIE_OF[kind]] += 1
            if p.dirk:
                out.append(Violation("power.dirk", t("Dirk rolls no dice: {tile} carries one",
                                                     tile=one.tile)))
    for die, n in counts.items():
        if n > DATA["dice"][die]:
            most = DATA["dice"][die]
            out.append(Violation("power.strength", t("{n} white dice: there are only {most}", n=n, most=most)
                                 if die == "white" else
                                 t("{n} black dice: there are only {most}", n=n, most=most)))
    return out


def _replaced_in_position(position: Position) -> list[Violation]:
    """power.setup (seeds 000.45, 000.47): the base tiles the special tiles replace went back
    to the game box, so no player holds one (as `withdrawn` says of game states)."""
    return [Violation("power.setup", t("$.players[{i}].{zone}[{j}] is {tile}, a base tile that {special} "
                                       "replaces: with power on it is in the game box", i=i, zone=zone, j=j,
                                       tile=one.tile, special=REPLACED[one.tile]))
            for i, p in enumerate(position.players)
            for zone, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles))
            for j, one in enumerate(tiles) if one.tile in REPLACED]
