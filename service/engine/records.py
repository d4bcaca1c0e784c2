"""The base of every struct of the contract (kept apart so module data can import it alone)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

import msgspec

from .census import CENSUS


class Record(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, omit_defaults=True,
             kw_only=True):
    """Immutable, strict on input (unknown fields refused), compact on output (defaults omitted)."""


# Marks a field whose content a spectator may not see (RULES.md §8 and each module's hidden
# parts): `Annotated[T, HIDDEN]`. A sealed state's public part has these fields emptied
# (`secrecy.conceal`); msgspec ignores `extra`, so decoding and the schema are unchanged.
HIDDEN = msgspec.Meta(extra={"hidden": True})


def hidden(empty: object) -> msgspec.Meta:
    """HIDDEN, for a field without a default: the public part holds `empty` instead."""
    return msgspec.Meta(extra={"hidden": True, "empty": empty})


# Limits on hostile input: every string, number and list a client can send is bounded, and the
# bounds are in the schema (maxLength, minimum/maximum, maxItems). A list or a count of
# components is bounded by how many of them the box holds (`census.CENSUS`, counted from the
# data files): a legal action never hands out a state the contract refuses, and no bound is
# wider than a table can have (tests/engine/test_census.py holds every bound to the census).
LONGEST_TEXT = 64  # a name or an id, in code points (service/engine/names.py checks names after NFKC)
Text = Annotated[str, msgspec.Meta(max_length=LONGEST_TEXT)]
Int = Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)]


def up_to(n: int) -> msgspec.Meta:
    """The bound of a list of at most `n` components (`n` from the census)."""
    return msgspec.Meta(max_length=n)


def count_to(n: int) -> msgspec.Meta:
    """The bound of a count of components: never negative, at most `n` (from the census)."""
    return msgspec.Meta(ge=0, le=n)


# Counts a person makes at a real table (a scoring position's tally): never negative, and at
# most the buildings of one type there are (11 gardens or towers and the 2 buildings under
# construction of New Building Grounds). Tighter limits depend on the modules on and are
# checked with the position (422 naming the field).
Count = Annotated[int, count_to(CENSUS.of_one_type)]


class PerType(Record):
    """A count per building type, so per colour (RULES.md's conventions: pavilion blue, seraglio
    red, arcades brown, chambers white, garden green, tower purple); a type left out is 0."""

    pavilion: Count = 0
    seraglio: Count = 0
    arcades: Count = 0
    chambers: Count = 0
    garden: Count = 0
    tower: Count = 0


def per_type(counts: Mapping[str, int]) -> PerType:
    """The PerType of a mapping from building type to count (types not listed are 0)."""
    return PerType(**{kind: n for kind, n in counts.items() if n})


def counts_of(value: PerType) -> dict[str, int]:
    """Building type -> count, every type listed."""
    return {kind: getattr(value, kind) for kind in PerType.__struct_fields__}
