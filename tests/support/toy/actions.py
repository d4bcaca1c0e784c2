"""toy.bow: at the end of every turn, the active player bows to the fountain."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from service.engine.actions import Action
from service.engine.events import Event
from service.engine.module import ActionRule, Context
from service.engine.state import GameState

from .data import BOW_STEP


class Bow(Action, tag="bow"):
    """The toy decision: at the end of every turn, the active player bows to the fountain."""


class Bowed(Event, tag="bowed"):
    player: str


def _bow(state: GameState, action: Bow, ctx: Context) -> GameState:
    ctx.events.append(Bowed(player=action.player))
    return replace(state, turn=replace(state.turn, ending=BOW_STEP + 2))


def _candidates(state: GameState, seat: int) -> Iterator[Action]:
    yield Bow(player=state.players[seat].name)


def _sample(state: GameState, seat: int, rng: object) -> Action:
    return Bow(player=state.players[seat].name)


ACTIONS = (ActionRule(action=Bow, rule="toy.bow", kind="decision", check=lambda s, a: [],
                      apply=_bow, candidates=_candidates, sample=_sample),)
