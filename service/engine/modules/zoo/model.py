"""The Alhambra Zoo's data: its state, its action and its events (RULES.md §Z)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ...records import HIDDEN, Record, Text

Kinds = Annotated[tuple[Text, ...], msgspec.Meta(max_length=24)]


class ZooState(Record):
    """The animals not on a tile: the face-down supply (drawn from the front), the two put
    back in the box unseen at setup, and those discarded on reaching Dirk."""

    supply: Annotated[Kinds, HIDDEN] = ()
    removed: Kinds = ()
    discarded: Kinds = ()


class AnimalStep(Record):
    """One step: an animal of `kind` leaves the tile at (x, y) through its side `side`."""

    kind: Text
    x: Annotated[int, msgspec.Meta(ge=-64, le=64)]
    y: Annotated[int, msgspec.Meta(ge=-64, le=64)]
    side: Literal["N", "E", "S", "W"]


# Actions and events subclass the engine's unions; they are declared in rules.py, which may
# import the engine. Only data the game state holds lives here.
__all__ = ["AnimalStep", "ZooState"]
