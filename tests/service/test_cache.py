"""The answer cache: LRU and Redis tiers, identical bytes on a hit, and Redis trouble that never
fails or slows a request (the breaker skips it; a miss is computed)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from service.api.app import create_app
from service.settings import Settings
from tests.support.fixtures import private_redis_or_skip


def _client(**settings: Any) -> TestClient:
    return TestClient(create_app(Settings(redis_key_prefix=f"test-{uuid.uuid4().hex[:12]}:", **settings)))


def _moves(client: TestClient, state: Any, n: int) -> list[dict]:
    actions = client.post("/v1/legal-actions", json={"state": state, "limit": n},
                          headers={"cache-control": "no-cache"}).json()["actions"]
    return [{"state": state, "action": a} for a in actions]


def test_memory_tier_hit_is_identical_and_counted(state: Any) -> None:
    with _client() as client:
        body = _moves(client, state, 1)[0]
        first = client.post("/v1/apply", json=body)
        second = client.post("/v1/apply", json=body)
        assert (first.headers["x-cache"], second.headers["x-cache"]) == ("miss", "hit-memory")
        assert first.content == second.content
        assert client.get("/v1/cache/stats").json()["memory"]["hits"] == 1


def test_refusals_are_cached_with_their_status(state: Any) -> None:
    with _client() as client:
        body = _moves(client, state, 1)[0]
        bad = {**body, "action": {**body["action"], "player": "Nobody"}}
        first, second = client.post("/v1/apply", json=bad), client.post("/v1/apply", json=bad)
        assert first.status_code == second.status_code == 422
        assert second.headers["x-cache"] == "hit-memory" and first.content == second.content


def test_no_cache_header_computes(state: Any) -> None:
    with _client() as client:
        body = _moves(client, state, 1)[0]
        client.post("/v1/validate", json=body)
        again = client.post("/v1/validate", json=body, headers={"cache-control": "no-cache"})
        assert again.headers["x-cache"] == "miss"


def test_a_hit_is_found_by_the_bytes_before_decoding(state: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key is the body's bytes: a repeated body is answered without decoding it; the same
    content written differently is decoded and computed once more, to the same answer."""
    import json

    from service.api import reading

    with _client() as client:
        body = _moves(client, state, 1)[0]
        compact = json.dumps(body, separators=(",", ":")).encode()
        spaced = json.dumps(body, indent=1).encode()
        headers = {"content-type": "application/json"}
        first = client.post("/v1/apply", content=compact, headers=headers)
        decodes: list[Any] = []
        real_decode = reading.decoded
        monkeypatch.setattr(reading, "decoded", lambda *a: decodes.append(a) or real_decode(*a))
        again = client.post("/v1/apply", content=compact, headers=headers)
        assert (again.headers["x-cache"], decodes) == ("hit-memory", [])
        other = client.post("/v1/apply", content=spaced, headers=headers)
        assert other.headers["x-cache"] == "miss" and len(decodes) == 1
        assert first.content == again.content == other.content


def test_a_body_that_does_not_decode_is_400_and_never_stored(state: Any) -> None:
    with _client() as client:
        bad = b'{"state": {"players": "not a list"}, "action": {}}'
        headers = {"content-type": "application/json"}
        answers = [client.post("/v1/validate", content=bad, headers=headers) for _ in range(2)]
        assert [a.status_code for a in answers] == [400, 400]
        assert all("x-cache" not in a.headers for a in answers)
        assert "$.state" in answers[1].json()["message"]
        assert client.get("/v1/cache/stats").json()["memory"]["entries"] == 0


def test_shared_redis_hit_is_identical_and_a_changed_body_misses(state: Any, redis_url: str) -> None:
    prefix = f"test-{uuid.uuid4().hex}:"
    # A generous timeout: this test is about hits and misses, not about a slow Redis (other tests
    # are), and a loaded CI machine must not turn it into a breaker trip.
    settings = {"redis_url": redis_url, "cache_entries": 0, "redis_key_prefix": prefix,
                "redis_timeout_ms": 3000}
    import redis as redis_py

    r = redis_py.Redis.from_url(redis_url)
    with TestClient(create_app(Settings(**settings))) as client:
        assert client.get("/readyz").json() == {"status": "ready", "cache": "memory+redis", "redis": "up"}
        body = _moves(client, state, 2)
        first = client.post("/v1/validate", json=body[0])
        deadline = time.monotonic() + 5  # the write to Redis is in the background
        while len(list(r.scan_iter(match=f"{prefix}*"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        second = client.post("/v1/validate", json=body[0])
        changed = client.post("/v1/validate", json=body[1])
        assert (first.headers["x-cache"], second.headers["x-cache"], changed.headers["x-cache"]) == (
            "miss", "hit-redis", "miss")
        assert first.content == second.content
        redis = client.get("/v1/cache/stats").json()["redis"]
        assert (redis["hits"], redis["misses"], redis["errors"]) == (1, 2, 0)
    keys = list(r.scan_iter(match=f"{prefix}*"))
    assert len(keys) == 3  # the legal-actions answer and the two validate answers
    r.delete(*keys)


@pytest.fixture
def private_redis() -> Iterator[Any]:
    server = private_redis_or_skip()
    yield server
    server.kill()


def test_killing_redis_mid_run_never_fails_or_slows_a_request(state: Any, private_redis: Any) -> None:
    settings = {"redis_url": private_redis.url, "cache_entries": 0, "redis_breaker_seconds": 0.3}
    with _client(**settings) as client:
        bodies = _moves(client, state, 12)
        expected = [client.post("/v1/validate", json=b, headers={"cache-control": "no-cache"}).content
                    for b in bodies]
        _until_redis_hits(client, bodies)
        timings = []
        for i, body in enumerate(bodies * 3):
            if i == len(bodies):
                private_redis.kill()
            start = time.monotonic()
            r = client.post("/v1/validate", json=body)
            timings.append(time.monotonic() - start)
            assert r.status_code == 200 and r.content == expected[i % len(bodies)]
        assert max(timings) < 0.5, timings
        stats = client.get("/v1/cache/stats").json()["redis"]
        assert stats["errors"] >= 1
        assert client.get("/readyz").json()["redis"] == "down"

        private_redis.restart()
        time.sleep(0.35)  # the breaker closes again
        _until_redis_hits(client, bodies)  # a fresh Redis: misses that store again, then hits


def _until_redis_hits(client: TestClient, bodies: list[dict], tries: int = 5) -> None:
    """Request `bodies` until each is a Redis hit: the writes are in the background, and on a
    busy machine the first connection can exceed the timeout (the breaker then skips Redis)."""
    for _ in range(tries):
        seen = [client.post("/v1/validate", json=b).headers["x-cache"] for b in bodies]
        if seen == ["hit-redis"] * len(bodies):
            return
        time.sleep(0.4)  # the writes land; an open breaker closes
    raise AssertionError(f"no Redis hits: {seen}")
