"""Issue 13 items 1 and 3: seat tokens and CALLERS=players. With players calling the referee
themselves, a request that acts for a seat or shows its secrets carries that seat's token:
Ben cannot read Ana's view nor picture, validate, apply or list actions for her, and so cannot
recover her secret choice by guessing (neither through one future's retries nor by comparing
deterministic seals). Spectators' views and scoring stay open; backend mode keeps today's trust.
"""

from __future__ import annotations

import uuid
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.api.app import create_app
from service.engine import GameState, legal_actions
from service.seal import Sealing, new_key, parse_keys
from service.settings import Settings, SettingsError

KEY = new_key("k1")
VENDORS = {"players": ["Ana", "Ben", "Cyd"], "modules": ["vendors"], "seed": 3}


def _client(**settings: Any) -> TestClient:
    return TestClient(create_app(Settings(seal_keys=KEY, **settings)))


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _game(client: TestClient, body: dict[str, Any] = VENDORS) -> tuple[dict[str, Any], dict[str, str]]:
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.text
    tokens = {s["player"]: s["token"] for s in answer.json()["seat_tokens"]}
    assert list(tokens) == body["players"]
    return answer.json()["state"], tokens


def _whole(state: dict[str, Any]) -> GameState:
    return Sealing(parse_keys(KEY)).open(msgspec.convert(state, GameState)).state


def _forbidden(answer: Any) -> None:
    assert answer.status_code == 403, (answer.status_code, answer.text[:300])
    body = answer.json()
    assert body["error"] == "forbidden" and [v["rule"] for v in body["violations"]] == ["referee.seat-token"]
    # The seat is named plainly (issue 26: it read "is not 'Ana''s"), with what it needs.
    assert "''s" not in body["message"] and "seat token" in body["message"], body["message"]


def test_in_players_mode_ben_cannot_read_anas_view_nor_her_picture() -> None:
    """The review: Ben asked /v1/view and /v1/render for Ana and got her hand and her disc."""
    with _client(callers="players") as client:
        state, tokens = _game(client)
        anas_hand = _whole(state).players[0].hand
        for path in ("/v1/view", "/v1/render"):
            body = {"state": state, "player": "Ana"}
            _forbidden(client.post(path, json=body))  # no token
            _forbidden(client.post(path, json=body, headers=_bearer(tokens["Ben"])))
            _forbidden(client.post(path, json=body, headers=_bearer(tokens["Ana"][:-2] + "AA")))
            own = client.post(path, json=body, headers=_bearer(tokens["Ana"]))
            assert own.status_code == 200 and all(card in own.text for card in anas_hand)
        # A spectator's view and picture stay open, and show no hand.
        for path in ("/v1/view", "/v1/render"):
            seen = client.post(path, json={"state": state})
            assert seen.status_code == 200 and not any(card in seen.text for card in anas_hand)


def test_in_players_mode_acting_for_a_seat_needs_its_token() -> None:
    with _client(callers="players") as client:
        state, tokens = _game(client)
        mine = client.post("/v1/legal-actions", json={"state": state, "limit": 3},
                           headers=_bearer(tokens["Ana"]))
        assert mine.status_code == 200 and mine.json()["actions"], mine.text
        move = {"state": state, "action": mine.json()["actions"][0]}
        for path in ("/v1/validate", "/v1/apply", "/v1/legal-actions"):
            body = move if path != "/v1/legal-actions" else {"state": state}
            _forbidden(client.post(path, json=body))
            _forbidden(client.post(path, json=body, headers={"authorization": "Basic abc"}))
        for path in ("/v1/validate", "/v1/apply"):
            _forbidden(client.post(path, json=move, headers=_bearer(tokens["Ben"])))
        assert client.post("/v1/validate", json=move, headers=_bearer(tokens["Ana"])).json()["valid"]
        applied = client.post("/v1/apply", json=move, headers=_bearer(tokens["Ana"]))
        assert applied.status_code == 200
        # Ben's list holds his own options only (Ana's would show what she may choose).
        after = applied.json()["state"]
        bens = client.post("/v1/legal-actions", json={"state": after}, headers=_bearer(tokens["Ben"]))
        assert bens.status_code == 200 and {a["player"] for a in bens.json()["actions"]} == {"Ben"}
        anas = client.post("/v1/legal-actions", json={"state": after}, headers=_bearer(tokens["Ana"]))
        assert anas.status_code == 200 and anas.json()["actions"] == []
        # Scoring is open.
        assert client.post("/v1/score", json={"state": after, "round": 1}).status_code == 200


def test_backend_mode_needs_no_token_and_sealing_gives_tokens_in_both_modes() -> None:
    with _client() as client:
        state, tokens = _game(client)
        assert len(set(tokens.values())) == 3 and all(len(t) == 43 for t in tokens.values())
        assert client.post("/v1/view", json={"state": state, "player": "Ana"}).status_code == 200


