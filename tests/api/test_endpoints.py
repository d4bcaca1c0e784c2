"""Every endpoint through HTTP, and one test per error class with its exact status and message."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.api.app import create_app
from service.settings import Settings
from tests.support.play import play_until


def _first_action(client: TestClient, state: Any) -> dict:
    answer = client.post("/v1/legal-actions", json={"state": state, "limit": 5})
    assert answer.status_code == 200
    return answer.json()["actions"][0]


def test_create_game_answers_201_with_the_state(client: TestClient) -> None:
    r = client.post("/v1/games", json={"players": ["Ana", "Ben"], "modules": ["zoo"], "seed": 42})
    assert r.status_code == 201
    body = r.json()
    assert set(body) == {"state", "game_over", "to_act", "seat_tokens"} and body["game_over"] is False
    assert body["seat_tokens"] == []  # seat tokens come with sealing only
    assert [p["name"] for p in body["state"]["players"]] == ["Ana", "Ben"]
    assert body["state"]["modules"] == ["zoo"]


def test_create_game_is_deterministic(client: TestClient) -> None:
    body = {"players": ["Ana", "Ben", "Cyd"], "seed": 9}
    assert client.post("/v1/games", json=body).content == client.post("/v1/games", json=body).content


def test_legal_actions_each_pass_validate(client: TestClient, state: Any) -> None:
    r = client.post("/v1/legal-actions", json={"state": state, "limit": 20})
    assert r.status_code == 200
    for action in r.json()["actions"]:
        v = client.post("/v1/validate", json={"state": state, "action": action})
        assert v.json() == {"valid": True, "violations": []}


def test_legal_actions_limit_truncates(client: TestClient, state: Any) -> None:
    r = client.post("/v1/legal-actions", json={"state": state, "limit": 1}).json()
    assert len(r["actions"]) == 1 and r["truncated"] is True


def test_validate_refuses_with_rule_and_message(client: TestClient, state: Any) -> None:
    action = _first_action(client, state)
    other = next(p["name"] for p in state["players"] if p["name"] != action["player"])
    r = client.post("/v1/validate", json={"state": state, "action": {**action, "player": other}})
    assert r.status_code == 200
    body = r.json()
    assert body["valid"] is False
    assert body["violations"][0]["rule"] == "base.turn.order"
    assert f"not {other}'s" in body["violations"][0]["message"]


def test_apply_answers_the_new_state_and_events(client: TestClient, state: Any) -> None:
    action = _first_action(client, state)
    r = client.post("/v1/apply", json={"state": state, "action": action})
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"state", "events", "scoring", "game_over", "to_act"}
    assert body["events"] and body["state"] != state


def test_score_of_a_state_and_of_a_position(client: TestClient, state: Any) -> None:
    r = client.post("/v1/score", json={"state": state, "round": 1})
    assert r.status_code == 200
    assert [p["name"] for p in r.json()["players"]] == [p["name"] for p in state["players"]]
    position = {
        "round": 1,
        "players": [
            {"name": "Ana", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},
            {"name": "Ben", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},
            {"name": "Dirk", "dirk": True, "tiles": [{"tile": t} for t in (  # dirk.setup: his 6
                "pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW", "garden-6-ESW",
                "tower-7-NEW")]},
        ],
    }
    r = client.post("/v1/score", json=position)
    assert r.status_code == 200
    body = r.json()
    assert body["round"] == 1
    assert all(p["total"] == sum(x["points"] for x in p["lines"]) for p in body["players"])


def test_view_hides_other_hands(client: TestClient, state: Any) -> None:
    r = client.post("/v1/view", json={"state": state, "player": "Ana"})
    assert r.status_code == 200
    seen = {p["name"]: p for p in r.json()["players"]}
    assert seen["Ana"]["hand"] and seen["Ben"]["hand"] is None
    spectator = client.post("/v1/view", json={"state": state}).json()
    assert all(p["hand"] is None for p in spectator["players"])


def test_view_hides_the_modules_hidden_parts(client: TestClient) -> None:
    """RULES.md §8 through HTTP: face-down piles and bags as sizes, a face-down craftsman only
    in its holder's view, no deck or bag content and no generator state in any view."""
    state = play_until(("craftsmen", "staff", "treasure"), 3, seed=1,
                       wanted=lambda s: any(s.craftsmen.face_down))
    holder = next(i for i, c in enumerate(state.craftsmen.face_down) if c is not None)
    card = state.craftsmen.face_down[holder]
    body = msgspec.json.decode(msgspec.json.encode(state))
    for player in (None, "Ana", "Ben", "Cyd"):
        r = client.post("/v1/view", json={"state": body, "player": player})
        assert r.status_code == 200
        seen = r.json()
        assert seen["staff"]["pile_size"] == len(state.staff.pile) and "pile" not in seen["staff"]
        assert seen["treasure"]["bag_size"] == len(state.treasure.bag) and "bag" not in seen["treasure"]
        assert seen["craftsmen"]["face_down"] == [i == holder for i in range(3)]
        mine = player == state.players[holder].name
        assert seen["craftsmen"].get("own_face_down") == (card if mine else None)
        assert (f'"{card}"' in r.text) == mine
        assert not [c for c in (*state.deck, *state.bag) if f'"{c}"' in r.text]
        assert state.rng not in r.text


