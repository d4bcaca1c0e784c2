"""The Thieves (RULES.md §T), assembled: the Module of the parts beside, with no logic of its own
(`modules/__init__.py` imports this file to register it)."""

from __future__ import annotations

from ...flow import NEXT_TURN
from ...module import Module, register
from ...text import t
from .actions import ACTIONS, ThiefPlayed
from .census import VIEW, consistency, expected, located, places
from .data import DATA
from .play import close_window, open_window, setup

MODULE = register(Module(
    id="thieves",
    name=t("The Thieves"),
    rule_ids=("thieves.setup", "thieves.steal", "thieves.not-next", "thieves.order",
              "thieves.money-only"),
    actions=ACTIONS,
    setup=((58, setup),),
    end_of_turn=((NEXT_TURN + 1, open_window),),
    after_action=close_window,
    components=located,
    places=places,
    expected=expected,
    consistency=consistency,
    events=(ThiefPlayed,),
    view=VIEW,
    default_data=DATA,
))
