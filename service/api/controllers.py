"""One controller per resource of the contract; each route names its operation and summary.

The four judging endpoints (validate, apply, legal-actions, score) answer through
`judging.judged`, as the front (front.py) does before litestar sees them: the answer's exact
bytes are kept under a hash of the body's bytes and the engine version.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import JSONBody

from service.cache import Cache, CacheStats

from . import handlers, judging
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
from .render import SVG, RenderBody, RenderQuery, drawn

Received = JSONBody[handlers.Received]  # a cached endpoint's body, decoded only on a cache miss

log = logging.getLogger("service.api")
_ENCODE = msgspec.json.Encoder().encode
JSON = "application/json"


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


def asked(request: Request[Any, Any, Any]) -> judging.Asking:
    """What this request's headers ask (judging.asking)."""
    headers = request.headers
    return judging.asking(request.app.state.settings, headers.get("authorization", ""),
                          headers.get("cache-control", ""))


def access(request: Request[Any, Any, Any]) -> handlers.Access:
    """What this request may do: CALLERS, its seat token (`Authorization: Bearer <token>`) and
    LEGAL_ACTIONS_MAX_LIMIT."""
    return asked(request).access


async def judged(request: Request[Any, Any, Any], endpoint: str,
                 received: handlers.Received) -> Response[bytes]:
    """A judging endpoint's answer (judging.judged: the front's answer too, byte for byte)."""
    answer = await judging.judged(request.app.state, endpoint, received, asked(request))
    return _json(answer.body, answer.status, dict(answer.headers) or None)


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
        return await judged(request, "validate", data)


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
        return await judged(request, "apply", data)


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
        return await judged(request, "legal-actions", data)


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
        return await judged(request, "score", data)


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
          status_code=200, dto=RenderBody, return_dto=None,
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
    async def render(self, request: Request[Any, Any, Any], data: JSONBody[RenderQuery]) -> Response[bytes]:
        """`{"state", "player"}`: the whole state (with sealing on: what a spectator sees), or
        with `player` only what that player may see (RULES.md §8); or a scoring position
        (API.md) with its breakdown. Drawn in a worker thread: a picture takes milliseconds,
        which the event loop should not wait for."""
        state = request.app.state  # drawn in the render pool (render.drawn), one at a time
        picture = await drawn(state, data, state.sealing, access(request))
        return Response(picture.encode(), media_type=SVG)


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
