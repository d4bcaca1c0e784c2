"""The fast path: a thin ASGI layer that answers the cached endpoints whole, before litestar.

A referee sits in every move of every game of its clients, so the cost of a request is the
product. litestar's request machinery (routing, a Request and its header parsing, the DTO, a
Response and its conversion) costs more than a cache hit itself, which needs only the body's
bytes and two headers. So the endpoints the table marks `cached` (endpoints.py: POST
/v1/validate, /v1/apply, /v1/legal-actions, /v1/score) are answered here and only here: the
body read, its cache key hashed, and the answer sent from the cache or computed by
`judging.judged`; a body that is empty, past MAX_BODY_BYTES (413), chunked, of a malformed
length, or cut short by a client that left is answered here too, with litestar's words. Their
litestar routes exist for the contract (and call the same `judging.judged`); no request of the
served app reaches them (tests/api/test_front.py holds both to that, and to the same bytes).

Another method or path goes on to litestar untouched. The request observer sits outside the
front (app.py), so every answer is counted and logged whichever way it went.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from service import i18n

from . import judging
from .endpoints import ENDPOINTS, Endpoint
from .errors import EMPTY, GONE, bug, too_large
from .memo import States
from .reading import Received
from .refusals import RequestError
from .wording import invalid_content_length

_ENCODE = i18n.encode  # every Text worded in the request's language
ROUTES: dict[str, Endpoint] = {e.path: e for e in ENDPOINTS if e.cached}
_JSON = (b"content-type", b"application/json")


class Worded:
    """A fixed refusal, encoded once per language (in the request's: i18n.LANGUAGE) on first use."""

    __slots__ = ("_by_language", "body", "status")

    def __init__(self, status: int, body: object) -> None:
        self.status, self.body = status, body
        self._by_language: dict[str, judging.Answer] = {}

    def answer(self) -> judging.Answer:
        language = i18n.LANGUAGE.get()
        found = self._by_language.get(language)
        if found is None:
            found = self._by_language[language] = judging.Answer(self.status, _ENCODE(self.body))
        return found


_EMPTY = Worded(400, EMPTY)
_GONE = Worded(400, GONE)

ASGIApp = Callable[[Any, Any, Any], Awaitable[None]]


class Front:
    """ASGI wrapper of the litestar app (`app`), whose `state` holds the cache, sealing, memo of
    states, settings and one-future records."""

    def __init__(self, app: ASGIApp, state: Any) -> None:
        self.app = app
        self.state = state
        self.memo: States = state.memo
        self.max_body = state.settings.max_body_bytes
        self._too_large = Worded(413, too_large(self.max_body))
        self._asked: dict[tuple[bytes, bytes], judging.Asking] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Answer one request of a cached endpoint, or hand another on to litestar.

        It stays one function, at radon's complexity 21 (issue 25: past 20 on purpose): it runs
        for every request, and one request's dispatch (headers, body, cache key, answer) is kept
        in one frame for speed; split further, it would add calls and awaited coroutines to the
        hot path whose throughput the project measures. The unusual bodies are answered by
        `_refusal` and `_rest`, off that path."""
        endpoint = ROUTES.get(scope["path"]) if scope["type"] == "http" else None
        if endpoint is None or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        length, authorization, cache_control = b"", b"", b""
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
            elif name == b"authorization" and not authorization:
                authorization = value
            elif name == b"cache-control" and not cache_control:
                cache_control = value
        answer = self._refusal(length)
        if answer is None:
            message = await receive()
            if message["type"] == "http.request" and not message.get("more_body", False):
                raw = message.get("body", b"")
            else:
                raw, answer = await self._rest(message, receive)
            if answer is None and not 0 < len(raw) <= self.max_body:  # a length not told, or wrong
                answer = self._too_large.answer() if raw else _EMPTY.answer()
        if answer is None:
            ask = self._asked.get((authorization, cache_control)) or self._ask(authorization, cache_control)
            try:
                received = Received(endpoint.body_type, raw, self.memo)
                answer = await judging.judged(self.state, endpoint, received, ask)
            except RequestError as e:  # a body that does not decode: 400
                answer = judging.Answer(e.status, _ENCODE(e.body()))
            except Exception as e:
                answer = judging.Answer(500, _ENCODE(bug("POST", scope["path"], e)))
        headers = [_JSON, (b"content-length", b"%d" % len(answer.body))]
        headers += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers]
        await send({"type": "http.response.start", "status": answer.status, "headers": headers})
        await send({"type": "http.response.body", "body": answer.body})

    def _ask(self, authorization: bytes, cache_control: bytes) -> judging.Asking:
        """What two headers ask, read once per spelling (a few per client)."""
        if len(self._asked) >= 1024:
            self._asked.clear()
        ask = self._asked[authorization, cache_control] = judging.asking(
            self.state.settings, authorization.decode("latin-1"), cache_control.decode("latin-1"))
        return ask

    def _refusal(self, length: bytes) -> judging.Answer | None:
        """The answer to a `content-length` header that is malformed or past MAX_BODY_BYTES (b"":
        none, the body chunked), as litestar words it; None when the body is to be read."""
        if not length:
            return None
        if not length.isdigit():
            message = invalid_content_length(repr(length.decode("latin-1")))
            return judging.Answer(400, _ENCODE(RequestError(400, "bad-request", message).body()))
        return self._too_large.answer() if len(length) > 15 or int(length) > self.max_body else None

    async def _rest(self, message: Any, receive: Any) -> tuple[bytes, judging.Answer | None]:
        """A body in several messages (chunked, or sent in parts), from its first `message`:
        its bytes, or the refusal of a body past MAX_BODY_BYTES (413) or of a client that left
        before its body was complete (400)."""
        chunks: list[bytes] = []
        size = 0
        while message["type"] == "http.request":
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return b"", self._too_large.answer()
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), None
            message = await receive()
        return b"", _GONE.answer()
