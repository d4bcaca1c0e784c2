"""The answer cache: exact response bytes keyed by the request's bytes and the engine version.

Two tiers: an in-process LRU (always, unless sized 0) and Redis (when REDIS_URL is set). Redis
is an optimisation only: every call to it is bounded by a short timeout (the event loop's own
lag not counted: `redis_client.Deadline`), a connection error is retried once on a fresh
connection, and a failure after that opens a circuit breaker that skips Redis for a while; the
request is then computed. The one-future records (service/futures.py) use a tier of their own,
which counts its failures apart and skips nothing.
The engine never imports this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import OrderedDict
from importlib import metadata
from pathlib import Path
from typing import Any

import msgspec

from .redis_client import Deadline, ready

log = logging.getLogger("service.cache")


def code_digest(package: str) -> str:
    """A digest of the sources and data of a package of the referee (`engine`, `bots`)."""
    root = Path(__file__).resolve().parent / package
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".json")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _engine_version() -> str:
    """The package version and a digest of the engine's sources and data: any change to the
    rules gives new keys, so a shared Redis never serves an answer of another engine."""
    try:
        version = metadata.version("alhambra-referee")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        version = "0"
    return f"{version}+{code_digest('engine')}"


ENGINE_VERSION = _engine_version()


def cache_key(endpoint: str, body: bytes) -> bytes:
    """The key of an answer: SHA-256 of the engine version, the endpoint and the body's bytes.

    The bytes as sent, not a re-encoding: a hit costs one hash and no decoding. The same content
    written differently (spaces, key order) is another key, computed once more; clients that
    send back the states the referee gave them send the same bytes. SHA-256 (hardware-accelerated
    on x86 and ARM) because a shared cache must not let anyone make two bodies collide."""
    prefix = _KEY_PREFIXES.get(endpoint)
    if prefix is None:
        prefix = _KEY_PREFIXES[endpoint] = hashlib.sha256(f"{ENGINE_VERSION}\0{endpoint}\0".encode())
    digest = prefix.copy()
    digest.update(body)
    return digest.digest()


_KEY_PREFIXES: dict[str, Any] = {}  # endpoint -> the hash of the version and endpoint, to copy


class TierStats(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Counts of one tier since the process started."""

    enabled: bool
    hits: int
    misses: int
    entries: int | None = None  # the LRU only
    bytes: int | None = None  # the LRU only
    errors: int | None = None  # Redis only: failed or timed-out calls
    skipped: int | None = None  # Redis only: calls not made while the breaker was open
    breaker_open: bool | None = None  # Redis only


