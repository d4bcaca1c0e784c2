"""The HTTP server's connection protocol: uvicorn's httptools protocol with request deadlines,
a bound on request heads and a write deadline.

uvicorn times out only idle keep-alive connections: a client that opens a connection and
sends half a request's headers, or a body byte now and then, holds the connection (and a file
descriptor) for as long as it likes; 1,100 such clients made normal requests fail for 16 s in
the security review. Here every request must arrive in time: its headers within
HEADER_TIMEOUT_SECONDS of the connection's opening or of the request's first byte, its body
within BODY_TIMEOUT_SECONDS of the end of the headers; past that the connection is answered 408
(unless an answer is under way) and closed. Behind a proxy (the deploy manifests put one in
front) the proxy's own timeouts and connection limits come first; these keep a referee that is
reached directly from being held open.

The second probe (issue 23) found three more ways to hold a worker:
- A head of any size was buffered (a 50 MB header was read and answered). A request's head
  (request line, headers, blank line) may have HEAD_MAX_BYTES; the bytes are counted as they
  are fed to the parser, which is fed a head at most the bytes left under the bound, so one
  byte past it is answered 431 and the connection closed before more is read.
- A client that sends requests and never reads the answers: uvicorn parsed every request a
  read held (some 6,000 pipelined GETs in 256 KiB) and queued them all, and a connection whose
  answers no one read stayed open for ever (closing waits for the write buffer to empty). Here
  the parser is fed one request at a time: while a request waits for its turn (pipelined), or
  while the transport's write buffer is above its high-water mark (asyncio's pause_writing),
  the rest is held and the connection not read. Answers that wait WRITE_TIMEOUT_SECONDS
  unread (the write buffer not shrinking) get the connection aborted, and each connection
  that ends with answers unwritten is logged as one line: uvicorn marked only the last parsed
  request as gone, so the one running wrote to the closed transport, a traceback each.
- The 408s (and now the 431s) were written here, out of the app's sight: counted nowhere, and
  logged as the 400 the app answered a body that never came. They are recorded by the app's
  observer (service/api/observe.py) with the status the client got.

`referee serve` runs uvicorn with `http="service.server:TimedProtocol"`; each worker process
reads the deadlines from the environment (Settings.from_env) when it makes its first
connection. The protocol reads and sets attributes of HttpToolsProtocol and its request cycles
that uvicorn does not document (`cycle`, `pipeline`, `flow`, the cycle's `response_started`,
`response_complete`, `disconnected`, `message_event`, `scope`): pyproject.toml pins the uvicorn
versions it was written against, tests/test_serve.py drives it with real sockets, and
tests/api/test_pins.py fails on a uvicorn that no longer has them. (uvicorn has no public way to
bound a request's arrival or tell a running request its client left: `timeout_keep_alive`
covers idle connections only.)
"""

from __future__ import annotations

import asyncio
import logging
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.api.observe import SERVER_STATUS, RequestObserver
from service.settings import Settings

HEAD_MAX_BYTES = 16 * 1024  # a request's head; the referee's own are some 200 bytes
# The head bytes fed to the parser at a time: a request waiting for its turn stops the feeding at
# the end of the piece that completed it, so a piece bounds the requests parsed ahead of their
# turn (some 50 of the shortest).
_PIECE = 1024
_LOG = logging.getLogger("service.server")


@cache
def deadlines() -> tuple[float, float, float]:
    """(header, body, write) deadlines in seconds, from the environment."""
    settings = Settings.from_env()
    return settings.header_timeout_seconds, settings.body_timeout_seconds, settings.write_timeout_seconds


def _seconds(what: str) -> float:
    """The deadline of the part awaited: "headers" or "body"."""
    header, body, _ = deadlines()
    return header if what == "headers" else body


def _refusal(status: bytes, error: str, message: str) -> bytes:
    body = b'{"error":"%s","message":"%s","violations":[]}' % (error.encode(), message.encode())
    return (b"HTTP/1.1 %s\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: %d\r\n\r\n%s" % (status, len(body), body))


def _timeout_answer(what: str, seconds: float) -> bytes:
    setting = "HEADER_TIMEOUT_SECONDS" if what == "headers" else "BODY_TIMEOUT_SECONDS"
    return _refusal(b"408 Request Timeout", "request-timeout",
                    f"the request's {what} did not arrive within {seconds:g} s ({setting})")


