"""Every Redis client of the referee is made here, from a URL: one server, a Redis Cluster, or
the master of a Sentinel service. The cache tier and the one-future records call `connect`; the
settings call `check_url`, so a URL that could not make a client stops the start.

The URL forms (docs/operations/settings.md):

- `redis://[user:password@]host[:port][/db][?option=value...]`, `rediss://...` (TLS) and
  `unix://[user:password@]/path[?db=n]`: one server, read by redis-py's own `from_url`.
- `redis+cluster://[user:password@]host:port[,host:port...][?option=value...]` (and
  `rediss+cluster://`): a Redis Cluster. The hosts are seeds: the client asks them for the
  cluster's nodes and slots and follows the cluster from there. No database (a cluster has only
  database 0).
- `redis+sentinel://[user:password@]host:port[,host:port...]/service[/db][?option=value...]`
  (and `rediss+sentinel://`): the current master of the Sentinel service `service`, asked of the
  sentinels before each new connection, so a failover is followed. The credentials and options
  are the master's; the sentinels are asked without a password.

The options of the query string are redis-py's connection options (e.g. `ssl_ca_certs`,
`protocol`), as for `redis://`; the timeouts and retries are always the referee's own.

A plain `rediscluster` scheme or a `REDIS_CLUSTER=true` switch would do as well; the scheme was
chosen so that one variable says everything about where the data lives, and `ONE_FUTURE_REDIS_URL`
or any later Redis setting gets clusters and Sentinel by calling the same two functions.
"""

from __future__ import annotations

import asyncio
import functools
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import SplitResult, unquote, urlsplit, urlunsplit

SERVER, CLUSTER, SENTINEL = "server", "cluster", "sentinel"
_SCHEMES = {
    "redis": (SERVER, False), "rediss": (SERVER, True), "unix": (SERVER, False),
    "redis+cluster": (CLUSTER, False), "rediss+cluster": (CLUSTER, True),
    "redis+sentinel": (SENTINEL, False), "rediss+sentinel": (SENTINEL, True),
}
_DEFAULT_PORT = {CLUSTER: 6379, SENTINEL: 26379}


@dataclass(frozen=True)
class Target:
    """Where a URL points: its kind, the seed nodes (cluster, sentinels), the Sentinel service,
    and the connection options redis-py read from it (credentials, database, TLS, the query)."""

    kind: str
    url: str
    nodes: tuple[tuple[str, int], ...] = ()
    service: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    tls: bool = False


def parse(url: str) -> Target:
    """The target of `url`; ValueError with a short reason when it cannot be used."""
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme not in _SCHEMES:
        raise ValueError("must be a redis://, rediss://, unix://, redis+cluster:// or "
                         "redis+sentinel:// URL")
    kind, tls = _SCHEMES[scheme]
    parts = urlsplit(url)
    if kind == SERVER:
        return _server(url, scheme, parts, tls)
    userinfo, _, hosts = parts.netloc.rpartition("@")
    if not hosts:
        raise ValueError("needs at least one host:port")
    nodes = tuple(_node(h, _DEFAULT_PORT[kind]) for h in hosts.split(","))
    service, db = _service_and_db(kind, [unquote(p) for p in parts.path.split("/") if p])
    # redis-py reads the credentials and the query on a one-host URL of the same server kind.
    first = (userinfo + "@" if userinfo else "") + hosts.split(",")[0]
    options = _read_options(urlunsplit(("rediss" if tls else "redis", first, f"/{db}", parts.query, "")))
    for key in ("host", "port", "connection_class"):
        options.pop(key, None)
    if kind == CLUSTER:
        options.pop("db", None)
    return Target(kind, url, nodes, service, dict(options), tls)


def _read_options(url: str) -> dict[str, Any]:
    """redis-py's own reading of a one-server URL (its connection options)."""
    from redis.asyncio.connection import parse_url

    try:
        return dict(parse_url(url))
    except ValueError as e:
        raise ValueError(f"not a usable Redis URL ({e})") from None


