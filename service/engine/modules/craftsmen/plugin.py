"""The Travelling Craftsmen, assembled: the Module registered from its parts."""

from __future__ import annotations

from ...actions import BuyBuilding, PlaceBuilding, PlaceFromReserve, SwapWithReserve, TakeMoney
from ...module import Module, register
from ...text import t
from .actions import (
    ACTIONS,
    CraftsmanPassed,
    CraftsmanTurnedUp,
    CraftsmanUsed,
    MarketTilesSwapped,
    MoneyExchanged,
)
from .census import VIEW, consistency, expected, located, unseen
from .data import DATA, FLIP, PASS
from .play import (
    SETUP,
    VARIANTS,
    after_action,
    brickmaker_check,
    check_buy,
    check_place_building,
    check_rotation,
    check_take,
    display_limit,
    extra_payment,
    flip,
    pending,
    price_reduction,
    setup,
    start_passing,
    take_limit,
)

MODULE = register(Module(
    id="craftsmen",
    name=t("Travelling Craftsmen"),
    rule_ids=("craftsmen.setup", "craftsmen.flip", "craftsmen.use-one", "craftsmen.pass",
              "craftsmen.mosaic-artist", "craftsmen.carpenter", "craftsmen.blacksmith",
              "craftsmen.goldsmith", "craftsmen.coiner", "craftsmen.mortar-mixer", "craftsmen.builder",
              "craftsmen.brickmaker", "craftsmen.stonemason", "craftsmen.dirk"),
    actions=ACTIONS,
    checks=((TakeMoney, check_take), (BuyBuilding, check_buy), (PlaceBuilding, check_place_building),
            (PlaceFromReserve, check_rotation), (SwapWithReserve, check_rotation)),
    variants=VARIANTS,
    setup=((SETUP, setup),),
    end_of_turn=((PASS, start_passing), (FLIP, flip)),
    after_action=after_action,
    pending=pending,
    price_reduction=price_reduction,
    extra_payment=extra_payment,
    take_limit=take_limit,
    placement_check=brickmaker_check,
    display_limit=display_limit,
    components=located,
    expected=expected,
    consistency=consistency,
    events=(CraftsmanUsed, CraftsmanPassed, CraftsmanTurnedUp, MarketTilesSwapped, MoneyExchanged),
    tokens=("rotation",),
    play_tokens={"rotation": "craftsmen.mosaic-artist"},  # never on a leftover tile (base.end.leftovers)
    view=VIEW,
    unseen=unseen,
    default_data=DATA,
))