class CacheStats(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Hits and misses per tier (a Redis lookup happens only after an LRU miss)."""

    engine_version: str
    memory: TierStats
    redis: TierStats


class MemoryTier:
    """An LRU of answers bounded by entry count and total bytes."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._data: OrderedDict[bytes, bytes] = OrderedDict()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    @property
    def enabled(self) -> bool:
        return self.max_entries > 0 and self.max_bytes > 0

    def get(self, key: bytes) -> bytes | None:
        value = self._data.get(key)
        if value is None:
            self.misses += 1
            return None
        self._data.move_to_end(key)
        self.hits += 1
        return value

    def put(self, key: bytes, value: bytes) -> None:
        if not self.enabled or len(value) > self.max_bytes:
            return
        old = self._data.pop(key, None)
        if old is not None:
            self._bytes -= len(old)
        self._data[key] = value
        self._bytes += len(value)
        while len(self._data) > self.max_entries or self._bytes > self.max_bytes:
            _, dropped = self._data.popitem(last=False)
            self._bytes -= len(dropped)

    def stats(self) -> TierStats:
        return TierStats(enabled=self.enabled, hits=self.hits, misses=self.misses,
                         entries=len(self._data), bytes=self._bytes)


class RedisUnavailable(Exception):
    """Redis could not be asked (off, skipped by the breaker, failed or timed out)."""


class RedisTier:
    """Redis behind a circuit breaker: a failure skips Redis for `breaker_seconds` (0: never
    skipped; each call asks Redis)."""

    def __init__(self, url: str | None, *, timeout: float, breaker_seconds: float, ttl: int,
                 prefix: str) -> None:
        self.url = url
        self.timeout = timeout
        self.breaker_seconds = breaker_seconds
        self.ttl = ttl
        self.prefix = prefix.encode()
        self._client: Any = None
        self._open_until = 0.0
        self._writes: set[asyncio.Task[None]] = set()
        self._retiring: set[asyncio.Task[None]] = set()
        self.hits = self.misses = self.errors = self.skipped = 0

    @property
    def enabled(self) -> bool:
        return self.url is not None

    @property
    def breaker_open(self) -> bool:
        return time.monotonic() < self._open_until

    def _connect(self) -> Any:
        if self._client is None:
            from .redis_client import connect

            assert self.url is not None  # only called when enabled
            self._client = connect(self.url, timeout=self.timeout, max_connections=64)
        return self._client

    def _usable(self) -> bool:
        if not self.enabled:
            return False
        if self.breaker_open:
            self.skipped += 1
            return False
        return True

    def _failed(self, what: str, error: BaseException, client: Any, deadline: Deadline) -> None:
        if _loop_late(error, deadline):
            # redis-py's backstop fired on a loop busy for seconds: not a sign of Redis down.
            log.warning("redis %s not answered in time: the worker was busy (%s)", what, error)
            return
        self.errors += 1
        if client is not self._client and self._client is not None:
            # A late failure of a client already dropped: its successor is not at fault.
            log.info("redis %s failed on a client already replaced (%s)", what, type(error).__name__)
            return
        self._open_until = time.monotonic() + self.breaker_seconds
        # Every pooled connection may be dead (a restarted Redis, a failed-over master): the
        # next call gets a new client (a cluster client asks for the topology again), instead of
        # failing once per stale connection.
        old, self._client = self._client, None
        if old is not None:
            task = asyncio.get_running_loop().create_task(self._retire(old))
            self._retiring.add(task)
            task.add_done_callback(self._retiring.discard)
        skipping = f"; skipping Redis for {self.breaker_seconds}s" if self.breaker_seconds else ""
        log.warning("redis %s failed (%s: %s)%s", what, type(error).__name__, error, skipping)

    async def _retire(self, client: Any) -> None:
        """Close a dropped client once the commands still in flight on it have ended (each
        within the timeout): closed at once, they would fail too, and keep the breaker open."""
        try:
            await asyncio.sleep(self.timeout)
        finally:
            await _close_quietly(client)

    async def get(self, key: bytes) -> bytes | None:
        if not self._usable():
            return None
        client = self._connect()
        deadline = Deadline(self.timeout)
        try:
            async with deadline:
                value = await (await ready(client)).get(self.prefix + key)
        except Exception as e:  # any trouble (timeouts included): a miss, never an error
            self._failed("get", e, client, deadline)
            return None
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        return bytes(value)

    def put(self, key: bytes, value: bytes) -> None:
        """Store in the background: the answer never waits for Redis."""
        if not self.enabled or self.breaker_open:
            return
        task = asyncio.get_running_loop().create_task(self._set(key, value))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _set(self, key: bytes, value: bytes) -> None:
        client = self._connect()
        deadline = Deadline(self.timeout)
        try:
            async with deadline:
                await (await ready(client)).set(self.prefix + key, value, ex=self.ttl)
        except Exception as e:
            self._failed("set", e, client, deadline)

    async def claim(self, key: bytes, value: bytes, ttl: int, replicas: int = 0) -> bytes:
        """Record `value` under `key` unless a value is there already (SET NX); the value that
        stands. With `replicas` > 0, only once that many replicas hold the record (WAIT), so that
        a failover cannot lose it. Raises `RedisUnavailable` when Redis is off, skipped by the
        breaker, fails, or the replicas did not confirm in time (that last one is not a failure
        of Redis: the breaker stays closed)."""
        from .redis_client import set_once

        if not self.enabled:
            raise RedisUnavailable("Redis is not configured (REDIS_URL)")
        if self.breaker_open:
            self.skipped += 1
            raise RedisUnavailable("Redis failed recently; the circuit breaker skips it for now")
        wait_ms = max(1, int(self.timeout * 500))  # half the timeout: the answer comes back in it
        client = self._connect()
        deadline = Deadline(self.timeout)
        try:
            async with deadline:
                stored, acknowledged = await set_once(client, self.prefix + key, value, ttl, replicas,
                                                      wait_ms)
        except Exception as e:
            self._failed("claim", e, client, deadline)
            raise RedisUnavailable(f"Redis did not answer ({type(e).__name__})") from None
        # Gone right after the SET (expired): claim it again next time; this one stands.
        standing = value if stored is None else stored
        # Another action standing is refused whether or not a replica has it yet (a refusal gives
        # no future); this action's record must be confirmed before its answer goes out.
        if standing == value and acknowledged is not None and acknowledged < replicas:
            raise RedisUnavailable(f"the record reached {acknowledged} of {replicas} replicas in "
                                   f"{wait_ms} ms")
        return standing

    async def ping(self) -> bool:
        if not self.enabled or self.breaker_open:
            return False
        client = self._connect()
        deadline = Deadline(self.timeout)
        try:
            async with deadline:
                return bool(await (await ready(client)).ping())
        except Exception as e:
            self._failed("ping", e, client, deadline)
            return False

    async def close(self) -> None:
        for task in list(self._writes):
            with contextlib.suppress(BaseException):
                await task
        for task in list(self._retiring):
            task.cancel()  # close the dropped clients now
            with contextlib.suppress(BaseException):
                await task
        if self._client is not None:
            await _close_quietly(self._client)
            self._client = None

    def stats(self) -> TierStats:
        return TierStats(enabled=self.enabled, hits=self.hits, misses=self.misses,
                         errors=self.errors, skipped=self.skipped, breaker_open=self.breaker_open)


def _loop_late(error: BaseException, deadline: Deadline) -> bool:
    """A timeout of redis-py's own (its backstop, measured on the loop) before the deadline,
    which excludes the loop's lag, ended: the worker was late, not Redis."""
    from redis.exceptions import TimeoutError as RedisTimeout

    return isinstance(error, RedisTimeout) and not deadline.expired


async def _close_quietly(client: Any) -> None:
    from .redis_client import close

    with contextlib.suppress(Exception):
        await close(client)


class Cache:
    """The two tiers in front of the engine: LRU first, then Redis (whose hits fill the LRU)."""

    def __init__(self, memory: MemoryTier, redis: RedisTier) -> None:
        self.memory = memory
        self.redis = redis

    @classmethod
    def from_settings(cls, settings: Any) -> Cache:
        return cls(
            MemoryTier(settings.cache_entries, settings.cache_max_bytes),
            RedisTier(settings.redis_url, timeout=settings.redis_timeout_ms / 1000,
                      breaker_seconds=settings.redis_breaker_seconds,
                      ttl=settings.redis_ttl_seconds, prefix=settings.redis_key_prefix),
        )

    @property
    def backend(self) -> str:
        return "memory+redis" if self.redis.enabled else "memory"

    async def get(self, key: bytes) -> tuple[bytes | None, str]:
        """The stored value and the tier that had it ("memory" or "redis"), or (None, "")."""
        value = self.memory.get(key) if self.memory.enabled else None
        if value is not None:
            return value, "memory"
        value = await self.redis.get(key)
        if value is not None:
            self.memory.put(key, value)
            return value, "redis"
        return None, ""

    def put(self, key: bytes, value: bytes) -> None:
        self.memory.put(key, value)
        self.redis.put(key, value)

    def stats(self) -> CacheStats:
        return CacheStats(engine_version=ENGINE_VERSION, memory=self.memory.stats(),
                          redis=self.redis.stats())

    async def close(self) -> None:
        await self.redis.close()