def test_modules_health_ready_and_stats(client: TestClient) -> None:
    modules = client.get("/v1/modules").json()["modules"]
    assert "zoo" in {m["id"] for m in modules} and all(m["rule_ids"] for m in modules)
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready", "cache": "memory", "redis": "off"}
    stats = client.get("/v1/cache/stats").json()
    assert stats["memory"]["enabled"] is True and stats["redis"]["enabled"] is False


def test_echo_sends_the_body_back(client: TestClient, state: Any) -> None:
    action = _first_action(client, state)
    r = client.post("/v1/echo", json={"state": state, "action": action})
    assert r.status_code == 200 and r.json() == {"state": state, "action": action}


# --- one test per error class -----------------------------------------------------------------


def test_malformed_json_is_400(client: TestClient) -> None:
    r = client.post("/v1/validate", content=b"{not json")
    assert r.status_code == 400
    assert r.json() == {
        "error": "bad-request",
        "violations": [],
        "message": "invalid request body: JSON is malformed: object keys must be strings (byte 1)",
    }


def test_wrong_type_is_400_naming_the_path(client: TestClient, state: Any) -> None:
    bad = {**state, "turn": {**state["turn"], "player": "two"}}
    r = client.post("/v1/validate", json={"state": bad, "action": {"type": "end-turn", "player": "Ana"}})
    assert r.status_code == 400
    assert r.json()["message"] == "invalid request body: Expected `int`, got `str` - at `$.state.turn.player`"


def test_unknown_field_is_400_naming_the_path(client: TestClient, state: Any) -> None:
    r = client.post(
        "/v1/validate",
        json={"state": state, "action": {"type": "end-turn", "player": "Ana", "colour": "red"}},
    )
    assert r.status_code == 400
    assert r.json()["message"] == (
        "invalid request body: Object contains unknown field `colour` - at `$.action`"
    )


def test_unknown_action_type_is_400(client: TestClient, state: Any) -> None:
    r = client.post("/v1/apply", json={"state": state, "action": {"type": "flip-table", "player": "Ana"}})
    assert r.status_code == 400
    assert r.json()["message"] == "invalid request body: Invalid value 'flip-table' - at `$.action.type`"


def test_empty_body_is_400(client: TestClient) -> None:
    r = client.post("/v1/validate", content=b"")
    assert r.status_code == 400
    assert r.json()["message"] == "invalid request body: the body is empty; a JSON object is expected"


def test_integral_float_counts_as_an_integer(client: TestClient) -> None:
    r = client.post("/v1/games", json={"players": ["Ana", "Ben"], "seed": 5.0})
    assert r.status_code == 201
    assert r.content == client.post("/v1/games", json={"players": ["Ana", "Ben"], "seed": 5}).content


def test_inconsistent_state_is_422(client: TestClient, state: Any) -> None:
    bad = {
        **state,
        "players": [
            {**state["players"][0], "hand": [*state["players"][0]["hand"], *state["players"][1]["hand"]]},
            *state["players"][1:],
        ],
    }
    r = client.post("/v1/validate", json={"state": bad, "action": {"type": "end-turn", "player": "Ana"}})
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "inconsistent-state"
    assert body["message"].startswith("the state cannot occur in a game: ")
    assert any(state["players"][1]["hand"][0] in v["message"] for v in body["violations"])


def test_illegal_action_on_apply_is_422(client: TestClient, state: Any) -> None:
    action = _first_action(client, state)
    other = next(p["name"] for p in state["players"] if p["name"] != action["player"])
    r = client.post("/v1/apply", json={"state": state, "action": {**action, "player": other}})
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "illegal-action"
    assert body["violations"][0]["rule"] == "base.turn.order"
    assert body["message"] == f"the action is illegal: {body['violations'][0]['message']}"


