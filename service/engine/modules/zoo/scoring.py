"""The zoo's score, zoo.score: each garden of an Alhambra whose animals are all of one kind scores
1 point an animal; its line, its part of a tally, and its checks of a scoring position."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import ClassVar

from ...module import TallyPart
from ...scoring import Line, Position, PositionPlayer
from ...scoring.tally import Tally
from ...scoring.tally_checks import field, given, over_table
from ...state import PlacedTile
from ...text import t, word
from ...violations import Violation
from .data import DATA, IN_PLAY, KINDS, PER_KIND, is_garden
from .model import AnimalCount, ZooTally


class ZooLine(Line, tag="zoo"):
    """zoo.score: animals on gardens that hold a single kind."""

    rule: ClassVar[str] = "zoo.score"

    animals: AnimalCount


def scoring_animals(alhambra: Iterable[PlacedTile]) -> int:
    """zoo.score: the animals on gardens of the Alhambra that hold animals of one kind only."""
    return sum(len(t.animals) for t in alhambra
               if t.animals and len(set(t.animals)) == 1 and _garden_of(t))


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    """zoo.score: each garden of the Alhambra with animals of exactly one kind scores 1 each."""
    out: dict[str, list[Line]] = {}
    for p in position.players:
        scored = 0 if p.dirk else scoring_animals(p.alhambra)
        out[p.name] = [ZooLine(points=scored, animals=scored)]
    return out


def _garden_of(tile: PlacedTile) -> bool:
    return tile.construction == "garden" if tile.construction else is_garden(tile.tile)


# --- a tally: the animals that score, counted -----------------------------------------------

def count_tally(p: PositionPlayer) -> ZooTally | None:
    return None if p.dirk else ZooTally(animals=scoring_animals(p.alhambra))


def held_tally(p: PositionPlayer) -> ZooTally:
    """For the table's total (zoo.setup, seeds 000.29-000.30: 22 animals in play): every animal
    a player given by tiles holds, wherever it stands: on gardens of several kinds, on other
    tiles, in the reserve (zoo.buy: animals stay on their tile)."""
    return ZooTally(animals=sum(len(t.animals) for t in (*p.alhambra, *p.reserve, *p.tiles)))


def score_tally(position: Position, round_: int, tallies: Sequence[Tally]) -> dict[str, list[Line]]:
    """zoo.score from the counted animals: 1 point each."""
    out: dict[str, list[Line]] = {}
    for p, tally in zip(position.players, tallies, strict=True):
        n = tally.zoo.animals if tally.zoo is not None else 0
        out[p.name] = [ZooLine(points=n, animals=n)]
    return out


def tally_of_lines(p: PositionPlayer, lines: Sequence[Line]) -> ZooTally | None:
    """The animals that scored, as an earlier round's zoo line carries them; Dirk keeps none
    (zoo.dirk)."""
    if p.dirk:
        return None
    return ZooTally(animals=next(line.animals for line in lines if isinstance(line, ZooLine)))


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """Animals that score stand on gardens of one kind, so at most 3 a garden (3 of each kind
    exist); at most 22 are in play (zoo.setup); Dirk keeps none (zoo.dirk)."""
    out = []
    for i, p, tally in given(position):
        n = tally.zoo.animals if tally.zoo is not None else 0
        if p.dirk and n:
            out.append(Violation("zoo.dirk", t("{field} is {n}: animals that reach Dirk are discarded",
                                               field=field(i, "zoo.animals"), n=n)))
        elif n > PER_KIND * tally.buildings.garden:
            out.append(Violation("zoo.score", t("{field} is {n}, but {gardens} is {count}: a garden "
                                                "holding one kind holds at most {most}",
                                                field=field(i, "zoo.animals"), n=n,
                                                gardens=field(i, "buildings.garden"),
                                                count=tally.buildings.garden, most=PER_KIND)))
    return out + over_table(position, tallies, lambda tally: tally.zoo.animals if tally.zoo else 0,
                            "zoo.animals", IN_PLAY, "zoo.setup", word("animals"))


# zoo.score: its checks hold for counts read from lines (more gardens only allow more animals;
# the animals are the line's).
TALLY = TallyPart(type=ZooTally, of_tiles=count_tally, held=held_tally, score=score_tally,
                  check=check_tally, check_of_lines=check_tally, of_lines=tally_of_lines)


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: known kinds, at most 3 of each on the table, none at Dirk's (zoo.dirk)."""
    counts: Counter[str] = Counter(
        kind for p in position.players for t in (*p.alhambra, *p.reserve, *p.tiles) for kind in t.animals)
    out = [Violation("zoo.setup", t("{kind} is not an animal of the zoo ({kinds})", kind=repr(kind),
                                    kinds=tuple(word(k) for k in KINDS)))
           for kind in sorted(counts) if kind not in KINDS]
    out += [Violation("zoo.setup", t("{n} animals of kind {kind}: there are only {most}", n=n,
                                     kind=word(kind), most=PER_KIND))
            for kind, n in sorted(counts.items()) if kind in KINDS and n > PER_KIND]
    total = sum(counts.values())
    if total > IN_PLAY:
        out.append(Violation("zoo.setup", t("{total} animals on the table: {unseen} of the {all} were put "
                                            "back unseen, so only {in_play} are in play", total=total,
                                            unseen=DATA["removed_unseen_at_setup"], all=len(KINDS) * PER_KIND,
                                            in_play=IN_PLAY)))
    out += [Violation("zoo.dirk", t("$.players[{i}].tiles[{j}]: Dirk's {tile} carries {n} animals, but "
                                    "animals that reach Dirk are discarded", i=i, j=j, tile=tile.tile,
                                    n=len(tile.animals)))
            for i, p in enumerate(position.players) if p.dirk
            for j, tile in enumerate(p.tiles) if tile.animals]
    return out
