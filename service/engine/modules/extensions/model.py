"""The Extensions module's data: its board (RULES.md §E). Nothing of it is hidden."""

from __future__ import annotations

from typing import Annotated

from ...census import CENSUS
from ...records import PerType, Record, Text, up_to

# One column of the board: its spaces top to bottom (amounts 10, 12, 14), None once taken.
Column = Annotated[tuple[Text | None, ...], up_to(CENSUS.extension_spaces)]


class ExtensionsState(Record):
    """The extension board: 4 columns (one per combination of three currencies), each of 3
    spaces holding an extension tile id face up, or None once it has been taken. A taken
    extension lies on a building as its `extension` token."""

    board: Annotated[tuple[Column, ...], up_to(CENSUS.extension_columns)] = ()


__all__ = ["ExtensionsState"]


class ExtensionsTally(Record):
    """extensions.score at a real table: the buildings carrying an extension, per type (in the
    Alhambra; Dirk: among his tiles); each counts as 2 buildings for the majorities."""

    extended: PerType = PerType()
