"""The load of `bench/load_bench.py`: backends playing games through the referee.

Each simulated backend sends a mix of the five calls a game makes, at random times (a Poisson
process of its share of the rate, so the users together are one Poisson stream at the target
rate, as many independent backends would be; locust's `constant_throughput` made all users fire
in step, bursts that measured the burst rather than the server): create a game, list legal
actions, validate an action, apply it, score the state, on states of precomputed random games
(the workload file the orchestrator writes). Games are picked at random from a pool, so some
requests repeat (cache hits) and most do not.

Every request is recorded (start time, endpoint, latency, status, x-cache, retried) and the
records are written to LOAD_RECORDS when locust stops; the orchestrator computes the figures.
The referee's answers are pure functions of the body, so a request whose connection was reset
(a killed worker) is retried once, as a backend would; it fails only if the retry fails too.
"""

from __future__ import annotations

import os
import random
import time

import msgspec
from locust import FastHttpUser, events, task

WORKLOAD = msgspec.msgpack.decode(open(os.environ["LOAD_WORKLOAD"], "rb").read())  # noqa: SIM115
RATE_PER_USER = float(os.environ.get("LOAD_RATE_PER_USER", "10"))
# Several servers (LOAD_HOSTS, comma-separated base URLs): each request goes to one at random, as
# a load balancer in front of replicas would send it. Unset: locust's --host only.
HOSTS = [h for h in os.environ.get("LOAD_HOSTS", "").split(",") if h]
RECORDS: list[tuple[float, str, float, int, str, int]] = []
HEADERS = {"content-type": "application/json"}
EXPECTED = {"/v1/games": 201}


def _game() -> dict:
    return random.choice(WORKLOAD["games"])


class Backend(FastHttpUser):
    # Connection errors are answered by a retry below, not by locust's own error handling.
    network_timeout = 10.0
    connection_timeout = 5.0

    def on_start(self) -> None:
        self._next = time.monotonic() + random.uniform(0, 1 / RATE_PER_USER)

    def wait_time(self) -> float:
        """Until this user's next arrival time (a backlog of at most 1 s is kept, not more)."""
        now = time.monotonic()
        self._next = max(self._next, now - 1.0) + random.expovariate(RATE_PER_USER)
        return max(0.0, self._next - now)

    def _send(self, endpoint: str, body: bytes) -> None:
        start = time.time()
        t0 = time.perf_counter()
        retried = 0
        status, cache = 0, ""
        for attempt in (0, 1):
            url = random.choice(HOSTS) + endpoint if HOSTS else endpoint
            with self.client.request("POST", url, data=body, headers=HEADERS, name=endpoint,
                                     catch_response=True) as response:
                status = response.status_code or 0
                cache = response.headers.get("x-cache", "") if status else ""
                if status == EXPECTED.get(endpoint, 200):
                    response.success()
                    break
                if status == 0 and attempt == 0:  # reset or refused: retry once
                    response.success()
                    retried = 1
                    continue
                response.failure(f"status {status}")
                break
        RECORDS.append((start, endpoint, (time.perf_counter() - t0) * 1000, status, cache, retried))

    @task(1)
    def create(self) -> None:
        self._send("/v1/games", _game()["create"])

    @task(3)
    def legal_actions(self) -> None:
        state = random.choice(_game()["states"])
        self._send("/v1/legal-actions", b'{"state":%s,"limit":20}' % state)

    @task(3)
    def validate(self) -> None:
        game = _game()
        i = random.randrange(len(game["actions"]))
        self._send("/v1/validate", b'{"state":%s,"action":%s}' % (game["states"][i], game["actions"][i]))

    @task(3)
    def apply(self) -> None:
        game = _game()
        i = random.randrange(len(game["actions"]))
        self._send("/v1/apply", b'{"state":%s,"action":%s}' % (game["states"][i], game["actions"][i]))

    @task(1)
    def score(self) -> None:
        game = _game()
        i = random.randrange(len(game["states"]))
        self._send("/v1/score", b'{"state":%s,"round":%d}' % (game["states"][i], game["rounds"][i]))


@events.quitting.add_listener
def _write_records(environment: object, **_: object) -> None:
    with open(os.environ["LOAD_RECORDS"], "wb") as out:
        out.write(msgspec.msgpack.encode(RECORDS))
