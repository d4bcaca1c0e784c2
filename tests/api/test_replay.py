"""Issue 27: game records replayed by POST /v1/replay.

- records of complete games of every module alone and all eleven together (2-6 players) replay to
  the states the games handed out, byte for byte, sealed (the record carrying the first state's
  seal) and unsealed, at every step a viewer may stop at;
- corrupted records (an action changed, dropped, swapped with the next, the seed changed, a result
  that disagrees) answer the first illegal step, found here by judging each action in turn, or
  the disagreeing result;
- the editions policy, the seal's check, `player`'s view, the bounds and CALLERS=players.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.engine import EDITION, MAX_RECORD_ACTIONS, GameState
from service.engine.module import registered
from service.engine.view import view
from service.i18n import encode
from service.seal import Sealing, new_key, parse_keys
from service.settings import Settings
from tests.support.fixtures import referee
from tests.support.play import NAMES, first_illegal, preferred_action

KEY = new_key("records")
SEALING = Sealing(parse_keys(KEY))
MODULES = sorted({m.id for m in registered()} - {"base", "dirk"})
GAMES = [((m,), 2 + i % 5) for i, m in enumerate(MODULES)] + [(tuple(MODULES), 6), (tuple(MODULES), 2)]
_ENCODE = encode  # msgspec's, with messages (Text) worded as the edge does: English


@pytest.fixture(scope="module")
def unsealed() -> Iterator[TestClient[Any]]:
    with referee() as client:
        yield client


@pytest.fixture(scope="module")
def sealed() -> Iterator[TestClient[Any]]:
    """A sealing referee of a trusted backend, with no Redis (so no futures recorded)."""
    with referee(seal_keys=KEY) as client:
        yield client


@pytest.fixture(scope="module")
def players() -> Iterator[TestClient[Any]]:
    """A sealing referee that players call themselves (CALLERS=players): seat tokens needed."""
    with referee(seal_keys=KEY, callers="players") as client:
        yield client


def _whole(state: dict[str, Any]) -> GameState:
    decoded = msgspec.convert(state, GameState)
    return SEALING.open(decoded).state if decoded.seal is not None else decoded


def _played(client: TestClient[Any], modules: tuple[str, ...], players: int, seed: int) -> tuple[
        dict[str, Any], list[dict[str, Any]]]:
    """A complete game through the referee: its record (as a client builds it) and every state
    the referee handed out, the first one's included."""
    setup = {"players": list(NAMES[:players]), "modules": list(modules), "seed": seed}
    created = client.post("/v1/games", json=setup)
    assert created.status_code == 201, created.text
    body = created.json()
    tokens = {s["player"]: s["token"] for s in body["seat_tokens"]}
    states, actions = [body["state"]], []
    rnd = random.Random(seed)
    over = False
    while not over:
        action = preferred_action(_whole(states[-1]), rnd)
        wire = json.loads(_ENCODE(action))
        headers = {"authorization": f"Bearer {tokens[action.player]}"} if tokens else {}
        applied = client.post("/v1/apply", json={"state": states[-1], "action": wire}, headers=headers)
        assert applied.status_code == 200, applied.text
        answer = applied.json()
        states.append(answer["state"])
        actions.append(wire)
        over = answer["game_over"]
    assert len(actions) <= MAX_RECORD_ACTIONS
    record = {"format": "alhambra-record/1", "edition": EDITION, "setup": setup, "actions": actions,
              "result": states[-1]["ranking"]}
    if states[0].get("seal"):
        record["seal"] = states[0]["seal"]
    return record, states


def _replay(client: TestClient[Any], record: dict[str, Any], **query: Any) -> Any:
    return client.post("/v1/replay", json={"record": record, **query})


@pytest.mark.parametrize("mode", ["unsealed", "sealed"])
@pytest.mark.parametrize(("modules", "players"), GAMES, ids=[f"{'+'.join(m) if len(m) < 3 else 'all'}-{n}p"
                                                             for m, n in GAMES])
