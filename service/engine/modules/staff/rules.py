"""Palace Staff (RULES.md §S, seed 002): a player who takes money totalling less than 6 may walk
their court marshal through the Alhambra, one step per unit short of 6; each tile entered that
has no servant takes a servant of its colour from the face-up display. The tile under the
marshal may not go to the reserve. In every scoring round, right after the building types, each
building without a servant costs a point, never taking the running score below 0; in round 3
the deduction comes before the leftover tiles and any point of the round, so the floor is the
score before it.

Hidden information: the order of the face-down servant pile (`StaffState.pile`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import ClassVar

from msgspec.structs import replace

from ...actions import Action, PlaceBuilding, RemoveToReserve, SwapWithReserve, TakeMoney
from ...catalogue import CATALOGUE, FOUNTAIN, load_data
from ...events import BuildingPlaced, BuildingRemoved, Event
from ...flow import with_player
from ...grid import layout_of, walk_neighbours
from ...module import ActionRule, Context, Module, Pending, TallyPart, ViewPart, modules_of_ids, register
from ...places import beyond_supply, tiles_in_play
from ...records import counts_of
from ...rng import Generator
from ...scoring import Line, Position, PositionPlayer, building_type, majority_lines, tally_majority_lines
from ...scoring.tally import Tally
from ...scoring.tally_checks import exact_buildings, field, given
from ...state import GameState, PlacedTile, Player, Tile
from ...violations import Violation
from ..craftsmen.actions import BuilderRedesign
from .model import BuildingCount, Path, Spot, StaffSeen, StaffState, StaffTally

DATA = load_data("staff")
SERVANTS: dict[str, int] = dict(DATA["servants"])
DISPLAY_SIZE: int = DATA["display_size"]
MARSHAL_STEPS: int = DATA["marshal_steps"]
SETUP_STEP = 56  # after the market (52) and Dirk's tiles (55), before the money piles (60)
REFILL_STEP = 60  # RULES.md §H 6: the servant display is refilled after powers (50)
FINAL_ROUND = 3  # base.end.final-scoring: the third scoring round ends the game

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


class StaffLine(Line, tag="staff"):
    """staff.score: buildings without a servant (`unserved`) and the points lost (<= 0)."""

    unserved: BuildingCount

    after_buildings: ClassVar[bool] = True  # listed right after the building types
    rule: ClassVar[str] = "staff.score"


def _staff(state: GameState) -> StaffState:
    assert state.staff is not None
    return state.staff


def servant_colour(tile: Tile) -> str | None:
    """The colour (building type) of servant a tile takes: none for the fountain."""
    if tile.tile == FOUNTAIN:
        return None
    return building_type(tile)


# --- setup and the display ------------------------------------------------------------------

def lay_display(state: GameState, ctx: Context) -> GameState:
    """staff.servant: the display is topped up to 6 from the face-down pile."""
    staff = _staff(state)
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


# --- moving the marshal (staff.move, staff.servant) -------------------------------------------

def marshal_of(state: GameState, seat: int) -> Pos:
    spot = _staff(state).marshals[seat]
    return spot.x, spot.y


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
                   what=f"move the court marshal up to {staff.steps} steps (move-marshal; an "
                        "empty path stays)", actions=(MoveMarshal,))


def path_problems(alhambra: tuple[PlacedTile, ...], start: Pos, path: tuple[Spot, ...]) -> list[str]:
    layout = layout_of(alhambra)
    here = start
    for n, spot in enumerate(path, 1):
        there = (spot.x, spot.y)
        if there not in layout:
            return [f"step {n}: {there} holds no tile (the marshal never steps onto an empty space)"]
        if abs(there[0] - here[0]) + abs(there[1] - here[1]) != 1:
            return [f"step {n}: {there} is not orthogonally next to {here}"]
        if there not in walk_neighbours(layout, here):
            return [f"step {n}: a wall lies between {here} and {there} (the marshal never "
                    "crosses a wall)"]
        here = there
    return []


def check_move(state: GameState, action: MoveMarshal) -> list[Violation]:
    staff = _staff(state)
    seat = state.turn.player
    if len(action.path) > staff.steps:
        return [Violation("staff.move", f"the marshal may walk {staff.steps} steps (6 less the "
                                        f"money taken), not {len(action.path)}")]
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
    staff = _staff(state)
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
    for path in _paths(layout, marshal_of(state, seat), _staff(state).steps):
        yield MoveMarshal(player=name, path=tuple(Spot(x=x, y=y) for x, y in path))


def sample_move(state: GameState, seat: int, rng: Generator) -> MoveMarshal:
    """Mostly walk all the steps, each to a random open neighbour; now and then stay."""
    name = state.players[seat].name
    if not rng.below(8):
        return MoveMarshal(player=name)
    layout = layout_of(state.players[seat].alhambra)
    here = marshal_of(state, seat)
    path = []
    for _ in range(_staff(state).steps):
        options = list(walk_neighbours(layout, here))
        if not options:
            break
        here = rng.choice(options)
        path.append(Spot(x=here[0], y=here[1]))
    return MoveMarshal(player=name, path=tuple(path))


# --- the tile under the marshal (staff.marshal-tile) ------------------------------------------

def _under_marshal(state: GameState, player_name: str, tile: str) -> list[Violation]:
    seat = state.seat_of(player_name)
    if state.staff is None or seat < 0:
        return []
    x, y = marshal_of(state, seat)
    for p in state.players[seat].alhambra:
        if p.tile == tile and (p.x, p.y) == (x, y):
            return [Violation("staff.marshal-tile", f"{tile} at ({x}, {y}) carries "
                                                    f"{player_name}'s court marshal: it may not "
                                                    "go to the reserve")]
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
    marshals = list(_staff(state).marshals)
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
    if tuple(marshals) == _staff(state).marshals:
        return state
    return replace(state, staff=replace(_staff(state), marshals=tuple(marshals)))


def after_action(state: GameState, action: Action, ctx: Context) -> GameState:
    if state.staff is None:
        return state
    return carry_marshal(after_take(state, action, ctx), action, ctx)


def check_displaced(state: GameState, action: PlaceBuilding) -> list[Violation]:
    """With the craftsmen: a brickmaker may not send the marshal's tile to the reserve (displaced
    to another space of the Alhambra, it carries the marshal along: `carry_marshal`)."""
    if action.displaced != "reserve":
        return []
    seat = state.seat_of(action.player)
    old = next((p for p in state.players[seat].alhambra if (p.x, p.y) == (action.x, action.y)), None)
    return _under_marshal(state, action.player, old.tile) if old is not None else []


# --- scoring (staff.score, staff.dirk) ------------------------------------------------------

def unserved(alhambra: tuple[PlacedTile, ...]) -> int:
    """Buildings of the Alhambra (not the fountain, not leftover market tiles of the game's end)
    that have a colour and no servant."""
    return sum(1 for t in alhambra
               if not t.servant and not t.leftover and servant_colour(t) is not None)


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    """staff.score: -1 per unserved building, but never below a running score of 0 (`running`);
    staff.dirk: Dirk loses nothing."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    buildings = majority_lines(position.players, round_, modules)
    out: dict[str, list[Line]] = {}
    for p, lines in zip(position.players, buildings, strict=True):
        if p.dirk:
            out[p.name] = [StaffLine(unserved=0, points=0)]
            continue
        count = unserved(p.alhambra)
        out[p.name] = [deduction(count, running(p.score, lines, round_))]
    return out


def running(before: int, lines: Sequence[Line], round_: int) -> int:
    """staff.score: the score the deduction may not take below 0. In rounds 1 and 2 it comes
    right after the building types: the points before the round plus its building points. In
    round 3 it comes before the leftover tiles are handed out and so before any point of the
    round (seed 002.22): only the points before the round."""
    if round_ == FINAL_ROUND:
        return before
    return before + sum(line.points for line in lines)


def deduction(count: int, running: int) -> StaffLine:
    """staff.score: -1 per unserved building, never below a running score of 0."""
    return StaffLine(unserved=count, points=-min(count, max(running, 0)))


# --- a tally: the buildings without a servant, counted --------------------------------------

def count_tally(p: PositionPlayer) -> StaffTally | None:
    if p.dirk:
        return None
    bare = [t for t in p.alhambra if not t.servant and servant_colour(t) is not None]
    return StaffTally(unserved=len(bare), leftover=sum(1 for t in bare if t.leftover))


def _unserved_over_buildings(i: int, t: Tally) -> list[Violation]:
    """staff.score: the unserved buildings are buildings of the Alhambra, so at most as many."""
    buildings = sum(counts_of(t.buildings).values())
    unserved = t.staff.unserved if t.staff is not None else 0
    if unserved <= buildings:
        return []
    return [Violation("staff.score", f"{field(i, 'staff.unserved')} is {unserved}, but "
                                     f"{field(i, 'buildings')} counts {buildings} buildings")]


def check_of_lines(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """`check_tally` on an earlier round's lines (a score sheet), whose majority counts are the
    buildings or more (`exact_buildings`): then the unserved buildings are still at most those
    counts, but the servants the other buildings need could exceed the supply only because of
    buildings a module adds, so the servants are checked only when the counts are exact."""
    if exact_buildings(modules_of_ids(position.modules, any(p.dirk for p in position.players))):
        return check_tally(position, tallies)
    return [v for i, p, t in given(position) if not p.dirk for v in _unserved_over_buildings(i, t)]


def tally_of_lines(p: PositionPlayer, lines: Sequence[Line]) -> StaffTally | None:
    """The unserved buildings as an earlier round's staff line carries them: those deducted (the
    leftover tiles are not among them, and come only in round 3, which no earlier round is);
    Dirk has no servants (staff.dirk)."""
    if p.dirk:
        return None
    return StaffTally(unserved=next(line.unserved for line in lines if isinstance(line, StaffLine)))


def score_tally(position: Position, round_: int, tallies: Sequence[Tally]) -> dict[str, list[Line]]:
    """staff.score from the counts: the unserved buildings but the leftover tiles of round 3,
    floored as `running` says; staff.dirk: Dirk loses nothing."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    buildings = tally_majority_lines(tallies, round_, modules)
    out: dict[str, list[Line]] = {}
    for p, t, lines in zip(position.players, tallies, buildings, strict=True):
        part = t.staff or StaffTally()
        count = 0 if p.dirk else part.unserved - part.leftover
        out[p.name] = [deduction(count, running(p.score, lines, round_))]
    return out


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """Unserved buildings are buildings of the Alhambra; the leftover tiles among them come only
    at the game's end (round 3: seed 002.22, `staff.score`); Dirk has no servants (staff.dirk)."""
    out = []
    for i, p, t in given(position):
        part = t.staff
        if part is None:
            continue
        if p.dirk and part != StaffTally():
            out.append(Violation("staff.dirk", f"{field(i, 'staff')}: Dirk has no marshal, gets no "
                                               "servants and loses nothing"))
            continue
        out += _unserved_over_buildings(i, t)
        if part.leftover > part.unserved:
            out.append(Violation("staff.score", f"{field(i, 'staff.leftover')} is {part.leftover}, more "
                                                f"than {field(i, 'staff.unserved')} ({part.unserved}): "
                                                "leftover tiles are among the buildings without a servant"))
        if part.leftover and position.round != FINAL_ROUND:
            out.append(Violation("staff.score", f"{field(i, 'staff.leftover')} is {part.leftover} in round "
                                                f"{position.round}: leftover market tiles are handed out "
                                                "only at the end, before round 3"))
    return out + _servants_over_table(position)


def _leftover_tiles(p: PositionPlayer, i: int) -> list[str]:
    """The paths of the tiles of a player given by tiles that are marked leftover."""
    return [f"$.players[{i}].{where}[{j}].leftover"
            for where, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles))
            for j, t in enumerate(tiles) if t.leftover]


