"""The Walls' action: adding a set-aside wall card's walls to a tile (walls.action, with
walls.no-overlap), and the module's events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from msgspec.structs import replace

from ...actions import Action
from ...catalogue import parse_walls, walls_text
from ...events import Event
from ...flow import spend_action, with_player
from ...grid import check_layout, rotate
from ...module import ActionRule, Context
from ...records import Text
from ...rng import Generator
from ...state import GameState, PlacedTile, Player, Tile
from ...text import t
from ...violations import Violation
from .data import PRINTED, WALLS, sides
from .model import UsedWall, WallsState


class AddWalls(Action, tag="add-walls"):
    """walls.action: take the set-aside wall card `card` and add its walls, as shown (in the
    Alhambra's frame), to the tile `tile` of the player's Alhambra or reserve."""

    card: Text
    tile: Text


class WallCardSetAside(Event, tag="wall-card-set-aside"):
    card: str


class WallsAdded(Event, tag="walls-added"):
    player: str
    card: str
    tile: str
    walls: str  # as shown (N, E, S, W of the Alhambra)


def _walls(state: GameState) -> WallsState:
    assert state.walls is not None
    return state.walls


def _tile_of(player: Player, tile: str) -> Tile | None:
    for one in (*player.alhambra, *player.reserve):
        if one.tile == tile:
            return one
    return None


def own_frame(tile: Tile, shown: int) -> int:
    """Walls shown in the Alhambra's frame, in the tile's own frame (undoing its rotation)."""
    rotation = getattr(tile, "rotation", 0)
    return rotate(shown, 360 - rotation) if rotation else shown


T = TypeVar("T", bound=Tile)


def with_added(tile: T, own: int) -> T:
    mask = parse_walls(tile.added_walls) if tile.added_walls else 0
    return replace(tile, added_walls=walls_text(mask | own))


def problems(state: GameState, player: Player, card: str, tile_id: str) -> list[Violation]:
    walls = _walls(state)
    if card not in walls.aside:
        return [Violation("walls.action", t("{card} is not a wall card set aside beside the display "
                                            "(set aside: {aside})", card=card, aside=tuple(walls.aside))
                          if walls.aside else
                          t("{card} is not a wall card set aside beside the display (none is set aside)",
                            card=card))]
    tile = _tile_of(player, tile_id)
    if tile is None:
        return [Violation("walls.action", t("{tile} is not a tile of {player}'s Alhambra or reserve",
                                            tile=tile_id, player=player.name))]
    own = own_frame(tile, WALLS[card])
    existing = PRINTED[tile.tile] | (parse_walls(tile.added_walls) if tile.added_walls else 0)
    overlap = own & existing
    if overlap:
        shown = rotate(overlap, getattr(tile, "rotation", 0))
        return [Violation("walls.no-overlap", t("{card} would put a wall on the {sides} side of {tile}, "
                                                "which already has a wall there", card=card,
                                                sides=sides(shown), tile=tile_id))]
    if not isinstance(tile, PlacedTile):
        return []
    after = tuple(with_added(p, own) if p.tile == tile_id else p for p in player.alhambra)
    return [Violation("walls.no-overlap", t("{card} on {tile} at ({x}, {y}): the Alhambra would break "
                                            "{rule}: {why}", card=card, tile=tile_id, x=tile.x, y=tile.y,
                                            rule=v.rule, why=v.message))
            for v in check_layout(after)]


def check_add(state: GameState, action: AddWalls) -> list[Violation]:
    return problems(state, state.players[state.turn.player], action.card, action.tile)


def apply_add(state: GameState, action: AddWalls, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    tile = _tile_of(player, action.tile)
    assert tile is not None
    own = own_frame(tile, WALLS[action.card])

    def added(one: Tile) -> Tile:
        return with_added(one, own) if one.tile == action.tile else one

    state = with_player(state, seat, alhambra=tuple(added(one) for one in player.alhambra),
                        reserve=tuple(added(one) for one in player.reserve))
    walls = _walls(state)
    used = UsedWall(card=action.card, player=player.name, tile=action.tile, walls=walls_text(own))
    walls = replace(walls, aside=tuple(c for c in walls.aside if c != action.card),
                    used=(*walls.used, used))
    ctx.events.append(WallsAdded(player=player.name, card=action.card, tile=action.tile,
                                 walls=walls_text(WALLS[action.card])))
    return spend_action(replace(state, walls=walls), another=False)


def candidates_add(state: GameState, seat: int) -> Iterator[AddWalls]:
    player = state.players[seat]
    for card in sorted(set(_walls(state).aside)):
        for one in (*player.alhambra, *player.reserve):
            if not problems(state, player, card, one.tile):
                yield AddWalls(player=player.name, card=card, tile=one.tile)


def sample_add(state: GameState, seat: int, rng: Generator) -> AddWalls | None:
    """A few random (card, tile) pairs; the first legal one (None if none was found)."""
    aside = _walls(state).aside
    if not aside:
        return None
    player = state.players[seat]
    tiles = [one.tile for one in (*player.alhambra, *player.reserve)]
    for _ in range(8):
        card, tile = rng.choice(sorted(aside)), rng.choice(tiles)
        if not problems(state, player, card, tile):
            return AddWalls(player=player.name, card=card, tile=tile)
    return None


ACTIONS: tuple[ActionRule, ...] = (
    ActionRule(action=AddWalls, rule="walls.action", kind="action", check=check_add, apply=apply_add,
               candidates=candidates_add, sample=sample_add),
)
