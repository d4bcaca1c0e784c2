"""The base of every struct of the contract (kept apart so module data can import it alone)."""

from __future__ import annotations

import msgspec


class Record(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, omit_defaults=True,
             kw_only=True):
    """Immutable, strict on input (unknown fields refused), compact on output (defaults omitted)."""
