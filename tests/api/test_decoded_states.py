"""The app's memo of states (`service/api/memo.py`, the app's `state.memo`): a body whose `state` bytes were
decoded or handed out lately takes that state instead of decoding it again. It is a memo of a
pure function (equal bytes decode to equal states), so every answer must be the one a referee
without it gives: byte for byte, refusals and 400s included, whatever the rest of the body holds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.api import reading
from service.api.app import create_app
from service.api.bodies import Move
from service.api.memo import States


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as c:
        yield c


def _fresh(client: TestClient | None = None) -> States:
    """The memo emptied: the app's (the client's), or a new one."""
    if client is None:
        return States()
    memo: States = client.app.state.memo
    memo.clear()
    return memo


def _digest_of(raw: bytes) -> bytes:
    return States.digest(raw)


def _answers(client: TestClient, path: str, body: bytes,
             prime: tuple[bytes, ...] = ()) -> list[tuple[int, bytes]]:
    """The answer without the memo (emptied), then twice with it, all computed (no-cache): the
    state's bytes are in it by then, from the first answer or from `prime` (validate bodies with
    the same state's bytes, sent after the first answer)."""
    headers = {"content-type": "application/json", "cache-control": "no-cache"}
    _fresh(client)
    answers = []
    for n in range(3):
        answer = client.post(path, content=body, headers=headers)
        answers.append((answer.status_code, answer.content))
        for primer in prime if n == 0 else ():
            assert client.post("/v1/validate", content=primer, headers=headers).status_code == 200
    return answers


def _move(state: Any, action: Any) -> bytes:
    return json.dumps({"state": state, "action": action}, separators=(",", ":")).encode()


TAKE = {"type": "take-money", "player": "Ana", "cards": []}
TAKE_BYTES = json.dumps(TAKE).encode()


def _legal(client: TestClient, state: Any) -> Any:
    answer = client.post("/v1/legal-actions", json={"state": state, "limit": 1})
    return answer.json()["actions"][0]


def test_a_state_sent_again_gets_the_same_answers(client: TestClient, state: Any) -> None:
    legal = _legal(client, state)
    cases = [
        ("/v1/validate", _move(state, TAKE)),
        ("/v1/validate", _move(state, legal)),
        ("/v1/apply", _move(state, legal)),
        ("/v1/legal-actions", json.dumps({"state": state, "limit": 7}).encode()),
        ("/v1/view", json.dumps({"state": state, "player": "Ben"}).encode()),
    ]
    for path, body in cases:
        answers = _answers(client, path, body)
        assert answers[0] == answers[1] == answers[2], path
        assert answers[0][0] == 200, (path, answers[0])
    assert client.app.state.memo.get(_digest_of(json.dumps(state).encode())) is not None


def test_the_rest_of_the_body_is_decoded_as_strictly(client: TestClient, state: Any) -> None:
    """With the state's bytes in the memo, an unknown field beside them, a bad action, a value
    past its bound, a float where an integer goes (3.0 passes, 3.5 does not) get the answer
    they get without it (the second and third answers against the first)."""
    raw_state = json.dumps(state)
    cases = [
        ("/v1/validate", b'{"state":%s,"action":%s,"zz":1}' % (raw_state.encode(), TAKE_BYTES)),
        ("/v1/validate", _move(state, {**TAKE, "type": "no-such-action"})),
        ("/v1/apply", _move(state, {**TAKE, "cards": "blue-1-a"})),
        ("/v1/legal-actions", json.dumps({"state": state, "limit": 10**6}).encode()),
        ("/v1/legal-actions", json.dumps({"state": state, "limit": 3.0}).encode()),
        ("/v1/legal-actions", json.dumps({"state": state, "limit": 3.5}).encode()),
        ("/v1/view", json.dumps({"state": state, "player": ""}).encode()),
        ("/v1/view", json.dumps({"state": state, "player": "Nobody"}).encode()),
    ]
    prime = (_move(state, TAKE), b'{"state": %s, "action": %s}' % (raw_state.encode(), TAKE_BYTES))
    statuses = []
    for path, body in cases:
        answers = _answers(client, path, body, prime)
        assert answers[0] == answers[1] == answers[2], (path, body[-80:], answers)
        statuses.append(answers[0][0])
    assert statuses == [400, 400, 400, 400, 200, 400, 400, 422], statuses


