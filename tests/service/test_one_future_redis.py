"""One future per sealed state while Redis is up (referee.one-future; issue 23, item 1), with a
real `redis-server` on a free port: a restarted Redis and a worker saturated with CPU work must
neither fork a sealed state (ONE_FUTURE_WHEN_REDIS_DOWN=allow) nor refuse an apply 503
(`refuse`), since Redis answers all along.

Eight different legal actions are applied to one sealed state at once, through the app's ASGI
interface in this test's event loop (so they are truly concurrent, and CPU work in the same
loop holds the worker as other requests would): one is answered 200, the seven others 409
`already-advanced`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.api.app import create_app
from service.seal import new_key
from service.settings import Settings
from tests.support.redis_servers import LocalRedis, require_binaries

KEY = new_key("k1")
NAMES = ["Ana", "Ben", "Cyd"]
ONE_FUTURE = [200] + [409] * 7


@contextlib.asynccontextmanager
async def _referee(url: str, mode: str, **settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(seal_keys=KEY, redis_url=url, one_future_when_redis_down=mode,
                              redis_key_prefix=f"test-{uuid.uuid4().hex[:12]}:", **settings))
    async with app.lifespan(), httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                                 base_url="http://referee", timeout=60) as client:
        yield client


async def _sealed_state_with_eight_actions(client: httpx.AsyncClient, first_seed: int
                                           ) -> tuple[Any, list[Any]]:
    for seed in range(first_seed, first_seed + 200):
        created = await client.post("/v1/games", json={"players": NAMES, "seed": seed})
        state = created.json()["state"]
        listed = await client.post("/v1/legal-actions", json={"state": state, "limit": 8})
        actions = listed.json()["actions"]
        if len(actions) == 8:
            return state, actions
    raise AssertionError("no opening with 8 legal actions")


async def _race(client: httpx.AsyncClient, state: Any, actions: list[Any]) -> list[int]:
    """The statuses of the 8 actions applied to `state` at once, sorted."""
    answers = await asyncio.gather(*(client.post("/v1/apply", json={"state": state, "action": action})
                                     for action in actions))
    return sorted(a.status_code for a in answers)


@pytest.fixture
def servers(tmp_path: Path) -> Any:
    require_binaries()
    local = LocalRedis(tmp_path)
    yield local
    local.stop()


@pytest.mark.parametrize("mode", ["allow", "refuse"])
def test_a_restarted_redis_keeps_one_future_per_sealed_state(servers: LocalRedis, mode: str) -> None:
    """After a restart every pooled connection is stale: each is tried once more on a fresh
    connection before a failure counts, so the eight racing actions meet the record: one 200,
    seven 409 (before: the first stale connection opened the breaker for 5 s, and `allow`
    applied all eight, `refuse` answered 503)."""
    port = servers.start()

    async def scenario() -> tuple[list[int], list[int]]:
        async with _referee(f"redis://127.0.0.1:{port}/0", mode) as client:
            state, actions = await _sealed_state_with_eight_actions(client, 1)
            before = await _race(client, state, actions)  # and 8 pooled connections
            servers.kill(port)
            servers.restart(port)
            state, actions = await _sealed_state_with_eight_actions(client, 300)
            return before, await _race(client, state, actions)

    before, after = asyncio.run(scenario())
    assert before == ONE_FUTURE
    assert after == ONE_FUTURE


class Hold:
    """CPU work holding the event loop `seconds` right after each one-future record is sent to
    Redis (`SET ... NX`): the worst moment for a worker saturated by other requests' answers
    (the probe's 24 clients, load average 7). Redis answers at once; its reply waits in the
    socket until the loop is free."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
        from redis.asyncio.connection import AbstractConnection

        self.seconds = seconds
        self.holds = 0
        send = AbstractConnection.send_packed_command

        async def send_then_hold(connection: Any, command: Any, *args: Any, **kwargs: Any) -> None:
            await send(connection, command, *args, **kwargs)
            packed = command if isinstance(command, bytes) else b"".join(command)
            if b"\r\nNX\r\n" in packed:
                asyncio.get_running_loop().call_soon(self._hold)

        monkeypatch.setattr(AbstractConnection, "send_packed_command", send_then_hold)

    def _hold(self) -> None:
        end = time.perf_counter() + self.seconds
        while time.perf_counter() < end:
            pass
        self.holds += 1


@pytest.mark.parametrize("mode", ["allow", "refuse"])
def test_a_saturated_worker_keeps_one_future_per_sealed_state(servers: LocalRedis, mode: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop is held 0.4 s, past REDIS_TIMEOUT_MS (250 ms), after each record is sent: Redis's
    reply comes in time but waits for the loop. A reply late only because the loop was busy is
    no failure: no 503 and no fork (before: the timeout, measured on the busy loop, counted it,
    the breaker opened, `refuse` answered 503 and `allow` forked)."""
    port = servers.start()
    hold = Hold(monkeypatch, 0.4)

    async def scenario() -> list[int]:
        async with _referee(f"redis://127.0.0.1:{port}/0", mode, redis_timeout_ms=250) as client:
            state, actions = await _sealed_state_with_eight_actions(client, 1)
            return await _race(client, state, actions)

    statuses = asyncio.run(scenario())
    assert hold.holds == 8  # the loop was held past the timeout while a record was awaited
    assert statuses == ONE_FUTURE


def test_a_silent_redis_still_fails_the_record_in_time() -> None:
    """The loop's lag is not counted, but Redis's silence is: a Redis that accepts and never
    answers fails the record (503 or allowed, as ONE_FUTURE_WHEN_REDIS_DOWN says) within a
    bounded time, a held loop too, and the failure counts."""
    from service.cache import RedisTier, RedisUnavailable

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1 << 16)
        await asyncio.sleep(30)

    async def scenario(hold: float) -> tuple[float, int]:
        server = await asyncio.start_server(silent, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        tier = RedisTier(f"redis://127.0.0.1:{port}/0", timeout=0.2, breaker_seconds=0, ttl=60,
                         prefix="test:")
        started = time.perf_counter()
        claim = asyncio.get_running_loop().create_task(tier.claim(b"state", b"action", 60))
        await asyncio.sleep(0.01)
        end = time.perf_counter() + hold  # CPU work holding the loop meanwhile
        while time.perf_counter() < end:
            pass
        with pytest.raises(RedisUnavailable):
            await claim
        took = time.perf_counter() - started
        await tier.close()
        server.close()
        return took, tier.errors

    for hold in (0.0, 0.5):
        took, errors = asyncio.run(scenario(hold))
        assert errors == 1
        assert 0.2 <= took < hold + 3


def test_a_deadline_does_not_count_the_loop_held_elsewhere() -> None:
    """`redis_client.Deadline`, which bounds every Redis call: a reply that comes in time while
    the loop is held past the deadline is read (asyncio.timeout would cancel it: both are due
    when the loop is free again, the timer first); with no reply, it still ends the wait."""
    from service.redis_client import Deadline

    def hold(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            pass

    async def wait(reply_after: float | None) -> str:
        loop = asyncio.get_running_loop()
        reply = loop.create_future()
        if reply_after is not None:
            loop.call_later(reply_after, reply.set_result, "reply")
        loop.call_soon(hold, 0.3)  # other work holds the loop past the 0.1 s deadline
        try:
            async with Deadline(0.1):
                return str(await reply)
        except TimeoutError:
            return "timeout"

    assert asyncio.run(wait(0.01)) == "reply"
    assert asyncio.run(wait(None)) == "timeout"
