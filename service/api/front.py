"""The front: a thin ASGI layer that answers the four judging endpoints before litestar does.

A referee sits in every move of every game of its clients, so the cost of a request is the
product. litestar's request machinery (routing, a Request and its header parsing, the DTO, a
Response and its conversion) costs more than a cache hit itself, which needs only the body's
bytes and two headers. So `POST /v1/validate`, `/v1/apply`, `/v1/legal-actions` and `/v1/score`
are answered here: the body read, its cache key hashed, and the answer sent from the cache or
computed by the same function the litestar controllers call (`judging.judged`), byte for byte
the same answer (tests/api/test_front.py holds the two to that).

Whatever is not plainly such a request goes on to litestar untouched, which answers it as
before: another path or method, a body without a length (chunked) or past MAX_BODY_BYTES (413),
an empty body, a client gone before its body arrived. The request observer sits outside the
front (app.py), so every answer is counted and logged whichever way it went.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from . import handlers, judging
from .errors import bug

_ENCODE = msgspec.json.Encoder().encode
_ROUTES = {path: (endpoint, body_type) for endpoint, (path, body_type, _) in judging.ENDPOINTS.items()}
_JSON = (b"content-type", b"application/json")

ASGIApp = Callable[[Any, Any, Any], Awaitable[None]]


class Front:
    """ASGI wrapper of the litestar app (`app`), whose `state` holds the cache, sealing,
    settings and one-future records."""

    def __init__(self, app: ASGIApp, state: Any) -> None:
        self.app = app
        self.state = state
        self.max_body = state.settings.max_body_bytes
        self._asked: dict[tuple[bytes, bytes], judging.Asking] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Answer one judging request, or hand it on to litestar.

        It stays one function, past radon's complexity 20 (issue 25), on purpose: it runs for
        every request, and one request's dispatch (headers, body, cache key, answer) is kept in
        one frame for speed; split into functions, it would add calls and awaited coroutines to
        the hot path whose throughput the project measures."""
        route = _ROUTES.get(scope["path"]) if scope["type"] == "http" else None
        if route is None or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        length, authorization, cache_control = -1, b"", b""
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = int(value) if value.isdigit() and len(value) < 16 else -2
            elif name == b"authorization" and not authorization:
                authorization = value
            elif name == b"cache-control" and not cache_control:
                cache_control = value
            elif name == b"transfer-encoding":
                length = -2
        if not 0 < length <= self.max_body:  # no length, chunked, empty or too large: litestar's
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        message = await receive()
        while message["type"] == "http.request":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
            message = await receive()
        else:  # the client left before its body was complete: litestar says so (400)
            await self.app(scope, _replay(chunks, message, receive), send)
            return
        raw = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        endpoint, body_type = route
        ask = self._asked.get((authorization, cache_control))
        if ask is None:  # what two headers ask, read once per spelling (a few per client)
            if len(self._asked) >= 1024:
                self._asked.clear()
            ask = self._asked[authorization, cache_control] = judging.asking(
                self.state.settings, authorization.decode("latin-1"), cache_control.decode("latin-1"))
        try:
            answer = await judging.judged(self.state, endpoint, handlers.Received(body_type, raw), ask)
        except handlers.RequestError as e:  # a body that does not decode: 400, as litestar answers it
            answer = judging.Answer(e.status, _ENCODE(e.body()))
        except Exception as e:
            answer = judging.Answer(500, _ENCODE(bug("POST", scope["path"], e)))
        headers = [_JSON, (b"content-length", b"%d" % len(answer.body))]
        headers += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers]
        await send({"type": "http.response.start", "status": answer.status, "headers": headers})
        await send({"type": "http.response.body", "body": answer.body})


def _replay(chunks: list[bytes], last: Any, receive: Any) -> Callable[[], Awaitable[Any]]:
    """A `receive` that gives the body read so far, then `last`, then what `receive` gives."""
    pending = [{"type": "http.request", "body": c, "more_body": True} for c in chunks]
    pending.append(last)

    async def replayed() -> Any:
        return pending.pop(0) if pending else await receive()

    return replayed
