"""The cached endpoints' answers (validate, apply, legal-actions, score: `cached` in the table of
endpoints.py), from the body's bytes and the two headers that matter, with no HTTP framework
object in sight.

The fast path (front.py) answers these endpoints whole in the served app; their litestar routes
(controllers.py) document them in the OpenAPI contract and call this same function, and are
reached only where the fast path is taken out (tests/api/test_front.py compares the two). Each
answer is the cache's when it has one; else computed by the endpoint's handler and stored
(refusals too: they are as determined).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio.to_thread
from anyio import CapacityLimiter

from service import i18n
from service.cache import Cache, RedisUnavailable, cache_key
from service.engine import Violation
from service.engine.text import t
from service.futures import FutureRecords
from service.seal import Sealing

from .bodies import ErrorBody
from .endpoints import Endpoint
from .handlers import Judge, unsealed
from .memo import States
from .reading import Received
from .refusals import RequestError
from .seats import Access

log = logging.getLogger("service.api")
_ENCODE = i18n.encode  # every Text worded in the request's language
HANDLER_THREADS = 2  # a `threaded` endpoint's answers computed at once, per worker


def handler_pool(state: Any) -> CapacityLimiter:
    """The worker threads of the `threaded` endpoints (HANDLER_THREADS), one pool per app."""
    pool = state.get("handler_pool")
    if pool is None:
        pool = state["handler_pool"] = CapacityLimiter(HANDLER_THREADS)
    return pool


@dataclass(frozen=True, slots=True)
class Answer:
    """Status, body and the headers besides content-type and content-length."""

    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Asking:
    """What the request's headers ask: who may act (CALLERS, the seat token) and whether the
    cache may answer (`Cache-Control: no-cache` says no)."""

    access: Access
    no_cache: bool


def asking(settings: Any, authorization: str, cache_control: str) -> Asking:
    """From the `Authorization` and `Cache-Control` headers ("" when absent)."""
    scheme, _, token = authorization.strip().partition(" ")
    access = Access(players=settings.callers == "players",
                             token=token.strip() or None if scheme.lower() == "bearer" else None,
                             legal_actions_limit=settings.legal_actions_max_limit,
                             futures_recorded=bool(settings.one_future and (
                                 settings.one_future_redis_url or settings.redis_url)))
    return Asking(access, no_cache(cache_control))


def no_cache(cache_control: str) -> bool:
    """`no-cache` among the header's directives, in any case (RFC 9111: directive names are
    case-insensitive)."""
    return "no-cache" in cache_control.lower() and any(
        d.split("=", 1)[0].strip().lower() == "no-cache" for d in cache_control.split(","))


async def judged(state: Any, endpoint: Endpoint, received: Received, ask: Asking) -> Answer:
    """The endpoint's answer to the body `received`; `state` holds the app's cache, sealing,
    memo of states, settings and one-future records. A body that does not decode is 400
    (RequestError)."""
    sealing = state.sealing
    pool = handler_pool(state) if endpoint.threaded else None
    answer = await cached(state.cache, sealing, endpoint, received, ask, pool)
    if endpoint.name == "apply" and answer.status == 200 and sealing.enabled:
        return await one_future(state, received, ask) or answer
    return answer


async def cached(cache: Cache, sealing: Sealing, endpoint: Endpoint, received: Received,
                 ask: Asking, pool: CapacityLimiter | None = None) -> Answer:
    """The answer from the cache, or computed and stored.

    The key is the body's bytes (and the engine version, the sealing keys' fingerprint, the
    listing limit, the language negotiated (i18n.LANGUAGE) and, with CALLERS=players, the seat
    token): a hit is found before the body is decoded. The stored value is the status as 3
    digits followed by the exact answer's bytes. A request with `Cache-Control: no-cache` skips
    the lookup (it is computed, then stored). A body that does not decode raises the 400 and is
    not stored. With `pool` (a `threaded` endpoint) the answer is computed in one of its worker
    threads, so the event loop serves others.
    """
    access = ask.access
    scope = (f"{endpoint.name}{endpoint.code}@{sealing.fingerprint}@{access.legal_actions_limit}"
             f"@{i18n.LANGUAGE.get()}")  # the answer's messages are worded in the request's language
    if access.players:  # the answer depends on the seat token too (403 or the seat's own answer)
        scope += "@" + hashlib.sha256((access.token or "").encode()).hexdigest()
    key = cache_key(scope, received.raw)
    if not ask.no_cache:
        stored, tier = await cache.get(key)
        if stored is not None:
            return Answer(int(stored[:3]), stored[3:], (("x-cache", _HIT[tier]),))
    body = received.body  # 400 here for a body that does not fit the schema
    memo: States = received.memo  # type: ignore[assignment]
    answer = partial(endpoint.handler, body, Judge(sealing, access, memo, received.seen))
    try:
        if pool is None:
            status, out = 200, _ENCODE(answer())
        else:
            status, out = 200, _ENCODE(await anyio.to_thread.run_sync(answer, limiter=pool))
    except RequestError as e:
        status, out = e.status, _ENCODE(e.body())
    cache.put(key, b"%03d" % status + out)
    return Answer(status, out, _MISS)


_HIT = {"memory": "hit-memory", "redis": "hit-redis"}
_MISS = (("x-cache", "miss"),)


async def one_future(state: Any, received: Received, ask: Asking) -> Answer | None:
    """The refusal of an apply that would give a sealed state a second future, else None.

    With sealing and Redis on (ONE_FUTURE), the first legal action applied to a sealed state is
    recorded (`service.futures`: state id -> seat and action digest). The same action from the
    same seat again is a retry and gets the same answer; another one is refused 409, so nobody
    can try several actions from one state to peek at the next draw. Illegal actions are not
    recorded. While Redis cannot record, ONE_FUTURE_WHEN_REDIS_DOWN decides: refuse (503, the
    default) or allow.
    """
    settings = state.settings
    futures: FutureRecords = state.futures
    sealing: Sealing = state.sealing
    if not (sealing.enabled and settings.one_future and futures.enabled):
        return None  # the record needs a store all replicas share: without Redis, no protection
    body = received.body
    if body.state.seal is None:  # an unsealed state (ALLOW_UNSEALED): not protected
        return None
    try:  # it opened for the answer just given (a cached one too: the key covers the keys' material)
        found = unsealed(body.state, Judge(sealing, ask.access, received.memo or States(), received.seen))
    except RequestError as e:
        return Answer(e.status, _ENCODE(e.body()))
    # The seat is part of the record: a retry is recognised only from the seat that acted (with
    # CALLERS=players the seat token's, which the answer just given has checked).
    seat = found.state.seat_of(body.action.player)
    action = hashlib.sha256(b"%d\0" % seat + _ENCODE(body.action)).digest()
    try:
        standing = await futures.claim(found.future_id, action)
    except RedisUnavailable as e:
        if settings.one_future_when_redis_down == "allow":
            log.warning("one future not recorded (%s); allowed by ONE_FUTURE_WHEN_REDIS_DOWN", e)
            return None
        message = t("the referee cannot record this state's one future now ({reason}); retry later "
                    "(ONE_FUTURE_WHEN_REDIS_DOWN=refuse)", reason=str(e))
        return error_answer(503, "one-future-unavailable", message, (("retry-after", "1"),))
    if standing != action:
        return error_answer(409, "already-advanced", t("another action was already applied to this "
                            "sealed state: a state has one future (referee.one-future); send that "
                            "action again to get its answer, or go on from the state it gave"))
    return None


def error_answer(status: int, error: str, message: str, headers: tuple[tuple[str, str], ...] = (),
                 rule: str = "referee.one-future") -> Answer:
    body = ErrorBody(error=error, message=message,  # type: ignore[arg-type]
                     violations=(Violation(rule, message),))
    return Answer(status, _ENCODE(body), headers)
