"""The front (service/api/front.py) answers the cached endpoints whole before litestar does: its
answers must be litestar's, byte for byte, header for header (an empty body's 400, a large one's
413 and a chunked one's included), no POST of a cached endpoint may reach the litestar routes
of the served app (one entrance per URL), and what it leaves to litestar must reach litestar
untouched.

Each request below is sent to two apps of the same settings: the referee as it runs (the front
first) and the same referee with the front taken out (its requests reach the litestar
routes, which call the same `judging.judged`), in the same order, so that caches fill alike.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.api import controllers, front
from service.api.app import create_app
from service.engine import legal_actions
from service.engine.state import GameState
from service.seal import new_key
from service.settings import Settings
from tests.support.fixtures import mid_game

KEY = new_key("front")


def without_front(settings: Settings) -> Any:
    """The referee with its front taken out: every request goes to litestar."""
    app = create_app(settings)
    observer = app.observer
    assert isinstance(observer.app, front.Front)
    observer.app = observer.app.app
    return app


def answer(response: Any) -> tuple[int, bytes, dict[str, str]]:
    headers = {k.lower(): v for k, v in response.headers.items()}
    if "allow" in headers:  # litestar lists a route's methods from a set: in any order
        headers["allow"] = ", ".join(sorted(headers["allow"].split(", ")))
    return response.status_code, response.content, headers


def requests(state: Any, action: Any) -> Iterator[tuple[str, str, Any, dict[str, str]]]:
    """(method, path, body, headers) of every kind the front answers or leaves alone."""
    move = msgspec.json.encode({"state": state, "action": action})
    json = {"content-type": "application/json"}
    for path in ("/v1/validate", "/v1/apply"):
        yield "POST", path, move, json  # a miss
        yield "POST", path, move, json  # a hit
        yield "POST", path, move, {**json, "cache-control": "no-cache"}
        yield "POST", path, move, {**json, "cache-control": "max-age=0, No-Cache"}
        yield "POST", path, move, {}  # no content-type: the body is read as JSON all the same
        illegal = copy.deepcopy(msgspec.json.decode(move))
        illegal["action"] = {"type": "take-money", "player": "Ana", "cards": ["blue-1-a"]}
        yield "POST", path, msgspec.json.encode(illegal), json
        broken = copy.deepcopy(msgspec.json.decode(move))
        broken["state"]["turn"] = "nobody"
        yield "POST", path, msgspec.json.encode(broken), json  # 400 naming the field
        yield "POST", path, move[:-40], json  # not JSON
        yield "POST", path, b"[" * 50 + b"]" * 50, json  # too deep
        yield "POST", path, b"", json  # empty: litestar's words
        yield "POST", path, b"x" * (300 * 1024), json  # too large: litestar's 413
        yield "POST", path, [move[i:i + 999] for i in range(0, len(move), 999)], json  # chunked
        yield "POST", path, [b"x" * 99_999] * 3, json  # chunked, too large: 413
        yield "GET", path, b"", {}  # another method: litestar's 405
        yield "POST", path + "/", move, json  # another path: litestar's
    yield "POST", "/v1/legal-actions", msgspec.json.encode({"state": state, "limit": 5}), json
    yield "POST", "/v1/legal-actions", msgspec.json.encode({"state": state, "player": "Zed"}), json
    yield "POST", "/v1/score", msgspec.json.encode({"state": state, "round": 2}), json
    tally = {"players": [{"name": "Ana", "tally": {}}], "round": 1}
    yield "POST", "/v1/score", msgspec.json.encode(tally), json
    yield "POST", "/v1/score", b'{"players": []}', json
    yield "POST", "/v1/echo", move, json


def _sent(body: bytes | list[bytes]) -> Any:
    """The body to send: bytes with a length, or a list's pieces chunked."""
    return iter(body) if isinstance(body, list) else body


def compare(settings: Settings, state: Any, action: Any, extra: dict[str, str] | None = None) -> int:
    """Sends every request to both apps; returns how many the front answered itself."""
    answered = 0
    reached: list[str] = []  # the judging requests that reached the litestar controllers
    original = controllers.judged

    async def counted(request: Any, endpoint: str, received: Any) -> Any:
        reached.append(endpoint)
        return await original(request, endpoint, received)

    with TestClient(create_app(settings)) as fronted, TestClient(without_front(settings)) as plain:
        for method, path, body, headers in requests(state, action):
            headers = {**headers, **(extra or {})}
            reached.clear()
            controllers.judged = counted  # type: ignore[assignment]
            try:
                ours = answer(fronted.request(method, path, content=_sent(body), headers=headers))
                reached_litestar = bool(reached)
                theirs = answer(plain.request(method, path, content=_sent(body), headers=headers))
            finally:
                controllers.judged = original  # type: ignore[assignment]
            assert ours == theirs, (method, path, body[:80], headers)
            assert ours[0] < 500, ours
            answered += not reached_litestar and path in front.ROUTES and method == "POST"
            assert not (reached_litestar and path in front.ROUTES and method == "POST"), (path, body)
    return answered


@pytest.fixture(scope="module")
def game() -> tuple[Any, Any]:
    state = mid_game()
    action = legal_actions(msgspec.convert(state, GameState), 20)[0][0]
    return state, msgspec.to_builtins(action)


def test_the_front_answers_as_litestar_does_unsealed(game: tuple[Any, Any]) -> None:
    answered = compare(Settings(), *game)
    assert answered >= 20  # the judging requests with a body of a length, whatever their answer


def test_the_front_answers_as_litestar_does_sealed(game: tuple[Any, Any]) -> None:
    """Sealing on: the unsealed state is refused (`unsealed-state`) the same both ways; with
    ALLOW_UNSEALED it is judged and the new state sealed, deterministically."""
    compare(Settings(seal_keys=KEY), *game)
    compare(Settings(seal_keys=KEY, allow_unsealed=True), *game)


def test_the_front_answers_as_litestar_does_for_players(game: tuple[Any, Any]) -> None:
    """CALLERS=players: without a token, with a token that is no seat's, 403 the same both ways."""
    settings = Settings(seal_keys=KEY, callers="players")
    compare(settings, *game)
    compare(settings, *game, extra={"authorization": "Bearer not-a-token"})


def test_the_front_counts_and_logs_what_it_answers(game: tuple[Any, Any]) -> None:
    """The observer sits outside the front: a front answer is counted under its endpoint with its
    x-cache outcome, as litestar's were (issue 16: no fast path that bypasses the metrics)."""
    from service.api.observe import CACHE_ANSWERS, REQUESTS

    def count(metric: Any, **labels: str) -> float:
        return metric.labels(**labels)._value.get()  # type: ignore[no-any-return]

    body = msgspec.json.encode({"state": game[0], "action": game[1]})
    before = (count(REQUESTS, endpoint="/v1/validate", method="POST", status="200"),
              count(CACHE_ANSWERS, endpoint="/v1/validate", outcome="hit-memory"))
    with TestClient(create_app(Settings())) as client:
        for _ in range(3):
            client.post("/v1/validate", content=body)
    after = (count(REQUESTS, endpoint="/v1/validate", method="POST", status="200"),
             count(CACHE_ANSWERS, endpoint="/v1/validate", outcome="hit-memory"))
    assert (after[0] - before[0], after[1] - before[1]) == (3, 2)
