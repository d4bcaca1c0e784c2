"""Metrics at /metrics and one JSON log line per request, with no body and no hidden information.

In-process tests read the counters before and after (the registry is per process); the live
tests run `referee serve` with two workers, where /metrics adds up both workers' files.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from litestar.testing import TestClient
from prometheus_client.parser import text_string_to_metric_families

from service.api.app import create_app
from service.engine import Generator, apply, new_game, random_action
from service.engine.catalogue import CATALOGUE
from service.settings import Settings
from tests.support.fixtures import free_port

ROOT = Path(__file__).resolve().parents[2]


def metric(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of `name` whose labels include `labels` (0 when there is none)."""
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and labels.items() <= sample.labels.items():
                total += sample.value
    return total


def _illegal(state: Any) -> dict[str, Any]:
    return {"state": state, "action": {"type": "take-money", "player": "Nobody", "cards": ["blue-1-a"]}}


def _last_move(seed: int = 5) -> tuple[Any, Any]:
    """A 2-player game's last state before the end and the action that ends it."""
    state = new_game(["Ana", "Ben"], seed=seed).state
    rng = Generator(seed)
    while True:
        action = random_action(state, rng)
        outcome = apply(state, action)
        if outcome.game_over:
            return msgspec.to_builtins(state), msgspec.to_builtins(action)
        state = outcome.state


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings())) as c:
        yield c


def test_requests_and_latency_are_counted_per_endpoint(client: TestClient, state: Any) -> None:
    before = client.get("/metrics").text
    for _ in range(3):
        client.post("/v1/legal-actions", json={"state": state, "limit": 3})
    client.get("/nowhere/else")
    after = client.get("/metrics").text

    def delta(name: str, **labels: str) -> float:
        return metric(after, name, **labels) - metric(before, name, **labels)

    assert delta("referee_requests_total", endpoint="/v1/legal-actions", method="POST", status="200") == 3
    assert delta("referee_request_duration_seconds_count", endpoint="/v1/legal-actions") == 3
    assert delta("referee_request_duration_seconds_bucket", endpoint="/v1/legal-actions", le="+Inf") == 3
    assert delta("referee_request_duration_seconds_sum", endpoint="/v1/legal-actions") > 0
    # Any path no route matches is one series, whatever the path.
    assert delta("referee_requests_total", endpoint="unmatched", method="GET", status="404") == 1


def test_cache_hits_and_misses_per_tier(client: TestClient, state: Any) -> None:
    body = {"state": state, "limit": 2}
    before = client.get("/metrics").text
    first = client.post("/v1/legal-actions", json=body)
    second = client.post("/v1/legal-actions", json=body)
    assert (first.headers["x-cache"], second.headers["x-cache"]) == ("miss", "hit-memory")
    after = client.get("/metrics").text

    def delta(name: str, **labels: str) -> float:
        return metric(after, name, **labels) - metric(before, name, **labels)

    assert delta("referee_cache_lookups_total", tier="memory", result="hit") == 1
    assert delta("referee_cache_lookups_total", tier="memory", result="miss") == 1
    assert delta("referee_cache_lookups_total", tier="redis") == 0  # no Redis configured
    assert delta("referee_cache_answers_total", endpoint="/v1/legal-actions", outcome="hit-memory") == 1
    assert delta("referee_cache_answers_total", endpoint="/v1/legal-actions", outcome="miss") == 1


def test_a_request_computed_fresh_is_counted_as_a_bypass_in_any_case(client: TestClient, state: Any) -> None:
    """`Cache-Control: no-cache` skips the cache in any case (RFC 9111: directive names are
    case-insensitive), and the metrics say `bypass` for each spelling, as the cache read it."""
    body = {"state": state, "limit": 3}
    client.post("/v1/legal-actions", json=body)
    before = client.get("/metrics").text
    for spelling in ("no-cache", "No-Cache", "max-age=0, NO-CACHE"):
        answer = client.post("/v1/legal-actions", json=body, headers={"cache-control": spelling})
        assert answer.headers["x-cache"] == "miss", spelling
    after = client.get("/metrics").text
    labels = {"endpoint": "/v1/legal-actions"}
    for outcome, count in (("bypass", 3), ("miss", 0)):
        counted = (metric(after, "referee_cache_answers_total", **labels, outcome=outcome)
                   - metric(before, "referee_cache_answers_total", **labels, outcome=outcome))
        assert counted == count, outcome


def test_redis_breaker_and_errors_are_exposed(state: Any) -> None:
    dead = f"redis://127.0.0.1:{free_port()}/0"
    with TestClient(create_app(Settings(redis_url=dead, redis_breaker_seconds=60))) as client:
        before = client.get("/metrics").text
        assert client.post("/v1/legal-actions", json={"state": state, "limit": 1}).status_code == 200
        after = client.get("/metrics").text
    assert metric(after, "referee_redis_breaker_open") == 1
    name, errors = "referee_cache_lookups_total", {"tier": "redis", "result": "error"}
    assert metric(after, name, **errors) > metric(before, name, **errors)


