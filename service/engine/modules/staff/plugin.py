"""Palace Staff, assembled: the Module registered from its parts."""

from __future__ import annotations

from ...actions import PlaceBuilding, RemoveToReserve, SwapWithReserve
from ...module import Module, register
from ...text import t
from ..craftsmen.actions import BuilderRedesign
from .actions import ACTIONS, MarshalMoved, ServantsLaid
from .census import VIEW, consistency, expected, located, unseen
from .data import DATA
from .play import (
    REFILL_STEP,
    SETUP_STEP,
    after_action,
    check_builder,
    check_displaced,
    check_remove,
    check_swap,
    lay_display,
    pending,
    setup,
)
from .scoring import TALLY, StaffLine, check_position, score

MODULE = register(Module(
    id="staff",
    name=t("Palace Staff"),
    rule_ids=("staff.setup", "staff.move", "staff.servant", "staff.marshal-tile", "staff.score",
              "staff.dirk"),
    actions=ACTIONS,
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
    tally=TALLY,
    events=(ServantsLaid, MarshalMoved),
    lines=(StaffLine,),
    tokens=("servant",),
    play_tokens={"servant": "staff.servant"},  # never on a leftover tile (base.end.leftovers)
    view=VIEW,
    unseen=unseen,
    default_data=DATA,
))
