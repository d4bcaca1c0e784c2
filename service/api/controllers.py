"""One controller per resource of the contract; each route names its operation and summary.

The four judging endpoints (validate, apply, legal-actions, score) answer through `cached`:
the answer's exact bytes are kept under a hash of the canonical body and the engine version.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from typing import Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import JSONBody

from service.cache import Cache, CacheStats, RedisUnavailable, cache_key
from service.engine import Violation
from service.futures import FutureRecords
from service.seal import SealError, Sealing

from . import handlers
from .bodies import (
    Applied,
    Breakdown,
    ErrorBody,
    GameAnswer,
    Health,
    LegalActions,
    LegalActionsQuery,
    Modules,
    Move,
    NewGame,
    Readiness,
    ScoreQuery,
    Validity,
    View,
    ViewQuery,
)
from .decoding import StrictBody
from .render import SVG, RenderBody, RenderQuery, render

Received = JSONBody[handlers.Received]  # a cached endpoint's body, decoded only on a cache miss

log = logging.getLogger("service.api")
_ENCODE = msgspec.json.Encoder().encode
JSON = "application/json"
NO_CACHE = "no-cache"


def _error(description: str) -> ResponseSpec:
    return ResponseSpec(data_container=ErrorBody, description=description, generate_examples=False)


BAD_REQUEST = _error("The body is not JSON or does not fit the schema (wrong type, unknown field, "
                     "value out of range); the message names the field's path, e.g. `$.state.turn`.")
TOO_LARGE = _error("The body is larger than the limit (setting MAX_BODY_BYTES, 256 KiB by default).")
FORBIDDEN = _error("`forbidden` (CALLERS=players only): the request acts for a seat or shows its "
                   "secrets and carries no `Authorization: Bearer <seat token>` of that seat.")
SEAT_TOKEN = [{}, {"seatToken": []}]  # the header is optional: needed only with CALLERS=players
INCONSISTENT = _error("`inconsistent-state`: the state (or position) cannot occur in a game; "
                      "`violations` says why. `outdated-state`: the state was made under an older "
                      "edition of the rules whose changes concern its game (`state.edition`). "
                      "With sealing on: `bad-seal` (altered, cut, another "
                      "state's or an unknown key's seal) or `unsealed-state`. Scoring: "
                      "`position-too-complex`, walls that branch past the search's bound.")


def _ok(answer: type, description: str) -> ResponseSpec:
    return ResponseSpec(data_container=answer, description=description, generate_examples=False)


def _responses(answer: type, description: str, status: int = 200,
               **refusals: ResponseSpec) -> dict[int, ResponseSpec]:
    out = {status: _ok(answer, description), 400: BAD_REQUEST, 413: TOO_LARGE}
    out.update({int(code.removeprefix("s")): spec for code, spec in refusals.items()})
    return out


def _json(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response[bytes]:
    return Response(body, status_code=status, media_type=JSON, headers=headers)


def access(request: Request[Any, Any, Any]) -> handlers.Access:
    """What this request may do: CALLERS, its seat token (`Authorization: Bearer <token>`) and
    LEGAL_ACTIONS_MAX_LIMIT."""
    settings = request.app.state.settings
    scheme, _, token = request.headers.get("authorization", "").strip().partition(" ")
    return handlers.Access(players=settings.callers == "players",
                           token=token.strip() or None if scheme.lower() == "bearer" else None,
                           legal_actions_limit=settings.legal_actions_max_limit)


def no_cache(request: Request[Any, Any, Any]) -> bool:
    """`Cache-Control: no-cache` among the header's directives, in any case (RFC 9111: directive
    names are case-insensitive)."""
    header = request.headers.get("cache-control", "")
    return any(d.split("=", 1)[0].strip().lower() == NO_CACHE for d in header.split(","))


async def cached(request: Request[Any, Any, Any], endpoint: str, received: handlers.Received,
                 compute: Callable[[Any, Sealing, handlers.Access], Any]) -> Response[bytes]:
    """The answer from the cache, or computed and stored (refusals too: they are as determined).

    The key is the body's bytes (and the engine version): a hit is found before the body is
    decoded. The stored value is the status as 3 digits followed by the exact response bytes. A
    request with `Cache-Control: no-cache` skips the lookup (it is computed, then stored). A body
    that does not decode is answered 400 and not stored.
    """
    cache: Cache = request.app.state.cache
    sealing: Sealing = request.app.state.sealing
    asking = access(request)
    scope = f"{endpoint}@{sealing.fingerprint}@{asking.legal_actions_limit}"
    if asking.players:  # the answer depends on the seat token too (403 or the seat's own answer)
        scope += "@" + hashlib.sha256((asking.token or "").encode()).hexdigest()
    key = cache_key(scope, received.raw)
    if not no_cache(request):
        stored, tier = await cache.get(key)
        if stored is not None:
            return _json(stored[3:], int(stored[:3]), {"x-cache": f"hit-{tier}"})
    body = received.body  # 400 here for a body that does not fit the schema
    try:
        status, out = 200, _ENCODE(compute(body, sealing, asking))
    except handlers.RequestError as e:
        status, out = e.status, _ENCODE(e.body())
    cache.put(key, b"%03d" % status + out)
    return _json(out, status, {"x-cache": "miss"})


async def one_future(request: Request[Any, Any, Any], received: handlers.Received) -> Response[bytes] | None:
    """The refusal of an apply that would give a sealed state a second future, else None.

    With sealing and Redis on (ONE_FUTURE), the first legal action applied to a sealed state is
    recorded (`service.futures`: state id -> seat and action digest). The same action from the
    same seat again is a retry and gets the same answer; another one is refused 409, so nobody
    can try several actions from one state to peek at the next draw. Illegal actions are not
    recorded. While Redis cannot record, ONE_FUTURE_WHEN_REDIS_DOWN decides: refuse (503, the
    default) or allow.
    """
    settings = request.app.state.settings
    futures: FutureRecords = request.app.state.futures
    sealing: Sealing = request.app.state.sealing
    if not (sealing.enabled and settings.one_future and futures.enabled):
        return None  # the record needs a store all replicas share: without Redis, no protection
    body = received.body
    if body.state.seal is None:  # an unsealed state (ALLOW_UNSEALED): not protected
        return None
    try:
        found = sealing.open(body.state)  # it opened for the answer just given (a cached one too:
    except SealError as e:                # the cache key covers the keys' material)
        return _error_answer(422, e.error, e.message, rule="referee.seal")
    # The seat is part of the record: a retry is recognised only from the seat that acted (with
    # CALLERS=players the seat token's, which the answer just given has checked).
    seat = found.state.seat_of(body.action.player)
    action = hashlib.sha256(b"%d\0" % seat + _ENCODE(body.action)).digest()
    state_id = found.future_id
    try:
        standing = await futures.claim(state_id, action)
    except RedisUnavailable as e:
        if settings.one_future_when_redis_down == "allow":
            log.warning("one future not recorded (%s); allowed by ONE_FUTURE_WHEN_REDIS_DOWN", e)
            return None
        message = (f"the referee cannot record this state's one future now ({e}); retry later "
                   "(ONE_FUTURE_WHEN_REDIS_DOWN=refuse)")
        return _error_answer(503, "one-future-unavailable", message, {"retry-after": "1"})
    if standing != action:
        return _error_answer(409, "already-advanced", "another action was already applied to this "
                             "sealed state: a state has one future (referee.one-future); send that "
                             "action again to get its answer, or go on from the state it gave")
    return None


def _error_answer(status: int, error: str, message: str, headers: dict[str, str] | None = None,
                  rule: str = "referee.one-future") -> Response[bytes]:
    body = ErrorBody(error=error, message=message,  # type: ignore[arg-type]
                     violations=(Violation(rule, message),))
    return _json(_ENCODE(body), status, headers)


class GamesController(Controller):
    path = "/v1/games"
    tags = ["games"]

    @post(operation_id="createGame", summary="Set up a new game", status_code=201,
          dto=StrictBody.of(NewGame), return_dto=None,
          responses=_responses(GameAnswer, "The state after the setup of RULES.md §2 and of each module.",
                               201, s422=_error("`bad-game-request`: the players or modules cannot "
                                                "make a game (2 to 6 unique names, known modules).")))
    async def create_game(self, request: Request[Any, Any, Any], data: JSONBody[NewGame]) -> Response[bytes]:
        """A new game's state after every setup step; all chance comes from `seed` (default 0)."""
        return _json(_ENCODE(handlers.new_game(data, request.app.state.sealing)), 201)


