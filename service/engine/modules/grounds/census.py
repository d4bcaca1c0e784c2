"""What New Building Grounds owns and where (the sites, which are tiles, and the buildings under
construction), the consistency of its state, and its view."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ...module import ViewPart
from ...places import tiles_in_play, tokens_in_box, tokens_lying
from ...state import GameState, Tile
from ...text import t
from ...violations import Violation
from .data import (
    COLUMN_SIZE,
    NUMBERS,
    PER_TYPE,
    SITE_NUMBER,
    SITES,
    building_word,
    column_of,
    is_site,
    token_problems,
    waiting,
)
from .model import GroundsState


def expected(state: GameState) -> Iterator[str]:
    yield from SITES
    yield from tokens_in_box("construction", PER_TYPE)


def _construction(tile: Tile) -> tuple[str, ...]:
    return () if tile.construction is None else (tile.construction,)


def located(state: GameState) -> Iterator[tuple[str, str]]:
    """The buildings under construction (the sites are tiles, which the base game locates)."""
    columns = () if state.grounds is None else state.grounds.columns
    pools = ((t("column {number} of the building ground", number=number), column)
             for number, column in zip(NUMBERS, columns, strict=False))
    yield from tokens_lying(state, "construction", pools, _construction)


def consistency(state: GameState) -> list[Violation]:
    grounds = state.grounds
    if grounds is None:
        return [Violation("grounds.setup", t("the grounds module is on but the state has no `grounds` part"))]
    out = []
    if len(grounds.columns) != len(NUMBERS):
        return [Violation("grounds.setup", t("the building ground has {columns} columns, not {given}",
                                             columns=len(NUMBERS), given=len(grounds.columns)))]
    built = Counter(SITE_NUMBER[tile.tile] for tile, _, _ in tiles_in_play(state)
                    if tile.construction is not None and is_site(tile.tile))
    for number, column in zip(NUMBERS, grounds.columns, strict=True):
        # Seeds 001.5, 001.7, 001.12: a column is laid with COLUMN_SIZE buildings, and only a
        # site of its number takes one (its buyer's choice, or Dirk's top one).
        left = COLUMN_SIZE - built[number]
        if len(column) != left:
            out.append(Violation("grounds.setup", t("column {number} holds {held} buildings under "
                                                    "construction, but it was laid with {size} and {built} "
                                                    "sites numbered {number} took one: {left} must be left",
                                                    number=number, held=len(column), size=COLUMN_SIZE,
                                                    built=built[number], left=max(left, 0))))
        out += [Violation("grounds.setup", t("column {number} holds {building}, which is no building type",
                                             number=number, building=repr(b)))
                for b in column if b not in PER_TYPE]
    for tile, where, zone in tiles_in_play(state):
        out += token_problems(tile, where)
        # A held site waits for its buyer's choice; a site out of the game takes no building.
        if waiting(tile) and zone in ("alhambra", "reserve", "dirk") and column_of(state, tile.tile):
            rule = "grounds.dirk" if zone == "dirk" else "grounds.buy"
            still = tuple(building_word(b) for b in column_of(state, tile.tile))
            out.append(Violation(rule, t("{where} has no building on it though column {number} still holds "
                                         "{column}", where=where, number=SITE_NUMBER[tile.tile],
                                         column=still)))
    return out


def seen(state: GameState, seat: int | None) -> GroundsState:
    """grounds.setup: the columns lie face up; the sites in the bag are hidden with the bag."""
    grounds = state.grounds
    assert grounds is not None
    return grounds


VIEW = ViewPart(GroundsState, seen)
