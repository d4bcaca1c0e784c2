"""The HTTP server's connection protocol: uvicorn's httptools protocol with request deadlines.

uvicorn times out only idle keep-alive connections: a client that opens a connection and
sends half a request's headers, or a body byte now and then, holds the connection (and a file
descriptor) for as long as it likes; 1,100 such clients made normal requests fail for 16 s in
the security review. Here every request must arrive in time: its headers within
HEADER_TIMEOUT_SECONDS of the connection's opening or of the request's first byte, its body
within BODY_TIMEOUT_SECONDS of the end of the headers; past that the connection is answered 408
(unless an answer is under way) and closed. Behind a proxy (the deploy manifests put one in
front) the proxy's own timeouts and connection limits come first; these keep a referee that is
reached directly from being held open.

`referee serve` runs uvicorn with `http="service.server:TimedProtocol"`; each worker process
reads the two deadlines from the environment (Settings.from_env) when it makes its first
connection.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.settings import Settings

_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"


@cache
def deadlines() -> tuple[float, float]:
    """(header, body) deadlines in seconds, from the environment."""
    settings = Settings.from_env()
    return settings.header_timeout_seconds, settings.body_timeout_seconds


def _seconds(what: str) -> float:
    """The deadline of the part awaited: "headers" or "body"."""
    header, body = deadlines()
    return header if what == "headers" else body


def _timeout_answer(what: str, seconds: float) -> bytes:
    body = (b'{"error":"request-timeout","message":"the request\'s %s did not arrive within %g s '
            b'(%s)","violations":[]}' % (what.encode(), seconds,
                                         b"HEADER_TIMEOUT_SECONDS" if what == "headers"
                                         else b"BODY_TIMEOUT_SECONDS"))
    return _TIMEOUT + b"content-length: %d\r\n\r\n" % len(body) + body


class TimedProtocol(HttpToolsProtocol):
    """HttpToolsProtocol whose requests must arrive within their deadlines.

    One timer per connection, not one per part of each request: a request moves the deadline
    (`_due`) forward, and the timer, when it fires, either finds the part awaited late, or finds
    a later deadline and waits for that, or finds nothing awaited and lapses. A timer is made
    only when none is pending or the new deadline comes before it, so a connection that keeps
    sending requests costs two clock reads a request, not two timers made and cancelled."""

    _deadline: asyncio.TimerHandle | None = None  # the connection's timer, while one is pending
    _due = 0.0  # the loop time by which the awaited part must have arrived; 0: nothing awaited
    _waiting_for = "headers"

    def _arm(self, what: str) -> None:
        self._waiting_for = what
        self._due = due = self.loop.time() + _seconds(what)
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
        if cycle is None or not cycle.response_started or cycle.response_complete:
            self.transport.write(_timeout_answer(what, _seconds(what)))  # no answer is under way
        if cycle is not None:  # the app hears a disconnect; its answer, if any, goes nowhere
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.close()

    def connection_made(self, transport: Any) -> None:  # the first request's headers
        super().connection_made(transport)
        self._arm("headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm("headers")

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._arm("body")

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()
