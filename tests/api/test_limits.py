"""Limits on hostile input: every string, list and integer a client can send is bounded in the
committed contract (so the bounds are documented), the bodies nest only as deep as the schema
says, and a value past a bound is answered 400 naming its path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

CONTRACT = json.loads((Path(__file__).parents[2] / "openapi" / "openapi.json").read_text("utf-8"))
SCHEMAS = CONTRACT["components"]["schemas"]
MAX_DEPTH = 8  # the deepest nesting of any request body (the OpenAPI description says so): a
# score sheet's earlier rounds, previous[] -> players[] -> lines[] -> sets[]


def _walk(schema: Any, path: str, seen: frozenset[str], problems: set[str], depth: int) -> int:
    """Collect unbounded values under `schema`; return the nesting depth (objects and arrays)."""
    if isinstance(schema, bool):
        return depth
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        assert name not in seen, f"{path}: a recursive type ({name}) has no depth bound"
        return _walk(SCHEMAS[name], name, seen | {name}, problems, depth)
    deepest = depth
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, ()):
            deepest = max(deepest, _walk(sub, path, seen, problems, depth))
    kind = schema.get("type")
    if kind == "string" and not {"maxLength", "enum", "const"} & schema.keys():
        problems.add(f"{path}: a string without maxLength")
    if kind == "integer" and not {"minimum", "maximum"} <= schema.keys():
        problems.add(f"{path}: an integer without minimum and maximum")
    if kind == "array":
        if "maxItems" not in schema:
            problems.add(f"{path}: an array without maxItems")
        for sub in [schema.get("items", False), *schema.get("prefixItems", ())]:
            deepest = max(deepest, _walk(sub, path + "[]", seen, problems, depth + 1))
    for name, sub in schema.get("properties", {}).items():
        deepest = max(deepest, _walk(sub, f"{path}.{name}", seen, problems, depth + 1))
    return deepest


def _request_bodies() -> list[tuple[str, Any]]:
    return [(f"{method.upper()} {path}", media["schema"])
            for path, operations in CONTRACT["paths"].items()
            for method, operation in operations.items()
            for media in operation.get("requestBody", {}).get("content", {}).values()]


def test_every_value_a_client_sends_is_bounded_in_the_contract() -> None:
    problems: set[str] = set()
    for operation, schema in _request_bodies():
        _walk(schema, operation, frozenset(), problems, 0)
    assert not problems, "\n".join(sorted(problems))


def test_bodies_nest_no_deeper_than_documented() -> None:
    deepest = max(_walk(schema, op, frozenset(), set(), 0) for op, schema in _request_bodies())
    assert deepest <= MAX_DEPTH
    assert f"at most {MAX_DEPTH} levels" in CONTRACT["info"]["description"]


def test_values_past_their_bounds_are_400_naming_the_path(client: TestClient, state: Any) -> None:
    action = {"type": "take-money", "player": "Ana", "cards": ["blue-1-a"]}
    cases = [
        ({**state, "players": [{**state["players"][0], "score": 10**7}, *state["players"][1:]]},
         "$.state.players[0].score"),
        ({**state, "discard": ["x" * 65]}, "$.state.discard[0]"),
        ({**state, "discard": ["blue-1-a"] * 257}, "$.state.discard"),
        ({**state, "turn": {"player": 2**63}}, "$.state.turn.player"),
    ]
    for bad, where in cases:
        answer = client.post("/v1/validate", json={"state": bad, "action": action})
        assert answer.status_code == 400, where
        assert answer.json()["error"] == "bad-request" and where in answer.json()["message"], answer.text


def test_deep_nesting_is_400_not_a_crash(client: TestClient) -> None:
    for body in ("[" * 100_000 + "]" * 100_000, '{"state":' * 20_000 + "1" + "}" * 20_000):
        answer = client.post("/v1/validate", content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400 and answer.json()["error"] == "bad-request"


ENDPOINTS = ["/v1/games", "/v1/validate", "/v1/apply", "/v1/legal-actions", "/v1/score", "/v1/view",
             "/v1/suggest", "/v1/render", "/v1/echo"]


def test_a_body_1000_levels_deep_is_400_on_every_endpoint(client: TestClient, state: Any) -> None:
    """Issue 13 item 5: 1,000 levels gave 500 on score, render and legal-actions (RecursionError
    in a decoder); every endpoint refuses it before decoding, naming the limit."""
    deep_state = '{"state":' * 1000 + "1" + "}" * 1000
    deep_limit = json.dumps({"state": state, "limit": 5})[:-1] + ', "x": ' + "[" * 1000 + "]" * 1000 + "}"
    for body in ("[" * 1000 + "]" * 1000, deep_state, deep_limit):
        for path in ENDPOINTS:
            answer = client.post(path, content=body, headers={"content-type": "application/json"})
            assert answer.status_code == 400, (path, answer.status_code, answer.text[:200])
            assert answer.json()["error"] == "bad-request"
            assert f"deeper than {MAX_DEPTH} levels" in answer.json()["message"], (path, answer.text)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


TRICKY = st.text(alphabet='[]{}"\\ab', max_size=6)
DOCUMENTS = st.recursive(
    st.none() | st.integers() | TRICKY,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TRICKY, inner, max_size=3), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(document=DOCUMENTS, spaced=st.booleans())
def test_the_depth_found_before_decoding_is_the_depth_of_the_document(document: Any, spaced: bool) -> None:
    """Strings full of brackets, quotes and backslashes do not fool the scan: a document is
    refused exactly when it nests deeper than the limit."""
    from service.api.reading import MAX_DEPTH as REFUSED_PAST
    from service.api.reading import nesting_problem

    assert REFUSED_PAST == MAX_DEPTH
    raw = json.dumps(document, indent=1 if spaced else None).encode()
    for limit in (2, 4, MAX_DEPTH):
        assert (nesting_problem(raw, limit) is not None) == (_depth(document) > limit), (raw, limit)


def test_a_truncated_body_is_told_apart_from_a_deep_one(client: TestClient) -> None:
    answer = client.post("/v1/validate", content='{"state": {"players": [{"name": ',
                         headers={"content-type": "application/json"})
    assert answer.status_code == 400 and "deeper" not in answer.json()["message"]


def test_a_deep_value_before_an_actions_type_is_400_naming_the_limit(client: TestClient, state: Any) -> None:
    """The one place a strict decoder recurses into a value: to find an action's `type`, msgspec
    skips the fields before it, and stops at the recursion limit (RecursionError). The nesting is
    measured once a decode fails, so this is the 400 naming the limit, not a 500 nor another
    message; the same from the CLI's decoding."""
    from service.api import endpoints, refusals

    action = '{"zz": ' + "[" * 5000 + "]" * 5000 + ', "type": "take-money", "player": "Ana", "cards": []}'
    body = json.dumps({"state": state})[:-1] + ', "action": ' + action + "}"
    for path in ("/v1/validate", "/v1/apply"):
        answer = client.post(path, content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400, (path, answer.text[:200])
        assert f"deeper than {MAX_DEPTH} levels" in answer.json()["message"], answer.text[:200]
    try:
        endpoints.handle("validate", body.encode())
    except refusals.RequestError as e:
        assert e.status == 400 and f"deeper than {MAX_DEPTH} levels" in e.message
    else:
        raise AssertionError("a body 5,000 levels deep was decoded")


def test_the_nesting_is_measured_only_for_a_body_that_does_not_decode(
        state: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A body that decodes fits the schema (at most MAX_DEPTH levels: the walk above), so the
    scan is not run for it; a body that does not decode is scanned before its 400 is chosen."""
    from service.api import reading
    from service.api.bodies import Move

    scanned: list[bytes] = []
    monkeypatch.setattr(reading, "nesting_problem", lambda raw, limit=MAX_DEPTH: scanned.append(raw))
    action = {"type": "take-money", "player": "Ana", "cards": []}
    good = json.dumps({"state": state, "action": action}).encode()
    assert isinstance(reading.decode(Move, good), Move) and scanned == []
    bad = good.replace(b'"take-money"', b'"take-money", "zz": 1')
    with pytest.raises(reading.RequestError, match="unknown field"):
        reading.decode(Move, bad)
    assert scanned == [bad]


# --- zoo: a tile holds as many animals as are in play (issue 22 item 1) -------------------------

def _nine_on_a_garden() -> Any:
    """Ana's actions are over and she moves her animals: eight stand on the garden at (1, 0),
    a ninth next to it on the open arcades at (2, 0), and a card worth 1 lets it step west."""
    from tests.modules.test_zoo import ROW, moving

    eight = ("monkey",) * 3 + ("pigeon",) * 3 + ("cheetah",) * 2
    return moving(ROW, ("green-1-a",), {(1, 0): eight, (2, 0): ("camel",)})


def _json(value: Any) -> Any:
    import msgspec

    return msgspec.json.decode(msgspec.json.encode(value))


@pytest.mark.rule("zoo.move")
def test_zoo_move_allows_a_ninth_animal_onto_a_garden_read_back_everywhere(client: TestClient) -> None:
    """zoo.move, seeds 000.34-000.40: the animals move "from tile to tile", the steps "may be used
    for one animal only or can be split between several animals", and no sentence limits the
    animals on one tile. A legal move stacking nine on a garden is valid, applied, and the state
    it hands out is read back by every endpoint (it was a 400, `Expected array of length <= 8`);
    /v1/score scores the same position."""
    move = {"state": _json(_nine_on_a_garden()),
            "action": {"type": "move-animals", "player": "Ana", "card": "green-1-a",
                       "steps": [{"kind": "camel", "x": 2, "y": 0, "side": "W"}]}}
    answer = client.post("/v1/validate", json=move)
    assert answer.status_code == 200 and answer.json() == {"valid": True, "violations": []}, answer.text
    answer = client.post("/v1/apply", json=move)
    assert answer.status_code == 200, answer.text
    after = answer.json()["state"]
    garden = next(t for t in after["players"][0]["alhambra"] if (t["x"], t["y"]) == (1, 0))
    assert len(garden["animals"]) == 9
    for path, body in (("/v1/score", {"state": after, "round": 1}),
                       ("/v1/view", {"state": after, "player": "Ana"}),
                       ("/v1/legal-actions", {"state": after, "limit": 3})):
        answer = client.post(path, json=body)
        assert answer.status_code == 200, (path, answer.text)
    position = {"round": 1, "modules": ["zoo"], "players": [
        {"name": "Ana", "alhambra": after["players"][0]["alhambra"]},
        {"name": "Ben", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},
        {"name": "Cyd", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]}]}  # base.setup.players
    answer = client.post("/v1/score", json=position)
    assert answer.status_code == 200, answer.text


@pytest.mark.rule("zoo.setup")
def test_zoo_setup_refuses_more_animals_on_one_tile_than_are_in_play(client: TestClient) -> None:
    """zoo.setup, seeds 000.29-000.30 ("the 24 animal tiles", "Two random tiles are placed back in
    the box unseen"):
    22 are in play, so 23 on one tile cannot occur; the contract refuses it (400 naming the
    field), in a state and in a scoring position. 22 on one garden are read (the position is
    scored)."""
    from service.engine.catalogue import load_data

    zoo = load_data("zoo")
    kinds = [kind for kind in zoo["kinds"] for _ in range(zoo["per_kind"])]
    in_play = len(kinds) - zoo["removed_unseen_at_setup"]
    assert (len(kinds), in_play) == (24, 22)
    state = _json(_nine_on_a_garden())
    ana = state["players"][0]
    garden = next(i for i, t in enumerate(ana["alhambra"]) if (t["x"], t["y"]) == (1, 0))
    for n, status in ((in_play, 200), (in_play + 1, 400)):
        tiles = [{**t, "animals": kinds[:n] if i == garden else []} for i, t in enumerate(ana["alhambra"])]
        position = {"round": 1, "modules": ["zoo"], "check_layout": False, "players": [
            {"name": "Ana", "alhambra": tiles},
            {"name": "Ben", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},
            {"name": "Cyd", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]}]}
        answer = client.post("/v1/score", json=position)
        assert answer.status_code == status, (n, answer.text)
    assert "$.players[0].alhambra[1].animals" in answer.json()["message"], answer.text
    assert f"length <= {in_play}" in answer.json()["message"], answer.text
    crowded = {**state, "players": [{**ana, "alhambra": tiles}, *state["players"][1:]]}
    answer = client.post("/v1/validate", json={"state": crowded, "action": {
        "type": "move-animals", "player": "Ana"}})
    assert answer.status_code == 400, answer.text
    assert "$.state.players[0].alhambra[1].animals" in answer.json()["message"], answer.text