def _servants_over_table(position: Position) -> list[Violation]:
    """staff.setup: the servants the tallies count (each player's buildings less the unserved
    ones) must fit the servants of each colour the players given by tiles leave. For every
    group of colours, what cannot stand on a player's buildings of the other colours needs a
    servant of the group; the counts fit exactly when no group falls short (the cut condition
    of a transport problem), so each group is checked, the smallest first."""
    left = Counter(SERVANTS)
    for p in position.players:
        if p.tally is None:
            left.subtract(c for t in (*p.alhambra, *p.reserve) if t.servant and (c := servant_colour(t)))
    counted = [(i, t) for i, p, t in given(position) if not p.dirk]
    for size in range(1, len(SERVANTS) + 1):
        for group in combinations(SERVANTS, size):
            need = {i: n for i, t in counted if (n := _served_in(t, group)) > 0}
            have = sum(max(0, left[c]) for c in group)
            if sum(need.values()) > have:
                return [_servants_short(dict(counted), group, need, have)]
    return []


def _served_in(t: Tally, group: tuple[str, ...]) -> int:
    """The buildings of a tally with a servant that must be of a colour of `group`: those with
    a servant (all but the unserved) beyond its buildings of the other colours."""
    buildings = counts_of(t.buildings)
    served = sum(buildings.values()) - (t.staff.unserved if t.staff is not None else 0)
    return served - sum(n for c, n in buildings.items() if c not in group)


