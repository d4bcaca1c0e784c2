"""The Treasure Chamber's data: its state (RULES.md §R)."""

from __future__ import annotations

from typing import Annotated

from ...census import CENSUS
from ...records import HIDDEN, Int, PerType, Record, Text, count_to, up_to

# Chests by colour (building type).
Chests = Annotated[tuple[Text, ...], up_to(CENSUS.chests)]
Room = Annotated[tuple[Text, ...], up_to(CENSUS.room_size)]
Rooms = Annotated[tuple[Room, ...], up_to(CENSUS.rooms)]
ChestCount = Annotated[int, count_to(CENSUS.chests)]


class TreasureState(Record):
    """The chests not on a building, and whether the rooms are still refilled.

    `bag`: the chests in the bag (their colours), drawn from the front; its order is hidden
    information. `rooms`: the 3 rooms of the treasure chamber, each holding its chests face up
    (4, or none once emptied and not refilled). `closed`: a refill once found fewer than 4
    chests in the bag, so no room is refilled any more (treasure.refill). A chest on a building
    is the building's `chest` token, of the building's colour.

    While bought chests pass round the table (treasure.pass): `passing`, the chests the seat
    `receiver` is to place on their buildings (face up, public), and `room`, the room they came
    from, refilled once the passing is over.
    """

    bag: Annotated[Chests, HIDDEN] = ()
    rooms: Rooms = ()
    closed: bool = False
    passing: Room = ()
    receiver: Int | None = None
    room: Int = 0


class TreasureSeen(Record):
    """What everyone sees of the treasure chamber (RULES.md §8): the rooms, how many chests the
    bag holds (not their order), whether rooms are still refilled, and chests passing round."""

    rooms: Rooms = ()
    bag_size: ChestCount = 0
    closed: bool = False
    passing: Room = ()
    receiver: Int | None = None
    room: Int = 0


__all__ = ["ChestCount", "TreasureSeen", "TreasureState"]


class TreasureTally(Record):
    """treasure.score at a real table: the chests on the player's buildings (Dirk: his tiles),
    per colour; only their number scores, the colours bound it (one chest per building)."""

    chests: PerType = PerType()