def test_a_state_written_twice_in_one_body_is_the_last_both_ways(state: Any) -> None:
    """A body naming `state` twice: the whole decode takes the last one (msgspec keeps the last
    value of a repeated field, having decoded each); such a body goes the whole way even with the
    last state's bytes in the memo (issue 23 item 7), so the memo never answers for it."""
    other = {**state, "players": [{**state["players"][0], "score": 7}, *state["players"][1:]]}
    body = b'{"state":%s,"action":%s,"state":%s}' % (
        json.dumps(state).encode(), json.dumps(TAKE).encode(), json.dumps(other).encode())
    memo = _fresh()
    compact = json.dumps(other, separators=(",", ":")).encode()
    reading.decode(Move, _move(other, TAKE), memo)  # the last state's bytes in the memo
    remembered = memo.get(_digest_of(compact)).state  # type: ignore[union-attr]
    whole = reading.decode(Move, body.replace(json.dumps(other).encode(), compact), memo)
    assert remembered is not None and whole.state == remembered and whole.state is not remembered
    assert whole.state.players[0].score == 7


def test_a_junk_state_before_the_real_one_is_refused_whatever_the_memo_holds(
        client: TestClient, state: Any) -> None:
    """Issue 23 item 7: `state` twice, `{"junk": [1]}` and then a real state, is a 400 without
    the memo (the whole decode decodes both); it stays a 400 once a validate of the real state's
    bytes has put them in the memo (it was a 200: the memo's way saw only the last)."""
    raw_state = json.dumps(state).encode()
    body = b'{"state":{"junk":[1]},"state":%s,"action":%s}' % (raw_state, TAKE_BYTES)
    prime = b'{"state":%s,"action":%s}' % (raw_state, TAKE_BYTES)
    answers = _answers(client, "/v1/validate", body, prime=(prime,))
    assert client.app.state.memo.get(_digest_of(raw_state)) is not None
    assert answers[0] == answers[1] == answers[2] and answers[0][0] == 400, answers


def test_the_memo_is_of_bytes_not_of_content(state: Any) -> None:
    """The same state written otherwise (spaces) is decoded anew, to an equal state; the digest
    a state from the memo is known by is that of the bytes it came from."""
    memo = _fresh()
    compact, spaced = json.dumps(state, separators=(",", ":")), json.dumps(state, indent=1)
    first, first_seen = reading.decoded(Move, _move(state, TAKE), memo)
    spaced_body = b'{"state": %s, "action": %s}' % (spaced.encode(), TAKE_BYTES)
    second, second_seen = reading.decoded(Move, spaced_body, memo)
    assert first.state == second.state and first.state is not second.state
    assert first_seen is not None and first_seen.state is first.state
    assert second_seen is not None and second_seen.state is second.state
    assert first_seen.digest == _digest_of(compact.encode())
    assert second_seen.digest == _digest_of(spaced.encode())
    other = msgspec.json.decode(compact, type=type(first.state))
    assert all(memo.get(_digest_of(raw.encode())).state is not other  # type: ignore[union-attr]
               for raw in (compact, spaced))


def test_an_applied_state_handed_out_comes_back_from_the_memo(client: TestClient, state: Any) -> None:
    """The state an apply hands out is in the memo under the answer's own bytes: the client's
    next request with it takes that very state, and its answers are those of a decoded one."""
    _fresh(client)
    answer = client.post("/v1/apply", content=_move(state, _legal(client, state)),
                         headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text
    new_state = msgspec.json.decode(answer.content, type=dict[str, msgspec.Raw])["state"]
    assert client.app.state.memo.get(_digest_of(bytes(new_state))) is not None
    legal = b'{"state":%s,"limit":3}' % bytes(new_state)
    answers = _answers(client, "/v1/legal-actions", legal)
    assert answers[0] == answers[1] and answers[0][0] == 200
