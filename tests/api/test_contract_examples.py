"""The contract's examples are the referee's own answers, and its links play a game (issue 24)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from litestar.testing import TestClient

from service.api import examples, openapi
from service.api.app import create_app
from service.settings import Settings

CONTRACT = json.loads(openapi.CONTRACT.read_bytes())


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, ops in CONTRACT["paths"].items() for method, op in ops.items()]


def _answer_examples(op: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """status -> the examples of that answer."""
    out = {}
    for status, response in op["responses"].items():
        for content in response.get("content", {}).values():
            if "examples" in content:
                out[status] = content["examples"]
    return out


@pytest.mark.parametrize(("path", "method", "op"), _operations(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_every_operation_shows_a_real_request_and_answer(path: str, method: str, op: dict[str, Any]) -> None:
    if "requestBody" in op:
        assert op["requestBody"]["content"]["application/json"]["examples"], path
    answers = _answer_examples(op)
    assert any(status.startswith("2") for status in answers), (path, list(answers))


def test_the_examples_show_what_issue_24_asks_for() -> None:
    """A created game of several modules, a mid-game state with its legal actions, an apply and
    its answer, a refusal, a tally and a sheet, a view, a sealed game."""
    paths = CONTRACT["paths"]

    def answers(path: str) -> dict[str, dict[str, Any]]:
        return _answer_examples(next(iter(paths[path].values())))

    game = answers("/v1/games")["201"]["threeModules"]["value"]
    assert len(game["state"]["modules"]) >= 3
    assert answers("/v1/games")["201"]["sealed"]["value"]["state"]["seal"]
    assert answers("/v1/legal-actions")["200"]["midGame"]["value"]["actions"]
    assert answers("/v1/apply")["200"]["legal"]["value"]["events"]
    refusal = answers("/v1/apply")["422"]["outOfTurn"]["value"]
    assert refusal["error"] == "illegal-action" and refusal["violations"][0]["rule"] == "base.turn.order"
    score = next(iter(paths["/v1/score"].values()))["requestBody"]["content"]["application/json"]["examples"]
    assert all("tally" in p for p in score["tally"]["value"]["players"])
    assert len(score["sheet"]["value"]["previous"]) == 2
    assert answers("/v1/view")["200"]["player"]["value"]["viewer"] == "Ben"
    assert answers("/v1/render")["200"]["sheet"]["value"].lstrip().startswith(("<svg", "<?xml"))


def _pairs() -> list[tuple[str, str, dict[str, Any], str, Any]]:
    """(path, example name, request, status, answer) of every example with both."""
    out = []
    for path, _method, op in _operations():
        media = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        requests = media.get("examples", {})
        for status, named in _answer_examples(op).items():
            for name, example in named.items():
                if name in requests:
                    out.append((path, name, requests[name]["value"], status, example["value"]))
    return out


def test_every_example_answer_is_what_the_referee_answers_over_http() -> None:
    """Sent to a referee (sealing off, no Redis), each example's request gets its example's
    answer, byte for byte in its JSON: the examples are the referee's, not written by hand."""
    pairs = _pairs()
    assert len(pairs) >= 12
    with TestClient(create_app(Settings())) as client:
        for path, name, request, status, answer in pairs:
            got = client.post(path, json=request)
            assert str(got.status_code) == status, (path, name, got.text[:300])
            if got.headers["content-type"].startswith("image/svg+xml"):
                assert got.text == answer, (path, name)
            else:
                assert got.json() == answer, (path, name)
        for path, method, op in _operations():
            if method == "get":
                got = client.get(path)
                example = _answer_examples(op)["200"]
                if path != "/v1/cache/stats":  # its counts move with the requests above
                    assert got.json() in [e["value"] for e in example.values()], path


def test_the_sealed_example_opens_under_the_example_key_only() -> None:
    """The sealed game's example was sealed by the referee under the published example key: a
    referee with that key plays it; one without it refuses the seal."""
    sealed = _answer_examples(CONTRACT["paths"]["/v1/games"]["post"])["201"]["sealed"]["value"]
    with TestClient(create_app(Settings(seal_keys=examples.EXAMPLE_KEY))) as client:
        listed = client.post("/v1/legal-actions", json={"state": sealed["state"], "limit": 1})
        assert listed.status_code == 200, listed.text
        action = listed.json()["actions"][0]
        applied = client.post("/v1/apply", json={"state": sealed["state"], "action": action})
        assert applied.status_code == 200, applied.text
    with TestClient(create_app(Settings())) as client:
        refused = client.post("/v1/legal-actions", json={"state": sealed["state"]})
        assert refused.status_code == 422 and refused.json()["error"] == "bad-seal"


def test_links_lead_from_a_new_game_and_from_listed_actions() -> None:
    """Issue 24: from /v1/games to validate, apply, legal-actions, view, render and score (the
    state it answers); from legal-actions to apply and validate (an action it lists)."""
    paths = CONTRACT["paths"]
    created = paths["/v1/games"]["post"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in created.values()} >= {
        "validateAction", "applyAction", "listLegalActions", "viewState", "renderPicture", "scorePosition"}
    assert all(link["requestBody"]["state"] == "$response.body#/state" for link in created.values())
    listed = paths["/v1/legal-actions"]["post"]["responses"]["200"]["links"]
    for target in ("applyAction", "validateAction"):
        link = next(v for v in listed.values() if v["operationId"] == target)
        assert link["requestBody"] == {"state": "$request.body#/state", "action": "$response.body#/actions/0"}


def test_examples_are_the_same_every_time() -> None:
    """Seeded games and fixed example seal ids: generating twice gives the same examples (the
    drift test can then compare bytes)."""
    first = examples.collect()
    examples.collect.cache_clear()
    assert examples.collect() == first


def test_no_example_moves_with_a_change_of_the_engine_that_changes_no_answer() -> None:
    """The cache's `engine_version` digests the engine's code: in an example it would make every
    change (a comment, a refactoring) a drift of the contract; it is shown as a placeholder."""
    from service.cache import ENGINE_VERSION

    assert ENGINE_VERSION not in openapi.CONTRACT.read_text("utf-8")
    assert ENGINE_VERSION.split("+")[1] not in openapi.CONTRACT.read_text("utf-8")