def test_seat_tokens_are_derived_so_every_replica_knows_them_and_each_game_has_its_own() -> None:
    with _client(callers="players") as one, _client(callers="players") as two:
        state, tokens = _game(one)
        _, other_tokens = _game(one)  # the same request: another game, other tokens
        assert set(tokens.values()).isdisjoint(other_tokens.values())
        body = {"state": state, "player": "Ana"}
        assert two.post("/v1/view", json=body, headers=_bearer(tokens["Ana"])).status_code == 200
        _forbidden(two.post("/v1/view", json=body, headers=_bearer(other_tokens["Ana"])))


def test_players_mode_needs_sealing_and_refuses_unsealed_states() -> None:
    with pytest.raises(SettingsError, match="CALLERS='players': seat tokens need sealing"):
        Settings(callers="players")
    with pytest.raises(SettingsError, match="ALLOW_UNSEALED"):
        Settings(callers="players", seal_keys=KEY, allow_unsealed=True)
    with pytest.raises(SettingsError, match="CALLERS='anyone': must be backend or players"):
        Settings(callers="anyone")
    assert Settings.from_env({"CALLERS": "Players", "SEAL_KEYS": KEY}).callers == "players"


def _guesses(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Ana's possible secret choices (vendors.setup), 80 of them."""
    actions, _ = legal_actions(_whole(state), 80)
    assert len(actions) == 80 and {a.player for a in actions} == {"Ana"}
    return [msgspec.to_builtins(a) for a in actions]


def test_in_players_mode_guessing_anothers_secret_action_learns_nothing_from_seals() -> None:
    """The review recovered a vendors choice in 80 guesses without Redis: sealing is
    deterministic, so the guess whose answer equals the real next state is the secret. Ben
    cannot apply an action for Ana: every guess is the same 403."""
    with _client(callers="players") as client:
        state, tokens = _game(client)
        guesses = _guesses(state)
        real = client.post("/v1/apply", json={"state": state, "action": guesses[17]},
                           headers=_bearer(tokens["Ana"]))
        assert real.status_code == 200
        answers = {client.post("/v1/apply", json={"state": state, "action": g},
                               headers=_bearer(tokens["Ben"])).content for g in guesses}
        assert len(answers) == 1
        _forbidden(client.post("/v1/apply", json={"state": state, "action": guesses[17]},
                               headers=_bearer(tokens["Ben"])))


def test_in_players_mode_a_retry_is_recognised_only_from_the_seat_that_acted(redis_url: str) -> None:
    """With one future per state the real action got 200 (a retry) and every other guess 409:
    now a guess from another seat is refused before the record is looked at."""
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    with _client(callers="players", redis_url=redis_url, redis_key_prefix=prefix,
                 redis_timeout_ms=2000) as client:
        state, tokens = _game(client)
        guesses = _guesses(state)
        real = {"state": state, "action": guesses[42]}
        first = client.post("/v1/apply", json=real, headers=_bearer(tokens["Ana"]))
        assert first.status_code == 200
        retry = client.post("/v1/apply", json=real,
                            headers={**_bearer(tokens["Ana"]), "cache-control": "no-cache"})
        assert retry.status_code == 200 and retry.content == first.content
        statuses = {client.post("/v1/apply", json={"state": state, "action": g},
                                headers=_bearer(tokens["Ben"])).status_code for g in guesses}
        assert statuses == {403}
        fork = client.post("/v1/apply", json={"state": state, "action": guesses[0]},
                           headers=_bearer(tokens["Ana"]))
        assert fork.status_code == 409  # Ana herself still has one future


def test_a_game_set_up_under_a_retired_key_is_403_not_a_500() -> None:
    """Seat tokens derive from the key a game was set up under: once it is retired, its tokens
    cannot be checked (a 403 that says so), while its states sealed under the new key open."""
    old, new = new_key("old"), new_key("new")
    with TestClient(create_app(Settings(seal_keys=old, callers="players"))) as before:
        state, tokens = _game(before)
    with TestClient(create_app(Settings(seal_keys=f"{new},{old}", callers="players"))) as rotated:
        answer = rotated.post("/v1/legal-actions", json={"state": state}, headers=_bearer(tokens["Ana"]))
        assert answer.status_code == 200
        move = {"state": state, "action": answer.json()["actions"][0]}
        state = rotated.post("/v1/apply", json=move, headers=_bearer(tokens["Ana"])).json()["state"]
        assert state["seal"].startswith("v4.new.")
    with TestClient(create_app(Settings(seal_keys=new, callers="players"))) as retired:
        answer = retired.post("/v1/view", json={"state": state, "player": "Ben"},
                              headers=_bearer(tokens["Ben"]))
        _forbidden(answer)
        assert "'old'" in answer.json()["message"]
