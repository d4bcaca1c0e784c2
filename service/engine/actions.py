"""The actions of the base game: a tagged union on `type`, each naming its `player`.

Modules add their own Action subclasses; `service.engine.module` assembles the union from the
modules that are registered, so the decoder knows every action of every module.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from .census import CENSUS
from .records import Text, up_to
from .state import Coord

CardList = Annotated[tuple[Text, ...], up_to(CENSUS.money_cards)]
CoinList = Annotated[tuple[Text, ...], up_to(CENSUS.coins)]  # change.spend
# craftsmen.mosaic-artist: a tile added to the Alhambra turned clockwise (None: not turned).
Rotation = Literal[90, 180, 270]
# craftsmen.brickmaker: where a building displaced by a placement goes: the reserve or (x, y).
Displaced = Literal["reserve"] | tuple[Coord, Coord]
_ROTATION = ("craftsmen", "base.place.orientation")


class Action(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, omit_defaults=True,
             kw_only=True, tag_field="type"):
    player: Text

    # Optional fields that only a module gives meaning to: field -> (module id, rule id).
    # Sent while that module is off, they are refused with the rule id.
    module_fields: ClassVar[dict[str, tuple[str, str]]] = {}

    @property
    def type(self) -> str:
        """The action's type, its tag on the wire (`"take-money"`): a plain attribute, as a
        client reads it (the tag itself lives in msgspec's struct config)."""
        return str(self.__struct_config__.tag)


class TakeMoney(Action, tag="take-money"):
    """base.money.take: one card of any value, or several totalling at most 5."""

    cards: CardList
    # craftsmen.goldsmith: the cards may total up to 8 instead of 5.
    goldsmith: bool | None = None

    module_fields: ClassVar[dict[str, tuple[str, str]]] = {"goldsmith": ("craftsmen", "craftsmen.goldsmith")}


class BuyBuilding(Action, tag="buy-building"):
    """base.buy.*: buy the market tile `tile`, paying `payment` in its space's currency."""

    tile: Text
    payment: CardList
    # power.prosperity: the prosperity tile whose white die lowers the price by 1.
    white_die: Text | None = None
    # craftsmen.carpenter: the price is lowered by 1 or 2.
    discount: Literal[1, 2] | None = None
    # craftsmen.coiner: cards of the money display (same currency) that count in the payment.
    from_display: CardList | None = None
    # change.spend: coins of the player (same currency) that count in the payment.
    coins: CoinList | None = None

    module_fields: ClassVar[dict[str, tuple[str, str]]] = {
        "white_die": ("power", "power.prosperity"),
        "discount": ("craftsmen", "craftsmen.carpenter"),
        "from_display": ("craftsmen", "craftsmen.coiner"),
        "coins": ("change", "change.spend"),
    }


class PlaceFromReserve(Action, tag="place-from-reserve"):
    """base.redesign (a): a reserve tile into the Alhambra at (x, y)."""

    tile: Text
    x: Coord
    y: Coord
    rotation: Rotation | None = None  # craftsmen.mosaic-artist

    module_fields: ClassVar[dict[str, tuple[str, str]]] = {"rotation": _ROTATION}


class RemoveToReserve(Action, tag="remove-to-reserve"):
    """base.redesign (b): an Alhambra tile to the reserve."""

    tile: Text


class SwapWithReserve(Action, tag="swap-with-reserve"):
    """base.redesign (c): the reserve tile `tile` takes the space of the Alhambra tile `replaces`."""

    tile: Text
    replaces: Text
    rotation: Rotation | None = None  # craftsmen.mosaic-artist

    module_fields: ClassVar[dict[str, tuple[str, str]]] = {"rotation": _ROTATION}


class PlaceBuilding(Action, tag="place-building"):
    """base.turn.placement: a held building into the Alhambra at (x, y)."""

    tile: Text
    x: Coord
    y: Coord
    rotation: Rotation | None = None  # craftsmen.mosaic-artist
    # craftsmen.brickmaker: (x, y) holds a building, which goes to the reserve or to (x, y).
    displaced: Displaced | None = None

    module_fields: ClassVar[dict[str, tuple[str, str]]] = {
        "rotation": _ROTATION, "displaced": ("craftsmen", "craftsmen.brickmaker")}


class ReserveBuilding(Action, tag="reserve-building"):
    """base.turn.placement: a held building onto the reserve."""

    tile: Text


class EndTurn(Action, tag="end-turn"):
    """Decline the extra action of an exact payment (base.buy.exact-bonus)."""
