"""The mutation fuzz of unsealed states: swap any two ids between any two places of a real
state, then ask every endpoint about it. A crafted state either is refused (4xx) or is one the
engine can judge; nothing may raise, nor make the consistency check itself fail.

Shared by `tests/api/test_swaps.py` (a short run in the suite) and `bench/swap_fuzz.py` (the
10,000-try run).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from service.api import endpoints, handlers, render
from service.api.refusals import RequestError
from service.engine import Generator, apply, legal_actions, new_game, random_action

MODULES = ("zoo", "power", "grounds", "extensions", "staff", "craftsmen", "walls", "treasure",
           "thieves", "vendors", "change")
NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eli", "Fay")
NOT_IDS = frozenset({"rng", "seal"})  # strings that name nothing (the generator, a seal)


@dataclass
class Sample:
    """A real state (as JSON builtins) and a few legal actions of it (as JSON builtins)."""

    state: dict[str, Any]
    actions: list[dict[str, Any]]
    leaves: list[tuple[Any, ...]] = field(default_factory=list)


def samples(count: int, seed: int = 0) -> list[Sample]:
    """States of random games of every module alone and all together, 2 to 6 players, taken at
    random moments (setup, pending decisions, end of the game)."""
    rnd = random.Random(seed)
    games = [(m,) for m in MODULES] + [(), MODULES]
    out: list[Sample] = []
    while len(out) < count:
        modules = games[len(out) % len(games)]
        players = rnd.randint(2, 6)
        state = new_game(NAMES[:players], modules, seed=rnd.getrandbits(32)).state
        rng = Generator(rnd.getrandbits(32))
        stop = rnd.randint(0, 400)
        for _ in range(stop):
            action = random_action(state, rng)
            if action is None:
                break
            state = apply(state, action).state
        actions, _ = legal_actions(state, 8)
        doc = json.loads(msgspec.json.encode(state))
        out.append(Sample(doc, [json.loads(msgspec.json.encode(a)) for a in actions],
                          list(_string_leaves(doc))))
    return out


def _string_leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in NOT_IDS:
                yield from _string_leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _string_leaves(value, (*path, i))
    elif isinstance(node, str):
        yield path


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(doc, path[:-1])[path[-1]] = value


def swapped(sample: Sample, rnd: random.Random) -> dict[str, Any] | None:
    """The state with two different string leaves (ids, names, tokens) exchanged."""
    if len(sample.leaves) < 2:
        return None
    for _ in range(20):
        a, b = rnd.sample(sample.leaves, 2)
        va, vb = _get(sample.state, a), _get(sample.state, b)
        if va != vb:
            doc = json.loads(json.dumps(sample.state))
            _set(doc, a, vb)
            _set(doc, b, va)
            return doc
    return None


class _Bugs(logging.Handler):
    """Records the engine-bug lines of the handlers (a check that failed on a client's input)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Failure:
    endpoint: str
    problem: str
    body: bytes


def _bodies(state: dict[str, Any], sample: Sample, rnd: random.Random) -> list[tuple[str, dict[str, Any]]]:
    """A body of every endpoint about `state` (the handlers' endpoints first, then render)."""
    players = [p["name"] for p in sample.state["players"]]
    action = rnd.choice(sample.actions) if sample.actions else {"type": "end-turn", "player": players[0]}
    return [
        ("validate", {"state": state, "action": action}),
        ("apply", {"state": state, "action": action}),
        ("legal-actions", {"state": state, "limit": 50}),
        ("view", {"state": state, "player": rnd.choice(players)}),
        ("view", {"state": state}),
        ("score", {"state": state, "round": rnd.randint(1, 3)}),
        ("render", {"state": state, "player": rnd.choice(players)}),
    ]


def exercise(state: dict[str, Any], sample: Sample, rnd: random.Random, bugs: _Bugs) -> list[Failure]:
    """Every endpoint's handler on `state`: each must answer or refuse with a 4xx (and log no
    engine bug into `bugs`)."""
    bodies = _bodies(state, sample, rnd)
    failures = []
    bugs.records.clear()
    for endpoint, body in bodies:
        raw = msgspec.json.encode(body)
        try:
            if endpoint == "render":
                render.render(render.decode(raw))
            else:
                endpoints.handle(endpoint, raw)
        except RequestError as e:
            if not 400 <= e.status < 500:
                failures.append(Failure(endpoint, f"{e.status} {e.message}", raw))
        except Exception as e:  # a 500 over HTTP
            failures.append(Failure(endpoint, f"{type(e).__name__}: {e}", raw))
        if bugs.records:
            bug = bugs.records[0]
            failures.append(Failure(endpoint, f"{bug.getMessage()} ({bug.exc_info})", raw))
            bugs.records.clear()
    return failures


def run(tries: int, pool: list[Sample], seed: int = 1) -> tuple[int, list[Failure]]:
    """`tries` swaps over states of `pool`; the number of swapped states the consistency check
    accepted (so that the engine judged them) and every failure."""
    rnd = random.Random(seed)
    failures: list[Failure] = []
    accepted = 0
    bugs = _Bugs()
    logger = logging.getLogger("service.api")
    logger.addHandler(bugs)
    propagate, logger.propagate = logger.propagate, False  # recorded here, not printed
    try:
        for _ in range(tries):
            sample = rnd.choice(pool)
            state = swapped(sample, rnd)
            if state is None:
                continue
            try:
                handlers.checked(msgspec.convert(state, handlers.engine.GameState))
                accepted += 1
            except Exception:  # refused (or failed: `exercise` reports it)
                pass
            failures += exercise(state, sample, rnd, bugs)
    finally:
        logger.removeHandler(bugs)
        logger.propagate = propagate
    return accepted, failures


# --- duplicated keys (issue 23 item 7) ---------------------------------------------------------

def duplicated(state: dict[str, Any], sample: Sample, other: dict[str, Any],
               rnd: random.Random) -> tuple[str, bytes, list[bytes]]:
    """An endpoint, a body for it naming one of its keys twice (the copy before or after the
    real one, holding junk, another state, null or the same value), and the bytes of every
    `state` value the body holds (to put in the memo of decoded states)."""
    endpoint, body = rnd.choice(_bodies(state, sample, rnd)[:5])
    key = rnd.choice([k for k in body if k == "state"] * 2 + list(body))
    copy = rnd.choice([{"junk": [1]}, other, None, body[key], [], "state"])
    pairs = [(k, msgspec.json.encode(v)) for k, v in body.items()]
    at = rnd.randint(0, len(pairs))
    pairs.insert(at, (key, msgspec.json.encode(copy)))
    raw = b"{%s}" % b",".join(b'"%s":%s' % (k.encode(), v) for k, v in pairs)
    return endpoint, raw, [v for k, v in pairs if k == "state"]