class ValidateController(Controller):
    path = "/v1/validate"
    tags = ["referee"]

    @post(operation_id="validateAction", summary="Is an action legal in a state?", status_code=200,
          dto=StrictBody.of(Move, lazy=True), return_dto=None,
          responses=_responses(Validity, "Whether the action is legal, and if not, the violations.",
                               s422=INCONSISTENT, s403=FORBIDDEN), security=SEAT_TOKEN)
    async def validate(self, request: Request[Any, Any, Any], data: Received) -> Response[bytes]:
        """The violations of the action (rule id and message each), empty when it is legal.

        Cached: send `Cache-Control: no-cache` to have it computed; `x-cache` says hit or miss."""
        return await cached(request, "validate", data, handlers.validate)


class ApplyController(Controller):
    path = "/v1/apply"
    tags = ["referee"]

    @post(operation_id="applyAction", summary="Apply a legal action to a state", status_code=200,
          dto=StrictBody.of(Move, lazy=True), return_dto=None,
          responses=_responses(Applied, "The new state, the events, the scoring rounds triggered and "
                               "whether the game is over.",
                               s422=_error("`illegal-action` with the violations, `inconsistent-state`, "
                                           "`outdated-state`, `position-too-complex` (a scoring round "
                                           "it triggers), or with sealing on `bad-seal` / "
                                           "`unsealed-state`."),
                               s409=_error("`already-advanced`: with sealing and Redis on, another "
                                           "action was already applied to this sealed state "
                                           "(referee.one-future)."),
                               s503=_error("`one-future-unavailable`: the one-future record cannot be "
                                           "made while Redis is down, or no replica confirmed it in "
                                           "time (ONE_FUTURE_REPLICAS) (ONE_FUTURE_WHEN_REDIS_DOWN="
                                           "refuse); retry after `Retry-After` seconds."),
                               s403=FORBIDDEN), security=SEAT_TOKEN)
    async def apply(self, request: Request[Any, Any, Any], data: Received) -> Response[bytes]:
        """The state after the action; chance (draws, refills) comes from the state's generator.

        Cached: send `Cache-Control: no-cache` to have it computed; `x-cache` says hit or miss."""
        answer = await cached(request, "apply", data, handlers.apply)
        if answer.status_code == 200:
            return await one_future(request, data) or answer
        return answer


