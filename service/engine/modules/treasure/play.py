"""The Treasure Chamber in the rest of play: its setup (treasure.setup), the decision of a
receiver of chests passed on (treasure.pass) and chests leaving the Alhambra (treasure.removed)."""

from __future__ import annotations

from msgspec.structs import replace

from ...actions import Action
from ...flow import with_player
from ...module import Context, Pending
from ...state import GameState
from ...text import t, word
from ..dirk.actions import GiveToDirk
from .actions import PlaceChests, to_bag
from .data import CHESTS, PER_ROOM, ROOMS, chest_colour
from .model import TreasureState

# --- setup ----------------------------------------------------------------------------------

SETUP_STEP = 57  # after the market (52), Dirk's tiles (55) and the modules' boards (56)


def setup(state: GameState, ctx: Context) -> GameState:
    """treasure.setup: all chests in the bag; 4 random chests into each of the 3 rooms."""
    bag = ctx.rng.shuffled([colour for colour, n in CHESTS.items() for _ in range(n)])
    rooms = tuple(bag[i * PER_ROOM:(i + 1) * PER_ROOM] for i in range(ROOMS))
    return replace(state, treasure=TreasureState(bag=bag[ROOMS * PER_ROOM:], rooms=rooms))


# --- the decision of a receiver (treasure.pass) -----------------------------------------------

def pending(state: GameState) -> Pending | None:
    """treasure.pass: a receiver of chests passed on chooses where they go."""
    treasure = state.treasure
    if treasure is None or not treasure.passing or treasure.receiver is None:
        return None
    return Pending(seat=treasure.receiver, rule="treasure.pass",
                   what=t("place the chests passed on, {chests}, on buildings of their colours, every "
                          "one that fits (place-chests)", chests=tuple(word(c) for c in treasure.passing)),
                   actions=(PlaceChests,))


# --- chests leaving the Alhambra (treasure.removed) -----------------------------------------

def return_removed(state: GameState, action: Action, ctx: Context) -> GameState:
    """treasure.removed: a chest on a building in the reserve (it left the Alhambra, or a held
    building went there), or on a held building just given to Dirk, goes back in the bag."""
    if state.treasure is None:
        return state
    returned: list[str] = []
    for seat, p in enumerate(state.players):
        if any(t.chest for t in p.reserve):
            returned += [c for t in p.reserve if t.chest and (c := chest_colour(t)) is not None]
            state = with_player(state, seat, reserve=tuple(replace(t, chest=False) if t.chest else t
                                                           for t in p.reserve))
    dirk = state.dirk
    if isinstance(action, GiveToDirk) and dirk is not None:
        gift = next((t for t in dirk.tiles if t.tile == action.tile and t.chest), None)
        if gift is not None:
            returned += [c for c in (chest_colour(gift),) if c is not None]
            state = replace(state, dirk=replace(dirk, tiles=tuple(
                replace(t, chest=False) if t is gift else t for t in dirk.tiles)))
    return to_bag(state, returned, ctx)
