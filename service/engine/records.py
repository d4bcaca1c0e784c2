"""The base of every struct of the contract (kept apart so module data can import it alone)."""

from __future__ import annotations

import msgspec


class Record(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, omit_defaults=True,
             kw_only=True):
    """Immutable, strict on input (unknown fields refused), compact on output (defaults omitted)."""


# Marks a field whose content a spectator may not see (RULES.md §8 and each module's hidden
# parts): `Annotated[T, HIDDEN]`. A sealed state's public part has these fields emptied
# (`secrecy.conceal`); msgspec ignores `extra`, so decoding and the schema are unchanged.
HIDDEN = msgspec.Meta(extra={"hidden": True})
