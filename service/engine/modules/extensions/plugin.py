"""The Extensions module, assembled: the Module registered from its parts."""

from __future__ import annotations

from ...module import Module, register
from ...text import t
from .actions import ACTIONS, ExtensionBought
from .census import VIEW, consistency, expected, located
from .data import DATA
from .play import SETUP_STEP, setup
from .scoring import TALLY, check_position, count_bonus

MODULE = register(Module(
    id="extensions",
    name=t("Extensions"),
    rule_ids=("extensions.setup", "extensions.action", "extensions.matching", "extensions.owns-type",
              "extensions.score", "extensions.dirk"),
    actions=ACTIONS,
    setup=((SETUP_STEP, setup),),
    count_bonus=count_bonus,
    components=located,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    tally=TALLY,
    events=(ExtensionBought,),
    tokens=("extension",),
    play_tokens={"extension": "extensions.owns-type"},  # never on a leftover tile (base.end.leftovers)
    view=VIEW,
    default_data=DATA,
))
