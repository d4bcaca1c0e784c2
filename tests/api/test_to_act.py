"""Who must act, through HTTP: every answer that carries a state says it (create, apply, view),
and /v1/legal-actions lists one player's actions when asked."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from service.api.app import create_app
from service.engine import to_act
from service.seal import new_key
from service.settings import Settings
from tests.support.play import play_until


def test_create_says_who_must_act_first_even_when_it_is_not_turn_player(client: TestClient) -> None:
    """vendors.setup: Ana chooses first though Cyd (seat 2) takes the first turn (seed 3)."""
    answer = client.post("/v1/games", json={"players": ["Ana", "Ben", "Cyd"], "modules": ["vendors"],
                                            "seed": 3}).json()
    assert answer["state"]["turn"]["player"] == 2
    assert answer["to_act"] == {"players": ["Ana"], "actors": [{
        "player": "Ana", "seat": 0, "kind": "decision", "rule": "vendors.setup",
        "what": "choose the disc's inhabitants and space (choose-inhabitants)", "actions_left": 0}]}


def test_apply_and_view_say_who_must_act_next(client: TestClient) -> None:
    game = client.post("/v1/games", json={"players": ["Ana", "Ben"], "seed": 1}).json()
    action = client.post("/v1/legal-actions", json={"state": game["state"], "limit": 1}).json()["actions"][0]
    applied = client.post("/v1/apply", json={"state": game["state"], "action": action}).json()
    assert applied["to_act"]["players"] and applied["to_act"]["actors"][0]["kind"] in ("turn", "placement")
    for player in (None, "Ana", "Ben"):
        seen = client.post("/v1/view", json={"state": applied["state"], "player": player}).json()
        assert seen["to_act"] == applied["to_act"]


def test_legal_actions_of_one_player_in_the_thieves_window(client: TestClient) -> None:
    import msgspec

    state = play_until(("thieves",), 4, seed=5, wanted=lambda s: len(to_act(s).players) > 2)
    body: Any = msgspec.to_builtins(state)
    everyone = client.post("/v1/legal-actions", json={"state": body, "limit": 10000}).json()["actions"]
    players = to_act(state).players
    assert {a["player"] for a in everyone} == set(players)
    for name in players:
        own = client.post("/v1/legal-actions", json={"state": body, "limit": 10000, "player": name}).json()
        assert own["actions"] == [a for a in everyone if a["player"] == name]
    unknown = client.post("/v1/legal-actions", json={"state": body, "player": "Zed"})
    assert unknown.status_code == 422 and unknown.json()["error"] == "unknown-player"


def test_a_sealed_game_says_who_must_act_too() -> None:
    with TestClient(create_app(Settings(seal_keys=new_key("k")))) as sealed:
        game = sealed.post("/v1/games", json={"players": ["Ana", "Ben", "Cyd"], "modules": ["vendors"],
                                              "seed": 3}).json()
        assert game["state"]["seal"] and game["to_act"]["players"] == ["Ana"]
        ana = sealed.post("/v1/legal-actions", json={"state": game["state"], "player": "Ana", "limit": 3})
        assert ana.status_code == 200 and {a["player"] for a in ana.json()["actions"]} == {"Ana"}
        ben = sealed.post("/v1/legal-actions", json={"state": game["state"], "player": "Ben"}).json()
        assert ben == {"actions": [], "truncated": False}