def _servants_short(tallies: dict[int, Tally], group: tuple[str, ...], need: dict[int, int],
                    have: int) -> Violation:
    named = [f"{field(i, f'buildings.{c}')} = {n}" for i in need for c in group
             if (n := getattr(tallies[i].buildings, c))]
    named += [f"{field(i, 'staff.unserved')} = {(tallies[i].staff or StaffTally()).unserved}" for i in need]
    colours = " and ".join(group)
    supply = sum(SERVANTS[c] for c in group)
    taken = f" of {supply} (the others stand on tiles given)" if have < supply else ""
    return Violation("staff.setup", f"{', '.join(named)}: at least {sum(need.values())} {colours} "
                                    f"buildings carry a servant, but there are only {have}{taken} "
                                    f"{colours} servants for them")


# --- components and consistency -------------------------------------------------------------

def expected(state: GameState) -> Iterator[str]:
    for colour, n in SERVANTS.items():
        for _ in range(n):
            yield f"servant:{colour}"


def located(state: GameState) -> Iterator[tuple[str, str]]:
    staff = state.staff
    if staff is not None:
        for colour in staff.pile:
            yield f"servant:{colour}", "the face-down servant pile"
        for colour in staff.display:
            yield f"servant:{colour}", "the servant display"
    for t, where, _ in tiles_in_play(state):
        kind = servant_colour(t)
        if t.servant and kind is not None:
            yield f"servant:{kind}", where


