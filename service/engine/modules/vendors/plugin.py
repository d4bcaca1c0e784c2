"""Street Vendors and Inhabitants as a Module: its parts (actions, play, scoring, census)
assembled and registered; `modules.register_all` imports this file."""

from __future__ import annotations

from ...module import Module, register
from ...text import t
from .actions import (
    ACTIONS,
    DiscLifted,
    DiscPlaced,
    DiscsRevealed,
    InhabitantsChosen,
    InhabitantsReturned,
    VendorVisited,
)
from .census import VIEW, consistency, expected, located, unseen
from .data import DATA
from .play import RELOCATE_STEP, SETUP_STEP, after_action, pending, relocate_step, setup
from .scoring import TALLY, VendorsLine, check_position, score

MODULE = register(Module(
    id="vendors",
    name=t("Street Vendors and Inhabitants"),
    rule_ids=("vendors.setup", "vendors.visit", "vendors.relocate", "vendors.one-per-building",
              "vendors.score"),
    actions=ACTIONS,
    setup=((SETUP_STEP, setup),),
    end_of_turn=((RELOCATE_STEP, relocate_step),),
    after_action=after_action,
    pending=pending,
    scoring=score,
    components=located,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    tally=TALLY,
    events=(InhabitantsChosen, DiscsRevealed, DiscLifted, VendorVisited, DiscPlaced, InhabitantsReturned),
    lines=(VendorsLine,),
    tokens=("inhabitant",),
    view=VIEW,
    unseen=unseen,
    default_data=DATA,
))
