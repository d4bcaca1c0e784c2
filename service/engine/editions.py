"""The editions of the rules a state can be made under (RULES.md's Changes list, as data).

Backends keep states between requests, and a game can outlive a deployment. Every state
carries the edition of the rules it was made under (`GameState.edition`, set by `new_game`).
Whatever changes the shape or meaning of a state bumps `EDITION` and adds an `Edition` here
naming the rule ids that changed and what else changed in how states are written.

The policy (docs/editions.md): a state of an older edition plays on when nothing
that changed since concerns it (no changed rule applies to its game, states are written as they
were) and is handed back as a state of the current edition; else it is refused as outdated
(422 `outdated-state`), naming its edition, the current one and what changed since for its
game. It is never judged under rules it was not made under (its game began under rules this
referee no longer plays: a two-player deck of 108 cards, a craftsman turned up at the start of
a turn), and never mistaken for an inconsistent state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import msgspec

from .text import t
from .violations import Violation

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True, slots=True)
class Edition:
    number: int
    date: str  # the first day states were made under it
    changed: tuple[str, ...]  # the rule ids whose meaning changed since the edition before
    written: str = ""  # what changed in how a state is written, if anything


EDITIONS = (
    # States made before editions existed carry no `edition`: they are of edition 1.
    Edition(1, "2026-11-30", ()),
    Edition(2, "2026-12-01", (
        "dirk.setup", "craftsmen.flip", "craftsmen.use-one", "craftsmen.carpenter",
        "craftsmen.mosaic-artist", "power.end-of-turn", "power.architecture", "power.wisdom",
        "walls.reveal", "staff.marshal-tile", "treasure.pass",
        # Found by reading the seeds: a building that has its inhabitant, moved onto the disc's
        # space, allows no swap (seed 003.33).
        "vendors.visit",
    ), written=t("states are written whole (no field left out) and sealed with seals of version 2")),

    Edition(3, "2026-12-02", (
        "power.end-of-turn", "staff.score", "staff.marshal-tile", "craftsmen.use-one",
    )),
)
EDITION = EDITIONS[-1].number


class OutdatedState(Exception):
    """A state of an older edition (422 `outdated-state`)."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.message)
        self.violation = violation


def _applies(rule: str, modules: tuple[str, ...], players: int) -> bool:
    """Whether a rule can apply in a game: the base game's always, Dirk's with two players, a
    module's while it is on."""
    area = rule.split(".", 1)[0]
    return area == "base" or area in modules or (area == "dirk" and players == 2)


def _since(edition: int, modules: tuple[str, ...], players: int) -> tuple[list[str], list[str]]:
    """What changed after `edition` for a game with `modules` and `players`: the rule ids that
    apply to it, and how states are written."""
    since = [e for e in EDITIONS if e.number > edition]
    changed = [rule for e in since for rule in e.changed if _applies(rule, modules, players)]
    return changed, [e.written for e in since if e.written]


def outdated(edition: int, modules: tuple[str, ...] = (), players: int = 0) -> Violation:
    """Why a state of `edition` (of a game with `modules` and `players`, where known) is not
    judged by this referee: the rules changed since for its game, and how states are written."""
    changed, written = _since(edition, modules, players)
    parts = (*([t("the rules {rules} changed for this game", rules=tuple(changed))] if changed else []),
             *written)
    what = parts[0] if parts else t("its rules changed")
    for part in parts[1:]:
        what = t("{first}; {then}", first=what, then=part)
    return Violation("referee.edition", t(
        "the state was made under edition {edition} of the rules; this referee plays edition {current}, "
        "in which {what}: finish the game with a referee of edition {edition}, or start a new game",
        edition=edition, current=EDITION, what=what))


def check_edition(state: GameState) -> GameState:
    """`state` as a state of the current edition: itself when it is one; an older one whose game
    nothing that changed since concerns (no changed rule applies, states written alike) with the
    current edition, since every verdict on it is the same under both; else OutdatedState."""
    if state.edition == EDITION:
        return state
    changed, written = _since(state.edition, state.modules, len(state.players))
    if changed or written:
        raise OutdatedState(outdated(state.edition, state.modules, len(state.players)))
    return msgspec.structs.replace(state, edition=EDITION)


def check_record_edition(edition: int, modules: tuple[str, ...], players: int) -> None:
    """The policy for a game's record made under `edition` (service.engine.replay): replayed
    under the current rules when no rule that changed since applies to its game (a record holds
    actions, not states, so how states are written does not concern it); else OutdatedState.
    An edition this referee does not know (a newer one) is refused too."""
    if edition == EDITION:
        return
    if not any(e.number == edition for e in EDITIONS):
        raise OutdatedState(Violation("referee.edition", t(
            "the record was made under edition {edition} of the rules, which this referee (of edition "
            "{current}) does not know: replay it with a referee of edition {edition}",
            edition=edition, current=EDITION)))
    changed, _ = _since(edition, modules, players)
    if changed:
        raise OutdatedState(Violation("referee.edition", t(
            "the record was made under edition {edition} of the rules; this referee plays edition "
            "{current}, in which the rules {rules} changed for this game: replay it with a referee of "
            "edition {edition}", edition=edition, current=EDITION, rules=tuple(changed))))

