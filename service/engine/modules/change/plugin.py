"""The Change, assembled: the module registered from its parts."""

from __future__ import annotations

from ...actions import BuyBuilding
from ...module import Module, register
from ...text import t
from ..treasure.actions import BuyTreasure
from .actions import CoinsGiven, CoinsSpent
from .census import VIEW, census, consistency, expected, located, places
from .data import DATA
from .play import (
    SETUP_STEP,
    candidates_building,
    candidates_treasure,
    check_coins,
    give_change,
    money_held,
    payment_values,
    return_spent,
    sample_building,
    sample_treasure,
    setup,
)

MODULE = register(Module(
    id="change",
    name=t("The Change"),
    rule_ids=("change.give", "change.spend", "change.count"),
    checks=((BuyBuilding, check_coins), (BuyTreasure, check_coins)),
    setup=((SETUP_STEP, setup),),
    after_action=return_spent,
    components=located,
    places=places,
    expected=expected,
    census=census,
    consistency=consistency,
    events=(CoinsGiven, CoinsSpent),
    payment_values=payment_values,
    overpaid=give_change,
    money_held=money_held,
    variants=((BuyBuilding, candidates_building, sample_building),
              (BuyTreasure, candidates_treasure, sample_treasure)),
    view=VIEW,
    default_data=DATA,
))
