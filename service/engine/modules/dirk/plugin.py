"""Dirk, assembled: the module registered from its parts."""

from __future__ import annotations

from ...module import Module, register
from ...text import t
from .actions import ACTIONS, BuildingGivenToDirk, DirkReceivedTiles
from .census import consistency, located, places, withdrawn
from .data import DATA
from .play import after_scoring_round, leave_copies_in_the_box, setup

MODULE = register(Module(
    id="dirk",
    name=t("Two players: Dirk"),
    rule_ids=("dirk.setup", "dirk.refills", "dirk.scores", "dirk.gift"),
    actions=ACTIONS,
    # Right after the deck is shuffled (10), before starting money is dealt (50).
    setup=((12, leave_copies_in_the_box), (55, setup)),
    after_scoring_round=after_scoring_round,
    components=located,
    consistency=consistency,
    withdrawn=withdrawn,
    places=places,
    events=(DirkReceivedTiles, BuildingGivenToDirk),
    default_data=DATA,
))
