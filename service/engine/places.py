"""Where the tiles of a game lie off the market and out of the bag, for the modules' component
and consistency checks: each with a place a message can name and the zone it is in."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from .state import GameState, Tile
from .violations import Violation


def tiles_in_play(state: GameState) -> Iterator[tuple[Tile, str, str]]:
    """(tile, where, zone) with zone one of alhambra, reserve, held, removed, dirk."""
    for p in state.players:
        for placed in p.alhambra:
            yield placed, f"{p.name}'s {placed.tile} at ({placed.x}, {placed.y})", "alhambra"
        for t in p.reserve:
            yield t, f"{p.name}'s {t.tile} in the reserve", "reserve"
        for t in p.held:
            yield t, f"{p.name}'s held {t.tile}", "held"
    for t in state.removed:
        yield t, f"{t.tile}, out of the game", "removed"
    if state.dirk is not None:
        for t in state.dirk.tiles:
            yield t, f"Dirk's {t.tile}", "dirk"


def beyond_supply(counts: Mapping[str, int], supply: Mapping[str, int], rule: str,
                  says: Callable[[str, int, int], str]) -> list[Violation]:
    """A violation for each kind counted more often than the game holds of it (positions);
    `says(kind, counted, held)` words the message."""
    return [Violation(rule, says(kind, n, supply.get(kind, 0)))
            for kind, n in sorted(counts.items()) if n > supply.get(kind, 0)]
