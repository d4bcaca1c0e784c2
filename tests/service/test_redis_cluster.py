"""The referee on a real Redis Cluster (`REDIS_URL=redis+cluster://...`): three masters with a
replica each, six `redis-server`s on free ports of loopback made into a cluster by `redis-cli
--cluster create` (tests/support/redis_servers.py), and two `referee serve` processes sharing it.

What it proves: an answer one process computed is a Redis hit on the other, with the same bytes,
and the answers are spread over the masters; a state raced by six different applies through the
two processes has exactly one winner; a master killed under load is replaced by its replica
while no request fails, sealed applies are answered 200 or 503 `one-future-unavailable` (as
README.md documents), and no state that was answered once can be forked afterwards, not even a
state whose record was written on the master that died (`ONE_FUTURE_REPLICAS=1`: a record is
answered only once a replica holds it).

Skipped with the reason where `redis-server` is missing; under CI (`CI` set) it fails instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.seal import new_key
from tests.support.redis_servers import LocalCluster, free_ports, require_binaries, wait_until

ROOT = Path(__file__).resolve().parents[2]
REFEREE = str(Path(sys.executable).with_name("referee"))
PREFIX = f"test-cluster-{uuid.uuid4().hex[:8]}:"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    require_binaries()
    made = LocalCluster(tmp_path_factory.mktemp("redis-cluster"))
    try:
        yield made
    finally:
        made.stop()


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture(scope="module")
def referees(cluster: LocalCluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    """Two `referee serve` processes (one worker each) on the cluster, sealing on."""
    logs = tmp_path_factory.mktemp("referees")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")}
    env.update(REDIS_URL=cluster.url, REDIS_KEY_PREFIX=PREFIX, SEAL_KEYS=new_key("k1"), LOG_LEVEL="warning",
               CACHE_ENTRIES="0",  # every hit comes from Redis, none from a process's own LRU
               ONE_FUTURE_REPLICAS="1", REDIS_BREAKER_SECONDS="0.5",
               REDIS_TIMEOUT_MS="4000")  # generous: a busy machine must not look like a Redis down
    procs, urls = [], []
    try:
        for port in free_ports(2):
            log = open(logs / f"referee-{port}.log", "wb")  # noqa: SIM115 - kept by the process
            procs.append(subprocess.Popen([REFEREE, "serve"], cwd=ROOT, env={**env, "PORT": str(port)},
                                          stdout=log, stderr=subprocess.STDOUT))
            log.close()
            urls.append(f"http://127.0.0.1:{port}")
        for url in urls:
            wait_until(f"the referee at {url}", lambda u=url: _healthy(u), 60, 0.1)
        yield urls
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def _post(http: httpx.Client, url: str, body: Any) -> httpx.Response:
    return http.post(url, json=body, timeout=30)


def _game(http: httpx.Client, referee: str, seed: int, limit: int) -> tuple[dict[str, Any], list[Any]]:
    created = _post(http, f"{referee}/v1/games", {"players": ["Ana", "Ben", "Cyd"], "seed": seed})
    assert created.status_code == 201, created.text
    state = created.json()["state"]
    listed = _post(http, f"{referee}/v1/legal-actions", {"state": state, "limit": limit})
    assert listed.status_code == 200, listed.text
    return state, listed.json()["actions"]


def test_an_answer_one_referee_computed_is_a_redis_hit_on_the_other(cluster: LocalCluster,
                                                                    referees: list[str]) -> None:
    a, b = referees
    with httpx.Client() as http:
        bodies = [{"state": state, "action": action}
                  for seed in range(1, 9) for state, actions in [_game(http, a, seed, limit=3)]
                  for action in actions]
        assert len(bodies) >= 20
        for body in bodies:
            first = _post(http, f"{a}/v1/validate", body)
            assert (first.status_code, first.headers["x-cache"]) == (200, "miss")
            # The first referee stores in the background: ask the other until it finds it.
            def hit(body: Any = body) -> httpx.Response | None:
                r = _post(http, f"{b}/v1/validate", body)
                return r if r.headers["x-cache"] == "hit-redis" else None

            second = wait_until("a Redis hit on the other referee", hit, 10, 0.05)
            assert second.content == first.content
        stats = http.get(f"{b}/v1/cache/stats").json()["redis"]
        assert stats["hits"] >= len(bodies) and stats["errors"] == 0
    # The answers (the validations and the lists) went to the slots of more than one master.
    spread = cluster.keys_per_master(f"{PREFIX}*")
    assert sum(spread.values()) >= len(bodies) + 8 and sum(1 for n in spread.values() if n) >= 2, spread


def test_a_new_cluster_client_takes_a_burst_of_lookups_without_a_failure(cluster: LocalCluster) -> None:
    """The tier's client is new after every failure, and requests arrive together: 100 lookups
    at once on a new client all succeed (redis-py's cluster client, sent commands before it knows
    the slots, routes them at random and closes every connection on the MOVED that follow)."""
    import asyncio

    from service.cache import RedisTier

    async def burst() -> tuple[int, int]:
        tier = RedisTier(cluster.url, timeout=4.0, breaker_seconds=5, ttl=60, prefix=PREFIX)
        values = await asyncio.gather(*(tier.get(b"burst-%d" % i) for i in range(100)))
        await tier.close()
        return tier.errors, tier.misses + sum(v is not None for v in values)

    assert asyncio.run(burst()) == (0, 100)


def test_a_client_that_knew_the_old_master_of_a_slot_follows_a_failover(cluster: LocalCluster) -> None:
    """A manual failover (`CLUSTER FAILOVER` on a replica: the roles swap, no connection
    breaks) leaves a client's slot map stale: its one-future record and its lookups reach the
    old master, now a replica, and are redirected (MOVED). The record is made on the new master
    and confirmed by its replica, the lookup finds it, and nothing counts as a Redis failure."""
    import asyncio

    from service.cache import RedisTier

    async def scenario() -> tuple[bytes, bytes | None, int]:
        tier = RedisTier(cluster.url, timeout=4.0, breaker_seconds=5, ttl=60, prefix=PREFIX)
        key = b"failover-" + uuid.uuid4().hex.encode()
        await tier.get(key)  # the client learns the slots
        slot_owner = tier._client.get_node_from_key(PREFIX.encode() + key).port
        (replica,) = [n["port"] for n in cluster.nodes() if n["master"] == next(
            m["id"] for m in cluster.masters() if m["port"] == slot_owner)]
        await asyncio.to_thread(cluster.fail_over_to, replica, 60)
        await asyncio.to_thread(wait_until, "the old master to follow the new one",
                                lambda: cluster.in_sync(slot_owner), 60, 0.1)
        standing = await tier.claim(key, b"action", ttl=60, replicas=1)
        found = await tier.get(key)
        await tier.close()
        return standing, found, tier.errors

    assert asyncio.run(scenario()) == (b"action", b"action", 0)


def test_a_state_raced_through_two_referees_has_exactly_one_future(referees: list[str]) -> None:
    """Every legal action of a sealed state (up to 4), each sent to both processes, all at once:
    one action is applied (200 from both: the second is a retry, with the same bytes), every
    other is refused 409 `already-advanced`."""
    with httpx.Client() as http:
        for seed in (11, 12, 13):
            state, actions = _game(http, referees[0], seed=seed, limit=4)
            assert len(actions) >= 3
            requests = [(action, referee) for action in actions for referee in referees]
            start = threading.Barrier(len(requests))

            def apply(request: tuple[Any, str], state: Any = state,
                      start: threading.Barrier = start) -> httpx.Response:
                action, referee = request
                with httpx.Client() as own:
                    start.wait()
                    return _post(own, f"{referee}/v1/apply", {"state": state, "action": action})

            with ThreadPoolExecutor(len(requests)) as pool:
                answers = list(pool.map(apply, requests))
            winners = [action for (action, _), r in zip(requests, answers, strict=True)
                       if r.status_code == 200]
            assert len(winners) == 2 and winners[0] == winners[1], [r.text[:200] for r in answers]
            refused = [r for r in answers if r.status_code != 200]
            assert len(refused) == len(requests) - 2
            assert all(r.status_code == 409 and r.json()["error"] == "already-advanced" for r in refused)
            assert len({r.content for r in answers if r.status_code == 200}) == 1


class Load:
    """Simulated backends, each in a thread: a new sealed game, its legal actions, a validation
    of one action on one referee and an apply of another on the other, again and again."""

    def __init__(self, referees: list[str], backends: int) -> None:
        self.referees = referees
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.answers: list[tuple[float, str, int, str]] = []  # time, endpoint, status, error or x-cache
        self.applied: list[tuple[Any, Any, Any, int]] = []  # state, action, another action, status
        self.failures: list[str] = []
        self.seeds = iter(range(1000, 10**6))
        self.threads = [threading.Thread(target=self._backend, args=(n,)) for n in range(backends)]

    def __enter__(self) -> Load:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(120)

    def _note(self, endpoint: str, answer: httpx.Response) -> None:
        detail = answer.headers.get("x-cache", "")
        if answer.status_code >= 400:
            detail = answer.json().get("error", "")
        with self.lock:
            self.answers.append((time.monotonic(), endpoint, answer.status_code, detail))

    def _backend(self, n: int) -> None:
        with httpx.Client() as http:
            while not self.stop.is_set():
                try:
                    with self.lock:
                        seed = next(self.seeds)
                    one, other = self.referees[seed % 2], self.referees[(seed + 1) % 2]
                    created = _post(http, f"{one}/v1/games", {"players": ["Ana", "Ben"], "seed": seed})
                    self._note("games", created)
                    state = created.json()["state"]
                    listed = _post(http, f"{other}/v1/legal-actions", {"state": state, "limit": 2})
                    self._note("legal-actions", listed)
                    first, second = listed.json()["actions"]
                    checked = _post(http, f"{one}/v1/validate", {"state": state, "action": second})
                    self._note("validate", checked)
                    applied = _post(http, f"{other}/v1/apply", {"state": state, "action": first})
                    self._note("apply", applied)
                    with self.lock:
                        self.applied.append((state, first, second, applied.status_code))
                except Exception as e:  # a refused connection, a reset, a timeout: a failed request
                    with self.lock:
                        self.failures.append(f"{type(e).__name__}: {e}")


def test_a_master_killed_under_load_is_replaced_by_its_replica_and_no_request_fails(
        cluster: LocalCluster, referees: list[str]) -> None:
    masters = cluster.masters()
    nodes = cluster.nodes()
    victim = next(m for m in masters if any(n["master"] == m["id"] for n in nodes))
    (heir,) = [n for n in nodes if n["master"] == victim["id"]]
    with Load(referees, backends=4) as load:
        wait_until("some load before the kill", lambda: len(load.applied) >= 20, 60)
        cluster.kill(victim["port"])
        killed = time.monotonic()
        # Its replica takes over (after the node timeout and an election).
        wait_until("the replica to take over", lambda: any(
            m["port"] == heir["port"] for m in cluster.masters()), 60, 0.1)
        cluster.wait_healthy(masters=3)
        # The dead node comes back (as a restarted pod would) and joins as the new master's replica.
        cluster.restart(victim["port"])
        cluster.wait_healthy(masters=3, replicas=1)
        wait_until("the restarted node to hold its master's data",
                   lambda: cluster.in_sync(victim["port"]), 60)
        recovered = time.monotonic()
        wait_until("load after the recovery", lambda: sum(
            1 for t, endpoint, _, _ in load.answers if t > recovered + 1 and endpoint == "apply") >= 10, 60)
    assert not load.failures, load.failures[:5]
    statuses = Counter((endpoint, status, detail if status >= 400 else "")
                       for _, endpoint, status, detail in load.answers)
    assert {(e, s) for e, s, _ in statuses} <= {("games", 201), ("legal-actions", 200), ("validate", 200),
                                                ("apply", 200), ("apply", 503)}, statuses
    assert {d for _, s, d in statuses if s == 503} <= {"one-future-unavailable"}, statuses
    phases = {"before the kill": (0, killed), "kill to recovery": (killed, recovered),
              "after the recovery": (recovered, float("inf"))}
    for name, (start, end) in phases.items():
        seen = Counter(f"{endpoint} {status}" for t, endpoint, status, _ in load.answers if start <= t < end)
        print(f"\n{name}: {dict(sorted(seen.items()))}", end="")
    print(f"\nthe replica took over and the dead master rejoined as its replica {recovered - killed:.1f} s "
          "after the kill")

    # Afterwards, every state answered 200 has exactly that future: another action is refused on
    # both referees, the same one is a retry. A state answered 503 may be applied now, once.
    with httpx.Client() as http:
        hits = Counter()
        for state, first, second, status in load.applied:
            again = _until_not_503(http, f"{referees[0]}/v1/apply", {"state": state, "action": first})
            assert again.status_code == 200, (status, again.text)
            hits[again.headers["x-cache"]] += 1
            for referee in referees:
                fork = _until_not_503(http, f"{referee}/v1/apply", {"state": state, "action": second})
                assert fork.status_code == 409, (status, fork.text)
        assert hits["hit-redis"] > 0, hits  # the answers are served from the cluster again


def _until_not_503(http: httpx.Client, url: str, body: Any) -> httpx.Response:
    """The answer once the one-future record can be made (a breaker reopened by the last
    failures closes within REDIS_BREAKER_SECONDS)."""
    def answer() -> httpx.Response | None:
        r = _post(http, url, body)
        return None if r.status_code == 503 else r
    return wait_until(f"an answer other than 503 from {url}", answer, 30, 0.2)
