"""The base of every struct of the contract (kept apart so module data can import it alone)."""

from __future__ import annotations

from typing import Annotated, TypeVar

import msgspec


class Record(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, omit_defaults=True,
             kw_only=True):
    """Immutable, strict on input (unknown fields refused), compact on output (defaults omitted)."""


# Marks a field whose content a spectator may not see (RULES.md §8 and each module's hidden
# parts): `Annotated[T, HIDDEN]`. A sealed state's public part has these fields emptied
# (`secrecy.conceal`); msgspec ignores `extra`, so decoding and the schema are unchanged.
HIDDEN = msgspec.Meta(extra={"hidden": True})


# Limits on hostile input: every string, number and list a client can send is bounded, and the
# bounds are in the schema (maxLength, minimum/maximum, maxItems). They are wide enough for any
# real game (the largest list, the bag, holds fewer than 120 tiles); fields with tighter bounds
# of their own declare them where they are.
T = TypeVar("T")
Text = Annotated[str, msgspec.Meta(max_length=64)]
Int = Annotated[int, msgspec.Meta(ge=-1_000_000, le=1_000_000)]
Many = Annotated[tuple[T, ...], msgspec.Meta(max_length=256)]
