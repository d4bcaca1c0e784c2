"""New Building Grounds' data: the row of number tiles with their columns (RULES.md §G)."""

from __future__ import annotations

from typing import Annotated

from ...census import CENSUS
from ...records import Record, Text, up_to

# A column of buildings under construction, by building type, the top one first.
Column = Annotated[tuple[Text, ...], up_to(CENSUS.column_size)]


class GroundsState(Record):
    """The buildings under construction still in the columns, all face up (public):
    `columns[i]` lies under the number tile i + 1, its first element on top (next to the number).

    The two buildings under construction of a type are alike, so they are named by their type,
    as the `construction` token of a site names the building put on it."""

    columns: Annotated[tuple[Column, ...], up_to(CENSUS.ground_columns)] = ()


__all__ = ["GroundsState"]
