"""base.redesign: move a reserve tile into the Alhambra, an Alhambra tile to the reserve, or swap
the two; every result obeys §4 and §5."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from msgspec.structs import replace

from ..actions import PlaceFromReserve, RemoveToReserve, SwapWithReserve
from ..catalogue import FOUNTAIN
from ..events import BuildingPlaced, BuildingRemoved, BuildingReserved
from ..flow import spend_action, with_player
from ..grid import (
    check_placement,
    derive_placed,
    derive_removed,
    derive_swapped,
    first_removable,
    holes,
    layout_of,
    names_of,
    placements,
    reachable,
    removable,
    removal,
    rotate,
    side_mismatches,
    spots_for,
    swap_needs,
    walls_of,
)
from ..module import ActionRule, Context
from ..rng import Generator
from ..state import GameState, PlacedTile, Player, Tile, lift_tile, place_tile
from ..text import t
from ..violations import Violation


def placed(player: Player, tile: str) -> PlacedTile | None:
    for p in player.alhambra:
        if p.tile == tile:
            return p
    return None


def in_reserve(player: Player, tile: str) -> Tile | None:
    for r in player.reserve:
        if r.tile == tile:
            return r
    return None


def is_held(player: Player, tile: str) -> bool:
    return any(t.tile == tile for t in player.held)


def reserve_tile_problem(player: Player, tile: str) -> list[Violation]:
    """The tile must be on the player's reserve; a held building cannot be used (base.buy.hold)."""
    if in_reserve(player, tile) is not None:
        return []
    if is_held(player, tile):
        return [Violation("base.buy.hold",
                          t("{tile} was bought this turn: it is held until the end of the turn and "
                            "cannot be used in a redesign", tile=tile))]
    return [Violation("base.redesign", t("{tile} is not on {player}'s reserve", tile=tile,
                                         player=player.name))]


def alhambra_tile_problem(player: Player, tile: str) -> list[Violation]:
    if tile == FOUNTAIN:
        return [Violation("base.place.fountain-fixed",
                          t("the Lion Fountain never moves and never leaves the Alhambra"))]
    if placed(player, tile) is None:
        if is_held(player, tile):
            return [Violation("base.buy.hold",
                              t("{tile} was bought this turn and is not in the Alhambra yet", tile=tile))]
        return [Violation("base.redesign", t("{tile} is not in {player}'s Alhambra", tile=tile,
                                             player=player.name))]
    return []


# --- (a) reserve -> Alhambra ----------------------------------------------------------------

def check_place(state: GameState, action: PlaceFromReserve) -> list[Violation]:
    player = state.players[state.turn.player]
    out = reserve_tile_problem(player, action.tile)
    tile = in_reserve(player, action.tile)
    if out or tile is None:
        return out
    # A rotation (craftsmen.mosaic-artist) is refused unless its module allows it.
    return check_placement(player.alhambra, (action.x, action.y), action.tile,
                           rotate(walls_of(tile), action.rotation or 0))


