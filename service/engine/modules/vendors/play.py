"""Street Vendors' part in the rest of play: the discs dealt at setup (vendors.setup), the
decisions the game waits for (the choice, the visit, putting the disc down), and what follows
every action: inhabitants off the Alhambra go back (vendors.one-per-building), a building on a
disc's space lifts the disc (vendors.visit)."""

from __future__ import annotations

from msgspec.structs import replace

from ...actions import Action
from ...flow import with_player
from ...module import Context, Pending
from ...state import GameState, Tile
from ...text import t
from .actions import ChooseInhabitants, DiscLifted, InhabitantsReturned, PlaceDisc, VisitVendor
from .data import COLOURS, PER_COLOUR, _building_at, _vendors, _with_disc, colour_of, sorted_colours
from .model import Disc, VendorsState

SETUP_STEP = 57  # after the deal (50), the market (52) and Dirk (55)
RELOCATE_STEP = 15  # RULES.md §H step 1: with the placement, before the animals (20)


# --- setup (vendors.setup) ------------------------------------------------------------------

def setup(state: GameState, ctx: Context) -> GameState:
    """Every player takes one inhabitant of each colour; the rest form the supply."""
    n = len(state.players)
    supply = sorted_colours([c for c in COLOURS for _ in range(PER_COLOUR - n)])
    discs = tuple(Disc(inhabitants=COLOURS) for _ in range(n))
    return replace(state, vendors=VendorsState(supply=supply, discs=discs))


# --- pending decisions ----------------------------------------------------------------------

def pending(state: GameState) -> Pending | None:
    vendors = state.vendors
    if vendors is None or state.phase == "over":
        return None
    for seat, disc in enumerate(vendors.discs):
        if not disc.chosen:
            return Pending(seat=seat, rule="vendors.setup",
                           what=t("choose the disc's inhabitants and space (choose-inhabitants)"),
                           actions=(ChooseInhabitants,))
    for seat, disc in enumerate(vendors.discs):
        if disc.visiting:
            return Pending(seat=seat, rule="vendors.visit",
                           what=t("decide on the vendor's visit (visit-vendor)"), actions=(VisitVendor,))
    turn = state.turn
    if state.phase != "play" or turn.actions or state.active.held:
        return None
    if vendors.discs[turn.player].lifted:
        return Pending(seat=turn.player, rule="vendors.relocate",
                       what=t("put the vendor disc down (place-vendor-disc)"), actions=(PlaceDisc,))
    return None


def relocate_step(state: GameState, ctx: Context) -> GameState:
    """vendors.relocate's place among the end-of-turn steps (RULES.md §H step 1): the turn's end
    stops here while the disc waits to be put down (`pending`); the step itself changes nothing."""
    return state


# --- after every action: returns and lifts --------------------------------------------------

def after_action(state: GameState, action: Action, ctx: Context) -> GameState:
    """vendors.one-per-building: inhabitants off the Alhambra go back to the supply;
    vendors.visit: a building on a disc's space lifts the disc (the visit is pending)."""
    vendors = state.vendors
    if vendors is None:
        return state
    returned: list[str] = []
    tiles: list[str] = []

    def strip(ts: tuple[Tile, ...]) -> tuple[Tile, ...]:
        out = []
        for tile in ts:
            if tile.inhabitant:
                colour = colour_of(tile)
                if colour is not None:
                    returned.append(colour)
                tiles.append(tile.tile)
                tile = replace(tile, inhabitant=False)
            out.append(tile)
        return tuple(out)

    for seat, p in enumerate(state.players):
        if any(t.inhabitant for t in (*p.reserve, *p.held)):
            state = with_player(state, seat, reserve=strip(p.reserve), held=strip(p.held))
    if any(t.inhabitant for t in state.removed):
        state = replace(state, removed=strip(state.removed))
    if state.dirk is not None and any(t.inhabitant for t in state.dirk.tiles):
        state = replace(state, dirk=replace(state.dirk, tiles=strip(state.dirk.tiles)))
    if returned:
        state = replace(state, vendors=replace(vendors, supply=sorted_colours([*vendors.supply, *returned])))
        ctx.events.append(InhabitantsReturned(tiles=tuple(tiles), inhabitants=tuple(returned)))
    for seat, disc in enumerate(_vendors(state).discs):
        if not disc.chosen or disc.lifted:
            continue
        building = _building_at(state.players[seat], disc.x, disc.y)
        if building is not None:
            state = _with_disc(state, seat, lifted=True, visiting=True)
            ctx.events.append(DiscLifted(player=state.players[seat].name, tile=building.tile,
                                         x=disc.x, y=disc.y))
    return state
