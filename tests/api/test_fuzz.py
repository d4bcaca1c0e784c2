"""Hostile bytes: random bodies and randomly mutated real states never make the referee raise
anything but its own 4xx refusals, through the decoders, the handlers and HTTP."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from service.api import endpoints, handlers, render
from service.api.app import create_app
from service.api.refusals import RequestError
from service.engine import Generator, apply, new_game, random_action
from service.seal import SealError, Sealing, new_key, parse_keys
from service.settings import Settings

COMMANDS = sorted(endpoints.BY_NAME)
SEALING = Sealing(parse_keys(new_key("fuzz")), allow_unsealed=True)


def _mid_game() -> dict[str, Any]:
    state = new_game(["Ana", "Ben", "Cyd"], ["zoo", "staff", "treasure", "vendors", "walls"], seed=4).state
    rng = Generator(4)
    for _ in range(25):
        action = random_action(state, rng)
        if action is None:
            break
        state = apply(state, action).state
    return json.loads(msgspec.json.encode(state))


STATE = _mid_game()
LEAF = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
                 st.text(max_size=80), st.lists(st.integers(), max_size=3), st.just({}),
                 st.sampled_from(["fountain", "blue-1-a", "Ana", "N", "monkey", "0" * 16]))


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


PATHS = _paths(STATE)[1:]


def _mutated(state: Any, path: tuple[Any, ...], leaf: Any, delete: bool) -> Any:
    copy = json.loads(json.dumps(state))
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        parent.pop(path[-1])
    elif delete:
        parent.append(parent[path[-1]])  # a duplicated element
    else:
        parent[path[-1]] = leaf
    return copy


def _refused_cleanly(command: str, raw: bytes) -> None:
    try:
        endpoints.handle(command, raw, SEALING)
    except RequestError as e:
        assert 400 <= e.status < 500, (e.status, e.message)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.binary(max_size=2048), command=st.sampled_from(COMMANDS))
def test_random_bytes_are_refused_with_400(raw: bytes, command: str) -> None:
    _refused_cleanly(command, raw)
    try:
        render.decode(raw)
    except RequestError as e:
        assert e.status == 400


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(PATHS), leaf=LEAF, delete=st.booleans(),
       command=st.sampled_from(["validate", "apply", "legal-actions", "view", "score", "suggest"]))
def test_mutated_states_are_answered_or_refused_never_crash(path: tuple[Any, ...], leaf: Any, delete: bool,
                                                            command: str) -> None:
    state = _mutated(STATE, path, leaf, delete)
    seat = STATE["turn"]["player"]
    name = STATE["players"][seat]["name"]
    body: dict[str, Any] = {"state": state}
    if command in ("validate", "apply"):
        body["action"] = {"type": "take-money", "player": name, "cards": STATE["display"][:1]}
    elif command == "legal-actions":
        body["limit"] = 20
    elif command == "view":
        body["player"] = name
    elif command == "suggest":
        body.update(player=name, level="basic")
    else:
        body["round"] = 1
    try:
        raw = json.dumps(body).encode()
    except ValueError:  # a float JSON cannot hold (nan written as NaN is still sent: json allows it)
        return
    _refused_cleanly(command, raw)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(seal=st.one_of(st.text(max_size=200), st.from_regex(r"\Av2\.fuzz\.[A-Za-z0-9_-]{0,120}\Z")))
def test_random_seals_are_refused_with_a_seal_error(seal: str) -> None:
    state = msgspec.convert({**STATE, "seal": seal or "x"}, type=handlers.engine.GameState)
    try:
        SEALING.open(state)
    except SealError as e:
        assert e.error == "bad-seal"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(raw=st.binary(max_size=1024),
       path=st.sampled_from(["/v1/games", "/v1/validate", "/v1/apply", "/v1/legal-actions", "/v1/score",
                             "/v1/view", "/v1/render", "/v1/echo", "/v1/suggest"]))
def test_random_bodies_over_http_are_never_a_5xx(raw: bytes, path: str) -> None:
    with TestClient(APP) as client:
        answer = client.post(path, content=raw, headers={"content-type": "application/json"})
    assert 400 <= answer.status_code < 500, answer.text


APP = create_app(Settings(seal_keys=new_key("http")))