class LegalActionsController(Controller):
    path = "/v1/legal-actions"
    tags = ["referee"]

    @post(operation_id="listLegalActions", summary="List the legal actions of a state", status_code=200,
          dto=StrictBody.of(LegalActionsQuery, lazy=True), return_dto=None,
          responses=_responses(LegalActions, "Up to `limit` legal actions, each of which passes "
                               "/v1/validate, and whether the list was cut short (at most "
                               "LEGAL_ACTIONS_MAX_LIMIT; with CALLERS=players only the seat token's "
                               "seat's).", s403=FORBIDDEN,
                               s422=_error(INCONSISTENT.description + " `unknown-player` when no "
                                           "player has the name given as `player`.")), security=SEAT_TOKEN)
    async def legal_actions(self, request: Request[Any, Any, Any],
                            data: Received) -> Response[bytes]:
        """The actions the players who may act can take now, in a stable order; with `player`,
        only that player's (an answer's `to_act` names who may act: the active player, a player
        a decision waits for, the players of an out-of-turn window such as the thieves')."""
        return await cached(request, "legal-actions", data, handlers.legal_actions)


class ScoreController(Controller):
    path = "/v1/score"
    tags = ["scoring"]

    @post(operation_id="scorePosition", summary="Score a position or a game state", status_code=200,
          dto=StrictBody.of(ScoreQuery, lazy=True), return_dto=None,
          responses=_responses(Breakdown, "The scoring round's breakdown: lines and total per player, "
                               "and the ranking by running score (with `previous`: the running "
                               "totals of the score sheet; after round 3 the final ranking).",
                               s422=INCONSISTENT))
    async def score(self, request: Request[Any, Any, Any], data: Received) -> Response[bytes]:
        """A scoring position of a real table (API.md), each player given by tiles or by a
        `tally` of what was counted, with the earlier rounds' answers as `previous` for a score
        sheet; or `{"state", "round"}` for a game state."""
        return await cached(request, "score", data, handlers.score)


class ViewController(Controller):
    path = "/v1/view"
    tags = ["games"]

    @post(operation_id="viewState", summary="What one player may see of a state", status_code=200,
          dto=StrictBody.of(ViewQuery), return_dto=None,
          responses=_responses(View, "The state with what the player may not see hidden (RULES.md §8).",
                               s422=_error("`inconsistent-state`, `outdated-state`, or `unknown-player` "
                                           "when no player has that name."), s403=FORBIDDEN),
          security=SEAT_TOKEN)
    async def view(self, request: Request[Any, Any, Any], data: JSONBody[ViewQuery]) -> Response[bytes]:
        """Hands of the others, the deck's and the bag's order and the generator are hidden; a
        missing `player` is a spectator."""
        return _json(_ENCODE(handlers.player_view(data, request.app.state.sealing, access(request))))


