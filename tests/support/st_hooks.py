"""Schemathesis hooks that make generated requests reach the rules (issue 24).

A state drawn from the contract's schema is almost never one a game can reach, so nearly every
generated request stops at `inconsistent-state` before a rule is judged. These hooks put real
material in the requests Schemathesis generates, and mutate it the way a buggy or cheating
client would, so that most requests are judged by the rules (accepted, or refused with a rule
id):

- a state: the one the request holds when it is real (a link handed it from an answer), else a
  state of a random game of a module (every module alone, none, all eleven; 2 to 6 players);
  sometimes mutated (two ids swapped between places, a count changed);
- an action: one the state lists (the referee's /v1/legal-actions), sometimes mutated (another
  player, another id of the state in one of its fields, a coordinate or a count moved);
- a new game: real names and modules; a scoring position: the state's, given by tiles or counts;
- a bot's move (POST /v1/suggest): mostly for a seat the game waits for (else any seat, which
  has nothing to decide), at any level; the strong level's budget kept short (SHORT_BUDGETS ms
  of simulated work: the fuzzing phase runs hundreds of cases; the contract's edges, up to
  2000 ms, are the coverage phase's, on states it draws from the schema);
- a record (POST /v1/replay): one of a real game of a module (some whole, with their result, some
  cut short), sometimes corrupted (an action dropped, two swapped, one by another player, the
  seed or the result changed), with `upto` and `player` now and then.

Every case, of every phase, asks for a language (issue 29): its `Accept-Language` (the contract
documents it; Schemathesis draws any string) is, when absent and most times when drawn, one of
LANGUAGE_HEADERS: the five languages, regional and weighted spellings, and junk (answered in
English); the contract's `Content-Language` enum is checked on every answer.

Otherwise only positive cases of the fuzzing and stateful phases are changed: the examples are the
contract's own, the coverage phase probes the schema's edges, and negative cases must stay
invalid. Each change is drawn from a generator seeded by the generated body, so a case is
reproducible, and Schemathesis revalidates the changed body (a mutation that breaks the schema
makes the case a negative one, expected to be refused 400).

`after_call` writes each answer's operation, phase, status and rule ids as a JSON line to the
file named by REFEREE_ST_TALLY (when set); `tests/support/st_tally.py` prints the share of rule
verdicts per operation.

Loaded by `.ci/live-schemathesis.sh` (SCHEMATHESIS_HOOKS=tests.support.st_hooks) and imported by
tests/api/test_schemathesis.py.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import os
import random
import re
from typing import Any

import msgspec
import schemathesis
from schemathesis.generation import GenerationMode
from schemathesis.generation.meta import TestPhase

from service.bots.model import LEVELS
from service.engine import EDITION, GameState, apply, check_consistency, legal_actions, new_game, to_act
from service.engine.module import modules_of_ids
from service.engine.scoring import position_of, tally_of
from tests.support.play import preferred_action
from tests.support.swaps import MODULES, NAMES, Sample, _get, _set, _string_leaves, samples

POOL_SIZE = 26  # two games of every module alone, none, and all eleven
STATE_PATHS = ("/v1/validate", "/v1/apply", "/v1/legal-actions", "/v1/view", "/v1/render",
               "/v1/score", "/v1/echo", "/v1/suggest")
ACTION_PATHS = ("/v1/validate", "/v1/apply", "/v1/echo")
# How often a real state is mutated, and a listed action.
MUTATE_STATE = 0.15
MUTATE_ACTION = 0.45
SHORT_BUDGETS = (10, 20, 50)
LANGUAGE_HEADERS = ("en", "de", "fr", "es", "ca", "de-CH", "fr-CA, fr;q=0.9", "es-419, en;q=0.1",
                    "ca-ES-valencia", "en;q=0.1, de;q=0.5", "*", "xx", "", "klingon;q=abc", ";;,")

_DECODE = msgspec.json.Decoder(GameState)


@functools.cache
def pool() -> list[Sample]:
    return samples(POOL_SIZE, seed=24)


@functools.cache
def records() -> list[dict[str, Any]]:
    """Records of real games (as builtins): every module alone and all eleven, 2 to 6 players;
    one in three played to its end (with its result), the others cut short."""
    out = []
    for number, modules in enumerate([(), *((m,) for m in MODULES), tuple(MODULES)]):
        rnd = random.Random(number)
        players = list(NAMES[:2 + number % 5])
        state = new_game(players, modules, seed=number).state
        actions = []
        whole = number % 3 == 0
        while state.phase != "over" and (whole or len(actions) < 40 + number * 7):
            action = preferred_action(state, rnd)
            actions.append(msgspec.to_builtins(action))
            state = apply(state, action).state
        record = {"format": "alhambra-record/1", "edition": EDITION,
                  "setup": {"players": players, "modules": list(modules), "seed": number},
                  "actions": actions}
        if whole:
            record["result"] = msgspec.to_builtins(state.ranking)
        out.append(record)
    return out


def replay_body(generated: Any, rnd: random.Random) -> dict[str, Any]:
    """A record of a real game, sometimes corrupted, sometimes stopped at `upto` or seen by a
    player."""
    record = copy.deepcopy(rnd.choice(records()))
    actions, players = record["actions"], record["setup"]["players"]
    if rnd.random() < MUTATE_ACTION and actions:
        k = rnd.randrange(len(actions))
        how = rnd.choice(("drop", "swap", "player", "seed", "result"))
        if how == "drop":
            del actions[k]
        elif how == "swap" and k + 1 < len(actions):
            actions[k], actions[k + 1] = actions[k + 1], actions[k]
        elif how == "player":
            actions[k]["player"] = rnd.choice(players)
        elif how == "seed":
            record["setup"]["seed"] += 1
        elif "result" in record:
            record["result"][0]["score"] += 1
    body: dict[str, Any] = {"record": record}
    if rnd.random() < 0.3:
        body["upto"] = rnd.randint(0, len(actions))
    if rnd.random() < 0.2:
        body["player"] = rnd.choice(players)
    return body


def _changed(case: schemathesis.Case) -> bool:
    """Whether the hooks may change this case: a positive one of fuzzing or stateful phases."""
    meta = case._meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
        return False
    return meta.phase.name in (TestPhase.FUZZING, TestPhase.STATEFUL)


def _seeded(case: schemathesis.Case) -> random.Random:
    text = json.dumps(case.body, sort_keys=True, default=repr) + case.operation.path
    return random.Random(hashlib.sha256(text.encode()).digest())


def _real(state: Any) -> GameState | None:
    """The state, when it is one a game can reach (as an answer of the referee handed it)."""
    if not isinstance(state, dict):
        return None
    try:
        decoded = _DECODE.decode(msgspec.json.encode(state))
    except (msgspec.DecodeError, TypeError, ValueError):
        return None
    return decoded if not check_consistency(decoded) else None


KINDS = (("card", re.compile(r"(yellow|green|blue|orange)-\d+-[abc]$")),
         ("coin", re.compile(r"coin-")),
         ("tile", re.compile(r"(pavilion|seraglio|arcades|chambers|garden|tower|site)-")))


def kind(value: str) -> str:
    """What an id names (a card, a coin, a tile), else its shape: a mutation puts an id where
    one of its kind may stand, so that the contract accepts the body and the rules judge it."""
    for name, pattern in KINDS:
        if pattern.match(value):
            return name
    return re.sub(r"\d+", "#", value)


def _ids(doc: Any) -> dict[str, list[tuple[Any, ...]]]:
    """The string leaves of a document by kind."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    for path in _string_leaves(doc):
        out.setdefault(kind(_get(doc, path)), []).append(path)
    return out


