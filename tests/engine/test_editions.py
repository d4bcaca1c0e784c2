"""The rules edition a state carries (engine/editions.py; README "Editions of the rules").

A state made before a change of the rules gets what its edition's policy says: it plays on when
no rule changed since can apply to its game, else it is refused as outdated, never as
inconsistent (issue 12, "States made before a fix")."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from msgspec.structs import replace

from service.engine import EDITION, OutdatedState, admitted, apply, check_consistency, legal_actions, new_game
from service.engine.editions import EDITIONS, concerning
from service.engine.state import GameState
from tests.engine.play import NAMES

RULES = Path(__file__).resolve().parents[2] / "seeds" / "RULES.md"


def older(state: GameState) -> GameState:
    """The same state as a client that kept it from before editions existed sends it: without
    the field."""
    raw = msgspec.json.decode(msgspec.json.encode(state))
    del raw["edition"]
    return msgspec.json.decode(msgspec.json.encode(raw), type=GameState)


def test_a_new_game_carries_the_current_edition() -> None:
    state = new_game(NAMES[:3], seed=1).state
    assert state.edition == EDITION == EDITIONS[-1].number == 2
    assert b'"edition":2' in msgspec.json.encode(state)


def test_a_state_without_an_edition_reads_as_edition_1() -> None:
    assert older(new_game(NAMES[:3], seed=1).state).edition == 1


def test_an_older_state_that_no_change_concerns_plays_on_under_the_current_edition() -> None:
    """Three players, no module whose rules changed: the same game under both editions."""
    state = older(new_game(NAMES[:3], ("zoo", "thieves"), seed=4).state)
    assert concerning(state) == []
    current = admitted(state)
    assert current.edition == EDITION and replace(current, edition=1) == state
    assert check_consistency(current) == []
    action = legal_actions(current, 1)[0][0]
    assert apply(current, action).state.edition == EDITION


@pytest.mark.parametrize(("players", "modules", "changed"), [
    (2, (), "dirk.setup"),
    (3, ("craftsmen",), "craftsmen.flip"),
    (4, ("power", "zoo"), "power.end-of-turn"),
    (3, ("walls",), "walls.reveal"),
    (5, ("staff",), "staff.marshal-tile"),
    (3, ("treasure",), "treasure.pass"),
    (3, ("vendors",), "vendors.visit"),
])
def test_an_older_state_that_a_change_concerns_is_refused_as_outdated(
        players: int, modules: tuple[str, ...], changed: str) -> None:
    """The refusal names the state's edition, the current one and the changed rules of its
    game; never `inconsistent-state`."""
    state = older(new_game(NAMES[:players], modules, seed=2).state)
    with pytest.raises(OutdatedState) as refused:
        admitted(state)
    violation = refused.value.violation
    assert violation.rule == "referee.edition"
    assert f"edition 1 of the rules; this referee plays edition {EDITION}" in violation.message
    assert changed in violation.message
    assert "zoo" not in violation.message  # only what concerns this game


def test_the_current_edition_is_admitted_as_it_is() -> None:
    state = new_game(NAMES[:2], ("craftsmen",), seed=3).state
    assert admitted(state) is state


def test_an_edition_above_the_referees_is_no_state_it_can_read() -> None:
    raw = msgspec.json.decode(msgspec.json.encode(new_game(NAMES[:3], seed=1).state))
    raw["edition"] = EDITION + 1
    with pytest.raises(msgspec.ValidationError, match=r"\$\.edition"):
        msgspec.json.decode(msgspec.json.encode(raw), type=GameState)


def test_each_edition_names_rule_ids_of_the_rulebook_and_the_newest_covers_its_changes() -> None:
    """The editions' changes are RULES.md rule ids; every id of the rulebook's newest Changes
    entry (2026-12-01) changed in the current edition."""
    text = RULES.read_text("utf-8")
    ids = set(re.findall(r"`([a-z]+\.[a-z0-9.-]+[a-z0-9])`", text))
    assert all(rule in ids for e in EDITIONS for rule in e.changed)
    changes = text[text.index("Changes (newest first"):text.index("Conventions")]
    newest = changes.split("\n- ")[1]
    assert newest.startswith("2026-12-01") and EDITIONS[-1].date == "2026-12-01"
    assert set(re.findall(r"`([a-z]+\.[a-z0-9.-]+[a-z0-9])`", newest)) <= set(EDITIONS[-1].changed)
    assert [e.number for e in EDITIONS] == list(range(1, len(EDITIONS) + 1))
