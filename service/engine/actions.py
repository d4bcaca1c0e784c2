"""The actions of the base game: a tagged union on `type`, each naming its `player`.

Modules add their own Action subclasses; `service.engine.module` assembles the union from the
modules that are registered, so the decoder knows every action of every module.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec
import msgspec.structs

from .census import CENSUS
from .records import Text, up_to
from .state import Coord

CardList = Annotated[tuple[Text, ...], up_to(CENSUS.money_cards)]
CoinList = Annotated[tuple[Text, ...], up_to(CENSUS.coins)]  # change.spend
# craftsmen.mosaic-artist: a tile added to the Alhambra turned clockwise (None: not turned).
Rotation = Literal[90, 180, 270]


class ToReserve(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag_field="to",
                tag="reserve"):
    """craftsmen.brickmaker: the displaced building goes to the reserve."""


class ToAlhambra(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag_field="to",
                 tag="alhambra"):
    """craftsmen.brickmaker: the displaced building goes to the space (x, y) of the Alhambra."""

    x: Coord
    y: Coord


# craftsmen.brickmaker: where a building displaced by a placement goes, a union tagged by `to`.
Displaced = ToReserve | ToAlhambra
# The shape of `displaced` before issue 26: "reserve" or [x, y]. A union of a constant and an
# array, which generated clients cannot tell apart (openapi-python-client's const check refused
# every [x, y]); still accepted, read as the tagged form, never written, not in the contract's
# schema (its description says so).
LegacyDisplaced = Literal["reserve"] | tuple[Coord, Coord]
LEGACY_DISPLACED = ('Also accepted while older clients still send it (deprecated): "reserve" for '
                    '{"to": "reserve"} and [x, y] for {"to": "alhambra", "x": x, "y": y}; answers '
                    'always write the tagged form.')
_ROTATION = ("craftsmen", "base.place.orientation")


class Action(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, omit_defaults=True,
             kw_only=True, tag_field="type"):
    player: Text

    # Optional fields that only a module gives meaning to: field -> (module id, rule id).
    # Sent while that module is off, they are refused with the rule id.
    module_fields: ClassVar[dict[str, tuple[str, str]]] = {}
    # Fields that also accept an older shape, left out of the contract's schema: field -> what
    # the field's description says of it (service/api/openapi.py).
    legacy_forms: ClassVar[dict[str, str]] = {}

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
    # craftsmen.brickmaker: (x, y) holds a building, which goes to the reserve or to the Alhambra.
    displaced: Displaced | LegacyDisplaced | None = None

    module_fields: ClassVar[dict[str, tuple[str, str]]] = {
        "rotation": _ROTATION, "displaced": ("craftsmen", "craftsmen.brickmaker")}
    legacy_forms: ClassVar[dict[str, str]] = {"displaced": LEGACY_DISPLACED}

    def __post_init__(self) -> None:
        # The older shape is read as the tagged one, so equal actions are equal and one is written.
        if isinstance(self.displaced, str):
            msgspec.structs.force_setattr(self, "displaced", ToReserve())
        elif isinstance(self.displaced, tuple):
            x, y = self.displaced
            msgspec.structs.force_setattr(self, "displaced", ToAlhambra(x=x, y=y))


class ReserveBuilding(Action, tag="reserve-building"):
    """base.turn.placement: a held building onto the reserve."""

    tile: Text


class EndTurn(Action, tag="end-turn"):
    """Decline the extra action of an exact payment (base.buy.exact-bonus)."""
