"""POST /v1/render: an SVG of a state, of a player's view or of a scoring position; refusals in
the error shape of every endpoint."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from litestar.testing import TestClient

from tests.render.test_render import POSITION

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