def consistency(state: GameState) -> list[Violation]:
    """A staff part with a court marshal on a tile of each player's Alhambra, the servant
    display and the marshal move as a turn leaves them, and servants only on coloured tiles
    of an Alhambra or a reserve."""
    staff = state.staff
    if staff is None:
        return [Violation("staff.setup", "the staff module is on but the state has no `staff` part")]
    return (_marshal_problems(state, staff) + _display_problems(state, staff)
            + _move_problems(state, staff) + _servant_problems(state))


def _marshal_problems(state: GameState, staff: StaffState) -> list[Violation]:
    """staff.setup (staff.dirk: Dirk has none): one court marshal per player; staff.marshal-tile:
    each stands on a tile of its player's Alhambra."""
    out = []
    if len(staff.marshals) != len(state.players):
        rule = "staff.dirk" if state.dirk is not None else "staff.setup"
        out.append(Violation(rule, f"there is one court marshal per player ({len(state.players)}"
                                   f"{', Dirk has none' if state.dirk else ''}), not {len(staff.marshals)}"))
    for p, spot in zip(state.players, staff.marshals, strict=False):
        if not any((t.x, t.y) == (spot.x, spot.y) for t in p.alhambra):
            out.append(Violation("staff.marshal-tile", f"{p.name}'s court marshal stands at "
                                                       f"({spot.x}, {spot.y}), where "
                                                       f"{p.name}'s Alhambra has no tile"))
    return out


def _display_problems(state: GameState, staff: StaffState) -> list[Violation]:
    """staff.servant: the servant display holds at most DISPLAY_SIZE, and is full at the start
    of a turn while the pile lasts (refilled at the end of each turn)."""
    if len(staff.display) > DISPLAY_SIZE:
        return [Violation("staff.servant", f"the servant display holds {len(staff.display)}, "
                                           f"more than {DISPLAY_SIZE}")]
    if staff.pile and len(staff.display) < DISPLAY_SIZE and state.phase == "play" and not state.turn.acted:
        return [Violation("staff.servant", "the servant display was not refilled to "
                                           f"{DISPLAY_SIZE} at the end of the turn")]
    return []


def _move_problems(state: GameState, staff: StaffState) -> list[Violation]:
    """staff.move: a marshal move is pending only in play, right after money was taken, and of
    fewer than MARSHAL_STEPS steps."""
    if staff.steps and (staff.steps >= MARSHAL_STEPS or state.phase != "play" or not state.turn.acted):
        return [Violation("staff.move", f"a marshal move of {staff.steps} steps is pending "
                                        "without money just taken")]
    return []


