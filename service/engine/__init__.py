"""The Alhambra rules engine: pure functions over immutable states, no I/O.

    new_game(players, modules, seed) -> Outcome
    validate(state, action) -> list[Violation]
    apply(state, action) -> Outcome            (raises IllegalAction)
    advance(state, action) -> Outcome          (apply without validating: for actions the engine
                                                produced, legal listing or random_action)
    legal_actions(state, limit, player) -> (actions, truncated)
    to_act(state) -> ToAct                     (who may act now, and why)
    random_action(state, generator) -> Action | None
    score(position) / score_state(state, round) -> Breakdown
    check_consistency(state) -> list[Violation]
    check_edition(state) -> GameState          (of the current edition; raises OutdatedState)
    replay(players, modules, seed, actions, upto) -> Replay   (a game's record played again)
"""

from .actions import Action
from .consistency import check_consistency
from .editions import EDITION, OutdatedState, check_edition, check_record_edition
from .flow import Actor, ToAct, to_act
from .game import (
    GameRequestError,
    Outcome,
    advance,
    apply,
    check_state,
    iter_legal_actions,
    legal_actions,
    new_game,
    random_action,
    score,
    score_state,
    validate,
)
from .grid import PositionTooComplex
from .replay import MAX_RECORD_ACTIONS, IllegalRecordAction, Replay, replay
from .rng import Generator
from .scoring import Breakdown, Position
from .state import GameState
from .violations import INCONSISTENT, IllegalAction, InconsistentState, Violation

__all__ = [
    "EDITION",
    "INCONSISTENT",
    "MAX_RECORD_ACTIONS",
    "Action",
    "Actor",
    "Breakdown",
    "GameRequestError",
    "GameState",
    "Generator",
    "IllegalAction",
    "IllegalRecordAction",
    "InconsistentState",
    "Outcome",
    "OutdatedState",
    "Position",
    "PositionTooComplex",
    "Replay",
    "ToAct",
    "Violation",
    "advance",
    "apply",
    "check_consistency",
    "check_edition",
    "check_record_edition",
    "check_state",
    "iter_legal_actions",
    "legal_actions",
    "new_game",
    "random_action",
    "replay",
    "score",
    "score_state",
    "to_act",
    "validate",
]
