"""One future per sealed state: the records, and where they meet Redis (through the cache's
`RedisTier`, so through `service.redis_client`: a Redis Cluster or Sentinel URL works here too).

With sealing on and ONE_FUTURE, the first legal action applied to a sealed state is recorded
(`SET NX`: state id -> seat and action digest) for ONE_FUTURE_TTL_SECONDS, in a Redis every
replica shares. The records are not a cache: one lost (evicted, or a Redis restarted empty)
lets that state be forked again. So they belong in a Redis that persists (AOF) and evicts
nothing (`noeviction`): ONE_FUTURE_REDIS_URL, a separate instance or database from the cache's
REDIS_URL (which evicts and keeps nothing). Unset, the records live in the cache's Redis; the
deploy files set it.

The records have a Redis client and a failure accounting of their own, apart from the cache's
circuit breaker: a skipped cache is harmless, a skipped record is a fork (or a needless 503). So
every claim asks Redis, a cache failure never skips a record, and a record's failure counts only
when Redis failed: a connection error after one more try on a fresh connection, or no reply
within REDIS_TIMEOUT_MS of a loop free to read it (`redis_client.Deadline`).
"""

from __future__ import annotations

from typing import Any

from service.cache import Cache, RedisTier, RedisUnavailable

__all__ = ["FutureRecords", "RedisUnavailable"]

PREFIX = b"future:"


class FutureRecords:
    """The one-future store: `claim(state_id, record)` records the state's one future unless
    one stands, and gives the one that stands."""

    def __init__(self, tier: RedisTier, ttl: int, replicas: int = 0) -> None:
        self.tier = tier
        self.ttl = ttl
        self.replicas = replicas  # ONE_FUTURE_REPLICAS: confirmed by WAIT before the answer

    @classmethod
    def from_settings(cls, settings: Any, cache: Cache) -> FutureRecords:
        """The records' own tier, on ONE_FUTURE_REDIS_URL or else on the cache's REDIS_URL, never
        the cache's tier itself (`cache`: the app's, kept for the callers' symmetry)."""
        url = settings.one_future_redis_url or settings.redis_url
        # breaker_seconds=0: no circuit breaker, every claim asks Redis (a skip forks or refuses).
        tier = RedisTier(url, timeout=settings.redis_timeout_ms / 1000, breaker_seconds=0,
                         ttl=settings.one_future_ttl_seconds, prefix=settings.redis_key_prefix)
        return cls(tier, settings.one_future_ttl_seconds, settings.one_future_replicas)

    @property
    def enabled(self) -> bool:
        return self.tier.enabled

    async def claim(self, state_id: bytes, record: bytes) -> bytes:
        """The record that stands for the state (`record` if it was the first); raises
        RedisUnavailable when the store cannot be asked."""
        return await self.tier.claim(PREFIX + state_id, record, self.ttl, self.replicas)

    async def close(self, cache: Cache) -> None:
        if self.tier is not cache.redis:  # its own tier (always, from the settings)
            await self.tier.close()
