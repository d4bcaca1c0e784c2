"""The Extensions module in scoring: an extended building counts as two (extensions.score), the
checks of a scoring position's extensions, and its part of a tally."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from ...module import TallyPart, modules_of_ids
from ...places import beyond_supply, tokens_per_kind
from ...records import counts_of, per_type
from ...scoring import Position, PositionPlayer, building_type, counted_buildings
from ...scoring.tally import Tally
from ...scoring.tally_checks import most_buildings, over_buildings, over_table
from ...text import t, word
from ...violations import Violation
from .data import PER_TYPE
from .model import ExtensionsTally


def count_bonus(p: PositionPlayer) -> dict[str, int]:
    """extensions.score: an extended building counts as 2 buildings (Dirk's too)."""
    out: dict[str, int] = {}
    for tile in counted_buildings(p):
        kind = building_type(tile) if tile.extension else None
        if kind is not None:
            out[kind] = out.get(kind, 0) + 1
    return out


# --- a tally: the extended buildings per type, counted ---------------------------------------

def count_tally(p: PositionPlayer) -> ExtensionsTally:
    return ExtensionsTally(extended=per_type(count_bonus(p)))


def tally_bonus(part: ExtensionsTally) -> Mapping[str, int]:
    """extensions.score: each extended building counts once more."""
    return counts_of(part.extended)


def held_tally(p: PositionPlayer) -> ExtensionsTally:
    """For the table's totals (extensions.setup, seed 001.14: 2 of each type): the extended
    buildings a player given by tiles holds anywhere, the reserve too (extensions.owns-type: an
    extension stays on its building)."""
    return ExtensionsTally(extended=per_type(Counter(
        kind for t in (*p.alhambra, *p.reserve, *p.tiles) if t.extension and (kind := building_type(t)))))


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """A building takes at most one extension (extensions.owns-type); 2 of each type exist."""
    out = over_buildings(position, lambda t: t.extensions.extended if t.extensions else None,
                         "extensions.extended", "extensions.owns-type", t("one extension a"))
    for kind, n in sorted(PER_TYPE.items()):
        out += over_table(position, tallies,
                          lambda t, k=kind: getattr(t.extensions.extended, k) if t.extensions else 0,  # type: ignore[misc]
                          f"extensions.extended.{kind}", n, "extensions.setup",
                          t("{kind} extensions", kind=word(kind)))
    return out


def check_of_lines(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """An earlier round's majority lines (a score sheet) count an extended building twice
    (extensions.score, seed 001.27), so their counts are not the buildings; but a building is
    extended once at most (seed 001.26) and 2 extensions of each type exist (extensions.setup,
    seed 001.14): the counts of a type on the table, and so each player's, add up to at most
    the buildings of the type that exist and its extensions."""
    most = most_buildings(modules_of_ids(position.modules, any(p.dirk for p in position.players)))
    out = []
    for kind, n in sorted(PER_TYPE.items()):
        out += over_table(position, tallies, lambda t, k=kind: getattr(t.buildings, k),  # type: ignore[misc]
                          f"buildings.{kind}", most[kind] + n, "extensions.score",
                          t("{kind} buildings counted for majorities ({buildings} buildings exist and "
                            "{extensions} extensions, each counting one building more)", kind=word(kind),
                            buildings=most[kind], extensions=n))
    return out


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: no extension on the fountain (or a tile without a type), and at most
    as many extensions of a type as exist."""
    out, counts = tokens_per_kind(
        ((p.name, t) for p in position.players for t in (*p.alhambra, *p.reserve, *p.tiles)),
        lambda t: t.extension, building_type, lambda name, what: Violation(
            "extensions.owns-type", t("{player}: {what} carries an extension (token `extension`), but only a "
                                      "building of one of the six types takes one", player=name, what=what)))
    return out + beyond_supply(counts, PER_TYPE, "extensions.setup", lambda kind, n, held: (
        t("{count} {kind} extensions on the table: there are only {held}", count=n, kind=word(kind),
          held=held)))


TALLY = TallyPart(type=ExtensionsTally, of_tiles=count_tally, bonus=tally_bonus, most_bonus=PER_TYPE,
                  held=held_tally, check=check_tally, check_of_lines=check_of_lines)