def _mutated_state(state: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """Two ids of one kind exchanged between places, or one count moved by one."""
    doc = copy.deepcopy(state)
    if rnd.random() < 0.7:
        kinds = [paths for paths in _ids(doc).values() if len(paths) > 1]
        if kinds:
            a, b = rnd.sample(rnd.choice(kinds), 2)
            va, vb = _get(doc, a), _get(doc, b)
            _set(doc, a, vb)
            _set(doc, b, va)
            return doc
    counts = [p for p in _int_leaves(doc) if p[-1] not in ("edition",)]
    if counts:
        path = rnd.choice(counts)
        _set(doc, path, max(0, _get(doc, path) + rnd.choice((-1, 1))))
    return doc


def _int_leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key != "rng":
                out += _int_leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _int_leaves(value, (*path, i))
    elif isinstance(node, int) and not isinstance(node, bool):
        out.append(path)
    return out


def _mutated_action(action: dict[str, Any], state: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """The action by another player, with another id of the state in one of its fields, or with
    a coordinate or count moved."""
    out = copy.deepcopy(action)
    players = [p["name"] for p in state.get("players", ())]
    choice = rnd.random()
    if choice < 0.35 and len(players) > 1:
        out["player"] = rnd.choice([p for p in players if p != action.get("player")])
        return out
    strings = [p for p in _string_leaves(out) if p[0] not in ("type", "player")]
    numbers = _int_leaves(out)
    if choice < 0.75 and strings:
        path = rnd.choice(strings)
        value = _get(out, path)
        ids = sorted({_get(state, leaf) for leaf in _ids(state).get(kind(value), ())} - {value})
        if ids:
            _set(out, path, rnd.choice(ids))
            return out
    if numbers:
        path = rnd.choice(numbers)
        moved = _get(out, path) + rnd.choice((-2, -1, 1, 2))
        _set(out, path, moved if path[0] in ("x", "y") else max(0, moved))  # counts stay counts
    elif isinstance(out.get("cards"), list) and out["cards"]:
        out["cards"] = out["cards"][:-1]
    return out


def new_game_body(body: Any, rnd: random.Random) -> dict[str, Any]:
    players = list(NAMES[: rnd.randint(2, 6)])
    modules = rnd.sample(MODULES, rnd.randint(0, len(MODULES)))
    seed = body.get("seed") if isinstance(body, dict) else None
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        seed = rnd.getrandbits(32)
    if rnd.random() < 0.1:  # a refusal of the setup's rules: too many seats, a name twice
        players = rnd.choice([[*players, players[0]], [*NAMES, "Gus"], players[:1]])
    return {"players": players, "modules": modules, "seed": seed}


def _position(state: GameState, rnd: random.Random) -> dict[str, Any]:
    position = msgspec.to_builtins(position_of(state, rnd.randint(1, 3)))
    if rnd.random() < 0.5:
        modules = modules_of_ids(state.modules, state.dirk is not None)
        p = position_of(state, 1)
        position["players"] = [{"name": q.name, "dirk": q.dirk, "score": q.score,
                                "tally": msgspec.to_builtins(tally_of(q, modules))} for q in p.players]
    return position


def state_body(path: str, generated: Any, rnd: random.Random) -> dict[str, Any]:
    """The body of a request about a state: the generated one's state if real, else a pool
    state; an action it lists, a player, a round or a position; sometimes mutated."""
    body = dict(generated) if isinstance(generated, dict) else {}
    real = _real(body.get("state"))
    if real is None:
        sample = rnd.choice(pool())
        state = copy.deepcopy(sample.state)
        real = _DECODE.decode(msgspec.json.encode(state))
    else:
        state = body["state"]
    players = [p["name"] for p in state["players"]]
    if path == "/v1/score":
        if rnd.random() < 0.5:
            return _position(real, rnd)
        body = {"state": state, "round": rnd.randint(1, 3)}
    elif path in ACTION_PATHS:
        listed, _ = legal_actions(real, 50)
        if listed:
            action = msgspec.to_builtins(rnd.choice(listed))
            if rnd.random() < MUTATE_ACTION:
                action = _mutated_action(action, state, rnd)
            body["action"] = action
    elif path == "/v1/suggest":
        acting = list(to_act(real).players) or players
        body["player"] = rnd.choice(acting if rnd.random() < 0.8 else players)
        if body.get("level") not in LEVELS:
            body["level"] = rnd.choice(LEVELS)
        body["budget_ms"] = rnd.choice(SHORT_BUDGETS)
    elif path in ("/v1/legal-actions", "/v1/view", "/v1/render"):
        # Mostly a player who may act (or none: everyone who may), so that a listing has actions
        # for the links to apply; sometimes any seat.
        acting = list(to_act(real).players) if path == "/v1/legal-actions" else players
        if rnd.random() < 0.8:
            body["player"] = rnd.choice([*acting, None])
        else:
            body["player"] = rnd.choice(players)
        if path == "/v1/legal-actions" and not isinstance(body.get("limit"), int):
            body["limit"] = 50
    if rnd.random() < MUTATE_STATE:
        state = _mutated_state(state, rnd)
    body["state"] = state
    if path == "/v1/render":
        body.pop("draw", None)
    return body


def with_language(case: schemathesis.Case) -> None:
    """The case asks for one of LANGUAGE_HEADERS (drawn from the case itself: reproducible)."""
    headers = dict(case.headers or {})
    drawn = next((k for k in headers if k.lower() == "accept-language"), None)
    rnd = random.Random(hashlib.sha256(repr((case.operation.path, case.body, headers)).encode()).digest())
    if drawn is None or rnd.random() < 0.7:
        headers.pop(drawn, None)
        headers["Accept-Language"] = rnd.choice(LANGUAGE_HEADERS)
        case.headers = headers


@schemathesis.hook
def before_call(context: Any, case: schemathesis.Case, **kwargs: Any) -> None:
    with_language(case)
    if not _changed(case):
        return
    rnd = _seeded(case)
    path = case.operation.path
    if path == "/v1/games":
        case.body = new_game_body(case.body, rnd)
    elif path in STATE_PATHS:
        case.body = state_body(path, case.body, rnd)
    elif path == "/v1/replay":
        case.body = replay_body(case.body, rnd)


def _header(response: Any, name: str) -> str | None:
    """A response header's value (Schemathesis keeps a list of values per lowercased name)."""
    value = response.headers.get(name)
    return value[0] if isinstance(value, list) and value else value


@schemathesis.hook
def after_call(context: Any, case: schemathesis.Case, response: Any) -> None:
    target = os.environ.get("REFEREE_ST_TALLY")
    if not target:
        return
    meta = case._meta
    try:
        answer = response.json() if response.status_code >= 400 else None
    except Exception:  # not JSON: no rule id
        answer = None
    rules = [v.get("rule") for v in answer.get("violations", ())] if isinstance(answer, dict) else []
    error = answer.get("error") if isinstance(answer, dict) else None
    line = {"operation": f"{case.operation.method.upper()} {case.operation.path}",
            "phase": str(meta.phase.name) if meta else "?",
            "mode": str(meta.generation.mode) if meta else "?",
            "status": response.status_code, "error": error, "rules": rules,
            "language": _header(response, "content-language"),
            "message": str(answer.get("message", ""))[:200] if isinstance(answer, dict) else ""}
    with open(target, "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