def _server(url: str, scheme: str, parts: SplitResult, tls: bool) -> Target:
    """One server (redis://, rediss://, unix://): redis-py reads the URL; the checks here are
    those it lets pass (no host, no socket path, a database that is no number)."""
    _read_options(url)
    if scheme == "unix" and not parts.path:
        raise ValueError("a unix:// URL needs the socket's path")
    if scheme != "unix" and not parts.hostname:
        raise ValueError("needs a host")
    db = parts.path.strip("/")
    if scheme != "unix" and db and not db.isdigit():
        raise ValueError("the database (the path) must be a number")
    return Target(SERVER, url, tls=tls)


def _service_and_db(kind: str, path: list[str]) -> tuple[str | None, str]:
    """The Sentinel service and the database of a cluster or Sentinel URL's path: a cluster
    has neither (only database 0); Sentinel's path is /service or /service/db."""
    if kind == CLUSTER:
        if path and path != ["0"]:
            raise ValueError("a cluster has no database to choose: no path after the hosts")
        return None, "0"
    if not path:
        raise ValueError("needs the Sentinel service's name as its path (/mymaster)")
    if len(path) > 2 or (len(path) == 2 and not path[1].isdigit()):
        raise ValueError("the path must be /service or /service/db (a number)")
    return path[0], (path[1] if len(path) == 2 else "0")


def _node(text: str, default_port: int) -> tuple[str, int]:
    try:
        parts = urlsplit("//" + text)
        port = parts.port
    except ValueError:
        raise ValueError(f"{text!r} is not host:port") from None
    if not parts.hostname or parts.username is not None or parts.path:
        raise ValueError(f"{text!r} is not host:port")
    return parts.hostname, port or default_port


def check_url(url: str) -> str | None:
    """Why `url` cannot make a client (for the settings), or None. Builds the client once,
    which connects to nothing: an option redis-py does not take fails here, not at the first
    request."""
    try:
        client = connect(url, timeout=1.0)
    except ValueError as e:
        return str(e)
    except Exception as e:  # redis-py refusing an option or a combination
        return f"not a usable Redis URL ({type(e).__name__}: {e})"
    del client
    return None


def connect(url: str, *, timeout: float, max_connections: int = 64) -> Any:
    """A redis.asyncio client for `url` (nothing is connected until the first command).

    Every call is bounded by the caller's `Deadline(timeout)`, which excludes the event loop's
    own lag; redis-py's socket timeouts, measured on the loop, are only a backstop far past it
    (`backstop`), so that a busy worker does not read a reply that came in time as a Redis down.
    A connection error on a pooled connection (a Redis restarted since, a dropped socket) is
    retried once, on a fresh connection, by redis-py's own Retry, before the caller sees it: the
    commands sent here are idempotent (GET, SET, SET NX then GET, PING). A cluster client is not
    retried this way (redis-py closes every connection of the cluster, commands in flight too,
    and sleeps 0.25 s before its retry); it follows MOVED and ASK redirections itself, and the
    caller makes a new client after a failure, which asks for the whole map."""
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    target = parse(url)
    common: dict[str, Any] = {"socket_timeout": backstop(timeout),
                              "socket_connect_timeout": backstop(timeout), "health_check_interval": 0}
    if target.kind == SERVER:
        from redis.asyncio import Redis

        return Redis.from_url(url, retry=_fresh_connection_retry(), max_connections=max_connections,
                              **common)
    options = {**target.options, **common}
    if target.kind == CLUSTER:
        from redis.asyncio.cluster import ClusterNode, RedisCluster

        # Not requiring full coverage: while a slot has no master (a failover in progress), the
        # keys of the other slots are still served; those of the lost slot fail like a Redis down.
        # A MOVED (a slot with a new master) updates that slot only: redis-py's default, a new
        # discovery every 5 MOVED, closes every connection, commands in flight too. After a
        # failure the caller makes a new client anyway, which asks for the whole map.
        return RedisCluster(startup_nodes=[ClusterNode(host, port) for host, port in target.nodes],
                            require_full_coverage=False, retry=Retry(NoBackoff(), 0),
                            reinitialize_steps=0, max_connections=max_connections, ssl=target.tls,
                            **options)
    from redis.asyncio.sentinel import Sentinel

    sentinel = Sentinel(list(target.nodes), sentinel_kwargs={**common, "ssl": target.tls,
                                                             "retry": _fresh_connection_retry()})
    assert target.service is not None  # parse() requires it
    # A retried connection of the master asks the sentinels again: after a failover, the new one.
    client = sentinel.master_for(target.service, redis_class=_sentinel_master(), ssl=target.tls,
                                 retry=_fresh_connection_retry(), max_connections=max_connections,
                                 **options)
    client.sentinel = sentinel
    return client


