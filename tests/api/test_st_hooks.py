"""The Schemathesis hooks reach the rules, and the tally counts what reached them (issue 24)."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from litestar.testing import TestClient
from schemathesis.generation import GenerationMode
from schemathesis.generation.meta import TestPhase

from service.api.app import create_app
from service.settings import Settings
from tests.support import st_hooks, st_tally


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(Settings())) as c:
        yield c


def _line(status: int, error: str | None = None, rules: list[str] | None = None) -> dict[str, Any]:
    return {"status": status, "error": error, "rules": rules or [], "phase": "fuzzing", "mode": "positive",
            "operation": "POST /v1/apply"}


def test_a_rule_verdict_is_an_answer_or_a_refusal_citing_a_rule() -> None:
    assert st_tally.verdict(_line(200))
    assert st_tally.verdict(_line(201))
    assert st_tally.verdict(_line(422, "illegal-action", ["base.turn.order"]))
    assert not st_tally.verdict(_line(422, "inconsistent-state", ["base.census"]))
    assert not st_tally.verdict(_line(422, "bad-seal", ["referee.seal"]))
    assert not st_tally.verdict(_line(422, "illegal-action", []))
    assert not st_tally.verdict(_line(400, "bad-request"))


def test_the_tally_fails_a_run_below_half() -> None:
    """The target: more than half of the fuzzing and stateful phases' schema-valid requests."""
    lines = [_line(200)] * 5 + [_line(422, "inconsistent-state", ["base.census"])] * 5
    lines += [{**line, "operation": op} for op in ("POST /v1/validate", "POST /v1/legal-actions",
                                                   "POST /v1/suggest")
              for line in [_line(200)] * 6 + [_line(422, "inconsistent-state", ["x"])] * 4]
    text, missed = st_tally.report(lines)
    assert missed == ["POST /v1/apply"] and "5/10" in text
    _, missed = st_tally.report([{**line, "phase": "coverage"} for line in lines])
    assert set(missed) == set(st_tally.TARGETED)  # the coverage phase's probes are not the target's
    valid = [{**line, "operation": op} for op in st_tally.TARGETED
             for line in [_line(200)] * 6 + [_line(422, "inconsistent-state", ["x"])] * 4]
    negative = [{**line, "mode": "negative", "status": 400, "error": "bad-request"} for line in valid] * 3
    text, missed = st_tally.report(valid + negative)
    assert missed == [] and " 6/40 " in text  # negative cases, refused 400 by design, are no target


def _case(path: str, phase: TestPhase, mode: GenerationMode) -> Any:
    meta = SimpleNamespace(generation=SimpleNamespace(mode=mode), phase=SimpleNamespace(name=phase))
    return SimpleNamespace(_meta=meta, operation=SimpleNamespace(path=path), body={"state": 1}, headers=None)


def test_the_hooks_leave_examples_coverage_and_negative_cases_alone() -> None:
    """The contract's examples are its own, the coverage phase probes the schema's edges, and a
    negative case must stay invalid: only positive fuzzing and stateful cases are changed."""
    assert st_hooks._changed(_case("/v1/apply", TestPhase.FUZZING, GenerationMode.POSITIVE))
    assert st_hooks._changed(_case("/v1/apply", TestPhase.STATEFUL, GenerationMode.POSITIVE))
    positive, negative = GenerationMode.POSITIVE, GenerationMode.NEGATIVE
    for phase, mode in [(TestPhase.EXAMPLES, positive), (TestPhase.COVERAGE, positive),
                        (TestPhase.FUZZING, negative), (TestPhase.STATEFUL, negative)]:
        case = _case("/v1/apply", phase, mode)
        st_hooks.before_call(None, case)
        assert case.body == {"state": 1}, (phase, mode)
        assert case.headers["Accept-Language"] in st_hooks.LANGUAGE_HEADERS  # every case asks one