def apply_place(state: GameState, action: PlaceFromReserve, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    tile = in_reserve(player, action.tile)
    assert tile is not None
    alhambra = (*player.alhambra, place_tile(tile, action.x, action.y, rotation=action.rotation or 0))
    derive_placed(player.alhambra, alhambra)
    reserve = tuple([t for t in player.reserve if t is not tile])
    state = with_player(state, seat, reserve=reserve, alhambra=alhambra)
    ctx.events.append(BuildingPlaced(player=player.name, tile=action.tile, x=action.x, y=action.y))
    return spend_action(state, another=False)


def candidates_place(state: GameState, seat: int) -> Iterator[PlaceFromReserve]:
    player = state.players[seat]
    for tile, (x, y) in placements(player.alhambra, player.reserve):
        yield PlaceFromReserve(player=player.name, tile=tile.tile, x=x, y=y)


# --- (b) Alhambra -> reserve ----------------------------------------------------------------

def removal_problems(player: Player, tile: PlacedTile) -> list[Violation]:
    """base.remove.valid-after: the rest stays reachable and no hole appears."""
    layout = layout_of(player.alhambra)
    names = names_of(player.alhambra)
    pos = (tile.x, tile.y)
    del layout[pos]
    out = []
    cut_off = sorted(set(layout) - reachable(layout))
    if cut_off:
        listed = tuple(t("{tile} at {pos}", tile=names[p], pos=str(p)) for p in cut_off)
        out.append(Violation("base.remove.valid-after",
                             t("removing {tile} from {pos} would cut {cut_off} off from the fountain",
                               tile=tile.tile, pos=str(pos), cut_off=listed)))
    if holes(layout, [pos]):
        out.append(Violation("base.remove.valid-after",
                             t("removing {tile} would leave the empty space {pos} enclosed on all four "
                               "sides", tile=tile.tile, pos=str(pos))))
    return out


def check_remove(state: GameState, action: RemoveToReserve) -> list[Violation]:
    player = state.players[state.turn.player]
    out = alhambra_tile_problem(player, action.tile)
    if out:
        return out
    tile = placed(player, action.tile)
    assert tile is not None
    known = removal(player.alhambra)
    if known.all_reachable and tile in known.removable:
        return []  # what removal_problems finds, known beforehand
    return removal_problems(player, tile)


def apply_remove(state: GameState, action: RemoveToReserve, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    tile = placed(player, action.tile)
    assert tile is not None
    alhambra = tuple([p for p in player.alhambra if p is not tile])
    derive_removed(player.alhambra, alhambra, tile)
    state = with_player(state, seat, alhambra=alhambra, reserve=(*player.reserve, lift_tile(tile)))
    ctx.events.append(BuildingRemoved(player=player.name, tile=tile.tile, x=tile.x, y=tile.y))
    ctx.events.append(BuildingReserved(player=player.name, tile=tile.tile))
    return spend_action(state, another=False)


def candidates_remove(state: GameState, seat: int) -> Iterator[RemoveToReserve]:
    player = state.players[seat]
    for p in removable(player.alhambra):
        yield RemoveToReserve(player=player.name, tile=p.tile)


def sample_remove(state: GameState, seat: int, rng: Generator) -> RemoveToReserve | None:
    """The first removable tile from a random one on (grid.first_removable)."""
    player = state.players[seat]
    alhambra = player.alhambra
    if len(alhambra) < 2:
        return None
    tile = first_removable(alhambra, rng.below(len(alhambra)))
    return RemoveToReserve(player=player.name, tile=tile.tile) if tile is not None else None


# --- (c) swap -------------------------------------------------------------------------------

def swap_problems(player: Player, new: Tile, old: PlacedTile, rotation: int = 0) -> list[Violation]:
    """base.swap.same-space: the reserve tile (turned by `rotation`, craftsmen.mosaic-artist)
    must obey §4 in the removed tile's space.

    Matching every neighbour means its shared sides equal the old tile's, so the paths on foot
    and the empty spaces stay exactly as they were: sides are all there is to check.
    """
    walls = rotate(walls_of(new), rotation)
    if any(tile == old.tile and walls & shared == required  # every side matches: no refusal
           for tile, shared, required in swap_needs(player.alhambra)):
        return []
    layout = layout_of(player.alhambra)
    return [Violation("base.swap.same-space", t("swapping {new} for {old}: {why}", new=new.tile, old=old.tile,
                                                why=m))

            for m in side_mismatches(layout, names_of(player.alhambra), (old.x, old.y),
                                     rotate(walls_of(new), rotation), new.tile)]


def check_swap(state: GameState, action: SwapWithReserve) -> list[Violation]:
    player = state.players[state.turn.player]
    out = reserve_tile_problem(player, action.tile) + alhambra_tile_problem(player, action.replaces)
    if out:
        return out
    old = placed(player, action.replaces)
    new = in_reserve(player, action.tile)
    assert old is not None and new is not None
    # A rotation (craftsmen.mosaic-artist) is refused unless its module allows it.
    return swap_problems(player, new, old, action.rotation or 0)


def apply_swap(state: GameState, action: SwapWithReserve, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    old = placed(player, action.replaces)
    new = in_reserve(player, action.tile)
    assert old is not None and new is not None
    swapped = place_tile(new, old.x, old.y, rotation=action.rotation or 0)
    alhambra = tuple([swapped if p is old else p for p in player.alhambra])
    derive_swapped(player.alhambra, alhambra, swapped)
    reserve = (*[t for t in player.reserve if t is not new], lift_tile(old))
    state = with_player(state, seat, alhambra=alhambra, reserve=reserve)
    ctx.events.append(BuildingRemoved(player=player.name, tile=old.tile, x=old.x, y=old.y))
    ctx.events.append(BuildingReserved(player=player.name, tile=old.tile))
    ctx.events.append(BuildingPlaced(player=player.name, tile=action.tile, x=old.x, y=old.y))
    return spend_action(state, another=False)


def _swaps(player: Player) -> list[tuple[str, str]]:
    """(reserve tile, Alhambra tile) of every swap that obeys §4."""
    if not player.reserve:
        return []
    needs = swap_needs(player.alhambra)
    return [(r.tile, old) for r in player.reserve for old in _replaceable(needs, r)]


def _replaceable(needs: tuple[tuple[str, int, int], ...], tile: Tile) -> list[str]:
    """The Alhambra tiles (of `swap_needs`) that `tile` may take the place of (§4)."""
    walls = walls_of(tile)
    return [old for old, shared, required in needs if walls & shared == required]


def candidates_swap(state: GameState, seat: int) -> Iterator[SwapWithReserve]:
    player = state.players[seat]
    for tile, old in _swaps(player):
        yield SwapWithReserve(player=player.name, tile=tile, replaces=old)


def sample_swap(state: GameState, seat: int, rng: Generator) -> SwapWithReserve | None:
    """A random reserve tile on, the first that fits in the place of an Alhambra tile swaps
    with a random one of those (`_swaps` for one tile at a time)."""
    player = state.players[seat]
    if not player.reserve:
        return None
    picked = rng.pick_among(player.reserve, partial(_replaceable, swap_needs(player.alhambra)))
    if picked is None:
        return None
    tile, old = picked
    return SwapWithReserve(player=player.name, tile=tile.tile, replaces=old)


def sample_place(state: GameState, seat: int, rng: Generator) -> PlaceFromReserve | None:
    player = state.players[seat]
    picked = rng.pick_among(player.reserve, partial(spots_for, player.alhambra))
    if picked is None:
        return None
    tile, (x, y) = picked
    return PlaceFromReserve(player=player.name, tile=tile.tile, x=x, y=y)


RULE_PLACE = ActionRule(action=PlaceFromReserve, rule="base.redesign", kind="action",
                        check=check_place, apply=apply_place, candidates=candidates_place,
                        sample=sample_place,
                        exact_sample=True)
RULE_REMOVE = ActionRule(action=RemoveToReserve, rule="base.redesign", kind="action",
                         check=check_remove, apply=apply_remove, candidates=candidates_remove,
                         sample=sample_remove,
                         exact_sample=True)
RULE_SWAP = ActionRule(action=SwapWithReserve, rule="base.redesign", kind="action",
                       check=check_swap, apply=apply_swap, candidates=candidates_swap,
                       sample=sample_swap,
                       exact_sample=True)

_ = replace
