"""The contract's examples: real requests and the referee's own answers to them (issue 24).

Every operation's request body and answers carry examples a client can start from, and that
Schemathesis' examples phase sends: a new game of three modules, a mid-game state with its legal
actions, an action validated, applied and refused, a scoring position given by counts (a tally)
and a score sheet, a view, a picture, a sealed game. Each answer is what the referee's handlers
answer to that request, so the examples cannot drift from the engine: the contract is generated
with them (`python -m service.api.openapi`) and the drift test compares the bytes.

The states come from seeded games played with the engine's own random actions, so the examples
are the same every time; the sealed game is sealed under a fixed example key with fixed game ids
(no server uses that key: a state sealed under it is refused `bad-seal` everywhere else).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import msgspec

from service import i18n
from service.cache import Cache
from service.engine import EDITION, Generator, apply, legal_actions, new_game, random_action, to_act
from service.engine.module import modules_of_ids
from service.engine.scoring import Position, position_of, tally_of
from service.seal import GAME_ID_BYTES, UNSEALED, Sealing, parse_keys
from service.settings import Settings

from . import handlers, render
from .bodies import Health, Readiness
from .endpoints import handle
from .refusals import RequestError

PLAYERS = ("Ana", "Ben", "Cyd")
MODULES = ("zoo", "treasure", "vendors")
SEED = 2026
MID_GAME = 30  # random actions from the setup to the example's mid-game state
# A sealing key for the examples only (published here, so it seals nothing anyone trusts).
EXAMPLE_KEY = "example:" + "A" * 86

# An example: OpenAPI's Example Object, {"summary", "value"}.
Example = dict[str, Any]
# path -> "request" -> name -> example, and path -> status -> name -> example.
Examples = dict[str, dict[str, dict[str, Example]]]


def _json(value: Any) -> Any:
    """`value` as JSON builtins, its messages in English (the contract's language)."""
    told = i18n.LANGUAGE.set(i18n.DEFAULT)
    try:
        return msgspec.json.decode(i18n.encode(value))
    finally:
        i18n.LANGUAGE.reset(told)


def _answer(command: str, body: Any, sealing: Sealing = UNSEALED) -> tuple[str, Any]:
    """The status and the JSON answer of the handler `command` to the body (as builtins)."""
    raw = msgspec.json.encode(body)
    try:
        status = "201" if command == "games" else "200"
        return status, _json(handle(command, raw, sealing))
    except RequestError as e:
        return str(e.status), _json(e.body())


def _example(summary: str, value: Any) -> Example:
    return {"summary": summary, "value": value}


def _mid_game_actions() -> list[Any]:
    """The example game's first MID_GAME actions (the engine's random ones, from SEED)."""
    state = new_game(PLAYERS, MODULES, seed=SEED).state
    rng = Generator(SEED)
    actions = []
    for _ in range(MID_GAME):
        action = random_action(state, rng)
        assert action is not None
        actions.append(action)
        state = apply(state, action).state
    return actions


def _mid_game() -> Any:
    """The example game some rounds of turns after its setup."""
    state = new_game(PLAYERS, MODULES, seed=SEED).state
    for action in _mid_game_actions():
        state = apply(state, action).state
    return state


def played(players: tuple[str, ...], modules: tuple[str, ...], seed: int) -> tuple[Position, list[Any]]:
    """A random game played to its end (the engine's random actions, from `seed`): its final
    position (points before round 3 left to the sheet) and the breakdowns of the rounds it held.
    Also the tests' source of real score sheets (tests/engine/test_sheet.py)."""
    state = new_game(players, modules, seed=seed).state
    rng = Generator(seed)
    held: list[Any] = []
    while True:
        outcome = apply(state, random_action(state, rng))  # type: ignore[arg-type]
        held += outcome.scoring
        state = outcome.state
        if outcome.game_over:
            final = position_of(state, 3)
            players = tuple(msgspec.structs.replace(p, score=0) for p in final.players)
            return msgspec.structs.replace(final, players=players), held


def _tallied(position: Position) -> dict[str, Any]:
    """The position with every player given by counts, as a table's scorer writes them."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    players = [{"name": p.name, "score": p.score, "tally": _json(tally_of(p, modules))}
               for p in position.players]
    return {"modules": list(position.modules), "round": position.round, "players": players}


def _sealing() -> Sealing:
    ids = itertools.count(1)
    return Sealing(parse_keys(EXAMPLE_KEY), game_ids=lambda: next(ids).to_bytes(GAME_ID_BYTES, "big"))


@functools.cache
def collect() -> Examples:
    """Every operation's examples, by path."""
    out: Examples = {}

    def add(path: str, part: str, name: str, summary: str, value: Any) -> None:
        out.setdefault(path, {}).setdefault(part, {})[name] = _example(summary, value)

    def ask(path: str, command: str, name: str, summary: str, body: Any, answer_summary: str) -> Any:
        add(path, "request", name, summary, body)
        status, answer = _answer(command, body)
        add(path, status, name, answer_summary, answer)
        return answer

    new = {"players": list(PLAYERS), "modules": list(MODULES), "seed": SEED}
    ask("/v1/games", "games", "threeModules", "Three players with the zoo, the treasure chamber and "
        "the vendors", new, "The state after the setup of every part")
    ask("/v1/games", "games", "sameName", "Two seats of one name", {"players": ["Ana", "Ana"]},
        "Refused: the players cannot make a game")
    status, sealed = _answer("games", new, _sealing())
    add("/v1/games", status, "sealed", "With sealing on (SEAL_KEYS): the public part, the seal "
        "and a seat token per seat", sealed)

    record = {"format": "alhambra-record/1", "edition": EDITION, "setup": new,
              "actions": _json(_mid_game_actions())}
    ask("/v1/replay", "replay", "midGame", "A record of the example game's first 30 actions, "
        "stopped after 12 and seen by Ben", {"record": record, "upto": 12, "player": "Ben"},
        "Ben's view after 12 actions, the events of the 12th, who must act")
    dropped = {**record, "actions": record["actions"][:4] + record["actions"][5:]}
    ask("/v1/replay", "replay", "actionDropped", "The same record with its fifth action left out",
        {"record": dropped}, "Refused: the first action that is illegal where the record stands, "
        "its index and the state before it")

    mid = _mid_game()
    state = _json(mid)
    listed, _ = legal_actions(mid, 5)
    actions = [_json(a) for a in listed]
    ask("/v1/legal-actions", "legal-actions", "midGame", "A mid-game state, at most 5 actions",
        {"state": state, "limit": 5}, "The first 5 legal actions, in their stable order")
    action = actions[0]
    other = next(n for n in PLAYERS if n != action["player"])
    out_of_turn = {**action, "player": other}
    ask("/v1/validate", "validate", "legal", "A listed action", {"state": state, "action": action},
        "Legal")
    ask("/v1/validate", "validate", "outOfTurn", "The same action by a player who may not act now",
        {"state": state, "action": out_of_turn}, "Illegal, with the rule that forbids it")
    ask("/v1/apply", "apply", "legal", "A listed action", {"state": state, "action": action},
        "The state after it, its events and any scoring round it triggered")
    ask("/v1/apply", "apply", "outOfTurn", "An action by a player who may not act now",
        {"state": state, "action": out_of_turn}, "Refused: the violations, each with its rule id")
    ask("/v1/view", "view", "player", "What Ben may see", {"state": state, "player": "Ben"},
        "The state with the others' hands, the deck's and bag's order and the generator hidden")
    mover = to_act(mid).players[0]
    idle = next(n for n in PLAYERS if n not in to_act(mid).players)
    for level, summary in (("random", "any of the seat's legal actions, each as likely"),
                           ("basic", "one step ahead, by a player's reckoning of the position"),
                           ("strong", "a search over worlds the seat cannot tell from the real one")):
        body = {"state": state, "player": mover, "level": level}
        if level == "strong":
            body["budget_ms"] = 200
        ask("/v1/suggest", "suggest", level, f"A move for {mover}, the seat the game waits for, at "
            f"the {level} level: {summary}", body, f"The {level} level's action for {mover}, what it "
            "weighed and what it simulated")
    ask("/v1/suggest", "suggest", "nothingToDecide", f"A move for {idle}, whom the game does not "
        "wait for", {"state": state, "player": idle}, "Refused: nothing to decide now, naming whom "
        "the game waits for")
    move = {"state": state, "action": action}
    add("/v1/echo", "request", "move", "A state and an action", move)
    add("/v1/echo", "200", "move", "The body decoded and encoded again", move)

    ask("/v1/score", "score", "stateRound", "A game state, scored as if round 1 were held now",
        {"state": state, "round": 1}, "Round 1's breakdown")
    ask("/v1/score", "score", "tally", "A real table, each player given by what was counted",
        _tallied(position_of(mid, 1)), "Round 1's breakdown from the counts")
    final, held = played(PLAYERS[:2], (), SEED)
    sheet = {**_json(final), "previous": _json(held[:2])}
    ask("/v1/score", "score", "sheet", "Round 3 with rounds 1 and 2 as /v1/score answered them: a "
        "score sheet", sheet, "Round 3's breakdown; the ranking holds the running totals (final)")
    counted = _tallied(position_of(mid, 1))
    counted["players"][0]["tally"]["buildings"]["pavilion"] = 99
    # An answer only: the request breaks the contract's bound (the examples sent are valid).
    status, refused = _answer("score", counted)
    add("/v1/score", status, "countOverTheBox", "More pavilions than the box holds: refused by the "
        "contract's bound, naming the field", refused)
    counted = _tallied(position_of(mid, 1))
    counted["players"][0]["tally"]["wall"] = 24
    ask("/v1/score", "score", "wallTooLong", "A wall longer than the player's tiles could make",
        counted, "Refused, naming the count and its limit")

    add("/v1/render", "request", "sheet", "A score sheet drawn small enough for a phone",
        {**sheet, "draw": "sheet"})
    add("/v1/render", "200", "sheet", "The SVG picture",
        render.render(render.decode(msgspec.json.encode({**sheet, "draw": "sheet"}))))
    add("/v1/render", "request", "player", "What Ben may see of a state", {"state": state, "player": "Ben"})

    add("/v1/modules", "200", "all", "Every module", _json(handlers.modules()))
    add("/healthz", "200", "ok", "Serving", _json(Health(status="ok")))
    add("/readyz", "200", "memoryOnly", "Ready without Redis",
        _json(Readiness(status="ready", cache="memory", redis="off")))
    # `engine_version` is the package's version and a digest of the engine's code, new with
    # every change of it: shown as a placeholder, or every change would move the contract.
    stats = Cache.from_settings(Settings()).stats()
    version = stats.engine_version.split("+")[0]
    add("/v1/cache/stats", "200", "fresh", "A process that has answered nothing yet (`engine_version`: "
        "the package's version and a digest of the engine's code, here a placeholder)",
        _json(msgspec.structs.replace(stats, engine_version=f"{version}+<digest of the engine's code>")))
    return out
