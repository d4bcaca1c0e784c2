"""One future per sealed state: the records, and where they meet Redis (through the cache's
`RedisTier`, so through `service.redis_client`: a Redis Cluster or Sentinel URL works here too).

With sealing on and ONE_FUTURE, the first legal action applied to a sealed state is recorded
(`SET NX`: state id -> seat and action digest) for ONE_FUTURE_TTL_SECONDS, in a Redis every
replica shares. The records are not a cache: one lost (evicted, or a Redis restarted empty)
lets that state be forked again. So they belong in a Redis that persists (AOF) and evicts
nothing (`noeviction`): ONE_FUTURE_REDIS_URL, a separate instance or database from the cache's
REDIS_URL (which evicts and keeps nothing). Unset, the records share the cache's Redis (and
its breaker), as before; the deploy files set it.
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
        url = settings.one_future_redis_url
        if url is None:  # the cache's Redis (a deployment that has one Redis)
            return cls(cache.redis, settings.one_future_ttl_seconds, settings.one_future_replicas)
        tier = RedisTier(url, timeout=settings.redis_timeout_ms / 1000,
                         breaker_seconds=settings.redis_breaker_seconds, ttl=settings.one_future_ttl_seconds,
                         prefix=settings.redis_key_prefix)
        return cls(tier, settings.one_future_ttl_seconds, settings.one_future_replicas)

    @property
    def enabled(self) -> bool:
        return self.tier.enabled

    async def claim(self, state_id: bytes, record: bytes) -> bytes:
        """The record that stands for the state (`record` if it was the first); raises
        RedisUnavailable when the store cannot be asked."""
        return await self.tier.claim(PREFIX + state_id, record, self.ttl, self.replicas)

    async def close(self, cache: Cache) -> None:
        if self.tier is not cache.redis:
            await self.tier.close()
