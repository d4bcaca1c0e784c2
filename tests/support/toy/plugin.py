"""The toy module, assembled from its parts; the tests register it for a block
(`temporarily_registered(MODULE)`), as `service/engine/modules/__init__.py` registers a real one."""

from __future__ import annotations

from service.engine.module import Module

from . import actions, play, scoring

MODULE = Module(
    id="toy", name="A toy module", rule_ids=("toy.bow",),
    actions=actions.ACTIONS,
    end_of_turn=play.END_OF_TURN,
    after_action=play.watch,
    pending=play.pending,
    scoring=scoring.score,
    count_bonus=scoring.count_bonus,
    events=(actions.Bowed, play.Watched),
)