def test_a_records_replay_gives_the_states_the_game_handed_out_byte_for_byte(
        modules: tuple[str, ...], players: int, mode: str, request: pytest.FixtureRequest) -> None:
    client = request.getfixturevalue(mode)
    record, states = _played(client, modules, players, seed=len(modules) * 7 + players)
    whole = _replay(client, record)
    assert whole.status_code == 200, whole.text
    answer = whole.json()
    assert answer["actions"] == len(record["actions"]) and answer["game_over"] is True
    assert _ENCODE(answer["state"]) == _ENCODE(states[-1])
    assert answer["result"] == {"verdict": "agrees", "differences": []}
    assert answer["ranking"] == states[-1]["ranking"] and answer["to_act"]["players"] == []
    assert [b["round"] for b in answer["scoring"]] == [1, 2, 3]
    # A viewer stepping through: every stop gives the state the game had after that many actions.
    for k in sorted({0, 1, len(states) // 2, len(states) - 2, *random.Random(players).sample(
            range(len(states)), 3)}):
        step = _replay(client, record, upto=k).json()
        assert step["actions"] == k and _ENCODE(step["state"]) == _ENCODE(states[k]), k
        assert step["result"]["verdict"] == ("not-reached" if k < len(record["actions"]) else "agrees")


@pytest.fixture(scope="module")
def game(unsealed: TestClient[Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return _played(unsealed, ("zoo", "treasure", "craftsmen"), 3, seed=11)


def _corruptions(record: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    actions = record["actions"]
    for k in (0, 5, len(actions) // 2, len(actions) - 1):
        changed = json.loads(json.dumps(actions))
        seat = record["setup"]["players"].index(changed[k]["player"])
        changed[k]["player"] = record["setup"]["players"][(seat + 1) % 3]
        yield f"changed-{k}", {**record, "actions": changed}
        yield f"dropped-{k}", {**record, "actions": actions[:k] + actions[k + 1:]}
        if k + 1 < len(actions):
            swapped = [*actions[:k], actions[k + 1], actions[k], *actions[k + 2:]]
            yield f"swapped-{k}", {**record, "actions": swapped}
    yield "seed", {**record, "setup": {**record["setup"], "seed": record["setup"]["seed"] + 1}}


def test_corrupted_records_answer_their_first_illegal_step_exactly(
        unsealed: TestClient[Any], game: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    record, _ = game
    seen = 0
    for name, corrupted in _corruptions(record):
        expected = first_illegal(corrupted)
        answer = _replay(unsealed, corrupted)
        if expected is None:  # every action still legal: then the game or its result differs
            assert answer.status_code == 200, (name, answer.text)
            assert answer.json()["result"]["verdict"] == "disagrees", name
            continue
        index, before, rules = expected
        assert answer.status_code == 422, (name, answer.text)
        body = answer.json()
        assert body["error"] == "illegal-action" and body["index"] == index, (name, body["index"], index)
        assert [v["rule"] for v in body["violations"]] == rules, name
        assert body["action"] == corrupted["actions"][index], name
        assert _ENCODE(body["state"]) == _ENCODE(before), name
        assert f"action {index} of the record is illegal" in body["message"], name
        seen += 1
    assert seen >= 8


def test_a_result_that_disagrees_is_named_player_by_player(
        unsealed: TestClient[Any], game: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    record, _ = game
    first, second = record["result"][0], record["result"][1]
    wrong = [{**first, "score": first["score"] + 1}, *record["result"][1:]]
    answer = _replay(unsealed, {**record, "result": wrong}).json()
    assert answer["result"]["verdict"] == "disagrees"
    assert answer["result"]["differences"] == [
        f"{first['name']}: the record says place {first['place']} with {first['score'] + 1} points; "
        f"the replay, place {first['place']} with {first['score']}"]
    swapped = [{**second, "place": first["place"]}, {**first, "place": second["place"]},
               *record["result"][2:]]
    assert _replay(unsealed, {**record, "result": swapped}).json()["result"]["verdict"] == "disagrees"
    unfinished = {**record, "actions": record["actions"][:-1]}
    answer = _replay(unsealed, unfinished).json()
    assert answer["game_over"] is False and answer["result"]["verdict"] == "disagrees"
    assert "not over" in answer["result"]["differences"][0]
    assert _replay(unsealed, {**record, "result": None}).json()["result"]["verdict"] == "absent"
    # A name twice (the adversarial reading: a wrong first entry hidden by a right second one).
    twice = [{**second, "place": 1, "score": 999}, *record["result"]]
    answer = _replay(unsealed, {**record, "result": twice}).json()["result"]
    assert answer["verdict"] == "disagrees"
    assert f"{second['name']} is named 2 times in the record's result" in answer["differences"]
    # Names compare as the table keeps them (the Nickname profile: "Ana " is "Ana").
    spaced = [{**entry, "name": entry["name"] + " "} for entry in record["result"]]
    assert _replay(unsealed, {**record, "result": spaced}).json()["result"]["verdict"] == "agrees"


def test_a_players_replay_answers_the_view_not_the_state(
        unsealed: TestClient[Any], game: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    record, states = game
    answer = _replay(unsealed, record, upto=20, player="Ben").json()
    assert answer["state"] is None
    expected = view(_whole(states[20]), "Ben")
    assert _ENCODE(answer["view"]) == _ENCODE(expected)
    refused = _replay(unsealed, record, upto=20, player="Zed")
    assert refused.status_code == 422 and refused.json()["error"] == "unknown-player"
    # No spoilers in a refusal either: the state before an illegal action is the player's view.
    dropped = {**record, "actions": record["actions"][:5] + record["actions"][6:]}
    expected = first_illegal(dropped)
    assert expected is not None
    body = _replay(unsealed, dropped, player="Ben").json()
    assert body["index"] == expected[0] and body["state"] is None
    assert _ENCODE(body["view"]) == _ENCODE(view(expected[1], "Ben"))


def test_the_editions_policy_answers_a_record_of_another_edition(
        unsealed: TestClient[Any], game: tuple[dict[str, Any], list[dict[str, Any]]]) -> None:
    """docs/editions.md: a record of an older edition replays when no rule that changed since
    applies to its game; else 422 outdated-state (referee.edition), as a state of it would."""
    record, _ = game
    older = _replay(unsealed, {**record, "edition": 1})  # craftsmen's rules changed in edition 2
    assert older.status_code == 422 and older.json()["error"] == "outdated-state"
    assert [v["rule"] for v in older.json()["violations"]] == ["referee.edition"]
    assert "craftsmen.use-one" in older.json()["message"]
    base = {"format": "alhambra-record/1", "edition": 1,
            "setup": {"players": ["Ana", "Ben", "Cyd"], "seed": 2}, "actions": []}
    assert _replay(unsealed, base).status_code == 200  # nothing of the base game changed
    newer = _replay(unsealed, {**record, "edition": EDITION + 1})  # as a state of it: 400
    assert newer.status_code == 400 and "$.record.edition" in newer.json()["message"]


def test_a_seal_names_the_game_and_must_be_of_its_first_state(
        sealed: TestClient[Any], unsealed: TestClient[Any]) -> None:
    record, states = _played(sealed, ("walls",), 3, seed=5)
    other, _ = _played(sealed, ("walls",), 3, seed=6)
    wrong = _replay(sealed, {**record, "seal": other["seal"]})
    assert wrong.status_code == 422 and wrong.json()["error"] == "bad-seal"
    forged = _replay(sealed, {**record, "seal": record["seal"][:-8] + "AAAAAAAA"})
    assert forged.status_code == 422 and forged.json()["error"] == "bad-seal"
    for seal in (other["seal"], record["seal"][:-8] + "AAAAAAAA", states[3]["seal"]):  # with `player` too
        seen = _replay(sealed, {**record, "seal": seal}, player="Ana")
        assert seen.status_code == 422 and seen.json()["error"] == "bad-seal", seen.text
    # Without its seal the record replays as a game of its own: the same whole state, another seal.
    alone = _replay(sealed, {k: v for k, v in record.items() if k != "seal"}).json()
    assert alone["state"]["seal"] != states[-1]["seal"]
    assert _ENCODE(_whole(alone["state"])) == _ENCODE(_whole(states[-1]))
    assert _ENCODE(_replay(sealed, {k: v for k, v in record.items() if k != "seal"}).json()) == _ENCODE(alone)
    # A referee that does not seal replays it unsealed, the seal unread.
    plain = _replay(unsealed, record).json()
    assert _ENCODE(plain["state"]) == _ENCODE(_whole(states[-1]))


def test_under_callers_players_a_replay_needs_no_seat_token_and_mints_no_state_of_the_game(
        players: TestClient[Any]) -> None:
    """A record holds its seed, so it implies every hidden card and tile: the replay answers
    nothing the record does not, and asks no token (README: records are the backend's). But its
    states are never the real game's, even with the game's seal: the adversarial reading of
    issue 27 had Ana replay a record of Ben's first move otherwise than he made it, then apply
    to the minted state with her own token (acting past Ben's turn, a second future of s0)."""
    record, states = _played(players, ("thieves",), 4, seed=3)
    answer = players.post("/v1/replay", json={"record": record, "upto": 7, "player": "Cyd"})
    assert answer.status_code == 200 and answer.json()["view"]["viewer"] == "Cyd"
    created = players.post("/v1/games", json=record["setup"]).json()
    assert created["state"]["seal"] != states[0]["seal"]  # the same setup, another game
    tokens = {s["player"]: s["token"] for s in created["seat_tokens"]}
    first = _whole(created["state"])
    mover = first.players[first.turn.player].name
    other = preferred_action(first, random.Random(9))
    forged = {**record, "seal": created["state"]["seal"], "actions": [json.loads(_ENCODE(other))]}
    minted = _replay(players, forged).json()["state"]
    assert minted["seal"] != states[1]["seal"]
    someone = next(name for name in tokens if name != mover)
    after = first.players[(first.turn.player + 1) % 4].name
    for name in {someone, after}:
        query = {"state": minted, "player": name, "limit": 5}
        listed = players.post("/v1/legal-actions", json=query,
                              headers={"authorization": f"Bearer {tokens[name]}"})
        assert listed.status_code == 403 and listed.json()["error"] == "forbidden", listed.text


def test_a_record_is_bounded_by_its_actions_and_its_own_body_limit(unsealed: TestClient[Any]) -> None:
    take = {"type": "end-turn", "player": "Ana"}
    base = {"format": "alhambra-record/1", "edition": EDITION, "setup": {"players": ["Ana", "Ben"]}}
    too_many = _replay(unsealed, {**base, "actions": [take] * (MAX_RECORD_ACTIONS + 1)})
    assert too_many.status_code == 400 and "$.record.actions" in too_many.json()["message"]
    # Past MAX_BODY_BYTES (256 KiB) yet within MAX_RECORD_BYTES (2 MiB): read, and judged.
    long = _replay(unsealed, {**base, "actions": [{**take, "player": "A" * 60}] * MAX_RECORD_ACTIONS})
    assert long.status_code == 422 and long.json()["index"] == 0
    assert unsealed.post("/v1/validate", content=b" " * (300 * 1024),
                         headers={"content-type": "application/json"}).status_code == 413
    huge = unsealed.post("/v1/replay", content=b" " * (2 * 1024 * 1024 + 1),
                         headers={"content-type": "application/json"})
    assert huge.status_code == 413 and "MAX_RECORD_BYTES" in huge.json()["message"]


def test_where_futures_are_recorded_a_replay_mints_no_state_of_the_real_game(
        sealed: TestClient[Any]) -> None:
    """With one future per state recorded (ONE_FUTURE with a Redis), a replay's states are a
    game of the record's own even for a trusted backend: the real game's would fork a state past
    its recorded future. Without the records, the backend gets the real game's states back."""
    from service.api.endpoints import handle
    from service.api.seats import Access

    record, states = _played(sealed, ("walls",), 3, seed=8)
    body = _ENCODE({"record": record})
    trusted = json.loads(_ENCODE(handle("replay", body, SEALING)))
    guarded = json.loads(_ENCODE(handle("replay", body, SEALING, Access(futures_recorded=True))))
    assert trusted["state"]["seal"] == states[-1]["seal"]
    assert guarded["state"]["seal"] != states[-1]["seal"]
    assert _ENCODE(_whole(guarded["state"])) == _ENCODE(_whole(states[-1]))
    # How the edge decides: ONE_FUTURE (on by default) and a Redis for the records.
    from service.api.judging import asking

    assert asking(Settings(redis_url="redis://127.0.0.1:6379"), "", "").access.futures_recorded
    assert not asking(Settings(), "", "").access.futures_recorded
    unrecorded = Settings(redis_url="redis://127.0.0.1:6379", one_future=False)
    assert not asking(unrecorded, "", "").access.futures_recorded
