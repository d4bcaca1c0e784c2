"""New Building Grounds' constants (data/grounds.json) and the helpers on sites and columns that
its actions, play, scoring and census share."""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from ...catalogue import CATALOGUE, load_data
from ...state import GameState, Tile
from ...text import t, word
from ...violations import Violation

DATA = load_data("grounds")
SITE_NUMBER: dict[str, int] = {tile["id"]: int(tile["number"]) for tile in DATA["tiles"]}
SITES: tuple[str, ...] = tuple(SITE_NUMBER)
NUMBERS: tuple[int, ...] = tuple(DATA["numbers"])
COLUMN_SIZE: int = DATA["column_size"]
CONSTRUCTIONS: tuple[str, ...] = tuple(c["type"] for c in DATA["constructions"])
PER_TYPE: Counter[str] = Counter(CONSTRUCTIONS)


def _check_data() -> None:
    if any(t not in CATALOGUE.building_types for t in CONSTRUCTIONS):
        raise ValueError("grounds.json: a building under construction of an unknown type")
    if len(CONSTRUCTIONS) != COLUMN_SIZE * len(NUMBERS):
        raise ValueError("grounds.json: the buildings under construction do not fill the columns")
    if set(SITE_NUMBER.values()) - set(NUMBERS) or any(s not in CATALOGUE.tiles for s in SITES):
        raise ValueError("grounds.json: a site with an unknown number, or not in the catalogue")


_check_data()


def is_site(tile: str) -> bool:
    return tile in SITE_NUMBER


def column_of(state: GameState, site: str) -> tuple[str, ...]:
    grounds = state.grounds
    assert grounds is not None
    return grounds.columns[NUMBERS.index(SITE_NUMBER[site])]


def with_column(state: GameState, site: str, column: tuple[str, ...]) -> GameState:
    grounds = state.grounds
    assert grounds is not None
    columns = list(grounds.columns)
    columns[NUMBERS.index(SITE_NUMBER[site])] = column
    return replace(state, grounds=replace(grounds, columns=tuple(columns)))


def waiting(tile: Tile) -> bool:
    """A site with no building on it yet."""
    return tile.construction is None and tile.tile in SITE_NUMBER


def building_word(kind: str) -> str:
    """A building type as a detail: the game word, or the text given (quoted) if it is none."""
    return word(kind) if kind in CATALOGUE.building_types else repr(kind)


def token_problems(tile: Tile, where: str) -> list[Violation]:
    """A `construction` token only on a site, and only of a known type; `where` names the tile."""
    if tile.construction is None:
        return []
    if not is_site(tile.tile):
        return [Violation("grounds.buy", t("{where} carries the building under construction {building}, "
                                           "but only a building site can", where=where,
                                           building=building_word(tile.construction)))]
    if tile.construction not in PER_TYPE:
        return [Violation("grounds.setup", t("{where} carries {building}, which is no building type "
                                             "({types})", where=where, building=repr(tile.construction),
                                             types=tuple(PER_TYPE)))]
    return []