def backstop(timeout: float) -> float:
    """redis-py's own socket timeouts: far past the caller's `Deadline(timeout)`, which decides;
    these only end a call that nothing else would (they are measured on the event loop, so a
    worker busy that long would see them fire though Redis answered)."""
    return max(10.0, 40 * timeout)


def _fresh_connection_retry() -> Any:
    """One more try on a fresh connection after a connection error, a few ms later (redis-py
    disconnects the failed connection and connects it again before the retry). Timeouts are not
    retried: only the caller's deadline says whether Redis was late."""
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    return Retry(ExponentialBackoff(cap=0.05, base=0.005), 1, supported_errors=(RedisConnectionError,))


class Deadline:
    """`asyncio.timeout(seconds)` on a clock that stops while the event loop is late: a reply is
    late only if Redis was late, not the loop.

    A worker busy computing answers (or rendering) holds the loop: a reply that arrived in time
    waits in the socket, and a timer measured on the loop would fire first and cancel the call
    (measured: breakers opened, and sealed applies got 503, while Redis answered within 1 ms).
    Here the time is counted in ticks of `seconds / TICKS`: a tick that comes late (the loop was
    busy) counts as one tick, not as the time the loop spent elsewhere. So the call is cancelled
    once `seconds` passed AND the loop went round at least TICKS times meanwhile, each time
    able to read a reply that had come. `expired` says whether this deadline ended the call."""

    TICKS = 16

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.step = seconds / self.TICKS
        self.counted = 0.0
        self.expired = False
        self._handle: asyncio.TimerHandle | None = None

    async def __aenter__(self) -> Deadline:
        self._loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None  # entered from a task
        self._task = task
        self._cancelling = task.cancelling()
        self._last = self._loop.time()
        self._handle = self._loop.call_later(self.step, self._tick)
        return self

    def _tick(self) -> None:
        now = self._loop.time()
        self.counted += min(now - self._last, self.step)  # the loop's own lag is not counted
        self._last = now
        if self.counted >= self.seconds * (1 - 1e-9):
            self.expired = True
            self._handle = None
            self._task.cancel()
        else:
            self._handle = self._loop.call_later(min(self.step, self.seconds - self.counted), self._tick)

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: Any) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        # As asyncio.timeout: the cancellation this deadline made is withdrawn and becomes a
        # TimeoutError; one from elsewhere (the request's own) goes on.
        if self.expired and self._task.uncancel() <= self._cancelling and kind is asyncio.CancelledError:
            raise TimeoutError(f"Redis did not answer within {self.seconds:g} s (the loop's "
                               "own lag not counted)") from error


async def close(client: Any) -> None:
    """Close every connection of `client`. A cluster client that met a failure marks itself for
    a new discovery, and its own `aclose` then closes nothing: its nodes are closed here."""
    await client.aclose()
    if is_cluster(client):
        await client.nodes_manager.aclose()
        await client.nodes_manager.aclose("startup_nodes")


