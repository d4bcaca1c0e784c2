"""Tallies and score sheets through HTTP (issue 15): the README's evening in three calls, the
sheet's refusals (each naming the field), tallies refused by the schema (400) and by the rules
(422), a position mixing tiles and tallies, and the sheet drawn by /v1/render with its chart."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

ROOT = Path(__file__).resolve().parents[2]


def readme_evening() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The three rounds' bodies of the README's evening and the final ranking it shows."""
    text = (ROOT / "README.md").read_text("utf-8")
    bodies = {int(n): json.loads(body) for n, body in
              re.findall(r"cat > round(\d)\.json <<'EOF'\n(.*?)\nEOF", text, re.S)}
    ranking = re.search(r"jq -c \.ranking r3\.json\n# (\[.*\])\n", text)
    assert sorted(bodies) == [1, 2, 3] and ranking is not None
    return [bodies[n] for n in (1, 2, 3)], json.loads(ranking.group(1))


def scored(client: TestClient, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    answer = client.post("/v1/score", json=body)
    assert answer.status_code == status, answer.text
    return answer.json()  # type: ignore[no-any-return]


def evening(client: TestClient) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The README's evening: each round's body with the earlier answers as `previous` (what its
    jq does), and the three answers."""
    rounds, _ = readme_evening()
    answers: list[dict[str, Any]] = []
    bodies = []
    for body in rounds:
        body = {**body, "previous": list(answers)} if answers else body
        bodies.append(body)
        answers.append(scored(client, body))
    return bodies, answers


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_allows_the_readme_evening_in_three_calls(client: TestClient) -> None:
    """Points accumulate over the rounds: each ranking holds the running totals; after round 3
    it is the final ranking the README shows."""
    _, expected = readme_evening()
    _, answers = evening(client)
    running: dict[str, int] = {}
    for answer in answers:
        for p in answer["players"]:
            running[p["name"]] = running.get(p["name"], 0) + p["total"]
        assert {r["name"]: r["score"] for r in answer["ranking"]} == running
    assert answers[2]["ranking"] == expected


def test_a_round_scored_with_running_totals_gives_the_ranking_of_the_sheet(client: TestClient) -> None:
    """The other form: each player's `score` (points before the round) instead of `previous`."""
    bodies, answers = evening(client)
    before = {r["name"]: r["score"] for r in answers[1]["ranking"]}
    body = {k: v for k, v in bodies[2].items() if k != "previous"}
    body["players"] = [{**p, "score": before[p["name"]]} for p in body["players"]]
    assert scored(client, body)["ranking"] == answers[2]["ranking"]


def refused_sheet(client: TestClient, body: dict[str, Any], *words: str) -> None:
    answer = scored(client, body, 422)
    assert answer["error"] == "inconsistent-state"
    assert [v["rule"] for v in answer["violations"]] == ["base.score.rounds"] * len(answer["violations"])
    text = " ".join(v["message"] for v in answer["violations"])
    for word in words:
        assert word in text, (word, text)


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_refuses_a_sheet_that_is_not_this_tables(client: TestClient) -> None:
    bodies, answers = evening(client)
    third = bodies[2]
    refused_sheet(client, {**third, "previous": [answers[1], answers[0]]}, "$.previous holds the rounds 2, 1")
    refused_sheet(client, {**third, "previous": [answers[0]]}, "the rounds 1, 2")
    with_score = copy.deepcopy(third)
    with_score["players"][1]["score"] = 12
    refused_sheet(client, with_score, "$.players[1].score is 12")
    renamed = copy.deepcopy(answers[0])
    renamed["players"][2]["name"] = "Dov"
    refused_sheet(client, {**third, "previous": [renamed, answers[1]]},
                  "$.previous[0].players are Ana, Ben, Dov")
    cooked = copy.deepcopy(answers[1])
    cooked["players"][0]["total"] += 10
    refused_sheet(client, {**third, "previous": [answers[0], cooked]}, "$.previous[1].players[0].total is",
                  "its lines add up to")
    reranked = copy.deepcopy(answers[0])
    reranked["ranking"][0]["score"] += 1
    refused_sheet(client, {**third, "previous": [reranked, answers[1]]}, "$.previous[0].ranking")


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_refuses_earlier_rounds_of_other_modules(client: TestClient) -> None:
    bodies, _ = evening(client)
    without_zoo = copy.deepcopy(bodies[0])
    without_zoo["modules"] = ["treasure"]
    for p in without_zoo["players"]:
        p["tally"].pop("zoo", None)
    other = scored(client, without_zoo)
    refused_sheet(client, {**bodies[1], "previous": [other]}, "$.previous[0].players[0].lines",
                  "were other modules on?")


def test_a_tally_out_of_its_bounds_is_a_400_naming_the_field(client: TestClient) -> None:
    body = {"round": 1, "players": [{"name": "Ana", "tally": {"buildings": {"pavilion": 14}}}]}
    answer = scored(client, body, 400)
    assert "$.players[0].tally.buildings.pavilion" in answer["message"]
    body = {"round": 1, "players": [{"name": "Ana", "tally": {"buildings": {"temple": 1}}}]}
    assert "temple" in scored(client, body, 400)["message"]


def test_an_impossible_tally_is_a_422_naming_the_field_and_the_limit(client: TestClient) -> None:
    body = {"round": 1, "modules": ["treasure"], "players": [
        {"name": "Ana", "tally": {"buildings": {"garden": 1}, "treasure": {"chests": {"garden": 2}}}},
        {"name": "Ben", "tally": {"buildings": {"pavilion": 8}, "zoo": {"animals": 1}}}]}
    answer = scored(client, body, 422)
    assert answer["violations"] == [{"rule": "inconsistent-state", "message":
                                     "$.players[1].tally.zoo: counts of the module 'zoo', which is not on "
                                     "(`modules`)"}]
    del body["players"][1]["tally"]["zoo"]
    text = " ".join(v["message"] for v in scored(client, body, 422)["violations"])
    assert "$.players[1].tally.buildings.pavilion = 8" in text and "only 7" in text
    assert "$.players[0].tally.treasure.chests.garden is 2" in text


def test_a_position_may_mix_tiles_and_tallies(client: TestClient) -> None:
    tiles = [{"x": 0, "y": 0, "tile": "fountain"}, {"x": 1, "y": 0, "tile": "garden-10-open"},
             {"x": 0, "y": 1, "tile": "tower-11-S"}]
    bens = [tiles[0], {"x": -1, "y": 0, "tile": "garden-11-open"}]
    layouts = {"round": 2, "players": [{"name": "Ana", "alhambra": tiles}, {"name": "Ben", "alhambra": bens}]}
    mixed = copy.deepcopy(layouts)
    mixed["players"][1] = {"name": "Ben", "tally": {"buildings": {"garden": 1}, "wall": 0}}
    assert scored(client, mixed) == scored(client, layouts)


def test_the_sheet_is_drawn_with_a_chart_of_three_rounds(client: TestClient) -> None:
    bodies, answers = evening(client)
    answer = client.post("/v1/render", json=bodies[2])
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    svg = answer.text
    assert 'data-rounds="1 2 3"' in svg
    for entry in answers[2]["ranking"]:
        running = [next(r["score"] for r in a["ranking"] if r["name"] == entry["name"]) for a in answers]
        assert f'data-player="{entry["name"]}" data-points="{" ".join(map(str, running))}"' in svg
    assert "buildings: pavilion 2, seraglio 1, garden 5, tower 3" in svg  # Ana's counts
    bad = {**bodies[2], "previous": [answers[1], answers[0]]}
    assert client.post("/v1/render", json=bad).status_code == 422
