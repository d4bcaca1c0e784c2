"""The referee's settings: a frozen object read once from the environment, each value checked.

`Settings.from_env()` is what `referee serve` and `create_app()` use; tests build `Settings(...)`
directly. A bad value stops the start with a message naming the variable.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from .redis_client import redacted

T = TypeVar("T")

LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
SECRETS = frozenset({"seal_keys"})  # never shown in a message


class SettingsError(ValueError):
    """A variable of the environment with a value the referee cannot use."""


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Every knob of the HTTP referee; the environment variable of each is its name in capitals."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    log_level: str = "info"
    # Requests with a larger body are refused with 413 before they are read.
    max_body_bytes: int = 256 * 1024
    # POST /v1/replay's bodies (a whole game's record): MAX_RECORD_ACTIONS actions take some
    # 750 kB at the 75 bytes an action averages, a seal up to 64 kB more.
    max_record_bytes: int = 2 * 1024 * 1024
    # The in-process LRU tier: entries and total bytes (0 entries turns the tier off).
    cache_entries: int = 4096
    cache_max_bytes: int = 64 * 1024 * 1024
    # The Redis tier, on only when REDIS_URL is set.
    redis_url: str | None = None
    redis_timeout_ms: int = 250
    redis_breaker_seconds: float = 5.0
    redis_ttl_seconds: int = 24 * 3600
    redis_key_prefix: str = "referee:"
    # The most actions a /v1/legal-actions answer may list: listing costs about 3 us an action
    # (and 190 bytes of answer), so 2000 keeps the worst request within some 20 ms.
    legal_actions_max_limit: int = 2_000
    # On SIGTERM, how long in-flight requests may take before the workers stop anyway.
    shutdown_timeout_seconds: int = 20
    # Slow clients (service/server.py): a request's headers must arrive within this of the
    # connection's opening (or the request's first byte), its body within that of the headers'
    # end, else 408 and the connection is closed; an idle keep-alive connection is closed after
    # KEEP_ALIVE_SECONDS. Answers that wait WRITE_TIMEOUT_SECONDS unread (the write buffer not
    # shrinking) get the connection aborted.
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 20.0
    keep_alive_seconds: float = 5.0
    write_timeout_seconds: float = 20.0
    # Sealed states (service/seal.py): `kid:base64key` entries, the first seals, all are accepted;
    # in the variable (comma-separated) or in a file (one per line). Unset: sealing is off.
    seal_keys: str | None = None
    seal_keys_file: str | None = None
    # While sealing is on, accept states without a seal too (trusted callers, migrations).
    allow_unsealed: bool = False
    # Who calls the referee: `backend` (a game backend, trusted to act for any seat) or `players`
    # (players themselves: a request acting for a seat or showing its secrets carries that seat's
    # token, else 403). `players` needs sealing and refuses ALLOW_UNSEALED.
    callers: str = "backend"
    # One future per sealed state (needs sealing and Redis): a second, different action from the
    # same state is refused 409; while Redis cannot record it, refuse (503) or allow the apply.
    one_future: bool = True
    one_future_when_redis_down: str = "refuse"
    one_future_ttl_seconds: int = 30 * 24 * 3600
    # Replicas that must hold a one-future record before the apply is answered (Redis WAIT):
    # 1 with a cluster or Sentinel, so that a failover cannot lose a record already answered.
    one_future_replicas: int = 0
    # Where the one-future records live (service/futures.py): a Redis that persists (AOF) and
    # evicts nothing, apart from the cache's. Unset: the cache's REDIS_URL.
    one_future_redis_url: str | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            check = _CHECKS.get(f.name)
            value = getattr(self, f.name)
            if check is not None and value is not None:
                problem = check(value)
                if problem:
                    if f.name in SECRETS:
                        shown = "<secret>"
                    else:
                        shown = repr(redacted(value) if f.name.endswith("redis_url") else value)
                    raise SettingsError(f"{f.name.upper()}={shown}: {problem}")
        if self.seal_keys is not None and self.seal_keys_file is not None:
            raise SettingsError("SEAL_KEYS and SEAL_KEYS_FILE are both set: set one of them")
        if self.callers == "players" and self.seal_keys is None and self.seal_keys_file is None:
            raise SettingsError("CALLERS='players': seat tokens need sealing; set SEAL_KEYS or "
                                "SEAL_KEYS_FILE")
        if self.callers == "players" and self.allow_unsealed:
            raise SettingsError("CALLERS='players' with ALLOW_UNSEALED=true: a player could send any "
                                "state unsealed; accept sealed states only")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings of the environment (or of `environ`), defaults for what is unset or empty."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f.name.upper(), "").strip()
            if not raw:
                continue
            parse = _PARSERS.get(f.name, str)
            try:
                values[f.name] = parse(raw)
            except ValueError:
                raise SettingsError(f"{f.name.upper()}={raw!r}: expected {_KIND[parse]}") from None
        return cls(**values)

    @property
    def connect_host(self) -> str:
        """Where a client on this machine reaches the server (a wildcard address is loopback)."""
        return {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(self.host, self.host)

    def sealing_keys(self) -> str | None:
        """The key entries of SEAL_KEYS or of the file SEAL_KEYS_FILE (None: sealing is off)."""
        if self.seal_keys_file is not None:
            with open(self.seal_keys_file, encoding="utf-8") as f:
                return f.read()
        return self.seal_keys


def _between(low: float, high: float) -> Callable[[float], str | None]:
    return lambda v: None if low <= v <= high else f"must be between {low} and {high}"


_HOSTNAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")


def _host(host: str) -> str | None:
    try:
        ipaddress.ip_address(host)
        return None
    except ValueError:
        pass
    if len(host) <= 253 and _HOSTNAME.fullmatch(host):
        return None
    return "must be an IP address or a host name"


def _boolean(text: str) -> bool:
    value = {"true": True, "1": True, "yes": True, "on": True,
             "false": False, "0": False, "no": False, "off": False}.get(text.lower())
    if value is None:
        raise ValueError(text)
    return value


def _keys(text: str) -> str | None:
    from .seal import SealingKeyError, parse_keys

    try:
        parse_keys(text)
    except SealingKeyError as e:
        return str(e)
    return None


def _key_file(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        return f"cannot be read ({e.strerror})"
    return _keys(text)


def _redis_url(url: str) -> str | None:
    """A URL of one server, a cluster or a Sentinel service that makes a client
    (service/redis_client.py: the forms, and the checks redis-py skips)."""
    from .redis_client import check_url

    return check_url(url)


_PARSERS: dict[str, Callable[[str], Any]] = {
    "port": int, "workers": int, "max_body_bytes": int, "max_record_bytes": int, "cache_entries": int,
    "cache_max_bytes": int, "redis_timeout_ms": int, "redis_breaker_seconds": float,
    "redis_ttl_seconds": int, "legal_actions_max_limit": int, "log_level": str.lower,
    "shutdown_timeout_seconds": int, "header_timeout_seconds": float, "body_timeout_seconds": float,
    "keep_alive_seconds": float, "write_timeout_seconds": float,
    "allow_unsealed": _boolean, "one_future": _boolean, "callers": str.lower,
    "one_future_when_redis_down": str.lower,
    "one_future_ttl_seconds": int, "one_future_replicas": int,
}
_KIND: dict[Callable[[str], Any], str] = {int: "an integer", float: "a number", str: "text",
                                          str.lower: "text", _boolean: "true or false"}
_CHECKS: dict[str, Callable[[Any], str | None]] = {
    "host": _host,
    "port": _between(1, 65535),
    "workers": _between(1, 256),
    "log_level": lambda v: None if v in LOG_LEVELS else f"must be one of {', '.join(LOG_LEVELS)}",
    "max_body_bytes": _between(1024, 64 * 1024 * 1024),
    "max_record_bytes": _between(1024, 64 * 1024 * 1024),
    "cache_entries": _between(0, 10_000_000),
    "cache_max_bytes": _between(0, 64 * 1024 ** 3),
    "redis_url": _redis_url,
    "one_future_redis_url": _redis_url,
    "redis_timeout_ms": _between(1, 60_000),
    "redis_breaker_seconds": _between(0, 3600),
    "redis_ttl_seconds": _between(1, 365 * 24 * 3600),
    "redis_key_prefix": lambda v: None if len(v) <= 64 else "must be at most 64 characters",
    "legal_actions_max_limit": _between(1, 1_000_000),
    "shutdown_timeout_seconds": _between(1, 3600),
    "header_timeout_seconds": _between(0.1, 600),
    "body_timeout_seconds": _between(0.1, 600),
    "keep_alive_seconds": _between(0.1, 600),
    "write_timeout_seconds": _between(0.1, 600),
    "seal_keys": _keys,
    "allow_unsealed": lambda v: None if isinstance(v, bool) else "must be true or false",
    "one_future": lambda v: None if isinstance(v, bool) else "must be true or false",
    "callers": lambda v: None if v in ("backend", "players") else "must be backend or players",
    "seal_keys_file": _key_file,
    "one_future_when_redis_down": lambda v: None if v in ("refuse", "allow") else "must be refuse or allow",
    "one_future_ttl_seconds": _between(60, 365 * 24 * 3600),
    "one_future_replicas": _between(0, 16),
}
