"""New Building Grounds' data: the row of number tiles with their columns (RULES.md §G)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from ...records import Record, Text

# A column of buildings under construction, by building type, the top one first.
Column = Annotated[tuple[Text, ...], msgspec.Meta(max_length=12)]


class GroundsState(Record):
    """The buildings under construction still in the columns, all face up (public):
    `columns[i]` lies under the number tile i + 1, its first element on top (next to the number).

    The two buildings under construction of a type are alike, so they are named by their type,
    as the `construction` token of a site names the building put on it."""

    columns: Annotated[tuple[Column, ...], msgspec.Meta(max_length=8)] = ()


__all__ = ["GroundsState"]
