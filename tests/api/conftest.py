"""Shared fixtures: an app and its client, a mid-game state, a free port."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from service.api.app import create_app
from service.engine import Generator, apply, new_game, random_action
from service.settings import Settings

NAMES = ["Ana", "Ben", "Cyd", "Dov"]


def mid_game(players: int = 4, steps: int = 30, seed: int = 7) -> Any:
    """A game after `steps` random legal actions, as JSON-ready builtins."""
    import msgspec

    state = new_game(NAMES[:players], seed=seed).state
    rng = Generator(seed)
    for _ in range(steps):
        action = random_action(state, rng)
        if action is None:
            break
        state = apply(state, action).state
    return msgspec.json.decode(msgspec.json.encode(state))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings())) as c:
        yield c


@pytest.fixture(scope="session")
def state() -> Any:
    return mid_game()
