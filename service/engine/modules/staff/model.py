"""Palace Staff's data: its state and the positions its action names (RULES.md §S)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from ...records import HIDDEN, Int, Record, Text

Coord = Annotated[int, msgspec.Meta(ge=-64, le=64)]
Servants = Annotated[tuple[Text, ...], msgspec.Meta(max_length=54)]


class Spot(Record):
    """A position of an Alhambra (the marshal's, or one step of the marshal's path)."""

    x: Coord
    y: Coord


class StaffState(Record):
    """The servants off the tiles and the court marshals.

    `pile`: the face-down servants (their colours, i.e. building types), drawn from the front;
    its order is hidden information. `display`: the face-up servants. `marshals`: where each
    player's marshal stands, by seat (Dirk has none). `steps`: while the active player decides
    how their marshal walks after taking money (`staff.move`), the steps allowed; 0 otherwise.
    """

    pile: Annotated[Servants, HIDDEN] = ()
    display: Servants = ()
    marshals: Annotated[tuple[Spot, ...], msgspec.Meta(max_length=6)] = ()
    steps: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0


class StaffSeen(Record):
    """What everyone sees of the staff (RULES.md §8): how many servants the face-down pile holds
    (not which, nor their order), the face-up display, the marshals and the steps allowed."""

    pile_size: Int = 0
    display: Servants = ()
    marshals: Annotated[tuple[Spot, ...], msgspec.Meta(max_length=6)] = ()
    steps: Annotated[int, msgspec.Meta(ge=0, le=6)] = 0


__all__ = ["Spot", "StaffSeen", "StaffState"]


class StaffTally(Record):
    """staff.score at a real table: the buildings of the Alhambra (not the fountain) without a
    servant, and how many of those are leftover market tiles received at the game's end (round
    3 only: they are not deducted)."""

    unserved: Annotated[int, msgspec.Meta(ge=0, le=64)] = 0
    leftover: Annotated[int, msgspec.Meta(ge=0, le=8)] = 0
