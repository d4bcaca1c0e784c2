"""Buildings of Power (RULES.md §P), assembled: the Module of the parts beside, with no logic of
its own (`modules/__init__.py` imports this file to register it)."""

from __future__ import annotations

from ...actions import BuyBuilding
from ...module import Module, register
from ...text import t
from .actions import (
    ACTIONS,
    DieRolled,
    HiddenTileRevealed,
    PowerDeclined,
    PowerUsed,
    TileHidden,
)
from .census import VIEW, consistency, expected, located, places, unseen, withdrawn
from .data import DATA, POWERS, REVEAL, SETUP, TURN_START
from .play import (
    after_action,
    candidates_white_die,
    check_buy,
    leftover,
    offer_powers,
    pending,
    price_reduction,
    reveal,
    sample_white_die,
    setup,
    start_turn,
)
from .scoring import TALLY, PowerLine, check_position, score

MODULE = register(Module(
    id="power",
    name=t("Buildings of Power"),
    rule_ids=("power.setup", "power.end-of-turn", "power.architecture", "power.wisdom",
              "power.strength", "power.prosperity", "power.end-hidden", "power.dirk"),
    actions=ACTIONS,
    checks=((BuyBuilding, check_buy),),
    variants=((BuyBuilding, candidates_white_die, sample_white_die),),
    setup=((SETUP, setup),),
    end_of_turn=((REVEAL, reveal), (POWERS, offer_powers), (TURN_START, start_turn)),
    after_action=after_action,
    pending=pending,
    price_reduction=price_reduction,
    leftover=leftover,
    scoring=score,
    components=located,
    places=places,
    expected=expected,
    withdrawn=withdrawn,
    consistency=consistency,
    check_position=check_position,
    tally=TALLY,
    events=(DieRolled, PowerUsed, PowerDeclined, TileHidden, HiddenTileRevealed),
    lines=(PowerLine,),
    tokens=("die",),
    play_tokens={"die": "power.strength"},  # never on a leftover tile (base.end.leftovers)
    view=VIEW,
    unseen=unseen,
    default_data=DATA,
))
