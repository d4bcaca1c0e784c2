"""New Building Grounds in the rest of play: the setup of the ground, the sites that reach Dirk
(grounds.dirk), the check on buying a site and the buyer's pending choice (grounds.buy)."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...actions import Action, BuyBuilding
from ...module import Context, Pending
from ...state import GameState
from ...violations import Violation
from .actions import ChooseConstruction, GroundLaid, SiteBuiltForDirk
from .data import (
    COLUMN_SIZE,
    CONSTRUCTIONS,
    NUMBERS,
    SITE_NUMBER,
    SITES,
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
    if not any(waiting(t) and column_of(state, t.tile) for t in dirk.tiles):
        return state
    tiles = []
    for t in dirk.tiles:
        column = column_of(state, t.tile) if waiting(t) else ()
        if column:
            state = with_column(state, t.tile, column[1:])
            t = replace(t, construction=column[0])
            ctx.events.append(SiteBuiltForDirk(site=t.tile, building=column[0]))
        tiles.append(t)
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
    return [Violation("grounds.buy", f"{action.tile} cannot be bought: column "
                                     f"{SITE_NUMBER[action.tile]} holds no building under construction")]


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
        for t in state.players[seat].held:
            if waiting(t) and column_of(state, t.tile):
                return Pending(seat=seat, rule="grounds.buy",
                               what=f"choose the building for {t.tile} from column "
                                    f"{SITE_NUMBER[t.tile]} {list(column_of(state, t.tile))} "
                                    "(choose-construction)",
                               actions=(ChooseConstruction,))
    return None
