"""The Treasure Chamber, assembled: the module registered from its parts."""

from __future__ import annotations

from ...module import Module, register
from ...text import t
from .actions import ACTIONS, ChamberClosed, ChestsPlaced, ChestsReturned, RoomRefilled, TreasureBought
from .census import VIEW, consistency, expected, located, unseen
from .data import DATA
from .play import SETUP_STEP, pending, return_removed, setup
from .scoring import TALLY, TreasureLine, check_position, score

MODULE = register(Module(
    id="treasure",
    name=t("The Treasure Chamber"),
    rule_ids=("treasure.setup", "treasure.action", "treasure.place", "treasure.pass",
              "treasure.refill", "treasure.removed", "treasure.score", "treasure.no-huts"),
    actions=ACTIONS,
    setup=((SETUP_STEP, setup),),
    after_action=return_removed,
    pending=pending,
    scoring=score,
    components=located,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    tally=TALLY,
    events=(TreasureBought, ChestsPlaced, ChestsReturned, RoomRefilled, ChamberClosed),
    lines=(TreasureLine,),
    tokens=("chest",),
    play_tokens={"chest": "treasure.place"},  # never on a leftover tile (base.end.leftovers)
    view=VIEW,
    unseen=unseen,
    default_data=DATA,
))
