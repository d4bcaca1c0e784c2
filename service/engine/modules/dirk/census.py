"""Dirk's census: his tiles and where they lie, the money cards a two-player game withdraws,
and the consistency of his tiles' count (dirk.setup, dirk.refills)."""

from __future__ import annotations

from collections.abc import Iterator

from ...base.components import TILES
from ...catalogue import CATALOGUE
from ...places import Place
from ...state import GameState
from ...text import t
from ...violations import Violation
from .data import IN_THE_BOX


def withdrawn(state: GameState) -> tuple[str, ...]:
    """The money cards a two-player game never holds (the consistency check refuses them)."""
    return IN_THE_BOX


def least_tiles(state: GameState) -> int:
    """dirk.setup, dirk.refills: the fewest tiles Dirk can hold in `state`. He never loses a tile
    (gifts and a grounds site's building only add), the bag never grows, and the bag is full at
    setup. A refill takes what the bag holds when it runs short and empties it for good: with
    tiles still in the bag the refill after round 1 was whole, and the bag left after round 2
    held at least what is left now (`least_share`)."""
    least = CATALOGUE.dirk_tiles_at_setup
    if 1 in state.rounds_held and state.bag:
        least += CATALOGUE.dirk_tiles_after_round_1
    if 2 in state.rounds_held:
        least += least_share(len(state.bag))
    return least


def least_share(left: int) -> int:
    """dirk.refills: the fewest tiles Dirk took after round 2 when `left` tiles are in the bag
    now: the share of the smallest bag then that leaves at least `left` (a share of 2 or more
    leaves half the bag, so the bag then held at most twice `left`)."""
    share = CATALOGUE.dirk_bag_share_after_round_2
    return next((then // share for then in range(left, 2 * left + 1) if then - then // share >= left), 0)


def consistency(state: GameState) -> list[Violation]:
    """dirk.setup, dirk.refills: Dirk holds at least the tiles setup and refills gave him."""
    if state.dirk is None:
        return []
    least, held = least_tiles(state), len(state.dirk.tiles)
    if held >= least:
        return []
    rule = "dirk.refills" if state.rounds_held else "dirk.setup"
    return [Violation(rule, t("Dirk holds {held} tiles, but he holds at least {least}: {setup} from setup, "
                              "then after scoring round 1 {refill} more (fewer only when the bag runs out), "
                              "after round 2 a third of the bag (rounds held {rounds}, {bag} tiles in the "
                              "bag), and he never loses one", held=held, least=least,
                              setup=CATALOGUE.dirk_tiles_at_setup, refill=CATALOGUE.dirk_tiles_after_round_1,
                              rounds=tuple(state.rounds_held), bag=len(state.bag)))]


DIRK_TILES = t("Dirk's tiles")
ONLY_TILES = t("it holds only building tiles")


def located(state: GameState) -> Iterator[tuple[str, str]]:
    if state.dirk is not None:
        for tile in state.dirk.tiles:
            yield tile.tile, DIRK_TILES


def places(state: GameState) -> Iterator[Place]:
    if state.dirk is not None:
        yield Place(DIRK_TILES, tuple(tile.tile for tile in state.dirk.tiles), TILES,
                    ONLY_TILES)
