"""What happened: past-tense events, a tagged union on `type`, including what chance produced."""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, gc=False, omit_defaults=True, kw_only=True, tag_field="type"):
    pass


class GameCreated(Event, tag="game-created"):
    players: tuple[str, ...]
    first_player: str


class MoneyTaken(Event, tag="money-taken"):
    player: str
    cards: tuple[str, ...]


class BuildingBought(Event, tag="building-bought"):
    player: str
    tile: str
    currency: str
    payment: tuple[str, ...]
    exact: bool


class BuildingPlaced(Event, tag="building-placed"):
    player: str
    tile: str
    x: int
    y: int


class BuildingReserved(Event, tag="building-reserved"):
    player: str
    tile: str


class BuildingRemoved(Event, tag="building-removed"):
    """A tile left an Alhambra for the reserve (redesign)."""

    player: str
    tile: str
    x: int
    y: int


class TurnEnded(Event, tag="turn-ended"):
    player: str


class TurnStarted(Event, tag="turn-started"):
    player: str


class DisplayRefilled(Event, tag="display-refilled"):
    cards: tuple[str, ...]


class DeckReshuffled(Event, tag="deck-reshuffled"):
    cards: int


class ScoringCardDrawn(Event, tag="scoring-card-drawn"):
    card: str
    round: int


class MarketRefilled(Event, tag="market-refilled"):
    currency: str
    tile: str


class ScoringRoundHeld(Event, tag="scoring-round-held"):
    round: int


class LeftoverAwarded(Event, tag="leftover-awarded"):
    tile: str
    currency: str
    player: str


class LeftoverRemoved(Event, tag="leftover-removed"):
    tile: str
    currency: str
    reason: str


class GameEnded(Event, tag="game-ended"):
    winners: tuple[str, ...]
