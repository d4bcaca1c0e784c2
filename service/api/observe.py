"""What the referee tells its operators: Prometheus metrics at /metrics and one JSON log line per
request.

Bodies carry hidden information (the order of the deck and the bag, the generator, the hands),
so nothing here logs a body or uses one as a label. A request's line holds its method, route,
status, latency and cache outcome; the metrics read the route, the status, the `x-cache` header
and, of the answers, only the rule ids of violations and whether a game ended.

Everything is counted by `RequestObserver`, one ASGI wrapper around the whole application (so
requests no route matched are counted and logged too). litestar's own Prometheus middleware
was tried first and cost about 90 µs a request on this machine (a Request object, a labels dict
and four label lookups per request), half the time of a cached answer; the observer keeps its
labelled series in a dict and adds 10 to 20 µs.

With several workers (`referee serve`, WORKERS > 1) each worker writes its values to files in
PROMETHEUS_MULTIPROC_DIR and /metrics adds them up (the prometheus_client multiprocess mode),
so a scrape of any worker sees the whole server.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec
from litestar import Controller, Request, Response, get
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from service.cache import Cache
from service.logs import AccessLog

from .endpoints import ENDPOINTS
from .judging import no_cache

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

# --- metrics ------------------------------------------------------------------------------------

# Latency buckets around the referee's answers (hundreds of microseconds to tens of milliseconds).
BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5]

REQUESTS = Counter("referee_requests", "Requests by endpoint (the route; `unmatched` for any other "
                   "path), method and status", ["endpoint", "method", "status"])
LATENCY = Histogram("referee_request_duration_seconds", "From the request's arrival to its answer's last "
                    "byte, by endpoint", ["endpoint"], buckets=BUCKETS)
CACHE_LOOKUPS = Counter("referee_cache_lookups", "Cache lookups per tier: hit, miss, error (Redis "
                        "failed or timed out) or skipped (Redis breaker open)", ["tier", "result"])
CACHE_ANSWERS = Counter("referee_cache_answers", "Cached endpoints' answers by their x-cache outcome "
                        "(bypass: Cache-Control: no-cache)", ["endpoint", "outcome"])
BREAKER_OPEN = Gauge("referee_redis_breaker_open", "1 while a worker's Redis circuit breaker is open "
                     "(Redis is skipped), else 0", multiprocess_mode="livemax")
VIOLATIONS = Counter("referee_violations", "Violations in answers, by RULES.md rule id", ["endpoint", "rule"])
GAMES_FINISHED = Counter("referee_games_finished", "Applied actions that ended a game")


def registry() -> CollectorRegistry:
    """The registry to expose: the sum over every worker's files in multiprocess mode."""
    if MULTIPROC_ENV not in os.environ:
        return REGISTRY
    merged = CollectorRegistry()
    multiprocess.MultiProcessCollector(merged)  # type: ignore[no-untyped-call]
    return merged


def forget_dead_workers() -> None:
    """Drop the live gauges of workers that died (a killed worker is replaced by a new one)."""
    directory = os.environ.get(MULTIPROC_ENV)
    if not directory:
        return
    pids = {int(m[1]) for p in Path(directory).glob("*.db") if (m := re.search(r"_(\d+)\.db$", p.name))}
    for pid in pids - {os.getpid()}:
        if not Path(f"/proc/{pid}").exists():
            multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


# --- the request observer -----------------------------------------------------------------------


class _Rule(msgspec.Struct):
    rule: str


class _Violations(msgspec.Struct):
    """Just the rule ids of an answer (validate's, or a 422 refusal's); other fields are skipped."""

    violations: list[_Rule] = []


_VIOLATIONS = msgspec.json.Decoder(_Violations)
_RULE_ID = re.compile(r"[a-z0-9][a-z0-9.-]{0,63}")
_GAME_OVER = b'"game_over":true}'  # the last field of /v1/apply's answer (`Applied`)
_VALID = b'{"valid":true'  # a legal action's /v1/validate answer: no violations to read
_CACHED = tuple(e.path for e in ENDPOINTS if e.cached)  # answers with an x-cache outcome
# A scope's extension set by the server (service/server.py) when it answered the client itself,
# 408 to a request whose body came too late: the app's own answer (a 400 to a body cut short)
# went nowhere, so the status recorded is the one the client got.
SERVER_STATUS = "referee.server_status"
_NO_EXTENSIONS: dict[str, Any] = {}


class _Seen:
    __slots__ = ("body", "cache", "status")

    def __init__(self) -> None:
        self.status = 500  # unless a response starts: the app failed before answering
        self.cache: str | None = None
        self.body = b""


_RESULTS = {"hits": "hit", "misses": "miss", "errors": "error", "skipped": "skipped"}


