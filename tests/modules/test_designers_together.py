"""The six modules of the Designers' Expansion together (issue 4): random complete games for
2 to 6 players, and a scoring position that holds a token of every module, scored over HTTP."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from service.api.app import create_app
from service.settings import Settings
from tests.support.play import play_random_game

DESIGNERS = ("craftsmen", "zoo", "power", "grounds", "extensions", "staff")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_all_six_designers_modules_reach_the_end(players: int) -> None:
    game = play_random_game(700 + players, players, DESIGNERS, list_every=60)
    assert game.states[-1].phase == "over"
    assert game.rounds[-1] == 3


def test_the_scoring_position_endpoint_scores_every_category_of_the_six_modules() -> None:
    position = {
        "modules": list(DESIGNERS),
        "round": 2,
        "players": [
            {"name": "Ana", "score": 3, "alhambra": [
                {"x": 0, "y": 0, "tile": "fountain"},
                {"x": 1, "y": 0, "tile": "garden-10-open", "animals": ["monkey", "monkey"],
                 "servant": True},
                {"x": 0, "y": 1, "tile": "tower-9-NE-strength", "die": 3, "rotation": 180,
                 "extension": True},
                {"x": -1, "y": 0, "tile": "site-4-12-ES", "construction": "garden", "rotation": 90},
            ], "reserve": [{"tile": "arcades-5-NW-strength", "die": 2}]},
            {"name": "Ben", "alhambra": [
                {"x": 0, "y": 0, "tile": "fountain"},
                {"x": 1, "y": 0, "tile": "tower-11-open", "servant": True},
            ]},
            {"name": "Cyd", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},  # base.setup.players
        ],
    }
    with TestClient(create_app(Settings())) as client:
        answer = client.post("/v1/score", json=position)
    assert answer.status_code == 200, answer.text
    lines = {line["category"] for p in answer.json()["players"] for line in p["lines"]}
    assert {"majority", "wall", "zoo", "staff", "power"} <= lines
    ana = answer.json()["players"][0]
    towers = next(line for line in ana["lines"] if line.get("building") == "tower")
    assert towers["count"] == 2  # the extension counts the strength tower twice
    gardens = next(line for line in ana["lines"] if line.get("building") == "garden")
    assert gardens["count"] == 2  # the site built as a garden counts as one
    zoo = next(line for line in ana["lines"] if line["category"] == "zoo")
    assert zoo["points"] == 2
