"""What the Extensions module owns and where (each extension, by its type: on the board or on a
building), the consistency of its state, and its view."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ...module import ViewPart
from ...places import tiles_in_play, tokens_in_box, tokens_lying
from ...scoring import building_type
from ...state import GameState, Tile
from ...text import t
from ...violations import Violation
from .data import AMOUNTS, COLUMNS, PER_TYPE, TYPE_OF
from .model import ExtensionsState


def expected(state: GameState) -> Iterator[str]:
    yield from tokens_in_box("extension", PER_TYPE)


def _extension(tile: Tile) -> tuple[str, ...]:
    """The type of a tile's extension: its building's (a tile of no type shows `extension:None`,
    which is no component: the census names it)."""
    return (str(building_type(tile)),) if tile.extension else ()


def located(state: GameState) -> Iterator[tuple[str, str]]:
    """Each extension by its type: on the board, or as the token of a building."""
    board = () if state.extensions is None else state.extensions.board
    pools = ((t("{tile} on column {column} of the extension board", tile=tile, column=col + 1),
              (TYPE_OF[tile],))
             for col, column in enumerate(board) for tile in column if tile is not None and tile in TYPE_OF)
    yield from tokens_lying(state, "extension", pools, _extension)


def consistency(state: GameState) -> list[Violation]:
    ext = state.extensions
    if ext is None:
        return [Violation("extensions.setup", t("the extensions module is on but the state has no "
                                                "`extensions` part"))]
    out = []
    if len(ext.board) != len(COLUMNS) or any(len(c) != len(AMOUNTS) for c in ext.board):
        out.append(Violation("extensions.setup", t("the extension board has {columns} columns of {spaces} "
                                                   "spaces each", columns=len(COLUMNS), spaces=len(AMOUNTS))))
    on_board = [tile for column in ext.board for tile in column if tile is not None]
    out += [Violation("extensions.setup", t("{tile} is not an extension tile ({tiles})", tile=repr(tile),
                                            tiles=tuple(TYPE_OF)))
            for tile in on_board if tile not in TYPE_OF]
    out += [Violation("extensions.setup", t("{tile} lies on the extension board {count} times; it exists "
                                            "once", tile=tile, count=n))
            for tile, n in sorted(Counter(on_board).items()) if n > 1]
    for tile, where, _ in tiles_in_play(state):
        if tile.extension and building_type(tile) is None:
            out.append(Violation("extensions.owns-type", t("{where} carries an extension, but only a "
                                                           "building of one of the six types takes one",
                                                           where=where)))
    return out


def seen(state: GameState, seat: int | None) -> ExtensionsState:
    """extensions.setup: the board lies face up, so everyone sees all of it."""
    extensions = state.extensions
    assert extensions is not None
    return extensions


VIEW = ViewPart(ExtensionsState, seen)
