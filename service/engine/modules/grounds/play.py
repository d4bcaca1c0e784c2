"""New Building Grounds in the rest of play: the setup of the ground, the sites that reach Dirk
(grounds.dirk), the check on buying a site and the buyer's pending choice (grounds.buy)."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...actions import Action, BuyBuilding
from ...module import Context, Pending
from ...state import GameState
from ...text import t
from ...violations import Violation
from .actions import ChooseConstruction, GroundLaid, SiteBuiltForDirk
from .data import (
    COLUMN_SIZE,
    CONSTRUCTIONS,
    NUMBERS,
    SITE_NUMBER,
    SITES,
    building_word,
    column_of,
    is_site,
    waiting,
    with_column,
)
from .model import GroundsState

SETUP_STEP = 11  # after the base game fills the bag (10), before the market is laid (52)
DIRK_STEP = 56  # after Dirk takes his tiles (55)


def setup(state: GameState, ctx: Context) -> GameState:
    """grounds.setup: the sites go into the bag, which is shuffled again; 3 random buildings
    under construction lie face up under each number tile."""
    bag = ctx.rng.shuffled((*state.bag, *SITES))
    shuffled = ctx.rng.shuffled(CONSTRUCTIONS)
    columns = tuple(shuffled[i * COLUMN_SIZE:(i + 1) * COLUMN_SIZE] for i in range(len(NUMBERS)))
    ctx.events.append(GroundLaid(columns=columns))
    return replace(state, bag=bag, grounds=GroundsState(columns=columns))


def build_for_dirk(state: GameState, ctx: Context) -> GameState:
    """grounds.dirk: each site that reached Dirk takes the top building of its column (an empty
    column: it stays a bare site, counting for nothing)."""
    dirk = state.dirk
    if dirk is None or state.grounds is None:
        return state
    if not any(waiting(tile) and column_of(state, tile.tile) for tile in dirk.tiles):
        return state
    tiles = []
    for tile in dirk.tiles:
        column = column_of(state, tile.tile) if waiting(tile) else ()
        if column:
            state = with_column(state, tile.tile, column[1:])
            tile = replace(tile, construction=column[0])
            ctx.events.append(SiteBuiltForDirk(site=tile.tile, building=column[0]))
        tiles.append(tile)
    return replace(state, dirk=replace(dirk, tiles=tuple(tiles)))


def after_action(state: GameState, action: Action, ctx: Context) -> GameState:
    """grounds.dirk: a site given to Dirk (or reaching him any other way) is built at once."""
    return build_for_dirk(state, ctx)


def after_scoring_round(state: GameState, round_: int, ctx: Context) -> GameState:
    """grounds.dirk: sites among the tiles Dirk draws after a scoring round (dirk.refills)."""
    return build_for_dirk(state, ctx)


def check_buy(state: GameState, action: BuyBuilding) -> list[Violation]:
    """grounds.buy (Decision): a site whose column is empty cannot be bought."""
    if not is_site(action.tile) or state.grounds is None:
        return []
    if not any(s.tile == action.tile for s in state.market) or column_of(state, action.tile):
        return []
    return [Violation("grounds.buy", t("{tile} cannot be bought: column {number} holds no building under "
                                       "construction", tile=action.tile, number=SITE_NUMBER[action.tile]))]


def _choosers(state: GameState) -> Iterator[int]:
    """Who may hold a site waiting for its building: the active player during play; at the end
    of the game the recipients of leftovers, from the active seat round the table."""
    if state.phase == "play":
        yield state.turn.player
    elif state.phase == "final-placement":
        n = len(state.players)
        for k in range(n):
            yield (state.turn.player + k) % n


def pending(state: GameState) -> Pending | None:
    """A held site waiting for its building, with buildings left in its column."""
    if state.grounds is None:
        return None
    for seat in _choosers(state):
        for tile in state.players[seat].held:
            if waiting(tile) and column_of(state, tile.tile):
                return Pending(seat=seat, rule="grounds.buy",
                               what=t("choose the building for {tile} from column {number}: {column} "
                                      "(choose-construction)", tile=tile.tile, number=SITE_NUMBER[tile.tile],
                                      column=tuple(building_word(b) for b in column_of(state, tile.tile))),
                               actions=(ChooseConstruction,))
    return None