async def ready(client: Any) -> Any:
    """`client`, ready for commands: a cluster client first learns the nodes and slots (once;
    then this costs nothing). A cluster client of redis-py 8.1 that is sent commands before it
    knows them routes each to a random node; the MOVED answers that follow make it close every
    connection, those of commands in flight too, and those fail (measured: 14 of 200 concurrent
    GETs on a new client failed, none after `initialize()`)."""
    if is_cluster(client):
        await client.initialize()
    return client


def is_cluster(client: Any) -> bool:
    from redis.asyncio.cluster import RedisCluster

    return isinstance(client, RedisCluster)


async def set_once(client: Any, key: bytes, value: bytes, ttl: int, replicas: int = 0,
                   wait_ms: int = 100) -> tuple[bytes | None, int | None]:
    """`SET key value NX EX ttl` and the value that stands after it, in one round trip on one
    connection (on a cluster: of the key's master). With `replicas` > 0 the key's TTL is renewed
    (a write even when the key was there) and `WAIT replicas wait_ms` follows on the same
    connection: the second value is how many replicas hold everything written so far, the
    record included (None when not asked).

    On a cluster the commands go to the master the client knows for the key's slot, and are
    not redirected there (a WAIT on another node would confirm nothing): a MOVED (the slot has
    another master since: a failover, a resharding) makes the client learn the new master by a
    GET that follows it, and the commands are sent there once more; an ASK (the slot is moving
    now) raises, like a failure."""
    if not is_cluster(client):
        pipe = client.pipeline(transaction=False)
        _set_once_commands(pipe, key, value, ttl, replicas, wait_ms, {})
        results = await pipe.execute()
    else:
        from redis.exceptions import MovedError

        await client.initialize()
        for attempt in (1, 2):
            pipe = client.pipeline()
            _set_once_commands(pipe, key, value, ttl, replicas, wait_ms,
                               {"target_nodes": client.get_node_from_key(key)})
            try:
                results = await pipe.execute(allow_redirections=False)
                break
            except MovedError:
                if attempt == 2:
                    raise
                await client.get(key)  # follows the MOVED: the client learns the slot's master
    stored = None if results[1] is None else bytes(results[1])
    return stored, (int(results[3]) if replicas else None)


def _set_once_commands(pipe: Any, key: bytes, value: bytes, ttl: int, replicas: int, wait_ms: int,
                       wait_options: dict[str, Any]) -> None:
    pipe.set(key, value, nx=True, ex=ttl)
    pipe.get(key)
    if replicas:
        pipe.expire(key, ttl)
        pipe.execute_command("WAIT", replicas, wait_ms, **wait_options)


@functools.cache
def _sentinel_master() -> type:
    """The client class of a Sentinel master, which closes the sentinels' connections too."""
    from redis.asyncio import Redis

    class SentinelMaster(Redis):  # type: ignore[misc]
        sentinel: Any = None

        async def aclose(self, close_connection_pool: bool | None = None) -> None:
            await super().aclose(close_connection_pool)
            if self.sentinel is not None:
                await self.sentinel.aclose()

    return SentinelMaster


def redacted(url: str) -> str:
    """The URL without its password (in the user part or the query): a settings error must not
    print a secret. Everything up to the last `@` is the user part, so a password holding a `/`
    or an `@` is hidden too."""
    scheme, sep, rest = url.partition("://")
    if sep and "@" in rest:
        userinfo, _, hosts = rest.rpartition("@")
        user = userinfo.split(":", 1)[0] if ":" in userinfo else userinfo
        rest = (f"{user}:***@" if ":" in userinfo else f"{user}@") + hosts
    rest = re.sub(r"([?&]password=)[^&#]*", r"\1***", rest, flags=re.I)
    return f"{scheme}{sep}{rest}"
