"""Sealed states (service/seal.py): the public part readable, the whole state encrypted and
authenticated; tampering of every kind refused with 422 and its message; key rotation."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.api.app import create_app
from service.engine.state import GameState
from service.seal import Sealing, new_key, parse_keys
from service.settings import Settings, SettingsError

OLD, NEW = new_key("old"), new_key("new")
GAME = {"players": ["Ana", "Ben", "Cyd"], "modules": ["staff", "treasure", "craftsmen"], "seed": 5}
HIDDEN_BASE = ("deck", "bag", "rng")


def _client(keys: str, **settings: Any) -> TestClient:
    return TestClient(create_app(Settings(seal_keys=keys, **settings)))


@pytest.fixture
def sealed() -> Iterator[TestClient]:
    with _client(NEW) as c:
        yield c


def _game(client: TestClient, **overrides: Any) -> dict[str, Any]:
    answer = client.post("/v1/games", json={**GAME, **overrides})
    assert answer.status_code == 201, answer.text
    return answer.json()["state"]


def _move(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    actions = client.post("/v1/legal-actions", json={"state": state, "limit": 5}).json()["actions"]
    return {"state": state, "action": actions[0]}


def _refusal(client: TestClient, state: dict[str, Any]) -> tuple[int, str, str]:
    answer = client.post("/v1/legal-actions", json={"state": state, "limit": 5})
    body = answer.json()
    return answer.status_code, body["error"], body["message"]


def test_a_sealed_state_shows_only_its_public_part(sealed: TestClient) -> None:
    state = _game(sealed)
    assert state["seal"].startswith("v1.new.")
    # Emptied: the base game's fields are always written, so as empty values.
    assert [state[key] for key in HIDDEN_BASE] == [[], [], "0" * 16]
    assert all(p["hand"] == [] for p in state["players"])
    assert "pile" not in state["staff"] and "bag" not in state["treasure"]
    assert "out" not in state["craftsmen"] and state["market"]  # the market is public


def test_a_sealed_game_is_played_and_stays_sealed(sealed: TestClient) -> None:
    state = _game(sealed)
    for _ in range(3):
        answer = sealed.post("/v1/apply", json=_move(sealed, state))
        assert answer.status_code == 200, answer.text
        state = answer.json()["state"]
        assert state["seal"].startswith("v1.new.") and state["deck"] == []


def test_sealing_is_deterministic(sealed: TestClient) -> None:
    move = _move(sealed, _game(sealed))
    first = sealed.post("/v1/apply", json=move, headers={"cache-control": "no-cache"})
    again = sealed.post("/v1/apply", json=move, headers={"cache-control": "no-cache"})
    assert first.content == again.content


def test_a_flipped_byte_in_the_seal_is_refused(sealed: TestClient) -> None:
    state = _game(sealed)
    head, data = state["seal"].rsplit(".", 1)
    raw = bytearray(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))
    raw[len(raw) // 2] ^= 0x01
    flipped = base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")
    assert _refusal(sealed, {**state, "seal": f"{head}.{flipped}"}) == (
        422, "bad-seal", "the seal does not authenticate: it was altered or cut")


def test_a_truncated_seal_is_refused(sealed: TestClient) -> None:
    state = _game(sealed)
    for cut in (state["seal"][:-7], state["seal"][:12], "v1.new", "v1"):
        status, error, message = _refusal(sealed, {**state, "seal": cut})
        assert (status, error) == (422, "bad-seal"), cut
        assert "altered or cut" in message or "malformed" in message


def test_a_seal_from_another_game_is_refused(sealed: TestClient) -> None:
    ours, theirs = _game(sealed), _game(sealed, seed=6)
    status, error, message = _refusal(sealed, {**ours, "seal": theirs["seal"]})
    assert (status, error) == (422, "bad-seal")
    assert "does not match its seal" in message and "another state" in message


def test_an_altered_public_field_is_refused_and_named(sealed: TestClient) -> None:
    state = _game(sealed)
    players = [dict(p) for p in state["players"]]
    players[1]["score"] = 50
    status, error, message = _refusal(sealed, {**state, "players": players})
    assert (status, error) == (422, "bad-seal") and "`players[1].score`" in message


def test_a_hidden_part_written_into_the_public_part_is_refused(sealed: TestClient) -> None:
    state = _game(sealed)
    status, error, _ = _refusal(sealed, {**state, "deck": ["money-yellow-1"]})
    assert (status, error) == (422, "bad-seal")


def test_an_unsealed_state_is_refused_unless_allowed(state: Any) -> None:
    with _client(NEW) as strict:
        status, error, message = _refusal(strict, state)
        assert (status, error) == (422, "unsealed-state") and "ALLOW_UNSEALED" in message
    with _client(NEW, allow_unsealed=True) as lenient:
        assert lenient.post("/v1/legal-actions", json={"state": state, "limit": 3}).status_code == 200


def test_key_rotation_accepts_the_old_key_until_it_is_removed() -> None:
    with _client(OLD) as before:
        state = _game(before)
    with _client(f"{NEW},{OLD}") as rotated:  # the new key seals, the old one is still accepted
        answer = rotated.post("/v1/apply", json=_move(rotated, state))
        assert answer.status_code == 200 and answer.json()["state"]["seal"].startswith("v1.new.")
    with _client(NEW) as retired:
        status, error, message = _refusal(retired, state)
        assert (status, error) == (422, "bad-seal") and "key 'old'" in message


def test_a_referee_without_keys_cannot_open_a_sealed_state(sealed: TestClient, client: TestClient) -> None:
    status, error, message = _refusal(client, _game(sealed))
    assert (status, error) == (422, "bad-seal") and "SEAL_KEYS" in message


def test_views_open_sealed_states(sealed: TestClient) -> None:
    state = _game(sealed)
    view = sealed.post("/v1/view", json={"state": state, "player": "Ana"})
    assert view.status_code == 200
    assert len(view.json()["players"][0]["hand"]) > 0  # Ana sees her own cards


def test_bad_keys_stop_the_start_naming_the_setting_without_showing_it(tmp_path: Any) -> None:
    secret = NEW.split(":", 1)[1]
    for bad in ("nokey", f"new:{secret[:20]}", f"k!:{secret}", f"new:{secret},new:{secret}"):
        with pytest.raises(SettingsError, match=r"^SEAL_KEYS=<secret>: ") as e:
            Settings.from_env({"SEAL_KEYS": bad})
        assert secret[:20] not in str(e.value)
    keyfile = tmp_path / "keys"
    keyfile.write_text(f"# current first\n{NEW}\n{OLD}\n")
    settings = Settings.from_env({"SEAL_KEYS_FILE": str(keyfile)})
    assert Sealing.from_settings(settings).current == "new"
    with pytest.raises(SettingsError, match="SEAL_KEYS_FILE='/nonexistent': cannot be read"):
        Settings.from_env({"SEAL_KEYS_FILE": "/nonexistent"})
    with pytest.raises(SettingsError, match="both set"):
        Settings.from_env({"SEAL_KEYS": NEW, "SEAL_KEYS_FILE": str(keyfile)})


def test_the_seal_holds_the_whole_state() -> None:
    from service.engine import new_game

    full = new_game(["Ana", "Ben"], ["treasure"], seed=9).state
    sealing = Sealing(parse_keys(NEW))
    opened = sealing.open(sealing.seal(full))
    assert opened.sealed and msgspec.json.encode(opened.state) == msgspec.json.encode(full)


def test_a_sealed_referee_draws_no_hidden_part(sealed: TestClient) -> None:
    state = _game(sealed, players=["Ana", "Ben"], modules=[], seed=3)
    whole = Sealing(parse_keys(NEW)).open(msgspec.convert(state, type=GameState)).state
    picture = sealed.post("/v1/render", json={"state": state})
    assert picture.status_code == 200, picture.text
    assert not any(card in picture.text for card in whole.players[0].hand)
    own = sealed.post("/v1/render", json={"state": state, "player": "Ana"})
    assert own.status_code == 200 and any(card in own.text for card in whole.players[0].hand)
