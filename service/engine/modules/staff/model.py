"""Palace Staff's data: its state and the positions its action names (RULES.md §S)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from ...census import CENSUS
from ...records import HIDDEN, Record, Text, count_to, up_to

Coord = Annotated[int, msgspec.Meta(ge=-64, le=64)]
Servants = Annotated[tuple[Text, ...], up_to(CENSUS.servants)]
Steps = Annotated[int, count_to(CENSUS.marshal_steps)]
# Buildings of an Alhambra (not the fountain): at most every building tile.
BuildingCount = Annotated[int, count_to(CENSUS.building_tiles)]


class Spot(Record):
    """A position of an Alhambra (the marshal's, or one step of the marshal's path)."""

    x: Coord
    y: Coord


Marshals = Annotated[tuple[Spot, ...], up_to(CENSUS.players)]  # one per seat
# staff.move: the marshal walks at most the steps allowed.
Path = Annotated[tuple[Spot, ...], up_to(CENSUS.marshal_steps)]


class StaffState(Record):
    """The servants off the tiles and the court marshals.

    `pile`: the face-down servants (their colours, i.e. building types), drawn from the front;
    its order is hidden information. `display`: the face-up servants. `marshals`: where each
    player's marshal stands, by seat (Dirk has none). `steps`: while the active player decides
    how their marshal walks after taking money (`staff.move`), the steps allowed; 0 otherwise.
    """

    pile: Annotated[Servants, HIDDEN] = ()
    display: Servants = ()
    marshals: Marshals = ()
    steps: Steps = 0


class StaffSeen(Record):
    """What everyone sees of the staff (RULES.md §8): how many servants the face-down pile holds
    (not which, nor their order), the face-up display, the marshals and the steps allowed."""

    pile_size: Annotated[int, count_to(CENSUS.servants)] = 0
    display: Servants = ()
    marshals: Marshals = ()
    steps: Steps = 0


__all__ = ["BuildingCount", "Path", "Spot", "StaffSeen", "StaffState"]


class StaffTally(Record):
    """staff.score at a real table: the buildings of the Alhambra (not the fountain) without a
    servant, and how many of those are leftover market tiles received at the game's end (round
    3 only: they are not deducted)."""

    unserved: BuildingCount = 0
    # One player receives at most one tile of each market space but one (power.end-hidden).
    leftover: Annotated[int, count_to(CENSUS.leftovers_each)] = 0
