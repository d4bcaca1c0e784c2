"""A Python client of the referee, on the service's own msgspec types (no generated code).

    from service.client import Referee

    with Referee("http://localhost:8000") as referee:
        game = referee.new_game(["Ana", "Ben", "Cyd"], modules=["zoo"], seed=7)
        state, who = game.state, game.to_act
        while who.players:
            name = who.players[0]
            action = referee.legal_actions(state, player=name, limit=1).actions[0]
            applied = referee.apply(state, action)
            state, who = applied.state, applied.to_act

One method per endpoint; each sends the request body as the server's own Struct and decodes
the answer into the server's own answer type (`GameAnswer`, `Applied`, `LegalActions`, ...),
strictly, so a client and a referee of the same version agree to the field. `AsyncReferee` has
the same methods as coroutines. A refusal (4xx, 5xx) raises `RefereeError` with the status, the
error code, the message and the violations (each with its rule id). `referee.last` is the reply
of the last call made in this thread or task: its status, its `x-cache` outcome (`miss`,
`hit-memory`, `hit-redis`; None for endpoints that are not cached) and the time it took.

Seat tokens: where the referee gives each seat a token (`Authorization: Bearer <token>`), pass
`tokens={"Ana": "...", ...}` (each call about a player sends that player's token: the player of
an action, of `legal_actions(player=...)`, of `view(player=...)`, of `suggest(state, player)`),
or `token=` to a single call, or `token=` to the client for every call.

Languages: `language="de"` (or any `Accept-Language` value: "fr-CH, fr;q=0.9") has the referee
word its messages (refusals' and violations' messages, who must act) in German, French (`fr`),
Spanish (`es`) or Catalan (`ca`); English by default. Rule ids and error codes never change.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
import msgspec
import msgspec.structs

from service.api.bodies import (
    RECORD_FORMAT,
    Applied,
    Breakdown,
    ErrorBody,
    GameAnswer,
    GameRecord,
    Health,
    LegalActions,
    LegalActionsQuery,
    Modules,
    Move,
    NewGame,
    Readiness,
    RecordRefusal,
    RenderState,
    Replayed,
    ReplayQuery,
    StateRound,
    Suggested,
    SuggestQuery,
    Validity,
    View,
    ViewQuery,
)
from service.bots.model import BUDGET_MS, Level
from service.cache import CacheStats
from service.engine.actions import Action
from service.engine.replay import MAX_RECORD_ACTIONS
from service.engine.scoring import Position
from service.engine.state import GameState
from service.engine.violations import Violation

__all__ = ["OPERATIONS", "AsyncReferee", "GameRecord", "Recorder", "Referee", "RefereeError", "Reply",
           "read_record", "recorded", "started_record", "write_record"]

T = TypeVar("T")
_ENCODE = msgspec.json.Encoder().encode
_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


def _decoder(answer: Any) -> msgspec.json.Decoder[Any]:
    found = _DECODERS.get(answer)
    if found is None:
        found = _DECODERS[answer] = msgspec.json.Decoder(answer)
    return found


class RefereeError(Exception):
    """A request the referee refused: the HTTP status, the error code (`illegal-action`,
    `inconsistent-state`, `bad-request`, ...), its message and the violations (rule id and
    message each)."""

    def __init__(self, status: int, body: ErrorBody) -> None:
        super().__init__(f"{status} {body.error}: {body.message}")
        self.status = status
        self.error: str = body.error
        self.message = body.message
        self.violations: tuple[Violation, ...] = tuple(body.violations)
        self.body = body
        # POST /v1/replay's illegal action: its index in the record, the action, the state before
        self.index: int | None = getattr(body, "index", None)
        self.action: Action | None = getattr(body, "action", None)
        self.state: GameState | None = getattr(body, "state", None)

    @property
    def rules(self) -> list[str]:
        """The rule ids of the violations, in order."""
        return [v.rule for v in self.violations]


@dataclass(frozen=True)
class Reply:
    """What came with an answer: its status, its `x-cache` outcome and how long it took."""

    endpoint: str
    status: int
    cache: str | None
    seconds: float


_LAST: ContextVar[Reply | None] = ContextVar("referee_last_reply", default=None)


@dataclass(frozen=True)
class _Call:
    method: str
    path: str
    body: bytes | None
    answer: Any  # the answer's type; str for text
    player: str | None  # whose seat token to send, if any
    token: str | None


class _Calls:
    """The requests of every endpoint, shared by the sync and the async client."""

    def __init__(self, token: str | None, tokens: Mapping[str, str] | None,
                 language: str | None = None) -> None:
        self.token = token
        self.tokens = dict(tokens or {})
        self.language = language

    # --- one request per endpoint ---------------------------------------------------------------

    def new_game(self, players: Sequence[str], modules: Sequence[str] = (), seed: int = 0,
                 token: str | None = None) -> _Call:
        body = NewGame(players=tuple(players), modules=tuple(modules), seed=seed)
        return _Call("POST", "/v1/games", _ENCODE(body), GameAnswer, None, token)

    def validate(self, state: GameState, action: Action, token: str | None = None) -> _Call:
        return _Call("POST", "/v1/validate", _ENCODE(Move(state=state, action=action)), Validity,
                     action.player, token)

    def apply(self, state: GameState, action: Action, token: str | None = None) -> _Call:
        return _Call("POST", "/v1/apply", _ENCODE(Move(state=state, action=action)), Applied,
                     action.player, token)

    def legal_actions(self, state: GameState, player: str | None = None, limit: int = 1000,
                      token: str | None = None) -> _Call:
        body = LegalActionsQuery(state=state, limit=limit, player=player)
        return _Call("POST", "/v1/legal-actions", _ENCODE(body), LegalActions, player, token)

    def score(self, position: Position | GameState, round: int | None = None,
              token: str | None = None) -> _Call:
        if isinstance(position, GameState):
            if round is None:
                raise ValueError("scoring a game state needs the round to score")
            body: Any = StateRound(state=position, round=round)
        else:
            body = position
        return _Call("POST", "/v1/score", _ENCODE(body), Breakdown, None, token)

    def view(self, state: GameState, player: str | None = None, token: str | None = None) -> _Call:
        return _Call("POST", "/v1/view", _ENCODE(ViewQuery(state=state, player=player)), View, player, token)

    def render(self, what: GameState | Position, player: str | None = None,
               token: str | None = None) -> _Call:
        body = RenderState(state=what, player=player) if isinstance(what, GameState) else what
        return _Call("POST", "/v1/render", _ENCODE(body), str, player, token)

    def echo(self, state: GameState, action: Action, token: str | None = None) -> _Call:
        return _Call("POST", "/v1/echo", _ENCODE(Move(state=state, action=action)), Move, None, token)

    def replay(self, record: GameRecord, upto: int | None = None, player: str | None = None,
               token: str | None = None) -> _Call:
        body = ReplayQuery(record=record, upto=upto, player=player)
        return _Call("POST", "/v1/replay", _ENCODE(body), Replayed, None, token)

    def suggest(self, state: GameState, player: str, level: Level = "basic", budget_ms: int = BUDGET_MS,
                token: str | None = None) -> _Call:
        body = SuggestQuery(state=state, player=player, level=level, budget_ms=budget_ms)
        return _Call("POST", "/v1/suggest", _ENCODE(body), Suggested, player, token)

    def modules(self) -> _Call:
        return _Call("GET", "/v1/modules", None, Modules, None, None)

    def health(self) -> _Call:
        return _Call("GET", "/healthz", None, Health, None, None)

    def ready(self) -> _Call:
        return _Call("GET", "/readyz", None, Readiness, None, None)

    def cache_stats(self) -> _Call:
        return _Call("GET", "/v1/cache/stats", None, CacheStats, None, None)

    def metrics(self) -> _Call:
        return _Call("GET", "/metrics", None, str, None, None)

    # --- sending and reading --------------------------------------------------------------------

    def headers(self, call: _Call) -> dict[str, str]:
        headers = {"content-type": "application/json"} if call.body is not None else {}
        token = call.token or (self.tokens.get(call.player) if call.player else None) or self.token
        if token:
            headers["authorization"] = f"Bearer {token}"
        if self.language:
            headers["accept-language"] = self.language
        return headers

    @staticmethod
    def answer(call: _Call, response: httpx.Response, seconds: float) -> Any:
        _LAST.set(Reply(endpoint=call.path, status=response.status_code,
                        cache=response.headers.get("x-cache"), seconds=seconds))
        if response.status_code >= 400:
            raise RefereeError(response.status_code, _error_body(response))
        if call.answer is str:
            return response.text
        return _decoder(call.answer).decode(response.content)


def _error_body(response: httpx.Response) -> Any:
    """The refusal's body: an ErrorBody, or /v1/replay's RecordRefusal (an ErrorBody with the
    index, action and state of a record's illegal action); else one made of the text (a proxy's
    page, a 5xx of something in front of the referee)."""
    for shape in (ErrorBody, RecordRefusal):
        try:
            return _decoder(shape).decode(response.content)
        except msgspec.DecodeError:
            continue
    return ErrorBody(error="internal-error" if response.status_code >= 500 else "bad-request",  # type: ignore[arg-type]
                     message=response.text[:500] or response.reason_phrase)


# The contract's operations (operationId) and the method of each; /metrics is outside the contract.
OPERATIONS = {
    "createGame": "new_game", "validateAction": "validate", "applyAction": "apply",
    "listLegalActions": "legal_actions", "scorePosition": "score", "viewState": "view",
    "renderPicture": "render", "replayRecord": "replay", "suggestAction": "suggest", "echo": "echo",
    "listModules": "modules",
    "health": "health",
    "ready": "ready", "cacheStats": "cache_stats",
}


class Referee:
    """The referee over HTTP, synchronously (httpx). Use it as a context manager, or `close()`."""

    def __init__(self, url: str = "http://127.0.0.1:8000", *, token: str | None = None,
                 tokens: Mapping[str, str] | None = None, timeout: float = 30.0,
                 client: httpx.Client | None = None, language: str | None = None) -> None:
        self._calls = _Calls(token, tokens, language)
        self._http = client or httpx.Client(base_url=url, timeout=timeout)

    @property
    def tokens(self) -> dict[str, str]:
        """The seat tokens by player name (add to it as seats get theirs)."""
        return self._calls.tokens

    @property
    def last(self) -> Reply | None:
        """The reply of the last call made in this thread or task."""
        return _LAST.get()

    def _send(self, call: _Call) -> Any:
        start = time.perf_counter()
        response = self._http.request(call.method, call.path, content=call.body,
                                      headers=self._calls.headers(call))
        return self._calls.answer(call, response, time.perf_counter() - start)

    def new_game(self, players: Sequence[str], modules: Iterable[str] = (), seed: int = 0, *,
                 token: str | None = None) -> GameAnswer:
        """POST /v1/games: a new game's state, and who must act first."""
        return self._send(self._calls.new_game(players, tuple(modules), seed, token))

    def validate(self, state: GameState, action: Action, *, token: str | None = None) -> Validity:
        """POST /v1/validate: whether `action` is legal in `state`, and if not why."""
        return self._send(self._calls.validate(state, action, token))

    def apply(self, state: GameState, action: Action, *, token: str | None = None) -> Applied:
        """POST /v1/apply: the state after `action`; RefereeError (422 illegal-action) if illegal."""
        return self._send(self._calls.apply(state, action, token))

    def legal_actions(self, state: GameState, player: str | None = None, limit: int = 1000, *,
                      token: str | None = None) -> LegalActions:
        """POST /v1/legal-actions: the legal actions (of `player` only, when given)."""
        return self._send(self._calls.legal_actions(state, player, limit, token))

    def score(self, position: Position | GameState, round: int | None = None, *,
              token: str | None = None) -> Breakdown:
        """POST /v1/score: a scoring position's breakdown, or a state's as if round `round` were held."""
        return self._send(self._calls.score(position, round, token))

    def view(self, state: GameState, player: str | None = None, *, token: str | None = None) -> View:
        """POST /v1/view: what `player` (None: a spectator) may see of `state`."""
        return self._send(self._calls.view(state, player, token))

    def render(self, what: GameState | Position, player: str | None = None, *,
               token: str | None = None) -> str:
        """POST /v1/render: an SVG of a state (as `player` sees it, when given) or of a position."""
        return self._send(self._calls.render(what, player, token))

    def replay(self, record: GameRecord, upto: int | None = None, player: str | None = None, *,
               token: str | None = None) -> Replayed:
        """POST /v1/replay: the record's game replayed (up to `upto` actions; `player`'s view
        instead of the state); RefereeError (422 illegal-action, with `index`, `action` and
        `state`) at its first illegal action."""
        return self._send(self._calls.replay(record, upto, player, token))

    def suggest(self, state: GameState, player: str, level: Level = "basic", budget_ms: int = BUDGET_MS,
                *, token: str | None = None) -> Suggested:
        """POST /v1/suggest: a bot's move for `player` (`action`, None: wait) at `level`
        (`random`, `basic`, `strong`; `budget_ms` is the strong level's); RefereeError 422
        `nothing-to-decide` when the game waits for nothing from that seat."""
        return self._send(self._calls.suggest(state, player, level, budget_ms, token))

    def echo(self, state: GameState, action: Action, *, token: str | None = None) -> Move:
        """POST /v1/echo: the body decoded and encoded again (the benchmark's baseline)."""
        return self._send(self._calls.echo(state, action, token))

    def modules(self) -> Modules:
        """GET /v1/modules: the modules a game may name."""
        return self._send(self._calls.modules())

    def health(self) -> Health:
        """GET /healthz."""
        return self._send(self._calls.health())

    def ready(self) -> Readiness:
        """GET /readyz: ready, and whether Redis answers."""
        return self._send(self._calls.ready())

    def cache_stats(self) -> CacheStats:
        """GET /v1/cache/stats."""
        return self._send(self._calls.cache_stats())

    def metrics(self) -> str:
        """GET /metrics: the Prometheus text."""
        return self._send(self._calls.metrics())

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Referee:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AsyncReferee:
    """The referee over HTTP, asynchronously (httpx): the methods of `Referee` as coroutines."""

    def __init__(self, url: str = "http://127.0.0.1:8000", *, token: str | None = None,
                 tokens: Mapping[str, str] | None = None, timeout: float = 30.0,
                 client: httpx.AsyncClient | None = None, language: str | None = None) -> None:
        self._calls = _Calls(token, tokens, language)
        self._http = client or httpx.AsyncClient(base_url=url, timeout=timeout)

    @property
    def tokens(self) -> dict[str, str]:
        return self._calls.tokens

    @property
    def last(self) -> Reply | None:
        """The reply of the last call made in this task."""
        return _LAST.get()

    async def _send(self, call: _Call) -> Any:
        start = time.perf_counter()
        response = await self._http.request(call.method, call.path, content=call.body,
                                            headers=self._calls.headers(call))
        return self._calls.answer(call, response, time.perf_counter() - start)

    async def new_game(self, players: Sequence[str], modules: Iterable[str] = (), seed: int = 0, *,
                       token: str | None = None) -> GameAnswer:
        return await self._send(self._calls.new_game(players, tuple(modules), seed, token))

    async def validate(self, state: GameState, action: Action, *, token: str | None = None) -> Validity:
        return await self._send(self._calls.validate(state, action, token))

    async def apply(self, state: GameState, action: Action, *, token: str | None = None) -> Applied:
        return await self._send(self._calls.apply(state, action, token))

    async def legal_actions(self, state: GameState, player: str | None = None, limit: int = 1000, *,
                            token: str | None = None) -> LegalActions:
        return await self._send(self._calls.legal_actions(state, player, limit, token))

    async def score(self, position: Position | GameState, round: int | None = None, *,
                    token: str | None = None) -> Breakdown:
        return await self._send(self._calls.score(position, round, token))

    async def view(self, state: GameState, player: str | None = None, *, token: str | None = None) -> View:
        return await self._send(self._calls.view(state, player, token))

    async def render(self, what: GameState | Position, player: str | None = None, *,
                     token: str | None = None) -> str:
        return await self._send(self._calls.render(what, player, token))

    async def replay(self, record: GameRecord, upto: int | None = None, player: str | None = None, *,
                     token: str | None = None) -> Replayed:
        return await self._send(self._calls.replay(record, upto, player, token))

    async def suggest(self, state: GameState, player: str, level: Level = "basic",
                      budget_ms: int = BUDGET_MS, *, token: str | None = None) -> Suggested:
        return await self._send(self._calls.suggest(state, player, level, budget_ms, token))

    async def echo(self, state: GameState, action: Action, *, token: str | None = None) -> Move:
        return await self._send(self._calls.echo(state, action, token))

    async def modules(self) -> Modules:
        return await self._send(self._calls.modules())

    async def health(self) -> Health:
        return await self._send(self._calls.health())

    async def ready(self) -> Readiness:
        return await self._send(self._calls.ready())

    async def cache_stats(self) -> CacheStats:
        return await self._send(self._calls.cache_stats())

    async def metrics(self) -> str:
        return await self._send(self._calls.metrics())

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncReferee:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()


