"""Palace Staff in the rest of play: the setup and the refill of the servant display, the marshal
move opened by a small take of money (`pending`), and the tile under the marshal, which no
redesign (also a craftsman's) sends to the reserve and every move within the Alhambra carries
it along (staff.marshal-tile)."""

from __future__ import annotations

from msgspec.structs import replace

from ...actions import Action, PlaceBuilding, RemoveToReserve, SwapWithReserve, TakeMoney, ToReserve
from ...catalogue import CATALOGUE
from ...events import BuildingPlaced, BuildingRemoved
from ...grid import layout_of, walk_neighbours
from ...module import Context, Pending
from ...state import GameState
from ...text import t, tn
from ...violations import Violation
from ..craftsmen.actions import BuilderRedesign
from .actions import MoveMarshal, ServantsLaid, marshal_of
from .data import DISPLAY_SIZE, MARSHAL_STEPS, SERVANTS, staff_of
from .model import Spot, StaffState

SETUP_STEP = 56  # after the market (52) and Dirk's tiles (55), before the money piles (60)
REFILL_STEP = 60  # RULES.md §H 6: the servant display is refilled after powers (50)


# --- setup and the display ------------------------------------------------------------------

def lay_display(state: GameState, ctx: Context) -> GameState:
    """staff.servant: the display is topped up to 6 from the face-down pile."""
    staff = staff_of(state)
    wanted = max(0, DISPLAY_SIZE - len(staff.display))
    drawn = staff.pile[:wanted]
    if not drawn:
        return state
    ctx.events.append(ServantsLaid(servants=drawn))
    return replace(state, staff=replace(staff, pile=staff.pile[len(drawn):],
                                        display=(*staff.display, *drawn)))


def setup(state: GameState, ctx: Context) -> GameState:
    """staff.setup: the servants shuffled face down, 6 face up, each marshal on its fountain."""
    pile = ctx.rng.shuffled([colour for colour, n in SERVANTS.items() for _ in range(n)])
    staff = StaffState(pile=pile, marshals=tuple(Spot(x=0, y=0) for _ in state.players))
    return lay_display(replace(state, staff=staff), ctx)


def after_take(state: GameState, action: Action, ctx: Context) -> GameState:
    """staff.move: money taken totalling less than 6 opens a marshal move of 6 minus the total
    steps, decided at once; a marshal with no open way to a neighbouring tile stays put."""
    if not isinstance(action, TakeMoney) or state.staff is None:
        return state
    total = sum(CATALOGUE.money[c].value for c in action.cards)
    if total >= MARSHAL_STEPS:
        return state
    seat = state.seat_of(action.player)
    layout = layout_of(state.players[seat].alhambra)
    if not any(True for _ in walk_neighbours(layout, marshal_of(state, seat))):
        return state
    return replace(state, staff=replace(state.staff, steps=MARSHAL_STEPS - total))


def pending(state: GameState) -> Pending | None:
    staff = state.staff
    if staff is None or not staff.steps or state.phase != "play":
        return None
    return Pending(seat=state.turn.player, rule="staff.move",
                   what=tn("move the court marshal up to {n} step (move-marshal; an empty path stays)",
                           "move the court marshal up to {n} steps (move-marshal; an empty path stays)",
                           staff.steps), actions=(MoveMarshal,))


# --- the tile under the marshal (staff.marshal-tile) ------------------------------------------

def _under_marshal(state: GameState, player_name: str, tile: str) -> list[Violation]:
    seat = state.seat_of(player_name)
    if state.staff is None or seat < 0:
        return []
    x, y = marshal_of(state, seat)
    for p in state.players[seat].alhambra:
        if p.tile == tile and (p.x, p.y) == (x, y):
            return [Violation("staff.marshal-tile", t("{tile} at ({x}, {y}) carries {player}'s court "
                                                      "marshal: it may not go to the reserve",
                                                      tile=tile, x=x, y=y, player=player_name))]
    return []


def check_remove(state: GameState, action: RemoveToReserve) -> list[Violation]:
    return _under_marshal(state, action.player, action.tile)


def check_swap(state: GameState, action: SwapWithReserve) -> list[Violation]:
    return _under_marshal(state, action.player, action.replaces)


def check_builder(state: GameState, action: BuilderRedesign) -> list[Violation]:
    """With the craftsmen: a builder's redesign may not send the marshal's tile to the reserve
    (removed, or replaced in a swap); moved to another space of the Alhambra, it carries the
    marshal along (`carry_marshal`)."""
    if action.replaces is not None:
        return _under_marshal(state, action.player, action.replaces)
    if action.x is None:
        return _under_marshal(state, action.player, action.tile)
    return []


def carry_marshal(state: GameState, action: Action, ctx: Context) -> GameState:
    """staff.marshal-tile: a tile moved within the Alhambra carries its marshal, in every move
    (the builder's, a brickmaker's displaced building put on another space): the action lifts
    it from the marshal's space (`building-removed`) and places it elsewhere (`building-placed`
    of the same tile), so the marshal goes where it is placed. Read from the action's events, it
    holds for any module's move; those of craftsmen run first (registry order)."""
    marshals = list(staff_of(state).marshals)
    lifted: dict[int, str] = {}  # seat -> the tile lifted from under its marshal
    for e in ctx.events:
        seat = state.seat_of(e.player) if isinstance(e, BuildingRemoved | BuildingPlaced) else -1
        if not 0 <= seat < len(marshals):
            continue
        if isinstance(e, BuildingRemoved) and (e.x, e.y) == (marshals[seat].x, marshals[seat].y):
            lifted[seat] = e.tile
        elif isinstance(e, BuildingPlaced) and lifted.get(seat) == e.tile:
            marshals[seat] = Spot(x=e.x, y=e.y)
            del lifted[seat]
    if tuple(marshals) == staff_of(state).marshals:
        return state
    return replace(state, staff=replace(staff_of(state), marshals=tuple(marshals)))


def after_action(state: GameState, action: Action, ctx: Context) -> GameState:
    if state.staff is None:
        return state
    return carry_marshal(after_take(state, action, ctx), action, ctx)


def check_displaced(state: GameState, action: PlaceBuilding) -> list[Violation]:
    """With the craftsmen: a brickmaker may not send the marshal's tile to the reserve (displaced
    to another space of the Alhambra, it carries the marshal along: `carry_marshal`)."""
    if not isinstance(action.displaced, ToReserve):
        return []
    seat = state.seat_of(action.player)
    old = next((p for p in state.players[seat].alhambra if (p.x, p.y) == (action.x, action.y)), None)
    return _under_marshal(state, action.player, old.tile) if old is not None else []
