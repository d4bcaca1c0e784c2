"""The Alhambra Zoo's data: its state, its action and its events (RULES.md §Z)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ...records import HIDDEN, Int, Record, Text

Kinds = Annotated[tuple[Text, ...], msgspec.Meta(max_length=24)]


class ZooState(Record):
    """The animals not on a tile: the face-down supply (drawn from the front), the two put
    back in the box unseen at setup, and those discarded on reaching Dirk."""

    supply: Annotated[Kinds, HIDDEN] = ()
    removed: Annotated[Kinds, HIDDEN] = ()  # put back unseen (RULES.md §Z)
    discarded: Kinds = ()


class ZooSeen(Record):
    """What everyone sees of the animals off the tiles (RULES.md §8): how many lie face down in
    the supply and how many were put back unseen, not which; those discarded on reaching Dirk
    (they lay face up on the market)."""

    supply_size: Int = 0
    removed_size: Int = 0
    discarded: Kinds = ()


class AnimalStep(Record):
    """One step: an animal of `kind` leaves the tile at (x, y) through its side `side`."""

    kind: Text
    x: Annotated[int, msgspec.Meta(ge=-64, le=64)]
    y: Annotated[int, msgspec.Meta(ge=-64, le=64)]
    side: Literal["N", "E", "S", "W"]


# Actions and events subclass the engine's unions; they are declared in rules.py, which may
# import the engine. Only data lives here: what the game state holds and what views show.
__all__ = ["AnimalStep", "ZooSeen", "ZooState"]


class ZooTally(Record):
    """zoo.score at a real table: the animals standing on the player's gardens that hold animals
    of one kind only (each such garden scores 1 per animal; other animals score nothing)."""

    animals: Annotated[int, msgspec.Meta(ge=0, le=24)] = 0
