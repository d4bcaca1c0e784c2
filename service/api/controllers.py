"""The litestar routes: those of the endpoint table (endpoints.py), made from its rows, and one
controller per other resource of the contract; each route names its operation and summary.

The cached endpoints' routes (validate, apply, legal-actions, score) document them in the
contract and answer through `judging.judged`, the fast path's own call (front.py); the served
app answers them on its fast path, so these routes are reached only where it is taken out.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

import anyio.to_thread
from litestar import Controller, Request, Response, get, post
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import JSONBody

from service import i18n
from service.cache import Cache, CacheStats
from service.settings import Settings

from . import handlers, judging
from .bodies import Health, Modules, Move, Readiness
from .decoding import StrictBody
from .endpoints import BAD_REQUEST, ENDPOINTS, FORBIDDEN, TOO_LARGE, Endpoint, error, ok, responses
from .handlers import Judge
from .reading import Received
from .render import SVG, RenderBody, RenderQuery, drawn
from .seats import Access

log = logging.getLogger("service.api")
_ENCODE = i18n.encode  # every Text worded in the request's language
JSON = "application/json"


def _json(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response[bytes]:
    return Response(body, status_code=status, media_type=JSON, headers=headers)


def asked(request: Request[Any, Any, Any]) -> judging.Asking:
    """What this request's headers ask (judging.asking)."""
    headers = request.headers
    return judging.asking(request.app.state.settings, headers.get("authorization", ""),
                          headers.get("cache-control", ""))


def access(request: Request[Any, Any, Any]) -> Access:
    """What this request may do: CALLERS, its seat token (`Authorization: Bearer <token>`) and
    LEGAL_ACTIONS_MAX_LIMIT."""
    return asked(request).access


async def judged(request: Request[Any, Any, Any], endpoint: Endpoint, received: Received) -> Response[bytes]:
    """A cached endpoint's answer (judging.judged: the fast path's, byte for byte)."""
    answer = await judging.judged(request.app.state, endpoint, received, asked(request))
    return _json(answer.body, answer.status, dict(answer.headers) or None)


async def answered(request: Request[Any, Any, Any], endpoint: Endpoint,
                   received: Received) -> Response[bytes]:
    """An uncached endpoint's answer: its handler's, with the app's sealing and memo (in a worker
    thread of the app's pool for a `threaded` endpoint, so the event loop serves others)."""
    state = request.app.state
    judge = Judge(state.sealing, access(request), state.memo, received.seen)
    answer = partial(endpoint.handler, received.body, judge)
    if endpoint.threaded:
        pool = judging.handler_pool(state)
        return _json(_ENCODE(await anyio.to_thread.run_sync(answer, limiter=pool)), endpoint.status)
    return _json(_ENCODE(answer()), endpoint.status)


def route(endpoint: Endpoint, settings: Settings) -> HTTPRouteHandler:
    """The litestar route of a row of the table: its path, operation, body, responses and the
    limit of its body (the setting it names)."""
    way = judged if endpoint.cached else answered

    async def answer(request: Request[Any, Any, Any], data: Received) -> Response[bytes]:
        return await way(request, endpoint, data)

    answer.__name__ = answer.__qualname__ = endpoint.name.replace("-", "_")
    answer.__doc__ = endpoint.description
    answer.__annotations__ = {"request": Request[Any, Any, Any], "data": JSONBody[Received],
                              "return": Response[bytes]}
    return post(endpoint.path, operation_id=endpoint.operation_id, summary=endpoint.summary,
                status_code=endpoint.status, tags=[endpoint.tag],
                dto=StrictBody.of(endpoint.body_type, lazy=True), return_dto=None,
                responses=endpoint.responses,
                request_max_body_size=getattr(settings, endpoint.body_limit))(answer)


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
              422: error("`inconsistent-state`, `outdated-state`, or `unknown-player` when no player has "
                          "that name."),
              403: FORBIDDEN,
          })
    async def render(self, request: Request[Any, Any, Any], data: JSONBody[RenderQuery]) -> Response[bytes]:
        """`{"state", "player"}`: the whole state (with sealing on: what a spectator sees), or
        with `player` only what that player may see (RULES.md §8); or a scoring position
        (API.md) with its breakdown. Drawn in a worker thread: a picture takes milliseconds,
        which the event loop should not wait for."""
        state = request.app.state  # drawn in the render pool (render.drawn), one at a time
        picture = await drawn(state, data, Judge(state.sealing, access(request), state.memo))
        return Response(picture.encode(), media_type=SVG)


class ModulesController(Controller):
    path = "/v1/modules"
    tags = ["games"]

    @get(operation_id="listModules", summary="The supported expansion modules",
         responses={200: ok(Modules, "Each module's id, name, rule ids and default data.")})
    async def modules(self, request: Request[Any, Any, Any]) -> Response[bytes]:
        """The modules a game may name in POST /v1/games, in the order their hooks run."""
        answers: dict[str, bytes] = request.app.state.modules_answer
        language = i18n.LANGUAGE.get()  # a module's name may be worded in the request's language
        answer = answers.get(language)
        if answer is None:
            answer = answers[language] = _ENCODE(handlers.modules())
        return _json(answer)


class EchoController(Controller):
    path = "/v1/echo"
    tags = ["operations"]

    @post(operation_id="echo", summary="Decode a body and send it back (benchmark baseline)",
          status_code=200, dto=StrictBody.of(Move), return_dto=None,
          responses=responses(Move, "The body, decoded into the structs of /v1/apply and encoded again.",
                               s422=error("`outdated-state`: the state was written before editions "
                                           "(no `edition`), in a form this referee no longer reads.")))
    async def echo(self, data: JSONBody[Move]) -> Response[bytes]:
        """No engine call: the cost of the HTTP layer and of decoding and encoding a state."""
        return _json(_ENCODE(data))


class HealthController(Controller):
    tags = ["operations"]

    @get("/healthz", operation_id="health", summary="Liveness",
         responses={200: ok(Health, "The process serves requests.")})
    async def health(self) -> Response[bytes]:
        """Always ok while the process serves requests."""
        return _json(b'{"status":"ok"}')

    @get("/readyz", operation_id="ready", summary="Readiness, with the cache backend",
         responses={200: ok(Readiness, "Ready; which cache tiers "
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
         responses={200: ok(CacheStats, "Counts since the "
                                      "process started; Redis is asked only after an LRU miss.")})
    async def stats(self, request: Request[Any, Any, Any]) -> Response[bytes]:
        """Hits and misses of the in-process LRU and of Redis, Redis errors and breaker state."""
        return _json(_ENCODE(request.app.state.cache.stats()))


def controllers(settings: Settings) -> list[Any]:
    """Every route of the app: one per row of the endpoint table, then the hand-written ones."""
    return [*(route(e, settings) for e in ENDPOINTS), ModulesController, EchoController,
            HealthController, CacheController, RenderController]
