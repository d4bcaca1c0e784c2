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
from tests.support.fixtures import mid_game

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


# Real states of edition 2, written by the referee at 7f2bff4 (edition 2) from random games.
EDITION_2 = json.loads((Path(__file__).parent / "data" / "edition-2-states.json").read_text("utf-8"))
PLAYS_ON = ("three_players_zoo_walls", "two_players_vendors")  # no power, staff or craftsmen
CONCERNED = {"four_players_power": ["power.end-of-turn"],
             "three_players_staff_craftsmen": ["staff.score", "staff.marshal-tile", "craftsmen.use-one"]}


def test_the_edition_2_states_are_real_states_of_edition_2() -> None:
    assert set(EDITION_2) == {*PLAYS_ON, *CONCERNED}
    assert all(state["edition"] == 2 for state in EDITION_2.values())
    assert EDITION == 3


@pytest.mark.parametrize("game", PLAYS_ON)
def test_a_state_of_edition_2_no_changed_rule_concerns_plays_on_and_comes_back_as_edition_3(
        client: TestClient, game: str) -> None:
    """RULES.md's Changes of 2026-12-02 name power, staff and craftsmen rules only: a game of
    edition 2 without those modules survives the deployment, every endpoint judges it as the
    same state of edition 3, and apply hands it back as edition 3."""
    old = EDITION_2[game]
    same = {**old, "edition": EDITION}
    legal = client.post("/v1/legal-actions", json={"state": old, "limit": 50})
    assert legal.status_code == 200, legal.text
    assert legal.json() == client.post("/v1/legal-actions", json={"state": same, "limit": 50}).json()
    action = legal.json()["actions"][0]
    assert client.post("/v1/validate", json={"state": old, "action": action}).json()["valid"] is True
    applied = client.post("/v1/apply", json={"state": old, "action": action})
    assert applied.status_code == 200, applied.text
    assert applied.json()["state"]["edition"] == EDITION
    assert applied.json() == client.post("/v1/apply", json={"state": same, "action": action}).json()
    for path in ("/v1/view", "/v1/score", "/v1/render"):
        body = {"state": old, **BODIES[path]}
        answer = client.post(path, json=body)
        assert answer.status_code == 200, (path, answer.text)
        assert answer.content == client.post(path, json={**body, "state": same}).content


@pytest.mark.parametrize("path", BODIES)
@pytest.mark.parametrize("game", CONCERNED)
def test_a_state_of_edition_2_a_changed_rule_concerns_is_outdated_naming_the_rules(
        client: TestClient, path: str, game: str) -> None:
    answer = client.post(path, json={"state": EDITION_2[game], **BODIES[path]})
    assert answer.status_code == 422, (path, answer.text)
    error = answer.json()
    assert error["error"] == "outdated-state" and error["violations"][0]["rule"] == "referee.edition"
    assert f"edition 2 of the rules; this referee plays edition {EDITION}" in error["message"]
    assert all(rule in error["message"] for rule in CONCERNED[game])


def test_a_sealed_state_of_edition_2_no_changed_rule_concerns_plays_on_sealed() -> None:
    """The same across a deployment with sealing on: the seal of an edition-2 state (made here
    by another referee instance under the same key) opens, and the state handed back is a
    sealed state of edition 3."""
    import msgspec

    from service.api.app import create_app
    from service.engine.state import GameState
    from service.seal import Sealing, new_key, parse_keys
    from service.settings import Settings

    key = new_key("k")
    old = msgspec.json.decode(json.dumps(EDITION_2["two_players_vendors"]).encode(), type=GameState)
    sealed = msgspec.json.decode(msgspec.json.encode(Sealing(parse_keys(key)).seal(old)))
    assert sealed["edition"] == 2 and sealed["seal"]
    with TestClient(create_app(Settings(seal_keys=key))) as client:
        legal = client.post("/v1/legal-actions", json={"state": sealed, "limit": 1})
        assert legal.status_code == 200, legal.text
        applied = client.post("/v1/apply", json={"state": sealed, "action": legal.json()["actions"][0]})
        assert applied.status_code == 200, applied.text
        assert applied.json()["state"]["edition"] == EDITION and applied.json()["state"]["seal"]