# --- game records (docs/records.md) ------------------------------------------------------------


def started_record(players: Sequence[str], modules: Iterable[str], seed: int, game: GameAnswer) -> GameRecord:
    """The record of a game just set up (POST /v1/games answered `game`): its setup, and the
    seal of its first state when the referee seals (so a replay gives the game's own states)."""
    return GameRecord(format=RECORD_FORMAT, edition=game.state.edition,  # type: ignore[arg-type]
                      setup=NewGame(players=tuple(players), modules=tuple(modules), seed=seed),
                      seal=game.state.seal)


def recorded(record: GameRecord, action: Action, applied: Applied | None) -> GameRecord:
    """`record` with `action` appended (POST /v1/apply answered `applied`; None: not asked yet),
    and its result (the final ranking) once the game is over. ValueError when the record holds
    MAX_RECORD_ACTIONS already."""
    if len(record.actions) >= MAX_RECORD_ACTIONS:
        raise ValueError(f"the record holds {MAX_RECORD_ACTIONS} actions, the most a record may "
                         "(MAX_RECORD_ACTIONS): no referee would read it with one more")
    result = applied.state.ranking if applied is not None and applied.game_over else record.result
    return msgspec.structs.replace(record, actions=(*record.actions, action), result=result)


def read_record(path: str | Path) -> GameRecord:
    """A record from a JSON file, read strictly (RECORD_FORMAT; unknown fields refused)."""
    return msgspec.json.decode(Path(path).read_bytes(), type=GameRecord)


