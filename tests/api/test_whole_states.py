"""States are written whole and read whole: every field of the game state, its players, its
turn and Dirk is in every state the referee writes (so the contract marks them required and a
generated client finds them), and a state must hold them (400 naming the missing one). A state
of edition 1, written before, left out the fields that held their default and `edition`: it is
refused as outdated (422 `outdated-state`, README "Editions of the rules"), or as `bad-seal` when
a seal of today's version holds such bytes."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from litestar.testing import TestClient

from service.api.app import create_app
from service.engine import Generator, apply, new_game, random_action
from service.engine.state import Dirk, GameState, Player, Turn
from service.seal import Sealing, new_key
from service.settings import Settings


def _played(modules: tuple[str, ...] = ("zoo",), steps: int = 12) -> GameState:
    state = new_game(["Ana", "Ben", "Cyd"], modules, seed=3).state
    rng = Generator(1)
    for _ in range(steps):
        action = random_action(state, rng)
        assert action is not None
        state = apply(state, action).state
    return state


def _as_edition_1(state: GameState) -> dict[str, Any]:
    """The state as edition 1 wrote it: no edition, and every default left out."""
    whole = json.loads(msgspec.json.encode(state))
    old = {k: v for k, v in whole.items() if k != "edition" and v not in ([], None, "play", "0" * 16)}
    old["players"] = [{k: v for k, v in p.items() if v not in ([], 0)} for p in whole["players"]]
    defaults = {"actions": 1, "acted": False, "ending": 0}
    old["turn"] = {k: v for k, v in whole["turn"].items() if k == "player" or v != defaults[k]}
    return old


def test_a_state_is_written_whole() -> None:
    written = json.loads(msgspec.json.encode(new_game(["Ana", "Ben"], seed=1).state))
    fields = set(GameState.__struct_fields__) - {"seal"}
    assert fields <= set(written), fields - set(written)
    assert set(written["players"][0]) == set(Player.__struct_fields__)
    assert set(written["turn"]) == set(Turn.__struct_fields__)
    assert set(written["dirk"]) == set(Dirk.__struct_fields__)
    assert written["ranking"] == [] and written["zoo"] is None


def test_a_state_of_edition_2_missing_a_field_is_refused_naming_it() -> None:
    state = json.loads(msgspec.json.encode(_played()))
    del state["players"][1]["held"]
    with TestClient(create_app(Settings())) as client:
        answer = client.post("/v1/legal-actions", json={"state": state, "limit": 1})
    assert answer.status_code == 400
    assert "`held`" in answer.json()["message"] and "$.state.players[1]" in answer.json()["message"]


def test_a_state_written_before_with_defaults_left_out_is_refused_as_outdated() -> None:
    """Before states were written whole, fields holding their default were left out, and no
    `edition`: such a state is refused as outdated (422, not a 400 about the first field it
    lacks), and bytes of that form inside a seal as `bad-seal`, never a 5xx."""
    old = _as_edition_1(_played())
    assert "ranking" not in old and "held" not in old["players"][0] and "acted" not in old["turn"]
    with TestClient(create_app(Settings())) as client:
        answer = client.post("/v1/legal-actions", json={"state": old})
    assert (answer.status_code, answer.json()["error"]) == (422, "outdated-state")
    key = new_key("k1")
    sealing = Sealing.from_settings(Settings(seal_keys=key))
    state = _played()
    sealed = sealing.seal(state, msgspec.json.encode(_as_edition_1(state)))  # old bytes in the seal
    public = json.loads(msgspec.json.encode(sealed))
    with TestClient(create_app(Settings(seal_keys=key))) as client:
        answer = client.post("/v1/legal-actions", json={"state": public, "limit": 2})
    assert (answer.status_code, answer.json()["error"]) == (422, "bad-seal")
    assert "older referee" in answer.json()["message"]
