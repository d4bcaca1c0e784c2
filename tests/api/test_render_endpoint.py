"""POST /v1/render: an SVG of a state, of a player's view or of a scoring position; refusals in
the error shape of every endpoint."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.api.app import create_app
from service.engine import GameState, legal_actions
from service.engine.view import view
from service.render import render_view
from service.seal import Sealing, new_key, parse_keys
from service.settings import Settings
from tests.render.test_render import ALL_MODULES, POSITION

SVG_TYPE = "image/svg+xml"


def _svg(response: Any) -> ET.Element:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith(SVG_TYPE)
    return ET.fromstring(response.content)


def test_render_draws_a_state_and_a_players_view(client: TestClient, state: Any) -> None:
    whole = client.post("/v1/render", json={"state": state})
    _svg(whole)
    ana = client.post("/v1/render", json={"state": state, "player": "Ana"})
    _svg(ana)
    ben_hand = state["players"][1]["hand"]
    assert ben_hand
    for card in ben_hand:
        assert f'data-card="{card}"'.encode() in whole.content
        assert card.encode() not in ana.content


def test_render_draws_a_scoring_position_with_its_breakdown(client: TestClient) -> None:
    root = _svg(client.post("/v1/render", json=POSITION))
    text = "".join(root.itertext())
    assert "Scoring round 2" in text and "round total" in text


def test_render_refuses_an_unknown_player_and_an_inconsistent_state(client: TestClient, state: Any) -> None:
    response = client.post("/v1/render", json={"state": state, "player": "Nobody"})
    assert response.status_code == 422 and response.json()["error"] == "unknown-player"
    broken = {**state, "display": [*state["display"], *state["players"][0]["hand"][:1]]}
    response = client.post("/v1/render", json={"state": broken})
    assert response.status_code == 422 and response.json()["error"] == "inconsistent-state"
    position = {**POSITION, "modules": []}  # tokens of modules that are off
    response = client.post("/v1/render", json=position)
    assert response.status_code == 422 and response.json()["violations"]


def test_render_refuses_malformed_bodies_with_the_path(client: TestClient, state: Any) -> None:
    for body, path in ((b"[1]", ""), (b'{"state": 1}', "$.state"), (b"{", "")):
        response = client.post("/v1/render", content=body, headers={"content-type": "application/json"})
        assert response.status_code == 400, body
        assert response.json()["error"] == "bad-request" and path in response.json()["message"]
    response = client.post("/v1/render", json={"state": state, "player": "Ana", "size": 3})
    assert response.status_code == 400 and "size" in response.json()["message"]


def test_eight_renders_at_once_draw_one_at_a_time_and_leave_healthz_answering(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: 8 renders at once held /healthz up to 478 ms (each drawn in its own thread of
    anyio's pool of 40, all taking the interpreter's lock from the event loop). Now a bounded
    pool: with every drawing held until released, 8 renders are asked at once; no more than
    RENDER_THREADS draw at the same time, the others wait on no thread, and /healthz answers
    while all 8 are still pending. (Speed is the benchmark's: bench/worst_case.py measures the
    worst picture's CPU and /healthz's latency while 8 renders run; README "Hostile input".)"""
    import threading

    import anyio
    import httpx

    from service.api import render as render_edge

    release, lock = threading.Event(), threading.Lock()
    drawing, most = [0], [0]

    def held(*args: Any, **kwargs: Any) -> str:
        with lock:
            drawing[0] += 1
            most[0] = max(most[0], drawing[0])
        try:
            assert release.wait(20)
            return "<svg/>"
        finally:
            with lock:
                drawing[0] -= 1

    monkeypatch.setattr(render_edge, "render", held)

    async def scene() -> None:
        # The app in this event loop (httpx's ASGI transport), so the loop is free while renders wait.
        transport = httpx.ASGITransport(app=create_app(Settings()))
        async with httpx.AsyncClient(transport=transport, base_url="http://referee") as client:
            answers: list[int] = []

            async def ask() -> None:
                answers.append((await client.post("/v1/render", json=POSITION)).status_code)

            async with anyio.create_task_group() as tasks:
                for _ in range(8):
                    tasks.start_soon(ask)
                with anyio.fail_after(10):
                    while drawing[0] < render_edge.RENDER_THREADS:
                        await anyio.sleep(0.01)
                health = await client.get("/healthz")
                assert health.status_code == 200 and answers == []  # all 8 still pending
                assert drawing[0] == most[0] == render_edge.RENDER_THREADS
                release.set()
            assert answers == [200] * 8 and most[0] == render_edge.RENDER_THREADS

    anyio.run(scene)


def test_a_spectators_picture_needs_no_token_and_draws_only_the_spectators_view() -> None:
    """Issue 23: under CALLERS=players a spectator's picture needs no token. Intended (README,
    "Trust": a spectator's view and picture stay open) because it is drawn from the spectator's
    view alone, RULES.md §8: "the others' hands" and the order of the deck and the bag stay
    hidden. Byte for byte the picture of `view(state, None)`, with no card of any hand or of the
    deck and no tile of the bag in it, in a game of every module late enough to hold them all."""
    key = new_key("k1")
    with TestClient(create_app(Settings(seal_keys=key, callers="players"))) as client:
        created = client.post("/v1/games", json={"players": ["Ana", "Ben", "Cyd"], "modules": ALL_MODULES,
                                                 "seed": 5})
        assert created.status_code == 201
        state = created.json()["state"]
        for _ in range(40):  # play on as the players would (each with their token)
            whole = Sealing(parse_keys(key)).open(msgspec.convert(state, GameState)).state
            actions, _ = legal_actions(whole, 1)
            if not actions:
                break
            seat = whole.seat_of(actions[0].player)
            token = created.json()["seat_tokens"][seat]["token"]
            body = {"state": state, "action": msgspec.to_builtins(actions[0])}
            applied = client.post("/v1/apply", json=body, headers={"authorization": f"Bearer {token}"})
            assert applied.status_code == 200, applied.text
            state = applied.json()["state"]
        picture = client.post("/v1/render", json={"state": state})
    assert picture.status_code == 200
    whole = Sealing(parse_keys(key)).open(msgspec.convert(state, GameState)).state
    assert picture.text == render_view(view(whole, None))
    hidden_cards = {card for p in whole.players for card in p.hand} | set(whole.deck)
    assert hidden_cards and not any(f'data-card="{card}"' in picture.text for card in hidden_cards)
    assert whole.bag and not any(f'data-tile="{tile}"' in picture.text for tile in whole.bag)


def test_render_words_the_picture_in_the_requests_language(client: TestClient, state: Any) -> None:
    """Issue 29: the picture's captions in the language Accept-Language prefers (drawn in the
    render pool's thread, which sees the request's language); names and ids as they are."""
    german = client.post("/v1/render", json={"state": state}, headers={"Accept-Language": "de"})
    assert german.status_code == 200 and german.headers["content-language"] == "de"
    assert "Bauhof" in german.text and "Building market" not in german.text
    assert "Ana" in german.text
    sheet = client.post("/v1/render", json={**POSITION, "draw": "sheet"}, headers={"Accept-Language": "ca"})
    assert "Full de puntuació" in sheet.text
    english = client.post("/v1/render", json={"state": state})
    assert "Building market" in english.text
