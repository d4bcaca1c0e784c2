"""The rules edition a state carries (engine/editions.py; README "Editions of the rules").

A state made under an older edition is refused as outdated, naming its edition, the current
one and what changed since for its game; never judged under rules it was not made under, and
never called inconsistent (issue 12, "States made before a fix")."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace

from service.engine import EDITION, OutdatedState, check_edition, new_game
from service.engine.editions import EDITIONS, outdated
from service.engine.state import GameState
from tests.support.play import NAMES

RULES = Path(__file__).resolve().parents[2] / "seeds" / "RULES.md"


def test_a_new_game_carries_the_current_edition() -> None:
    state = new_game(NAMES[:3], seed=1).state
    assert state.edition == EDITION == EDITIONS[-1].number == 3
    assert b'"edition":3' in msgspec.json.encode(state)
    assert check_edition(state) is state  # the current edition passes as it is


@pytest.mark.parametrize(("players", "modules", "changed"), [
    (2, (), "dirk.setup"),
    (3, ("craftsmen",), "craftsmen.flip"),
    (4, ("power", "zoo"), "power.end-of-turn"),
    (3, ("walls",), "walls.reveal"),
    (5, ("staff",), "staff.marshal-tile"),
    (3, ("treasure",), "treasure.pass"),
    (3, ("vendors",), "vendors.visit"),
])
def test_a_state_of_an_older_edition_is_refused_naming_what_changed_for_its_game(
        players: int, modules: tuple[str, ...], changed: str) -> None:
    """The refusal names the state's edition, the current one and the changed rules that apply
    to its game (and only those), and how states are written now."""
    state = replace(new_game(NAMES[:players], modules, seed=2).state, edition=1)
    with pytest.raises(OutdatedState) as refused:
        check_edition(state)
    violation = refused.value.violation
    assert violation.rule == "referee.edition"
    assert f"edition 1 of the rules; this referee plays edition {EDITION}" in violation.message
    assert changed in violation.message
    assert "zoo" not in violation.message  # the zoo's rules did not change
    assert "states are written whole" in violation.message


def test_a_game_no_changed_rule_concerns_is_still_refused_for_how_its_states_were_written() -> None:
    """Three players, no module whose rules changed: edition 1 still wrote states another way
    (fields left out, seals of version 1)."""
    message = outdated(1, ("zoo", "thieves"), 3).message
    assert "changed for this game" not in message
    assert "states are written whole (no field left out) and sealed with seals of version 2" in message


def test_an_edition_above_the_referees_is_no_state_it_can_read() -> None:
    raw = msgspec.json.decode(msgspec.json.encode(new_game(NAMES[:3], seed=1).state))
    raw["edition"] = EDITION + 1
    with pytest.raises(msgspec.ValidationError, match=r"\$\.edition"):
        msgspec.json.decode(msgspec.json.encode(raw), type=GameState)


def test_each_edition_names_rule_ids_of_the_rulebook_and_the_newest_covers_its_changes() -> None:
    """The editions' changes are RULES.md rule ids; every id of the rulebook's newest Changes
    entry (2026-12-02) changed in the current edition."""
    text = RULES.read_text("utf-8")
    ids = set(re.findall(r"`([a-z]+\.[a-z0-9.-]+[a-z0-9])`", text))
    assert all(rule in ids for e in EDITIONS for rule in e.changed)
    changes = text[text.index("Changes (newest first"):text.index("Conventions")]
    newest = changes.split("\n- ")[1]
    assert newest.startswith("2026-12-02") and EDITIONS[-1].date == "2026-12-02"
    assert set(re.findall(r"`([a-z]+\.[a-z0-9.-]+[a-z0-9])`", newest)) <= set(EDITIONS[-1].changed)
    assert [e.number for e in EDITIONS] == list(range(1, len(EDITIONS) + 1))


@pytest.mark.parametrize(("players", "modules", "changed"), [
    (3, ("power",), "power.end-of-turn"),
    (4, ("staff", "zoo"), "staff.score"),
    (5, ("staff",), "staff.marshal-tile"),
    (2, ("craftsmen",), "craftsmen.use-one"),
])
def test_a_state_of_edition_2_whose_game_a_changed_rule_concerns_is_refused(
        players: int, modules: tuple[str, ...], changed: str) -> None:
    """Edition 3 (RULES.md's Changes, 2026-12-02) changed `power.end-of-turn`, `staff.score`,
    `staff.marshal-tile` and `craftsmen.use-one`: a game with one of them on is outdated."""
    state = replace(new_game(NAMES[:players], modules, seed=3).state, edition=2)
    with pytest.raises(OutdatedState) as refused:
        check_edition(state)
    message = refused.value.violation.message
    assert f"edition 2 of the rules; this referee plays edition {EDITION}" in message
    assert changed in message and "states are written whole" not in message
    assert "dirk.setup" not in message  # changed in edition 2, which the state already has


@pytest.mark.parametrize(("players", "modules"), [
    (2, ()), (3, ("zoo", "walls")), (6, ("thieves", "treasure", "vendors", "change")),
    (4, ("grounds", "extensions")),
])
def test_a_state_of_edition_2_that_no_changed_rule_concerns_plays_on_as_edition_3(
        players: int, modules: tuple[str, ...]) -> None:
    """Nothing that changed in edition 3 concerns a game without power, staff and craftsmen:
    its state of edition 2 is taken as the same state of edition 3."""
    current = new_game(NAMES[:players], modules, seed=4).state
    assert check_edition(replace(current, edition=2)) == current
