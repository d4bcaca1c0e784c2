"""A refusal: the RULES.md rule id it rests on and a message naming the offending thing."""

from __future__ import annotations

import msgspec

# The rule id (and error code) of a well-formed state or position that cannot occur in a game
# (API.md): defined here once, for the engine's checks and the HTTP layer's refusals.
INCONSISTENT = "inconsistent-state"


class Violation(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    rule: str
    message: str


class IllegalAction(Exception):
    """Raised by `apply` for an action that `validate` refuses; carries the violations."""

    def __init__(self, violations: list[Violation]) -> None:
        super().__init__("; ".join(f"{v.rule}: {v.message}" for v in violations))
        self.violations = violations


class InconsistentState(Exception):
    """Raised for a well-formed state that cannot occur in a game (API.md: 422 inconsistent-state)."""

    def __init__(self, violations: list[Violation]) -> None:
        super().__init__("; ".join(f"{v.rule}: {v.message}" for v in violations))
        self.violations = violations
