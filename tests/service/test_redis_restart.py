"""A Redis that restarted (every pooled connection dead) is used again at once: a command on a
stale pooled connection is tried once more on a fresh connection (redis-py's Retry) before a
failure counts, so no breaker opens and no call is skipped, to concurrent requests neither.

A stale connection that still looks open is what the live fault run met (`bench/load_bench.py
faults`: `ConnectionError: Connection closed by server` on one write every 5 s after a restart).
A small fake Redis makes it deterministic: after its "restart" it drops any old connection at
its next command, without answering.
"""

from __future__ import annotations

import asyncio
from typing import Any

from service.cache import Cache
from service.settings import Settings


class FakeRedis:
    """HELLO, GET, SET and anything else (+OK) in RESP3; `restart()` makes old connections stale."""

    def __init__(self) -> None:
        self.generation = 0
        self.data: dict[bytes, bytes] = {}
        self.server: Any = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    def restart(self) -> None:
        self.generation += 1
        self.data.clear()

    async def _command(self, reader: asyncio.StreamReader) -> list[bytes]:
        header = await reader.readline()
        if not header:
            raise ConnectionError
        parts = []
        for _ in range(int(header[1:])):
            size = int((await reader.readline())[1:])
            parts.append((await reader.readexactly(size + 2))[:-2])
        return parts

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        born = self.generation
        try:
            while True:
                command = await self._command(reader)
                if born != self.generation:  # a connection from before the restart
                    break
                name = command[0].upper()
                if name == b"HELLO":  # redis-py speaks RESP3 and checks the version
                    writer.write(b"%2\r\n+server\r\n+redis\r\n+proto\r\n:3\r\n")
                elif name == b"GET":
                    value = self.data.get(command[1])
                    writer.write(b"_\r\n" if value is None else b"$%d\r\n%s\r\n" % (len(value), value))
                else:
                    if name == b"SET":
                        self.data[command[1]] = command[2]
                    writer.write(b"+OK\r\n")
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()


async def _scenario() -> tuple[int, int, bytes | None]:
    fake = FakeRedis()
    port = await fake.start()
    url = f"redis://127.0.0.1:{port}/0"
    settings = Settings(redis_url=url, cache_entries=0)
    cache = Cache.from_settings(settings)
    await asyncio.gather(*(cache.redis.get(b"warm-%d" % i) for i in range(8)))  # 8 pooled connections
    fake.restart()
    assert await cache.redis.get(b"k") is None  # a miss: the stale connection was tried afresh
    await asyncio.gather(*(cache.redis.get(b"k-%d" % i) for i in range(8)))  # the other stale ones
    cache.put(b"k", b"answer")
    await asyncio.sleep(0.1)
    value = await cache.redis.get(b"k")
    errors, skipped = cache.redis.errors, cache.redis.skipped
    await cache.close()
    fake.server.close()
    return errors, skipped, value


def test_a_restarted_redis_is_used_again_at_once() -> None:
    errors, skipped, value = asyncio.run(_scenario())
    assert (errors, skipped) == (0, 0)
    assert value == b"answer"