class RenderController(Controller):
    path = "/v1/render"
    tags = ["games"]

    @post(operation_id="renderPicture", summary="Draw a state, a player's view or a scoring position",
          status_code=200, dto=RenderBody, return_dto=None, sync_to_thread=True,
          responses={
              200: ResponseSpec(data_container=str, media_type=SVG, generate_examples=False,
                                description="An SVG picture: every Alhambra on its grid with its walls "
                                "and tokens, each reserve, the market, the money display, the module "
                                "parts and the scores (with a position: its scoring round)."),
              400: BAD_REQUEST, 413: TOO_LARGE,
              422: _error("`inconsistent-state`, `outdated-state`, or `unknown-player` when no player has "
                          "that name."),
              403: FORBIDDEN,
          }, security=SEAT_TOKEN)
    def render(self, request: Request[Any, Any, Any], data: JSONBody[RenderQuery]) -> Response[bytes]:
        """`{"state", "player"}`: the whole state (with sealing on: what a spectator sees), or
        with `player` only what that player may see (RULES.md §8); or a scoring position
        (API.md) with its breakdown. Drawn in a worker thread: a picture takes milliseconds,
        which the event loop should not wait for."""
        return Response(render(data, request.app.state.sealing, access(request)).encode(), media_type=SVG)


class ModulesController(Controller):
    path = "/v1/modules"
    tags = ["games"]

    @get(operation_id="listModules", summary="The supported expansion modules",
         responses={200: _ok(Modules, "Each module's id, name, rule ids and default data.")})
    async def modules(self, request: Request[Any, Any, Any]) -> Response[bytes]:
        """The modules a game may name in POST /v1/games, in the order their hooks run."""
        return _json(request.app.state.modules_answer)


class EchoController(Controller):
    path = "/v1/echo"
    tags = ["operations"]

    @post(operation_id="echo", summary="Decode a body and send it back (benchmark baseline)",
          status_code=200, dto=StrictBody.of(Move), return_dto=None,
          responses=_responses(Move, "The body, decoded into the structs of /v1/apply and encoded again.",
                               s422=_error("`outdated-state`: the state was written before editions "
                                           "(no `edition`), in a form this referee no longer reads.")))
    async def echo(self, data: JSONBody[Move]) -> Response[bytes]:
        """No engine call: the cost of the HTTP layer and of decoding and encoding a state."""
        return _json(_ENCODE(data))


class HealthController(Controller):
    tags = ["operations"]

    @get("/healthz", operation_id="health", summary="Liveness",
         responses={200: _ok(Health, "The process serves requests.")})
    async def health(self) -> Response[bytes]:
        """Always ok while the process serves requests."""
        return _json(b'{"status":"ok"}')

    @get("/readyz", operation_id="ready", summary="Readiness, with the cache backend",
         responses={200: _ok(Readiness, "Ready; which cache tiers "
                                      "are on and whether Redis answers (the referee works without it).")})
    async def ready(self, request: Request[Any, Any, Any]) -> Response[bytes]:
        """Ready whenever the process is up: Redis is an optimisation, so `down` is still ready."""
        cache: Cache = request.app.state.cache
        redis = "off" if not cache.redis.enabled else ("up" if await cache.redis.ping() else "down")
        ready = Readiness(status="ready", cache=cache.backend, redis=redis)  # type: ignore[arg-type]
        return _json(_ENCODE(ready))


class CacheController(Controller):
    path = "/v1/cache"
    tags = ["operations"]

    @get("/stats", operation_id="cacheStats", summary="Cache hits and misses per tier",
         responses={200: _ok(CacheStats, "Counts since the "
                                      "process started; Redis is asked only after an LRU miss.")})
    async def stats(self, request: Request[Any, Any, Any]) -> Response[bytes]:
        """Hits and misses of the in-process LRU and of Redis, Redis errors and breaker state."""
        return _json(_ENCODE(request.app.state.cache.stats()))


CONTROLLERS = [GamesController, ValidateController, ApplyController, LegalActionsController,
               ScoreController, ViewController, ModulesController, EchoController, HealthController,
               CacheController, RenderController]