def test_bad_game_request_is_422(client: TestClient) -> None:
    r = client.post("/v1/games", json={"players": ["Ana"]})
    assert r.status_code == 422
    assert r.json() == {
        "error": "bad-game-request",
        "violations": [
            {"rule": "base.setup.players", "message": "Alhambra is played by 2 to 6 players, not 1"}
        ],
        "message": "the game cannot be set up: Alhambra is played by 2 to 6 players, not 1",
    }


def test_unknown_viewer_is_422(client: TestClient, state: Any) -> None:
    r = client.post("/v1/view", json={"state": state, "player": "Zed"})
    assert r.status_code == 422
    assert r.json()["error"] == "unknown-player" and r.json()["message"] == "no player is named 'Zed'"


def test_body_over_the_limit_is_413() -> None:
    with TestClient(create_app(Settings(max_body_bytes=4096))) as client:
        r = client.post("/v1/validate", content=b"[" * 5000)
        assert r.status_code == 413
        assert r.json() == {
            "error": "body-too-large",
            "violations": [],
            "message": "the request body is larger than the limit of 4096 bytes (MAX_BODY_BYTES)",
        }


def test_unknown_path_is_404_and_wrong_method_405(client: TestClient) -> None:
    assert client.get("/v1/nowhere").json()["error"] == "not-found"
    r = client.get("/v1/apply")
    assert r.status_code == 405 and r.json()["error"] == "method-not-allowed"
    assert "POST" in r.headers["allow"]


def test_engine_bug_is_a_logged_500_in_the_error_shape(client: TestClient, state: Any, monkeypatch) -> None:
    from service.api import handlers

    def broken(*_: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(handlers, "view", broken)  # the engine's view, as /v1/view's handler calls it
    r = client.post("/v1/view", json={"state": state})
    assert r.status_code == 500
    assert r.json() == {
        "error": "internal-error",
        "violations": [],
        "message": "the referee failed; the error is logged",
    }


def test_score_of_a_finished_game_refuses_its_round_3_again(client: TestClient) -> None:
    """base.score.rounds (RULES.md: "round 3 at the end. Points accumulate over the rounds."):
    a finished game held round 3, so `{state, round: 3}` would count it twice: 422."""
    from service.engine.game import apply, new_game, random_action
    from service.engine.rng import Generator

    state = new_game(["Ana", "Ben"], [], seed=5).state
    rng = Generator(5)
    while state.phase != "over":
        action = random_action(state, rng)
        assert action is not None
        state = apply(state, action).state
    assert state.rounds_held == (1, 2, 3)
    r = client.post("/v1/score", json={"state": msgspec.to_builtins(state), "round": 3})
    assert r.status_code == 422 and r.json()["error"] == "inconsistent-state"
    assert [v["rule"] for v in r.json()["violations"]] == ["base.score.rounds"]
    assert "round 3" in r.json()["violations"][0]["message"]


def test_cli_handle_gives_the_endpoint_answer(state: Any) -> None:
    import msgspec

    from service.api import endpoints

    answer = endpoints.handle("score", msgspec.json.encode({"state": state, "round": 2}))
    assert answer.round == 2


def test_a_state_the_referee_produced_or_checked_is_not_checked_again(
    client: Any, state: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Known states skip the full consistency check; anything else is still checked."""
    from service import engine

    calls = []
    real = engine.check_consistency

    def counting(s: Any) -> Any:
        calls.append(1)
        return real(s)

    monkeypatch.setattr(engine, "check_consistency", counting)
    client.app.state.memo.clear()  # the app's memo of states: nothing checked yet
    nocache = {"cache-control": "no-cache"}
    action = client.post("/v1/legal-actions", json={"state": state, "limit": 1}, headers=nocache).json()[
        "actions"
    ][0]
    applied = client.post("/v1/apply", json={"state": state, "action": action}, headers=nocache).json()
    assert len(calls) == 1  # the first sight of `state`; legal-actions checked it, apply knew it
    client.post("/v1/legal-actions", json={"state": applied["state"], "limit": 1}, headers=nocache)
    assert len(calls) == 1  # the referee's own result
    tampered = dict(applied["state"], discard=[*applied["state"].get("discard", []), "blue-9-z"])
    answer = client.post("/v1/legal-actions", json={"state": tampered, "limit": 1}, headers=nocache)
    assert answer.status_code in (400, 422) and len(calls) <= 2