def test_violations_are_counted_by_rule_id(client: TestClient, state: Any) -> None:
    before = client.get("/metrics").text
    valid = client.post("/v1/validate", json=_illegal(state))
    assert valid.json()["violations"][0]["rule"] == "base.turn.order"
    assert client.post("/v1/apply", json=_illegal(state)).status_code == 422
    after = client.get("/metrics").text
    for endpoint in ("/v1/validate", "/v1/apply"):
        labels = {"endpoint": endpoint, "rule": "base.turn.order"}
        name = "referee_violations_total"
        assert metric(after, name, **labels) - metric(before, name, **labels) == 1


def test_finished_games_are_counted(client: TestClient, state: Any) -> None:
    last_state, last_action = _last_move()
    name = "referee_games_finished_total"
    before = metric(client.get("/metrics").text, name)
    moves = client.post("/v1/legal-actions", json={"state": state, "limit": 1}).json()["actions"]
    not_over = client.post("/v1/apply", json={"state": state, "action": moves[0]})
    assert not_over.json()["game_over"] is False
    assert metric(client.get("/metrics").text, name) == before
    over = client.post("/v1/apply", json={"state": last_state, "action": last_action})
    assert over.status_code == 200 and over.json()["game_over"] is True
    assert metric(client.get("/metrics").text, name) == before + 1


def test_metrics_are_not_part_of_the_json_contract(client: TestClient) -> None:
    assert "/metrics" not in client.get("/schema/openapi.json").json()["paths"]


# --- the live server: two workers, JSON logs ------------------------------------------------------


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`referee serve` with 2 workers, debug logs to a file, and a Redis that does not answer."""
    port = free_port()
    log = tmp_path_factory.mktemp("live") / "server.log"
    env = {**{k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"},
           "PORT": str(port), "WORKERS": "2", "LOG_LEVEL": "debug",
           "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
    with open(log, "wb") as out:
        proc = subprocess.Popen([str(Path(sys.executable).with_name("referee")), "serve"], cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(url + "/healthz", timeout=1)
                break
            except OSError:
                assert proc.poll() is None, log.read_text()
                time.sleep(0.1)
        yield url, log
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)


def _traffic(url: str, state: Any) -> int:
    """Requests of every kind, with the state's secrets in their bodies; returns how many."""
    requests = [
        ("POST", "/v1/games", {"players": ["Ana", "Ben", "Cyd"], "seed": 11}),
        ("POST", "/v1/legal-actions", {"state": state, "limit": 5}),
        ("POST", "/v1/validate", _illegal(state)),
        ("POST", "/v1/apply", _illegal(state)),
        ("POST", "/v1/view", {"state": state, "player": "Ana"}),
        ("POST", "/v1/score", {"state": state, "round": 1}),
        ("POST", "/v1/apply", {"state": {**state, "rng": "zz"}, "action": {"type": "end-turn"}}),
        ("POST", "/v1/validate", {"state": state, "action": {"type": "take-money", "player": 5}}),
        ("GET", "/nowhere", None),
        ("GET", "/v1/cache/stats", None),
    ]
    with httpx.Client(base_url=url, timeout=10) as http:
        for method, path, body in requests:
            http.request(method, path, json=body)
    return len(requests)


def _secrets(state: Any) -> list[str]:
    """What no log line may hold: the generator, every component id, the serialized state."""
    ids = [*CATALOGUE.money, *CATALOGUE.tiles]
    return [state["rng"], json.dumps(state["deck"][:3])[1:-1], *ids]


def test_one_json_line_per_request_without_bodies_or_secrets(live: tuple[str, Path], state: Any) -> None:
    url, log = live
    sent = _traffic(url, state)
    time.sleep(0.5)  # the listener thread writes the last lines
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    requests = [line for line in lines if line["logger"] == "service.access"]
    ours = [r for r in requests if r["endpoint"] not in ("/healthz",)]
    assert len(ours) >= sent
    for line in requests:
        assert {"time", "level", "method", "endpoint", "status", "latency_ms", "cache"} <= line.keys()
        assert isinstance(line["latency_ms"], float) and line["latency_ms"] >= 0
    seen = {(r["endpoint"], r["status"], r["cache"]) for r in requests}
    assert ("/v1/games", 201, None) in seen
    assert ("/v1/validate", 200, "miss") in seen
    assert ("/v1/apply", 422, "miss") in seen
    assert ("/v1/apply", 400, None) in seen
    assert ("unmatched", 404, None) in seen
    assert any(line["logger"] == "service.cache" and line["level"] == "warning" for line in lines)
    text = log.read_text()
    assert '"state"' not in text and '"action"' not in text
    leaked = [s for s in _secrets(state) if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text)]
    assert leaked == []


def test_two_workers_metrics_add_up(live: tuple[str, Path]) -> None:
    url, log = live
    labels = {"endpoint": "/v1/modules", "method": "GET"}
    before = metric(httpx.get(url + "/metrics", timeout=10).text, "referee_requests_total", **labels)
    sent, pids = 0, set()
    while len(pids) < 2 and sent < 400:  # new connections: the kernel spreads them over the workers
        for _ in range(20):
            httpx.get(url + "/v1/modules", timeout=10)
        sent += 20
        time.sleep(0.2)
        pids = {line["pid"] for line in map(json.loads, log.read_text().splitlines())
                if line.get("endpoint") == "/v1/modules"}
    assert len(pids) == 2, "both workers served requests"
    for _ in range(6):  # whichever worker answers the scrape, it counts both workers' requests
        text = httpx.get(url + "/metrics", timeout=10).text
        assert metric(text, "referee_requests_total", **labels) == before + sent
