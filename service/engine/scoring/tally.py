"""The tally: a scoring position's player given by what people count at a real table.

A layout (every tile with its coordinates and tokens) is exact, and right for a backend that has
it; at a table people count instead: buildings per type, the longest outer wall, and per module
the number its scoring reads. A tally holds exactly those counts (RULES.md §7 and each module's
scoring rule), and is scored by the same rules into the same breakdown lines.

The base game's counts are `buildings` and `wall`; every module whose scoring reads counts of
its own has a field named after it, of the type its `model.py` declares, as the game state has
one field per module. What a module does with its part (count it from a layout, check it, score
it) is its `tally` hook (`module.TallyPart`); the field stays null while the module is off.
"""

from __future__ import annotations

from typing import Annotated

from ..census import CENSUS
from ..modules.extensions.model import ExtensionsTally
from ..modules.power.model import PowerTally
from ..modules.staff.model import StaffTally
from ..modules.treasure.model import TreasureTally
from ..modules.vendors.model import VendorsTally
from ..modules.zoo.model import ZooTally
from ..records import PerType, Record, count_to

# The longest outer wall the most tiles could make: every building tile and the fountain have an
# outline of at most 2n + 2 sides (RULES.md §7, base.score.wall; census.py).
WallLength = Annotated[int, count_to(CENSUS.wall_length)]


class Tally(Record):
    """What a player has on the table for one scoring round, counted (API.md's scoring position,
    issue 15): the buildings of the Alhambra per type (Dirk: all his tiles; reserve tiles never
    count; a building site counts as the building put on it), the longest continuous outer wall,
    and each module's counts, null while the module is off. A count that cannot occur (more
    buildings of a type than exist, a wall longer than the tiles could make, more chests of a
    colour than buildings of that colour, counts of a module that is off, Dirk with a wall) is
    refused with 422 naming the field and the limit."""

    buildings: PerType = PerType()
    wall: WallLength = 0
    zoo: ZooTally | None = None
    power: PowerTally | None = None
    extensions: ExtensionsTally | None = None
    staff: StaffTally | None = None
    treasure: TreasureTally | None = None
    vendors: VendorsTally | None = None


# The fields of the base game; the others are modules' parts.
BASE_FIELDS = ("buildings", "wall")
