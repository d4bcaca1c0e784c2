"""The litestar application: `create_app(settings)` wires routes, errors, cache and docs, with
the fast path (front.py) answering the cached endpoints before litestar routes anything.

`referee serve` runs it with uvicorn (`--factory service.api.app:create_app`), settings read
once from the environment. Metrics and request logs: `observe.py`.
"""

from __future__ import annotations

import gc
import logging
import sys
from typing import Any

from litestar import Litestar
from litestar.datastructures import State
from litestar.logging import LoggingConfig
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, Contact, SecurityScheme, Server

from service import i18n, logs, playground
from service.cache import Cache
from service.engine.text import Text, Word
from service.futures import FutureRecords
from service.seal import Sealing
from service.settings import Settings

from . import docs, front, observe, render
from .controllers import controllers
from .errors import EXCEPTION_HANDLERS
from .memo import States

TITLE = "Alhambra referee"
VERSION = "1.0.0"
DESCRIPTION = """A stateless referee for the board game Alhambra and its expansions.

Every request carries the whole game state; the same request always gives the same bytes.
Errors share one shape, `{"error", "message", "violations"}`: 400 `bad-request` for a body
that is not JSON or does not fit the schema (the message names the field's path), 413
`body-too-large` above the body limit, 422 for a well-formed request the rules refuse
(`inconsistent-state`, `illegal-action`, `bad-game-request`, `unknown-player`), each violation
citing a RULES.md rule id. Nothing a client sends produces a 5xx.

Limits on input: a body is at most MAX_BODY_BYTES (256 KiB by default; 413 above); every string,
list and integer a client sends is bounded in this schema (maxLength, maxItems, minimum and
maximum); the schema has no recursive types, so bodies nest at most 8 levels of objects and
arrays. A value past a bound is 400 naming its path; a body nested deeper than 8 levels is 400
before it is decoded.

Languages: every message (an error's `message`, a violation's, who must act and why, the score
sheet's labels) is worded in the language the request's `Accept-Language` prefers among English
(`en`), German (`de`), French (`fr`), Spanish (`es`) and Catalan (`ca`), English when it names
none of them; the answer says which in `Content-Language` (with `Vary: accept-language`). Rule
ids, error codes, action types, ids and field names never change with the language.
"""


def openapi_config() -> OpenAPIConfig:
    return OpenAPIConfig(
        title=TITLE, version=VERSION, description=DESCRIPTION,
        contact=Contact(name="Alhambra referee"), servers=[Server(url="/")],
        path="/schema", use_handler_docstrings=True, create_examples=False,
        render_plugins=docs.render_plugins(),
        # The seat token is optional (`{}`: none), so it is declared once for the whole document:
        # an operation's own `security` makes openapi-python-client ask for an AuthenticatedClient
        # even where the token is optional (issue 26). Which requests need it: the scheme says.
        security=[{}, {"seatToken": []}],
        components=Components(security_schemes={"seatToken": SecurityScheme(
            type="http", scheme="bearer",
            description="A seat's token, from `seat_tokens` of POST /v1/games (sealing on). Needed "
                        "only when the referee runs with CALLERS=players: by requests that act for "
                        "that seat or show its secrets (validate, apply, legal-actions, a player's "
                        "view or picture).")}),
    )


class Referee(Litestar):
    """The Litestar app with the request observer and the fast path in front of it.

    Every HTTP request goes through `observer` (which counts and logs it, a 404 too: litestar's
    own middleware runs for matched routes only) and the fast path (`front`), then, unless the
    fast path answered it, through `Litestar.__call__` (the app's public ASGI entry, which this
    extends rather than replacing any of litestar's attributes). Lifespan and other scopes go
    to litestar directly."""

    observer: observe.RequestObserver
    front: front.Front

    def wrap(self, cache: Cache, access_log: logs.AccessLog) -> None:
        """Put the fast path and the observer in front of litestar."""
        self.front = front.Front(super().__call__, self.state)
        self.observer = observe.RequestObserver(self.front, cache, (route.path for route in self.routes),
                                                access_log)
        self.state.observer = self.observer

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            language = i18n.negotiate(_header(scope, b"accept-language"))
            told = i18n.LANGUAGE.set(language)  # every Text of this answer is worded in it
            try:
                await self.observer(scope, receive, _telling(send, language))
            finally:
                i18n.LANGUAGE.reset(told)
        else:
            await super().__call__(scope, receive, send)


def _header(scope: Any, name: bytes) -> str | None:
    """A request header's value, its repeated fields joined by commas (RFC 9110 5.3), or None."""
    values = [value.decode("latin-1") for key, value in scope["headers"] if key == name]
    return ", ".join(values) if values else None


def _telling(send: Any, language: str) -> Any:
    """`send`, the answer's start saying its language (Content-Language) and that it depends on
    the request's Accept-Language (Vary: shared caches keep one answer per language), unless
    the answer says its language itself (a page's HTML, the pages' words of one language)."""
    told = [(b"content-language", language.encode()), (b"vary", b"accept-language")]

    async def telling(message: Any) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            if not any(key.lower() == b"content-language" for key, _ in headers):
                message = {**message, "headers": [*headers, *told]}
        await send(message)

    return telling


def create_app(settings: Settings | None = None) -> Referee:
    """The HTTP referee; `settings` default to those of the environment."""
    settings = settings or Settings.from_env()
    cache = Cache.from_settings(settings)
    futures = FutureRecords.from_settings(settings, cache)
    state = State({
        "settings": settings,
        "cache": cache,
        "futures": futures,
        "sealing": Sealing.from_settings(settings),
        "memo": States(),  # the states met lately (memo.py): the app's, for its lifetime
        "modules_answer": {},  # GET /v1/modules' answer by language (controllers.py), made once each
    })

    access_log = logs.AccessLog()

    async def close_cache() -> None:
        access_log.flush()
        await futures.close(cache)
        await cache.close()

    app = Referee(
        route_handlers=[*controllers(settings), docs.assets_router(), *playground.routes(),
                        observe.MetricsController],
        exception_handlers=EXCEPTION_HANDLERS,
        # the engine's messages in litestar's own answers, worded in the request's language
        type_encoders={Text: i18n.hook, Word: i18n.hook},
        openapi_config=openapi_config(),
        request_max_body_size=settings.max_body_bytes,
        state=state,
        on_shutdown=[close_cache],
        logging_config=LoggingConfig(
            root={"level": settings.log_level.upper(), "handlers": ["queue_listener"]},
            formatters={"standard": logs.formatter()},
            log_exceptions="never",
        ),
        debug=False,
    )
    app.wrap(cache, access_log)
    return app


def create_served_app() -> Referee:
    """The app of a `referee serve` worker: `create_app` whose start ends by freezing every
    object alive then (the app, its routes, the engine's catalogue: some 60,000) out of the
    cyclic garbage collector, so that a full collection, should one come, walks only what was
    made since (a full collection of the start's objects takes 20 to 80 ms on this machine),
    and handing the interpreter's lock to the event loop within 1 ms of its asking (while a
    picture is drawn: render.SWITCH_INTERVAL). Not in `create_app`: tests make many apps in one
    process."""
    app = create_app()
    app.on_startup.append(_freeze_what_lives)
    sys.setswitchinterval(render.SWITCH_INTERVAL)  # the event loop beside the render pool
    return app


def _freeze_what_lives() -> None:
    gc.collect()
    gc.freeze()


logging.getLogger("service.api").addHandler(logging.NullHandler())
