"""base.turn.placement: held buildings go into the Alhambra or onto the reserve at the end of
the turn (and leftover market tiles at the end of the game); `end-turn` declines an extra action."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from msgspec.structs import replace

from ..actions import EndTurn, PlaceBuilding, ReserveBuilding
from ..events import BuildingPlaced, BuildingReserved
from ..flow import end_actions, with_player
from ..grid import check_placement, derive_placed, placements, rotate, spots_for, walls_of
from ..module import ActionRule, Context, plan_of
from ..rng import Generator
from ..state import GameState, Player, Tile, place_tile
from ..text import t
from ..violations import Violation


def held_tile(player: Player, tile: str) -> Tile | None:
    for h in player.held:
        if h.tile == tile:
            return h
    return None


def held_problem(player: Player, tile: str) -> list[Violation]:
    if held_tile(player, tile) is not None:
        return []
    held = tuple(h.tile for h in player.held)
    return [Violation("base.turn.placement", t("{player} holds no building {tile} to place (held: {held})",
                                               player=player.name, tile=tile, held=held))]


def take_held(state: GameState, seat: int, tile: str) -> tuple[GameState, Tile]:
    """The held tile leaves the player's hand of held buildings; their actions are over."""
    player = state.players[seat]
    found = held_tile(player, tile)
    assert found is not None
    state = with_player(state, seat, held=tuple(t for t in player.held if t is not found))
    return end_actions(state), found


def check_place(state: GameState, action: PlaceBuilding) -> list[Violation]:
    player = state.players[state.turn.player]
    out = held_problem(player, action.tile)
    if out:
        return out
    tile = held_tile(player, action.tile)
    assert tile is not None
    for fn in plan_of(state).hooks["placement_check"]:  # a module's own placement (craftsmen.brickmaker)
        found = fn(state, action)
        if found is not None:
            return found
    # A rotation (craftsmen.mosaic-artist) is refused unless its module allows it.
    return check_placement(player.alhambra, (action.x, action.y), action.tile,
                           rotate(walls_of(tile), action.rotation or 0))


def apply_place(state: GameState, action: PlaceBuilding, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    tile = held_tile(player, action.tile)
    assert tile is not None
    alhambra = (*player.alhambra, place_tile(tile, action.x, action.y, rotation=action.rotation or 0))
    derive_placed(player.alhambra, alhambra)
    state = with_player(state, seat, held=tuple([t for t in player.held if t is not tile]), alhambra=alhambra)
    state = end_actions(state)
    ctx.events.append(BuildingPlaced(player=player.name, tile=action.tile, x=action.x, y=action.y))
    return state


def candidates_place(state: GameState, seat: int) -> Iterator[PlaceBuilding]:
    player = state.players[seat]
    for tile, (x, y) in placements(player.alhambra, player.held):
        yield PlaceBuilding(player=player.name, tile=tile.tile, x=x, y=y)


def check_reserve(state: GameState, action: ReserveBuilding) -> list[Violation]:
    return held_problem(state.players[state.turn.player], action.tile)


def apply_reserve(state: GameState, action: ReserveBuilding, ctx: Context) -> GameState:
    seat = state.turn.player
    state, tile = take_held(state, seat, action.tile)
    player = state.players[seat]
    state = with_player(state, seat, reserve=(*player.reserve, tile))
    ctx.events.append(BuildingReserved(player=player.name, tile=action.tile))
    return state


def candidates_reserve(state: GameState, seat: int) -> Iterator[ReserveBuilding]:
    player = state.players[seat]
    for h in player.held:
        yield ReserveBuilding(player=player.name, tile=h.tile)


def sample_placement(state: GameState, seat: int, rng: Generator) -> PlaceBuilding | ReserveBuilding | None:
    """Mostly build when a space fits; otherwise reserve."""
    player = state.players[seat]
    if not player.held:
        return None
    picked = rng.pick_among(player.held, partial(spots_for, player.alhambra)) if rng.below(10) < 9 else None
    if picked is not None:
        tile, (x, y) = picked
        return PlaceBuilding(player=player.name, tile=tile.tile, x=x, y=y)
    return ReserveBuilding(player=player.name, tile=rng.choice(player.held).tile)


def check_end_turn(state: GameState, action: EndTurn) -> list[Violation]:
    player = state.players[state.turn.player]
    if not state.turn.acted:
        return [Violation("base.turn.one-action",
                          t("{player} must take an action before ending the turn", player=player.name))]
    if player.held:
        held = tuple(h.tile for h in player.held)
        return [Violation("base.turn.placement", t("{player} must first place the held buildings ({held})",
                                                   player=player.name, held=held))]

    return []


def apply_end_turn(state: GameState, action: EndTurn, ctx: Context) -> GameState:
    return replace(state, turn=replace(state.turn, actions=0))


def candidates_end_turn(state: GameState, seat: int) -> Iterator[EndTurn]:
    yield EndTurn(player=state.players[seat].name)


def sample_end_turn(state: GameState, seat: int, rng: Generator) -> EndTurn | None:
    """Only where `check_end_turn` passes: a refusal's words cost more than the question."""
    player = state.players[seat]
    return EndTurn(player=player.name) if state.turn.acted and not player.held else None


PLACEMENT_PHASES = ("play", "final-placement")
RULE_PLACE = ActionRule(action=PlaceBuilding, rule="base.turn.placement", kind="placement",
                        check=check_place, apply=apply_place, candidates=candidates_place,
                        sample=sample_placement, phases=PLACEMENT_PHASES,
                        exact_sample=True)
RULE_RESERVE = ActionRule(action=ReserveBuilding, rule="base.turn.placement", kind="placement",
                          check=check_reserve, apply=apply_reserve, candidates=candidates_reserve,
                          sample=sample_placement, phases=PLACEMENT_PHASES,
                          exact_sample=True)
RULE_END_TURN = ActionRule(action=EndTurn, rule="base.buy.exact-bonus", kind="action",
                           check=check_end_turn, apply=apply_end_turn,
                           candidates=candidates_end_turn, sample=sample_end_turn,
                           exact_candidates=False, exact_sample=True)