class RequestObserver:
    """ASGI wrapper of the whole app: times each request, then logs it and counts what it saw."""

    SYNC_SECONDS = 1.0  # how often a worker adds its cache's counts to the metrics

    def __init__(self, app: Any, cache: Cache, routes: Iterable[str], log: AccessLog | None = None) -> None:
        self.app = app
        self.cache = cache
        self.log = log or AccessLog()
        self.routes = frozenset(routes)
        self._series: dict[tuple[str, str, int], tuple[Any, Any]] = {}
        self._answers: dict[tuple[str, str], Any] = {}
        self._seen_stats: dict[tuple[str, str], int] = {}
        self._breaker: bool | None = None
        self._synced = 0.0
        forget_dead_workers()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        seen = _Seen()

        async def observed_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                seen.status = message["status"]
                for name, value in message.get("headers", ()):
                    if name == b"x-cache":
                        seen.cache = value.decode("latin-1")
            elif message["type"] == "http.response.body":
                seen.body = message.get("body", b"") or seen.body  # the last chunk is enough
            await send(message)

        try:
            await self.app(scope, receive, observed_send)
        finally:
            self._record(scope, seen, time.perf_counter() - start)

    def record_server_answer(self, status: int, seconds: float) -> None:
        """An answer the server wrote before a request reached the app (service/server.py: 408
        to headers that came too late, 431 to a head too large): counted and logged as
        `unmatched`, its method unknown (the request line may not have arrived)."""
        seen = _Seen()
        seen.status = status
        self._record({"method": "unknown", "path": ""}, seen, seconds)

    def _endpoint(self, scope: Any) -> str:
        template = scope.get("path_template")
        if template:
            return str(template)
        return scope["path"] if scope["path"] in self.routes else "unmatched"

    def _record(self, scope: Any, seen: _Seen, seconds: float) -> None:
        endpoint = self._endpoint(scope)
        status = (scope.get("extensions") or _NO_EXTENSIONS).get(SERVER_STATUS) or seen.status
        key = (endpoint, scope["method"], status)
        series = self._series.get(key)
        if series is None:  # label lookups cost microseconds: once per endpoint, method, status
            series = self._series[key] = (REQUESTS.labels(endpoint, key[1], str(status)),
                                          LATENCY.labels(endpoint))
        series[0].inc()
        series[1].observe(seconds)
        outcome = seen.cache
        if endpoint in _CACHED and status < 500:
            if outcome == "miss" and _no_cache(scope):
                outcome = "bypass"
            self._answer(endpoint, outcome or "none").inc()
        body = seen.body
        if status == 422 or (endpoint == "/v1/validate" and status == 200 and not body.startswith(_VALID)):
            self._count_violations(endpoint, body)
        elif endpoint == "/v1/apply" and status == 200 and body.endswith(_GAME_OVER):
            GAMES_FINISHED.inc()
        if self.log.enabled:
            fields: dict[str, Any] = {"method": scope["method"], "endpoint": endpoint, "status": status,
                                      "latency_ms": round(seconds * 1000, 3), "cache": outcome}
            if endpoint == "unmatched":
                fields["path"] = scope["path"][:200]
            self.log.write(fields)
        if time.monotonic() - self._synced > self.SYNC_SECONDS:
            self.sync_cache()

    def _answer(self, endpoint: str, outcome: str) -> Any:
        child = self._answers.get((endpoint, outcome))
        if child is None:
            child = self._answers[(endpoint, outcome)] = CACHE_ANSWERS.labels(endpoint, outcome)
        return child

    @staticmethod
    def _count_violations(endpoint: str, body: bytes) -> None:
        try:
            rules = [v.rule for v in _VIOLATIONS.decode(body).violations]
        except msgspec.DecodeError:
            return
        for rule in rules:
            VIOLATIONS.labels(endpoint, rule if _RULE_ID.fullmatch(rule) else "other").inc()

    def sync_cache(self) -> None:
        """Add what the cache counted since the last sync (its counters are per process, so the
        totals stay exact however requests interleave), and set the breaker gauge. Done at most
        once a second per worker, and by every scrape of the worker that answers it."""
        self._synced = time.monotonic()
        stats = self.cache.stats()
        for tier, counts in (("memory", stats.memory), ("redis", stats.redis)):
            for result, label in _RESULTS.items():
                now = getattr(counts, result) or 0
                delta = now - self._seen_stats.get((tier, result), 0)
                if delta > 0:
                    CACHE_LOOKUPS.labels(tier, label).inc(delta)
                    self._seen_stats[(tier, result)] = now
        breaker = bool(stats.redis.breaker_open)
        if breaker != self._breaker:
            BREAKER_OPEN.set(int(breaker))
            self._breaker = breaker


def _no_cache(scope: Any) -> bool:
    """Whether the request asked `Cache-Control: no-cache`, read as the cache reads it (any case)."""
    return any(name == b"cache-control" and no_cache(value.decode("latin-1"))
               for name, value in scope["headers"])


class MetricsController(Controller):
    """/metrics in the Prometheus text format (not part of the JSON API's contract)."""

    include_in_schema = False

    @get("/metrics", sync_to_thread=False)
    def metrics(self, request: Request[Any, Any, Any]) -> Response[bytes]:
        observer: RequestObserver | None = request.app.state.get("observer")
        if observer is not None:
            observer.sync_cache()
        return Response(generate_latest(registry()), headers={"content-type": CONTENT_TYPE_LATEST})
