"""The editions of the rules a state can be made under (RULES.md's Changes list, as data).

Backends keep states between requests, and a game can outlive a deployment. Every state
carries the edition of the rules it was made under (`GameState.edition`, set by `new_game`).
Whatever changes the shape or meaning of a state bumps `EDITION` and adds an `Edition` here
naming the rule ids that changed.

The policy for a state of an older edition (README, "Editions of the rules"): it plays on
when none of the rules changed since its edition can apply to it (its game is the same under
both editions; the answer's state carries the current edition), else it is refused as
outdated, naming its edition, the current one and the changed rules that concern it: its game
began under rules this referee no longer plays, and finishing it under other rules would give
verdicts that neither edition would give.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from msgspec.structs import replace

from .violations import Violation

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True, slots=True)
class Edition:
    number: int
    date: str
    changed: tuple[str, ...]  # the rule ids whose meaning changed since the edition before


EDITIONS = (
    # States made before editions existed carry no `edition`: they read as 1.
    Edition(1, "2026-11-30", ()),
    Edition(2, "2026-12-01", (
        "dirk.setup", "craftsmen.flip", "craftsmen.use-one", "craftsmen.carpenter",
        "craftsmen.mosaic-artist", "power.end-of-turn", "power.architecture", "power.wisdom",
        "walls.reveal", "staff.marshal-tile", "treasure.pass",
        # Found by reading the seeds: a building that has its inhabitant, moved onto the disc's
        # space, allows no swap (seed 003.33).
        "vendors.visit",
    )),
)
EDITION = EDITIONS[-1].number


class OutdatedState(Exception):
    """A state of an older edition that this referee cannot play on (422 `outdated-state`)."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.message)
        self.violation = violation


def _applies(rule: str, state: GameState) -> bool:
    """Whether a rule can apply in `state`'s game: the base game's always, Dirk's with two
    players, a module's while it is on."""
    area = rule.split(".", 1)[0]
    return area == "base" or area in state.modules or (area == "dirk" and state.dirk is not None)


def concerning(state: GameState) -> list[str]:
    """The rule ids changed since `state`'s edition that can apply to its game."""
    return [rule for e in EDITIONS if e.number > state.edition for rule in e.changed
            if _applies(rule, state)]


def admitted(state: GameState) -> GameState:
    """`state` under the current edition (as it is, when it has it), or OutdatedState."""
    if state.edition == EDITION:
        return state
    changed = concerning(state)
    if changed:
        raise OutdatedState(Violation("referee.edition", (
            f"the state was made under edition {state.edition} of the rules; this referee plays "
            f"edition {EDITION}, in which {', '.join(changed)} changed for this game: finish it "
            f"with a referee of edition {state.edition}, or start a new game")))
    return replace(state, edition=EDITION)
