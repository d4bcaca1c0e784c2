"""New Building Grounds, assembled: the Module registered from its parts."""

from __future__ import annotations

from ...actions import BuyBuilding
from ...module import Module, register
from ...text import t
from .actions import ACTIONS, ConstructionChosen, GroundLaid, SiteBuiltForDirk
from .census import VIEW, consistency, expected, located
from .data import DATA
from .play import (
    DIRK_STEP,
    SETUP_STEP,
    after_action,
    after_scoring_round,
    build_for_dirk,
    check_buy,
    pending,
    setup,
)
from .scoring import TALLY, check_position

MODULE = register(Module(
    id="grounds",
    name=t("New Building Grounds"),
    rule_ids=("grounds.setup", "grounds.buy", "grounds.score", "grounds.dirk"),
    actions=ACTIONS,
    checks=((BuyBuilding, check_buy),),
    setup=((SETUP_STEP, setup), (DIRK_STEP, build_for_dirk)),
    after_action=after_action,
    after_scoring_round=after_scoring_round,
    pending=pending,
    components=located,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    tally=TALLY,
    events=(GroundLaid, ConstructionChosen, SiteBuiltForDirk),
    tokens=("construction",),
    view=VIEW,
    default_data=DATA,
))