def _servant_problems(state: GameState) -> list[Violation]:
    """staff.servant: a servant stays on a tile with a colour, in the Alhambra or the reserve;
    staff.dirk: none on Dirk's tiles (he has no marshal)."""
    out = []
    for t, where, zone in tiles_in_play(state):
        if not t.servant:
            continue
        if servant_colour(t) is None:
            out.append(Violation("staff.servant", f"{where} carries a servant but has no colour"))
        elif zone == "dirk":
            out.append(Violation("staff.dirk", f"{where} carries a servant: Dirk has no marshal"))
        elif zone not in ("alhambra", "reserve"):
            out.append(Violation("staff.servant", f"{where} carries a servant: servants stay on "
                                                  "their tiles in the Alhambra or the reserve"))
    return out


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: servants only on coloured tiles of players, at most the printed
    number of each colour (the colour of a servant is its tile's); leftover tiles only in round
    3."""
    out = _leftovers_in_position(position)
    counts: Counter[str] = Counter()
    holders: dict[str, dict[str, list[str]]] = {}  # colour -> player -> paths of its servants
    for p, path, t in _served(position):
        colour = servant_colour(t)
        if p.dirk:
            out.append(Violation("staff.dirk", f"Dirk's {t.tile} carries a servant: Dirk has "
                                               "no marshal and gets no servants"))
        elif colour is None:
            out.append(Violation("staff.servant", f"{p.name}'s {t.tile} carries a servant "
                                                  "but has no colour"))
        else:
            counts[colour] += 1
            holders.setdefault(colour, {}).setdefault(p.name, []).append(path)
    return out + beyond_supply(counts, SERVANTS, "staff.setup", lambda colour, n, held: (
        f"{n} servants on {colour} tiles: there are only {held} (held by "
        + "; ".join(f"{name} at {', '.join(paths)}" for name, paths in holders[colour].items()) + ")"))


def _served(position: Position) -> Iterator[tuple[PositionPlayer, str, Tile | PlacedTile]]:
    """The tiles of a position that carry a servant: (player, field path, tile)."""
    for i, p in enumerate(position.players):
        for zone, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles)):
            yield from ((p, f"$.players[{i}].{zone}[{j}]", t) for j, t in enumerate(tiles) if t.servant)


def _leftovers_in_position(position: Position) -> list[Violation]:
    """staff.score: positions mark a leftover tile only in round 3 (handed out at the game's
    end, they would escape the deduction of rounds 1 and 2). How many there may be is the base
    game's (base.end.leftovers), which counts `staff.leftover` too (`TallyPart.leftovers`)."""
    if position.round == FINAL_ROUND:
        return []
    return [Violation("staff.score", f"{path} is true in round {position.round}: leftover market tiles "
                                     "are handed out only at the game's end, before round 3")
            for i, p in enumerate(position.players) if p.tally is None for path in _leftover_tiles(p, i)]


def seen(state: GameState, seat: int | None) -> StaffSeen:
    """staff.setup: the servant pile lies face down, so everyone sees only its size."""
    staff = state.staff
    assert staff is not None
    return StaffSeen(pile_size=len(staff.pile), display=staff.display, marshals=staff.marshals,
                     steps=staff.steps)


STAFF = register(Module(
    id="staff",
    name="Palace Staff",
    rule_ids=("staff.setup", "staff.move", "staff.servant", "staff.marshal-tile", "staff.score",
              "staff.dirk"),
    actions=(ActionRule(action=MoveMarshal, rule="staff.move", kind="decision", check=check_move,
                        apply=apply_move, candidates=candidates_move, sample=sample_move),),
    checks=((RemoveToReserve, check_remove), (SwapWithReserve, check_swap),
            (BuilderRedesign, check_builder), (PlaceBuilding, check_displaced)),
    setup=((SETUP_STEP, setup),),
    end_of_turn=((REFILL_STEP, lay_display),),
    after_action=after_action,
    pending=pending,
    scoring=score,
    components=located,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    tally=TallyPart(type=StaffTally, of_tiles=count_tally, score=score_tally, check=check_tally,
                    of_lines=tally_of_lines, check_of_lines=check_of_lines, leftovers="leftover"),
    events=(ServantsLaid, MarshalMoved),
    lines=(StaffLine,),
    tokens=("servant",),
    play_tokens={"servant": "staff.servant"},  # never on a leftover tile (base.end.leftovers)
    view=ViewPart(StaffSeen, seen),
    default_data=DATA,
))