def write_record(record: GameRecord, path: str | Path) -> None:
    """`record` as an indented JSON file."""
    Path(path).write_bytes(msgspec.json.format(_ENCODE(record), indent=2) + b"\n")


class Recorder:
    """A game played through a `Referee` and recorded as it goes: `new_game` starts the record,
    each `apply` appends its action, and `record` is the game so far (with its result once
    over). One recorder per game.

        recorder = Recorder(referee)
        game = recorder.new_game(["Ana", "Ben"], seed=7)
        applied = recorder.apply(game.state, action)
        write_record(recorder.record, "game.json")
    """

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self._record: GameRecord | None = None

    @property
    def record(self) -> GameRecord:
        if self._record is None:
            raise ValueError("no game yet: call new_game first")
        return self._record

    def new_game(self, players: Sequence[str], modules: Iterable[str] = (), seed: int = 0, *,
                 token: str | None = None) -> GameAnswer:
        modules = tuple(modules)
        game = self.referee.new_game(players, modules, seed, token=token)
        self._record = started_record(players, modules, seed, game)
        return game

    def apply(self, state: GameState, action: Action, *, token: str | None = None) -> Applied:
        """POST /v1/apply, the action appended; ValueError, before asking, when the record is
        full (MAX_RECORD_ACTIONS)."""
        recorded(self.record, action, None)  # full already: refused before the game moves on
        applied = self.referee.apply(state, action, token=token)
        self._record = recorded(self.record, action, applied)
        return applied
