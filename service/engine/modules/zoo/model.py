"""The Alhambra Zoo's data: its state, its action and its events (RULES.md §Z)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ...census import CENSUS
from ...records import HIDDEN, Record, Text, count_to, up_to

Kinds = Annotated[tuple[Text, ...], up_to(CENSUS.animals)]
# zoo.setup: the animals put back in the box unseen.
Removed = Annotated[tuple[Text, ...], up_to(CENSUS.animals_removed)]
# Animals that were in play (discarded on reaching Dirk, on the tiles, scored).
InPlay = Annotated[tuple[Text, ...], up_to(CENSUS.animals_in_play)]
AnimalCount = Annotated[int, count_to(CENSUS.animals_in_play)]


class ZooState(Record):
    """The animals not on a tile: the face-down supply (drawn from the front), the two put
    back in the box unseen at setup, and those discarded on reaching Dirk."""

    supply: Annotated[Kinds, HIDDEN] = ()
    removed: Annotated[Removed, HIDDEN] = ()  # put back unseen (RULES.md §Z)
    discarded: InPlay = ()


class ZooSeen(Record):
    """What everyone sees of the animals off the tiles (RULES.md §8): how many lie face down in
    the supply and how many were put back unseen, not which; those discarded on reaching Dirk
    (they lay face up on the market)."""

    supply_size: Annotated[int, count_to(CENSUS.animals)] = 0
    removed_size: Annotated[int, count_to(CENSUS.animals_removed)] = 0
    discarded: InPlay = ()


class AnimalStep(Record):
    """One step: an animal of `kind` leaves the tile at (x, y) through its side `side`."""

    kind: Text
    x: Annotated[int, msgspec.Meta(ge=-64, le=64)]
    y: Annotated[int, msgspec.Meta(ge=-64, le=64)]
    side: Literal["N", "E", "S", "W"]


# zoo.move: a card of value v moves animals v steps at most.
Steps = Annotated[tuple[AnimalStep, ...], up_to(CENSUS.money_value)]


# Actions and events subclass the engine's unions; they are declared in actions.py, which may
# import the engine. Only data lives here: what the game state holds and what views show.
__all__ = ["AnimalCount", "AnimalStep", "Steps", "ZooSeen", "ZooState"]


class ZooTally(Record):
    """zoo.score at a real table: the animals standing on the player's gardens that hold animals
    of one kind only (each such garden scores 1 per animal; other animals score nothing)."""

    animals: AnimalCount = 0
