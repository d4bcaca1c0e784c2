"""One future per sealed state (referee.one-future), through HTTP against the real Redis: a
retry gets the same answer, a fork is refused 409, an illegal action records nothing, and
while Redis is down the apply is refused (503) or allowed, as ONE_FUTURE_WHEN_REDIS_DOWN says."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from litestar.testing import TestClient

from service.api.app import create_app
from service.seal import new_key
from service.settings import Settings
from tests.support.fixtures import free_port
from tests.support.redis_servers import LocalRedis, require_binaries, wait_until

KEY = new_key("k1")


def _client(redis_url: str, **settings: Any) -> TestClient:
    values = {"seal_keys": KEY, "redis_url": redis_url, "redis_timeout_ms": 2000,
              "redis_key_prefix": f"test-{uuid.uuid4().hex[:12]}:", **settings}
    return TestClient(create_app(Settings(**values)))


def _state_and_two_actions(client: TestClient) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    state = client.post("/v1/games", json={"players": ["Ana", "Ben", "Cyd"], "seed": 11}).json()["state"]
    actions = client.post("/v1/legal-actions", json={"state": state, "limit": 10}).json()["actions"]
    assert len(actions) >= 2
    return state, actions[0], actions[1]


def test_a_retry_is_answered_the_same_and_a_fork_is_refused(redis_url: str) -> None:
    with _client(redis_url) as client:
        state, first, other = _state_and_two_actions(client)
        applied = client.post("/v1/apply", json={"state": state, "action": first})
        assert applied.status_code == 200
        for headers in ({}, {"cache-control": "no-cache"}):  # from the cache and computed again
            retry = client.post("/v1/apply", json={"state": state, "action": first}, headers=headers)
            assert retry.status_code == 200 and retry.content == applied.content
        fork = client.post("/v1/apply", json={"state": state, "action": other})
        assert fork.status_code == 409
        body = fork.json()
        assert body["error"] == "already-advanced" and "referee.one-future" in body["message"]
        assert [v["rule"] for v in body["violations"]] == ["referee.one-future"]
        # Validating the other action is still answered: it does not advance the state.
        assert client.post("/v1/validate", json={"state": state, "action": other}).json()["valid"]


def test_a_fork_is_refused_by_another_replica_sharing_redis(redis_url: str) -> None:
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    shared = {"seal_keys": KEY, "redis_url": redis_url, "redis_key_prefix": prefix,
              "redis_timeout_ms": 2000}
    with TestClient(create_app(Settings(**shared))) as one, TestClient(create_app(Settings(**shared))) as two:
        state, first, other = _state_and_two_actions(one)
        assert one.post("/v1/apply", json={"state": state, "action": first}).status_code == 200
        assert two.post("/v1/apply", json={"state": state, "action": other}).status_code == 409


def test_an_illegal_action_records_nothing(redis_url: str) -> None:
    with _client(redis_url) as client:
        state, first, _ = _state_and_two_actions(client)
        illegal = {**first, "player": "Ben" if first["player"] != "Ben" else "Cyd"}
        assert client.post("/v1/apply", json={"state": state, "action": illegal}).status_code == 422
        assert client.post("/v1/apply", json={"state": state, "action": first}).status_code == 200


def test_redis_down_refuses_by_default_and_allows_when_set() -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with _client(dead, redis_timeout_ms=200) as refusing:
        state, first, _ = _state_and_two_actions(refusing)
        answer = refusing.post("/v1/apply", json={"state": state, "action": first})
        assert answer.status_code == 503 and answer.headers["retry-after"] == "1"
        assert answer.json()["error"] == "one-future-unavailable"
        assert "ONE_FUTURE_WHEN_REDIS_DOWN" in answer.json()["message"]
    with _client(dead, redis_timeout_ms=200, one_future_when_redis_down="allow") as allowing:
        state, first, _ = _state_and_two_actions(allowing)
        assert allowing.post("/v1/apply", json={"state": state, "action": first}).status_code == 200


def test_unsealed_states_are_not_protected_when_allowed(state: Any, redis_url: str) -> None:
    with _client(redis_url, allow_unsealed=True) as client:
        actions = client.post("/v1/legal-actions", json={"state": state, "limit": 2}).json()["actions"]
        for action in actions:
            assert client.post("/v1/apply", json={"state": state, "action": action}).status_code == 200


def test_with_one_future_replicas_an_apply_is_answered_once_a_replica_holds_its_record(
        tmp_path: Path) -> None:
    """ONE_FUTURE_REPLICAS=1: the record is made on the master at once, but the apply is answered
    only when a replica has it too (WAIT), so that a failover cannot lose a record already
    answered. Without a replica: 503, while the record stands (another action is refused);
    once a replica follows, the same action is answered."""
    require_binaries()
    servers = LocalRedis(tmp_path)
    try:
        primary = servers.start()
        url = f"redis://127.0.0.1:{primary}/0"
        # A generous timeout (WAIT waits half of it): a busy machine must not delay the replica's
        # acknowledgement past it.
        with _client(url, one_future_replicas=1, redis_timeout_ms=4000) as client:
            state, first, other = _state_and_two_actions(client)
            alone = client.post("/v1/apply", json={"state": state, "action": first})
            assert alone.status_code == 503 and alone.json()["error"] == "one-future-unavailable"
            assert "reached 0 of 1 replicas" in alone.json()["message"]
            assert client.post("/v1/apply", json={"state": state, "action": other}).status_code == 409
            replica = servers.start(replica_of=primary)
            wait_until("the replica to follow", lambda: servers.in_sync(replica), 30)
            assert client.post("/v1/apply", json={"state": state, "action": first}).status_code == 200
            assert client.post("/v1/apply", json={"state": state, "action": other}).status_code == 409
            assert client.get("/v1/cache/stats").json()["redis"]["errors"] == 0  # no breaker trip
    finally:
        servers.stop()


def test_a_retry_in_another_language_is_a_retry_and_a_fork_in_any_language_is_refused(
        redis_url: str) -> None:
    """Issue 29: the language is not part of a state's one future. The same action again, asked
    in German, is the same retry (the same answer but for its words: equal bytes per language,
    each its own cache entry); another action is refused 409 whatever the language, its
    message worded in the language asked for."""
    with _client(redis_url) as client:
        state, first, other = _state_and_two_actions(client)
        english = client.post("/v1/apply", json={"state": state, "action": first})
        german = client.post("/v1/apply", json={"state": state, "action": first},
                             headers={"accept-language": "de"})
        again = client.post("/v1/apply", json={"state": state, "action": first},
                            headers={"accept-language": "de", "cache-control": "no-cache"})
        assert english.status_code == german.status_code == again.status_code == 200
        assert german.headers["content-language"] == "de" and again.content == german.content
        assert german.json()["state"] == english.json()["state"]
        for language in ("en", "de", "fr", "es", "ca"):
            fork = client.post("/v1/apply", json={"state": state, "action": other},
                               headers={"accept-language": language})
            assert fork.status_code == 409 and fork.json()["error"] == "already-advanced"
            assert fork.headers["content-language"] == language
            assert [v["rule"] for v in fork.json()["violations"]] == ["referee.one-future"]
        assert fork.json()["message"] != client.post(
            "/v1/apply", json={"state": state, "action": other}).json()["message"]  # ca, not en
