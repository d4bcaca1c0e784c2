"""States of an older rules edition over HTTP (README "Editions of the rules"): one that no
change concerns plays on and comes back at the current edition; one that a change concerns is
422 `outdated-state` naming both editions, never `inconsistent-state`."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from service.engine import EDITION
from tests.api.conftest import mid_game


def _older(state: Any) -> Any:
    state = dict(state)
    del state["edition"]
    return state


def _first_action(client: TestClient, state: Any) -> Any:
    answer = client.post("/v1/legal-actions", json={"state": state, "limit": 1})
    assert answer.status_code == 200, answer.text
    return answer.json()["actions"][0]


def test_an_older_state_no_change_concerns_is_applied_and_answered_at_the_current_edition(
        client: TestClient) -> None:
    state = _older(mid_game(players=3, steps=12))
    action = _first_action(client, state)
    answer = client.post("/v1/apply", json={"state": state, "action": action})
    assert answer.status_code == 200, answer.text
    assert answer.json()["state"]["edition"] == EDITION


def test_an_older_two_player_state_is_refused_as_outdated(client: TestClient) -> None:
    """dirk.setup changed in edition 2 (72 money cards with two players)."""
    state = mid_game(players=2, steps=5)
    assert state["edition"] == EDITION
    for path in ("/v1/validate", "/v1/legal-actions", "/v1/view"):
        body = {"state": _older(state), "action": {"type": "take-money", "player": "Ana", "cards": []},
                "limit": 3, "player": "Ana"}
        keys = {"/v1/validate": ("state", "action"), "/v1/legal-actions": ("state", "limit"),
                "/v1/view": ("state", "player")}[path]
        answer = client.post(path, json={k: body[k] for k in keys})
        assert answer.status_code == 422, (path, answer.text)
        error = answer.json()
        assert error["error"] == "outdated-state"
        assert error["violations"][0]["rule"] == "referee.edition"
        assert f"edition 1 of the rules; this referee plays edition {EDITION}" in error["message"]
        assert "dirk.setup" in error["message"]


def test_an_edition_above_the_referees_is_a_bad_request_naming_the_field(client: TestClient) -> None:
    state = mid_game(players=3, steps=2)
    state["edition"] = EDITION + 1
    answer = client.post("/v1/legal-actions", json={"state": state, "limit": 1})
    assert answer.status_code == 400
    assert "$.state.edition" in answer.json()["message"]
