"""POST /v1/render: an SVG of a state, of a player's view or of a scoring position; refusals in
the error shape of every endpoint."""

from __future__ import annotations

import http.client
import os
import socket
import statistics
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import msgspec
from litestar.testing import TestClient

from service.api.app import create_app
from service.engine import GameState, legal_actions
from service.engine.view import view
from service.render import render_view
from service.seal import Sealing, new_key, parse_keys
from service.settings import Settings
from tests.api.conftest import free_port
from tests.engine.play import after_steps
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


# --- renders never stall the rest (issue 23 item 3) ----------------------------------------------

REFEREE = str(Path(sys.executable).with_name("referee"))
RENDERS_AT_ONCE = 8


def _serve(port: int) -> subprocess.Popen[bytes]:
    """`referee serve` with one worker (as a container runs it), no cache: every picture drawn."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(PORT=str(port), WORKERS="1", LOG_LEVEL="warning", CACHE_ENTRIES="0")
    proc = subprocess.Popen([REFEREE, "serve"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, "the server stopped while starting"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)


def _healthz_latencies(port: int, samples: int) -> list[float]:
    """Wall-clock seconds of `samples` /healthz requests, one after the other on one connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    out = []
    for _ in range(samples):
        started = time.perf_counter()
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        response.read()
        out.append(time.perf_counter() - started)
        assert response.status == 200
        time.sleep(0.01)
    conn.close()
    return out


def _p99(latencies: list[float]) -> float:
    return statistics.quantiles(latencies, n=100)[98] * 1000


# The 8 clients, in a process of their own so that the test's measuring thread shares no
# interpreter lock with them: each writes one byte per answer (`2` for a 200, `x` for anything
# else), for as long as it runs.
_DRAWERS = """
import http.client, sys, threading
port, clients, body = int(sys.argv[1]), int(sys.argv[2]), sys.stdin.buffer.read()
lock = threading.Lock()
def draw():
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while True:
        conn.request("POST", "/v1/render", body=body, headers={"content-type": "application/json"})
        response = conn.getresponse()
        response.read()
        with lock:
            sys.stdout.write("2" if response.status == 200 else "x")
            sys.stdout.flush()
threads = [threading.Thread(target=draw, daemon=True) for _ in range(clients)]
for t in threads:
    t.start()
threads[0].join()
"""


def test_eight_renders_at_once_leave_healthz_under_50_ms_at_p99() -> None:
    """Issue 23: 8 renders at once held /healthz up to 478 ms; a bounded pool keeps the event loop
    answering. Real requests: 8 clients ask for the worst picture (a late 6-player game of every
    module, everything drawn) again and again while another asks /healthz 300 times. The bound
    is 50 ms plus what the machine's own noise costs /healthz with no render running (measured
    first, in the same run), so another's load on a shared machine fails no one."""
    body = msgspec.json.encode({"state": after_steps(ALL_MODULES, 6, 0, 3000)})
    port = free_port()
    proc = _serve(port)
    drawers = None
    try:
        quiet = _p99(_healthz_latencies(port, 100))
        drawers = subprocess.Popen([sys.executable, "-c", _DRAWERS, str(port), str(RENDERS_AT_ONCE)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert drawers.stdin is not None and drawers.stdout is not None
        drawers.stdin.write(body)
        drawers.stdin.close()
        answered = drawers.stdout.read(RENDERS_AT_ONCE)  # the pool warm, every client drawing
        busy = _p99(_healthz_latencies(port, 300))
    finally:
        if drawers is not None:
            drawers.kill()
            drawers.wait(10)
        proc.kill()
        proc.wait(10)
    answered += drawers.stdout.read()
    assert set(answered) == {ord("2")} and len(answered) > 2 * RENDERS_AT_ONCE, answered
    assert busy < 50 + quiet, f"/healthz p99 {busy:.1f} ms while 8 renders ran ({quiet:.1f} ms without)"


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
