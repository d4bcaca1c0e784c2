"""Palace Staff's servants and where they lie (`expected`, `located`: the pile, the display and
the tiles), the consistency of a state's staff part, and what a seat may see of it (`VIEW`)."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...module import Unseen, ViewPart
from ...places import tiles_in_play, tokens_in_box, tokens_lying
from ...state import GameState, Tile
from ...text import t, tn
from ...violations import Violation
from .data import DISPLAY_SIZE, MARSHAL_STEPS, SERVANTS, servant_colour
from .model import StaffSeen, StaffState

# --- components and consistency -------------------------------------------------------------

def expected(state: GameState) -> Iterator[str]:
    return tokens_in_box("servant", SERVANTS)


def located(state: GameState) -> Iterator[tuple[str, str]]:
    staff = state.staff
    pools = () if staff is None else ((t("the face-down servant pile"), staff.pile),
                                      (t("the servant display"), staff.display))
    return tokens_lying(state, "servant", pools, _servant_on)


def _servant_on(tile: Tile) -> tuple[str, ...]:
    """The colour of the servant a tile carries, if it carries one."""
    colour = servant_colour(tile)
    return (colour,) if tile.servant and colour is not None else ()


def consistency(state: GameState) -> list[Violation]:
    """A staff part with a court marshal on a tile of each player's Alhambra, the servant
    display and the marshal move as a turn leaves them, and servants only on coloured tiles
    of an Alhambra or a reserve."""
    staff = state.staff
    if staff is None:
        return [Violation("staff.setup", t("the staff module is on but the state has no `staff` part"))]
    return (_marshal_problems(state, staff) + _display_problems(state, staff)
            + _move_problems(state, staff) + _servant_problems(state))


def _marshal_problems(state: GameState, staff: StaffState) -> list[Violation]:
    """staff.setup (staff.dirk: Dirk has none): one court marshal per player; staff.marshal-tile:
    each stands on a tile of its player's Alhambra."""
    out = []
    if len(staff.marshals) != len(state.players):
        rule = "staff.dirk" if state.dirk is not None else "staff.setup"
        players, marshals = len(state.players), len(staff.marshals)
        out.append(Violation(rule, t("there is one court marshal per player ({players}, Dirk has none), "
                                     "not {marshals}", players=players, marshals=marshals) if state.dirk
                             else t("there is one court marshal per player ({players}), not {marshals}",
                                    players=players, marshals=marshals)))
    for p, spot in zip(state.players, staff.marshals, strict=False):
        if not any((t.x, t.y) == (spot.x, spot.y) for t in p.alhambra):
            out.append(Violation("staff.marshal-tile", t("{player}'s court marshal stands at ({x}, {y}), "
                                                         "where {player}'s Alhambra has no tile",
                                                         player=p.name, x=spot.x, y=spot.y)))
    return out


def _display_problems(state: GameState, staff: StaffState) -> list[Violation]:
    """staff.servant: the servant display holds at most DISPLAY_SIZE, and is full at the start
    of a turn while the pile lasts (refilled at the end of each turn)."""
    if len(staff.display) > DISPLAY_SIZE:
        return [Violation("staff.servant", t("the servant display holds {held}, more than {most}",
                                             held=len(staff.display), most=DISPLAY_SIZE))]
    if staff.pile and len(staff.display) < DISPLAY_SIZE and state.phase == "play" and not state.turn.acted:
        return [Violation("staff.servant", t("the servant display was not refilled to {size} at the end "
                                             "of the turn", size=DISPLAY_SIZE))]
    return []


def _move_problems(state: GameState, staff: StaffState) -> list[Violation]:
    """staff.move: a marshal move is pending only in play, right after money was taken, and of
    fewer than MARSHAL_STEPS steps."""
    if staff.steps and (staff.steps >= MARSHAL_STEPS or state.phase != "play" or not state.turn.acted):
        return [Violation("staff.move", tn("a marshal move of {n} step is pending without money just taken",
                                           "a marshal move of {n} steps is pending without money just taken",
                                           staff.steps))]
    return []


def _servant_problems(state: GameState) -> list[Violation]:
    """staff.servant: a servant stays on a tile with a colour, in the Alhambra or the reserve;
    staff.dirk: none on Dirk's tiles (he has no marshal)."""
    out = []
    for tile, where, zone in tiles_in_play(state):
        if not tile.servant:
            continue
        if servant_colour(tile) is None:
            out.append(Violation("staff.servant", t("{where} carries a servant but has no colour",
                                                    where=where)))
        elif zone == "dirk":
            out.append(Violation("staff.dirk", t("{where} carries a servant: Dirk has no marshal",
                                                 where=where)))
        elif zone not in ("alhambra", "reserve"):
            out.append(Violation("staff.servant", t("{where} carries a servant: servants stay on their "
                                                    "tiles in the Alhambra or the reserve", where=where)))
    return out


def seen(state: GameState, seat: int | None) -> StaffSeen:
    """staff.setup: the servant pile lies face down, so everyone sees only its size."""
    staff = state.staff
    assert staff is not None
    return StaffSeen(pile_size=len(staff.pile), display=staff.display, marshals=staff.marshals,
                     steps=staff.steps)


VIEW = ViewPart(StaffSeen, seen)


def unseen(state: GameState, seat: int | None) -> Iterator[Unseen]:
    """The face-down pile of servants: its order."""
    if state.staff is not None:
        yield Unseen("staff.servants", state.staff.pile,
                     lambda s, pile, _: replace(s, staff=replace(s.staff, pile=pile)))
