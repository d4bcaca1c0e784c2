"""States of an older rules edition over HTTP (README "Editions of the rules"): 422
`outdated-state` naming both editions and what changed for the game, never `inconsistent-state`
nor a 400 about the first field such a state lacks.

`data/edition-1-states.json` holds real states of edition 1, written by the referee as it was
before editions existed (main at 8ad10d6): fields holding their default left out, no `edition`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.engine import EDITION
from tests.api.conftest import mid_game

EDITION_1 = json.loads((Path(__file__).parent / "data" / "edition-1-states.json").read_text("utf-8"))
ACTION = {"type": "take-money", "player": "Ana", "cards": ["blue-1-a"]}
BODIES = {  # every endpoint that takes a state, with the rest of its body
    "/v1/validate": {"action": ACTION}, "/v1/apply": {"action": ACTION},
    "/v1/legal-actions": {"limit": 3}, "/v1/view": {"player": "Ana"}, "/v1/score": {"round": 1},
    "/v1/render": {},
}


@pytest.mark.parametrize("path", BODIES)
@pytest.mark.parametrize(("game", "changed"), [
    ("two_players", "dirk.setup"), ("craftsmen", "craftsmen.flip"), ("three_players_base", None)])
def test_a_state_written_before_editions_is_refused_as_outdated(client: TestClient, path: str,
                                                                game: str, changed: str | None) -> None:
    answer = client.post(path, json={"state": EDITION_1[game], **BODIES[path]})
    assert answer.status_code == 422, (path, answer.text)
    error = answer.json()
    assert error["error"] == "outdated-state"
    assert error["violations"][0]["rule"] == "referee.edition"
    assert f"edition 1 of the rules; this referee plays edition {EDITION}" in error["message"]
    if changed:
        assert changed in error["message"]
    assert "states are written whole" in error["message"]


def test_a_whole_state_marked_with_an_older_edition_is_refused_as_outdated(client: TestClient) -> None:
    state: Any = mid_game(players=2, steps=5)
    assert state["edition"] == EDITION
    state["edition"] = 1
    answer = client.post("/v1/legal-actions", json={"state": state, "limit": 1})
    assert answer.status_code == 422 and answer.json()["error"] == "outdated-state"
    assert "dirk.setup" in answer.json()["message"]


def test_a_current_state_with_a_field_missing_is_a_bad_request_naming_it(client: TestClient) -> None:
    """Only a state without `edition` is taken for one written before editions."""
    state: Any = mid_game(players=3, steps=2)
    del state["discard"]
    answer = client.post("/v1/legal-actions", json={"state": state, "limit": 1})
    assert answer.status_code == 400
    assert "discard" in answer.json()["message"] and "$.state" in answer.json()["message"]


def test_an_edition_above_the_referees_is_a_bad_request_naming_the_field(client: TestClient) -> None:
    state = mid_game(players=3, steps=2)
    state["edition"] = EDITION + 1
    answer = client.post("/v1/legal-actions", json={"state": state, "limit": 1})
    assert answer.status_code == 400
    assert "$.state.edition" in answer.json()["message"]