def test_every_case_asks_for_a_language_drawn_from_itself() -> None:
    """Issue 29: the five languages, regional and weighted spellings and junk, each case's own
    (the same case asks the same again); a language Schemathesis drew is sometimes kept."""
    asked = []
    for n in range(200):
        case = _case("/v1/apply", TestPhase.FUZZING, GenerationMode.NEGATIVE)
        case.body = {"state": n}
        twin = _case("/v1/apply", TestPhase.FUZZING, GenerationMode.NEGATIVE)
        twin.body = {"state": n}
        st_hooks.with_language(case)
        st_hooks.with_language(twin)
        assert case.headers == twin.headers
        asked.append(case.headers["Accept-Language"])
    assert {"en", "de", "fr", "es", "ca", "xx", ""} <= set(asked)
    kept = 0
    for n in range(50):
        case = _case("/v1/apply", TestPhase.FUZZING, GenerationMode.POSITIVE)
        case.body, case.headers = {"state": n}, {"accept-language": "drawn by st"}
        st_hooks.with_language(case)
        assert len(case.headers) == 1
        kept += case.headers.get("accept-language") == "drawn by st"
    assert 0 < kept < 50


@pytest.mark.parametrize("path", ["/v1/validate", "/v1/apply", "/v1/legal-actions"])
def test_bodies_the_hooks_make_are_mostly_judged_by_the_rules(client: Any, path: str) -> None:
    """From junk a generator drew, the hooks make bodies of real states (and actions the state
    lists, some mutated): well above half are answered or refused citing a rule, and for
    validate and apply some of the mutated actions are illegal (refused with a rule id)."""
    rnd = random.Random(path)
    outcomes: Counter[str] = Counter()
    for _ in range(120):
        junk = {"state": {"junk": True}} | ({"action": {"type": "?"}} if path != "/v1/legal-actions" else {})
        body = st_hooks.state_body(path, junk, rnd)
        got = client.post(path, json=body)
        answer = got.json()
        refused = got.status_code >= 400
        line = _line(got.status_code, answer.get("error") if refused else None,
                     [v["rule"] for v in answer.get("violations", ())] if refused else [])
        outcomes["verdict" if st_tally.verdict(line) else "before the rules"] += 1
        if path == "/v1/validate" and not refused and not answer["valid"]:
            outcomes["illegal"] += 1
        if path == "/v1/apply" and got.status_code == 422 and answer["error"] == "illegal-action":
            outcomes["illegal"] += 1
    assert outcomes["verdict"] > 0.75 * 120, outcomes
    if path != "/v1/legal-actions":
        assert outcomes["illegal"] > 0.15 * 120, outcomes


def test_a_mutated_action_stays_an_action_of_the_game() -> None:
    """Another seat's name, another id of the same kind from the state, a coordinate or count
    moved: the type is kept, and the ids put in are the state's (the contract accepts them)."""
    sample = st_hooks.pool()[0]
    state = sample.state
    names = {p["name"] for p in state["players"]}
    rnd = random.Random(3)
    changed = 0
    for action in sample.actions * 10:
        mutated = st_hooks._mutated_action(action, state, rnd)
        assert mutated["type"] == action["type"] and mutated["player"] in names
        changed += mutated != action
    assert changed > 0.8 * len(sample.actions) * 10


def test_ids_have_kinds() -> None:
    assert st_hooks.kind("green-3-a") == st_hooks.kind("orange-9-c") == "card"
    assert st_hooks.kind("tower-9-NE") == st_hooks.kind("site-1-10-S") == "tile"
    assert st_hooks.kind("coin-blue-4") == "coin"
    assert st_hooks.kind("monkey") == "monkey"


def test_suggest_bodies_the_hooks_make_are_judged_and_short(client: Any) -> None:
    """POST /v1/suggest: real states, mostly a seat the game waits for (a move), else one with
    nothing to decide (422 citing base.turn.order): nearly all reach a verdict; the strong
    level's budget is a short one."""
    rnd = random.Random("suggest")
    outcomes: Counter[str] = Counter()
    for _ in range(60):
        body = st_hooks.state_body("/v1/suggest", {"state": {"junk": True}, "player": "?", "level": "?"}, rnd)
        assert body["level"] in ("random", "basic", "strong") and body["budget_ms"] in st_hooks.SHORT_BUDGETS
        got = client.post("/v1/suggest", json=body)
        answer = got.json()
        refused = got.status_code >= 400
        line = _line(got.status_code, answer.get("error") if refused else None,
                     [v["rule"] for v in answer.get("violations", ())] if refused else [])
        outcomes["verdict" if st_tally.verdict(line) else "before the rules"] += 1
        outcomes[str(got.status_code)] += 1
    assert outcomes["verdict"] > 0.75 * 60 and outcomes["200"] > 0.5 * 60, outcomes
