"""The toy's part in the rest of play: the bow it waits for, and what it watches."""

from __future__ import annotations

from service.engine.actions import Action, TakeMoney
from service.engine.events import Event
from service.engine.module import Context, Pending
from service.engine.state import GameState

from .actions import Bow
from .data import BOW_STEP


class Watched(Event, tag="watched"):
    player: str


def pending(state: GameState) -> Pending | None:
    turn = state.turn
    ending = state.phase == "play" and turn.actions == 0 and not state.active.held
    if ending and turn.ending <= BOW_STEP + 1:
        return Pending(seat=turn.player, rule="toy.bow", what="bow to the fountain", actions=(Bow,))
    return None


def watch(state: GameState, action: Action, ctx: Context) -> GameState:
    if isinstance(action, TakeMoney):
        ctx.events.append(Watched(player=action.player))
    return state


END_OF_TURN = ((BOW_STEP, lambda state, ctx: state),)
