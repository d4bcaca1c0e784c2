"""The referee on a Sentinel service (`REDIS_URL=redis+sentinel://host:port/service`): a master,
its replica and a sentinel on free ports of loopback (tests/support/redis_servers.py), two referee apps
sharing them. An answer one computed is a Redis hit on the other; a sealed state has one future
across both; the master killed, the sentinel promotes the replica and the referees follow it
without a restart: the records answered before the kill are still there (`ONE_FUTURE_REPLICAS=1`),
and applies are answered again once the old master is back as the new one's replica.

Skipped with the reason where `redis-server` is missing; under CI (`CI` set) it fails instead.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from litestar.testing import TestClient

from service.api.app import create_app
from service.seal import new_key
from service.settings import Settings
from tests.support.redis_servers import LocalSentinel, require_binaries, wait_until


def _until(client: TestClient, body: dict[str, Any], want: int) -> Any:
    """The apply's answer once it is `want` (a breaker reopened by the failover closes soon)."""
    return wait_until(f"apply answered {want}", lambda: (
        r if (r := client.post("/v1/apply", json=body)).status_code == want else None), 30, 0.2)


def test_two_referees_on_a_sentinel_service_share_answers_and_records_through_a_failover(
        tmp_path: Path) -> None:
    require_binaries()
    sentinel = LocalSentinel(tmp_path)
    settings = Settings(redis_url=sentinel.url, redis_key_prefix=f"test-{uuid.uuid4().hex[:8]}:",
                        seal_keys=new_key("k1"), cache_entries=0, one_future_replicas=1,
                        redis_breaker_seconds=0.3,
                        redis_timeout_ms=4000)  # generous: a busy machine must not look like a failure
    try:
        with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
            state = one.post("/v1/games", json={"players": ["Ana", "Ben"], "seed": 5}).json()["state"]
            first, other = one.post("/v1/legal-actions", json={"state": state, "limit": 2}).json()["actions"]
            move, fork = {"state": state, "action": first}, {"state": state, "action": other}
            # The shared cache: computed by one, a Redis hit on the other.
            computed = one.post("/v1/validate", json=fork)
            assert computed.headers["x-cache"] == "miss"
            hit = wait_until("a Redis hit", lambda: (r if (r := two.post("/v1/validate", json=fork)).headers[
                "x-cache"] == "hit-redis" else None), 10)
            assert hit.content == computed.content
            # One future across both.
            applied = one.post("/v1/apply", json=move)
            assert applied.status_code == 200
            assert two.post("/v1/apply", json=fork).status_code == 409

            old = sentinel.master_port
            sentinel.kill(old)
            wait_until("the sentinel to promote the replica",
                       lambda: sentinel.current_master() == sentinel.replica_port, 60, 0.1)
            # The record made before the kill is on the new master: still one future.
            assert _until(two, fork, 409).json()["error"] == "already-advanced"
            assert two.get("/readyz").json()["redis"] == "up"
            # The new master has no replica to confirm a record until the old master is back as
            # its replica: the retry and a new state get 503.
            state2 = one.post("/v1/games", json={"players": ["Ana", "Ben"], "seed": 6}).json()["state"]
            action2 = one.post("/v1/legal-actions", json={"state": state2, "limit": 1}).json()["actions"][0]
            move2 = {"state": state2, "action": action2}
            for body in (move, move2):
                assert "of 1 replicas" in _until(one, body, 503).json()["message"]
            # Started again as the replica of the new master, as the start script of a Sentinel
            # deployment does (asking the sentinels first); the sentinel would also convert it.
            sentinel.restart(old, "--replicaof", "127.0.0.1", str(sentinel.replica_port))
            wait_until("the old master to follow the new one", lambda: sentinel.in_sync(old), 60, 0.1)
            assert _until(two, move, 200).content == applied.content
            _until(one, move2, 200)
            assert two.post("/v1/apply", json=fork).status_code == 409
    finally:
        sentinel.stop()
