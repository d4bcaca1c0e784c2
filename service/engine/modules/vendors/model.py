"""Street Vendors and Inhabitants' data: its state and what the views show of it (RULES.md §V)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from ...census import CENSUS
from ...records import HIDDEN, PerType, Record, Text, count_to, up_to

Coord = Annotated[int, msgspec.Meta(ge=-64, le=64)]
Colours = Annotated[tuple[Text, ...], up_to(CENSUS.inhabitants)]
Seats = up_to(CENSUS.players)  # one disc per seat
# vendors.setup: the inhabitants chosen for the disc.
OnDisc = Annotated[tuple[Text, ...], up_to(CENSUS.on_disc)]
# vendors.score: the sizes of the sets of different colours: no more sets than inhabitants of
# one colour, none larger than the colours.
InhabitantCount = Annotated[int, count_to(CENSUS.inhabitants)]
Sets = Annotated[tuple[Annotated[int, count_to(CENSUS.colours)], ...], up_to(CENSUS.per_colour)]


class Disc(Record):
    """One player's vendor disc (by seat).

    `chosen`: the player has made the setup choice (vendors.setup); until then `inhabitants`
    holds the player's six (one of each colour) and the disc stands nowhere. The choice (the
    three inhabitants and the space) is secret until every player has chosen. `x`, `y`: the
    space the disc stands on (an empty space); `lifted`: a building was placed there this turn
    and the disc waits to be put down (vendors.relocate); `visiting`: the player's decision of
    vendors.visit is pending (the building stands at (x, y)).
    """

    inhabitants: Annotated[tuple[Text, ...], up_to(CENSUS.colours), HIDDEN] = ()  # one of each colour
    chosen: bool = False
    x: Annotated[Coord, HIDDEN] = 0
    y: Annotated[Coord, HIDDEN] = 0
    lifted: bool = False
    visiting: bool = False


class VendorsState(Record):
    """The common supply of inhabitants (colours, public once every player has chosen) and the
    discs by seat. An inhabitant on a building is the building's `inhabitant` token, of the
    building's colour.

    The supply is hidden in the public part (secrecy.conceal) like the discs' choices: while
    anyone is still choosing, it tells what the others chose (the colours a player did not
    choose go into it); views show it once every player has chosen."""

    supply: Annotated[Colours, HIDDEN] = ()
    discs: Annotated[tuple[Disc, ...], Seats] = ()


class VendorsSeen(Record):
    """What a viewer sees (RULES.md §8): the discs and the supply once every player has chosen;
    before that only the viewer's own disc, the others' as null, and no supply (null)."""

    supply: Colours | None = None
    discs: Annotated[tuple[Disc | None, ...], Seats] = ()


__all__ = ["Disc", "InhabitantCount", "OnDisc", "Sets", "VendorsSeen", "VendorsState"]


class VendorsTally(Record):
    """vendors.score at a real table: the inhabitants settled on the buildings of the Alhambra,
    per colour (those on the vendor disc score nothing)."""

    inhabitants: PerType = PerType()
