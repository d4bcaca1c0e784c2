"""Palace Staff's own action: the court marshal's walk (staff.move), serving the tiles it enters
(staff.servant), and the event of servants laid on the display."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...actions import Action
from ...events import Event
from ...flow import with_player
from ...grid import layout_of, walk_neighbours
from ...module import ActionRule, Context
from ...rng import Generator
from ...state import GameState, PlacedTile, Player
from ...text import Text, t, tn
from ...violations import Violation
from .data import servant_colour, staff_of
from .model import Path, Spot

Pos = tuple[int, int]


class MoveMarshal(Action, tag="move-marshal"):
    """staff.move: right after taking money totalling less than 6, the positions the marshal
    walks through, one per step (each orthogonally next to the one before, through open sides,
    onto a tile); an empty path leaves the marshal where it stands."""

    path: Path = ()


class ServantsLaid(Event, tag="servants-laid"):
    """staff.setup / staff.servant: servants turned face up onto the display."""

    servants: tuple[str, ...]


class MarshalMoved(Event, tag="marshal-moved"):
    """staff.move and staff.servant: the marshal's walk and the tiles that took a servant."""

    player: str
    path: tuple[Spot, ...]
    served: tuple[str, ...]


# --- moving the marshal (staff.move, staff.servant) -------------------------------------------

def marshal_of(state: GameState, seat: int) -> Pos:
    spot = staff_of(state).marshals[seat]
    return spot.x, spot.y


def path_problems(alhambra: tuple[PlacedTile, ...], start: Pos, path: tuple[Spot, ...]) -> list[Text]:
    layout = layout_of(alhambra)
    here = start
    for n, spot in enumerate(path, 1):
        there = (spot.x, spot.y)
        if there not in layout:
            return [t("step {step}: {there} holds no tile (the marshal never steps onto an empty space)",
                      step=n, there=str(there))]
        if abs(there[0] - here[0]) + abs(there[1] - here[1]) != 1:
            return [t("step {step}: {there} is not orthogonally next to {here}", step=n, there=str(there),
                      here=str(here))]
        if there not in walk_neighbours(layout, here):
            return [t("step {step}: a wall lies between {here} and {there} (the marshal never crosses a "
                      "wall)", step=n, here=str(here), there=str(there))]
        here = there
    return []


def check_move(state: GameState, action: MoveMarshal) -> list[Violation]:
    staff = staff_of(state)
    seat = state.turn.player
    if len(action.path) > staff.steps:
        return [Violation("staff.move", tn("the marshal may walk {n} step (6 less the money taken), "
                                           "not {walked}",
                                           "the marshal may walk {n} steps (6 less the money taken), "
                                           "not {walked}", staff.steps, walked=len(action.path)))]
    return [Violation("staff.move", m) for m in
            path_problems(state.players[seat].alhambra, marshal_of(state, seat), action.path)]


def walk(player: Player, display: tuple[str, ...],
         path: tuple[Spot, ...]) -> tuple[tuple[PlacedTile, ...], tuple[str, ...], list[str]]:
    """staff.servant: the Alhambra and the display after the walk, and the tiles served."""
    tiles = {(p.x, p.y): p for p in player.alhambra}
    left = list(display)
    served = []
    for spot in path:
        tile = tiles[(spot.x, spot.y)]
        colour = servant_colour(tile)
        if tile.servant or colour is None or colour not in left:
            continue
        left.remove(colour)
        tiles[(spot.x, spot.y)] = replace(tile, servant=True)
        served.append(tile.tile)
    alhambra = tuple(tiles[(p.x, p.y)] for p in player.alhambra)
    return alhambra, tuple(left), served


def apply_move(state: GameState, action: MoveMarshal, ctx: Context) -> GameState:
    staff = staff_of(state)
    seat = state.turn.player
    player = state.players[seat]
    alhambra, display, served = walk(player, staff.display, action.path)
    marshals = list(staff.marshals)
    if action.path:
        marshals[seat] = action.path[-1]
    state = with_player(state, seat, alhambra=alhambra)
    ctx.events.append(MarshalMoved(player=player.name, path=action.path, served=tuple(served)))
    return replace(state, staff=replace(staff, display=display, marshals=tuple(marshals), steps=0))


def _paths(layout: dict[Pos, int], start: Pos, steps: int) -> Iterator[tuple[Pos, ...]]:
    """Every walk of 0 to `steps` steps from `start` (revisiting tiles is allowed)."""
    yield ()
    if steps == 0:
        return
    for nxt in walk_neighbours(layout, start):
        for rest in _paths(layout, nxt, steps - 1):
            yield (nxt, *rest)


def candidates_move(state: GameState, seat: int) -> Iterator[MoveMarshal]:
    """Every legal path: staying, and every walk of 1 to the allowed steps (at most 5 steps
    of at most 4 ways each, so at most 1365 paths), tiles revisited included."""
    name = state.players[seat].name
    layout = layout_of(state.players[seat].alhambra)
    for path in _paths(layout, marshal_of(state, seat), staff_of(state).steps):
        yield MoveMarshal(player=name, path=tuple(Spot(x=x, y=y) for x, y in path))


def sample_move(state: GameState, seat: int, rng: Generator) -> MoveMarshal:
    """Mostly walk all the steps, each to a random open neighbour; now and then stay."""
    name = state.players[seat].name
    if not rng.below(8):
        return MoveMarshal(player=name)
    layout = layout_of(state.players[seat].alhambra)
    here = marshal_of(state, seat)
    path = []
    for _ in range(staff_of(state).steps):
        options = list(walk_neighbours(layout, here))
        if not options:
            break
        here = rng.choice(options)
        path.append(Spot(x=here[0], y=here[1]))
    return MoveMarshal(player=name, path=tuple(path))


ACTIONS: tuple[ActionRule, ...] = (
    ActionRule(action=MoveMarshal, rule="staff.move", kind="decision", check=check_move, apply=apply_move,
               candidates=candidates_move, sample=sample_move),
)
