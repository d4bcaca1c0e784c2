"""Dirk's action (dirk.gift): a held building given to him instead of being placed, and the
events of his tiles."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...actions import Action
from ...base.placement import held_problem, take_held
from ...events import Event
from ...module import ActionRule, Context
from ...records import Text
from ...rng import Generator
from ...state import GameState
from ...text import t
from ...violations import Violation


class GiveToDirk(Action, tag="give-to-dirk"):
    """dirk.gift: a held building goes to Dirk instead of being placed."""

    tile: Text


class DirkReceivedTiles(Event, tag="dirk-received-tiles"):
    tiles: tuple[str, ...]


class BuildingGivenToDirk(Event, tag="building-given-to-dirk"):
    player: str
    tile: str


def check_gift(state: GameState, action: GiveToDirk) -> list[Violation]:
    if state.phase != "play":
        return [Violation("dirk.gift", t("leftover tiles at the end are placed, not given to Dirk"))]
    return held_problem(state.players[state.turn.player], action.tile)


def apply_gift(state: GameState, action: GiveToDirk, ctx: Context) -> GameState:
    assert state.dirk is not None
    seat = state.turn.player
    state, tile = take_held(state, seat, action.tile)
    ctx.events.append(BuildingGivenToDirk(player=action.player, tile=action.tile))
    dirk = state.dirk
    assert dirk is not None
    return replace(state, dirk=replace(dirk, tiles=(*dirk.tiles, tile)))


def candidates_gift(state: GameState, seat: int) -> Iterator[GiveToDirk]:
    if state.phase != "play":
        return
    player = state.players[seat]
    for held in player.held:
        yield GiveToDirk(player=player.name, tile=held.tile)


def sample_gift(state: GameState, seat: int, rng: Generator) -> GiveToDirk | None:
    options = list(candidates_gift(state, seat))
    if not options or rng.below(4):  # now and then, so random games still build
        return None
    return rng.choice(options)


ACTIONS = (ActionRule(action=GiveToDirk, rule="dirk.gift", kind="placement", check=check_gift,
                      apply=apply_gift, candidates=candidates_gift, sample=sample_gift,
                      phases=("play",)),)