_TOO_LARGE = _refusal(b"431 Request Header Fields Too Large", "request-header-fields-too-large",
                      f"a request's head (its request line and headers) may have {HEAD_MAX_BYTES} bytes")


def _observer(app: Any) -> RequestObserver | None:
    """The app's request observer: uvicorn's wrappers (`.app`) around the referee's app, whose
    `observer` it is (service/api/app.py)."""
    for _ in range(8):
        observer = getattr(app, "observer", None)
        if isinstance(observer, RequestObserver):
            return observer
        app = getattr(app, "app", None)
    return None


class TimedProtocol(HttpToolsProtocol):
    """HttpToolsProtocol whose requests must arrive within their deadlines, whose heads are
    bounded, and whose answers must be read.

    One timer per connection for the request deadlines, not one per part of each request: a
    request moves the deadline (`_due`) forward, and the timer, when it fires, either finds the
    part awaited late, or finds a later deadline and waits for that, or finds nothing awaited
    and lapses. A timer is made only when none is pending or the new deadline comes before it,
    so a connection that keeps sending requests costs two clock reads a request, not two timers
    made and cancelled. The write deadline has a timer of its own, made only while answers wait
    in the write buffer."""

    _deadline: asyncio.TimerHandle | None = None  # the connection's timer, while one is pending
    _due = 0.0  # the loop time by which the awaited part must have arrived; 0: nothing awaited
    _waiting_for = "headers"
    _began = 0.0  # the loop time the awaited head began to be awaited
    _in_head = True  # the parser is in a request's head (or between requests)
    _head_bytes = 0  # the bytes of the current head fed to the parser
    _head_restarted = False  # a new head began inside the piece being fed
    _body_left: int | None = None  # bytes of the current body (content-length) still to feed
    _held = b""  # bytes read and not yet fed: a request waits, or answers are not read
    _watch: asyncio.TimerHandle | None = None  # the write deadline's timer
    _unread = 0  # the write buffer's size when the write deadline was armed
    _write_timed_out = False
    _refused = False  # the connection was answered 408 or 431 here
    _cycles: list[Any]  # the connection's requests whose answers may be incomplete

    # --- the request deadlines ---------------------------------------------------------------

    def _arm(self, what: str) -> None:
        self._waiting_for = what
        now = self.loop.time()
        if what == "headers":
            self._began = now
        self._due = due = now + _seconds(what)
        if self._deadline is not None and self._deadline.when() <= due:
            return  # the pending timer comes first and will look again
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_at(due, self._look)

    def _disarm(self) -> None:
        self._due = 0.0

    def _look(self) -> None:
        self._deadline = None
        if not self._due:
            return
        if self.loop.time() < self._due:  # the deadline moved on since this timer was set
            self._deadline = self.loop.call_at(self._due, self._look)
            return
        self._too_slow()

    def _too_slow(self) -> None:
        self._due = 0.0
        what = self._waiting_for
        if self.transport.is_closing():
            return
        cycle = self.cycle  # the last request's (answered, when this one's headers are late)
        if cycle is None or not cycle.response_started or cycle.response_complete:  # none under way
            self.transport.write(_timeout_answer(what, _seconds(what)))
            if what == "headers":  # no request reached the app: the observer hears it from here
                self._record(408)
            else:  # the app's request: its observer records the 408 the client got
                scope: dict[str, Any] = cycle.scope  # type: ignore[assignment]
                scope.setdefault("extensions", {})[SERVER_STATUS] = 408
        if cycle is not None:  # the app hears a disconnect; its answer, if any, goes nowhere
            cycle.disconnected = True
            cycle.message_event.set()
        self._refused = True
        self._close()

    def _record(self, status: int) -> None:
        observer = _observer(self.app)
        if observer is not None:
            observer.record_server_answer(status, self.loop.time() - self._began)

    def _close(self) -> None:
        """Close once the answers written are sent, within the write deadline."""
        self._watch_writes()
        self.transport.close()

    # --- feeding the parser: bounded heads, one request at a time -----------------------------

    def data_received(self, data: bytes) -> None:
        if self._held or self._holding():
            self._held += data
            self.flow.pause_reading()
            return
        self._feed(data)

    def _holding(self) -> bool:
        """Whether to parse no further: a request waits for its turn, or answers wait unread."""
        return bool(self.pipeline) or self.flow.write_paused

    def _feed(self, data: bytes) -> None:
        view, start = memoryview(data), 0
        while start < len(data):
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return  # closed, or upgraded to another protocol
            if self._holding():
                self._held = bytes(view[start:])
                self.flow.pause_reading()
                return
            size = (self._body_left if not self._in_head and self._body_left
                    else min(_PIECE, HEAD_MAX_BYTES - self._head_bytes))
            piece = view[start:start + size]
            start += len(piece)
            in_head, self._head_restarted = self._in_head, False
            super().data_received(piece)  # type: ignore[arg-type]  # httptools takes any buffer
            if in_head and self._in_head and not self._head_restarted:
                self._head_bytes += len(piece)
            if self._in_head and self._head_bytes >= HEAD_MAX_BYTES and not self.transport.is_closing():
                self._too_large()
                return

    def _release(self) -> None:
        """Read again, and first feed what was held, once nothing waits."""
        if self._holding() or self.transport.is_closing():
            return
        held, self._held = self._held, b""
        self.flow.resume_reading()
        if held:
            self._feed(held)

    def _too_large(self) -> None:
        self._disarm()
        self.transport.write(_TOO_LARGE)
        self._record(431)
        self._refused = True
        self._close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm("headers")

    def on_headers_complete(self) -> None:
        last = self.cycle
        super().on_headers_complete()
        if self.cycle is not last:  # kept to be told, should the client go, that it went
            self._cycles = [cycle for cycle in self._cycles if not cycle.response_complete]
            self._cycles.append(self.cycle)
        self._in_head, self._head_bytes = False, 0
        length = next((value for name, value in self.headers if name == b"content-length"), None)
        self._body_left = int(length) if length is not None else None  # the parser checked it
        self._arm("body")

    def on_body(self, body: bytes) -> None:
        if self._body_left:
            self._body_left -= len(body)
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        self._in_head, self._head_bytes, self._head_restarted = True, 0, True
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # starts a waiting request, and resumes reading
        if self.transport.get_write_buffer_size():  # kept alive or closing, it must be read
            self._watch_writes()
        if self.transport.is_closing():
            return
        if self._held or self._holding():
            self.flow.pause_reading()
            self.loop.call_soon(self._release)

    # --- the write deadline -------------------------------------------------------------------

    def pause_writing(self) -> None:  # the write buffer is past its high-water mark
        super().pause_writing()
        self.flow.pause_reading()
        self._watch_writes()

    def resume_writing(self) -> None:  # the client reads again
        super().resume_writing()
        self._unwatch()
        self.loop.call_soon(self._release)

    def _watch_writes(self) -> None:
        if self._watch is None and not self._write_timed_out:
            self._unread = self.transport.get_write_buffer_size()
            self._watch = self.loop.call_later(deadlines()[2], self._writes_due)

    def _unwatch(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None

    def _writes_due(self) -> None:
        self._watch = None
        unread = self.transport.get_write_buffer_size()
        if not unread:
            return
        if unread < self._unread:  # read, if slowly: another deadline
            self._watch_writes()
            return
        self._write_timed_out, self._unread = True, unread
        self.transport.abort()  # close() would wait for the buffer to empty

    # --- the connection -----------------------------------------------------------------------

    def connection_made(self, transport: Any) -> None:  # the first request's headers
        super().connection_made(transport)
        self._cycles = []
        self._arm("headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._unwatch()
        self._held = b""
        unanswered = [cycle for cycle in self._cycles if not cycle.response_complete]
        for cycle in unanswered:  # uvicorn marks only the last parsed: the running one too
            cycle.disconnected = True
            cycle.message_event.set()
        self._log_end(len(unanswered))
        super().connection_lost(exc)

    def _log_end(self, unanswered: int) -> None:
        """One line for a connection that ended with answers unwritten (never a traceback)."""
        if not (self._write_timed_out or (unanswered and not self._refused)):
            return
        fields = {"client": f"{self.client[0]}:{self.client[1]}" if self.client else None,
                  "requests_unanswered": unanswered}
        if self._write_timed_out:
            _LOG.warning("closed a connection whose answers went unread", extra={"fields": {
                **fields, "reason": "write-timeout", "seconds": deadlines()[2],
                "unread_bytes": self._unread}})
        else:
            _LOG.info("a client left before its answers were written",
                      extra={"fields": {**fields, "reason": "client-left"}})
