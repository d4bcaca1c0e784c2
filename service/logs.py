"""JSON logs: one object per line, for the server's own messages and one line per request.

The server's messages (uvicorn's, litestar's, the cache's) go through `logging` with
`JsonFormatter`; the request lines are written by `AccessLog`, in the same shape.

`referee serve` gives uvicorn's loggers this format; the app gives it to its own (litestar's
logging config). Written here rather than taken from a library: a dozen lines on msgspec, which
the referee already ships, instead of one more dependency in the image.
"""

from __future__ import annotations

import asyncio
import logging
import os
from datetime import UTC, datetime
from typing import Any

import msgspec


class JsonFormatter(logging.Formatter):
    """time, level, logger, pid, message, then the record's `fields` (e.g. a request's line)."""

    _encode = msgspec.json.Encoder().encode

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": record.process,  # which worker
            "message": record.getMessage(),
        }
        line.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return self._encode(line).decode()


def formatter() -> dict[str, Any]:
    """The dictConfig entry of the formatter (a new dict each time: dictConfig consumes it)."""
    return {"()": f"{__name__}.JsonFormatter"}


def uvicorn_config(level: str) -> dict[str, Any]:
    """uvicorn's logging in JSON (its access log is off: the app logs each request itself)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": formatter()},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json",
                                "stream": "ext://sys.stderr"}},
        "loggers": {"uvicorn": {"handlers": ["stderr"], "level": level.upper(), "propagate": False}},
    }


class AccessLog:
    """One JSON line per request, in the same shape as the JsonFormatter's lines.

    Not written through `logging`: a record through litestar's queue handler and its listener
    thread cost 70 to 110 µs a request on this machine (half the time of a cached answer). Lines
    are encoded here (a few µs) and written to stderr together, at most 0.1 s after the first of
    them, or at once past 64 KiB, and at shutdown. Whether to log follows the level of the
    `service.access` logger (LOG_LEVEL info or debug)."""

    FLUSH_SECONDS = 0.1
    FLUSH_BYTES = 64 * 1024

    def __init__(self, fd: int = 2) -> None:
        self.fd = fd
        self.logger = logging.getLogger("service.access")
        self._lines: list[bytes] = []
        self._size = 0
        self._timer: Any = None
        self._encode = msgspec.json.Encoder().encode
        self._pid = os.getpid()

    @property
    def enabled(self) -> bool:
        return self.logger.isEnabledFor(logging.INFO)

    def write(self, fields: dict[str, Any]) -> None:
        line = self._encode({"time": datetime.now(UTC).isoformat(timespec="milliseconds"), "level": "info",
                             "logger": "service.access", "pid": self._pid, "message": "request", **fields})
        self._lines.append(line + b"\n")
        self._size += len(line) + 1
        if self._size >= self.FLUSH_BYTES:
            self.flush()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.FLUSH_SECONDS, self.flush)

    def flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        data, self._lines, self._size = b"".join(self._lines), [], 0
        while data:
            try:
                data = data[os.write(self.fd, data):]
            except BlockingIOError:
                continue
            except OSError:  # stderr gone: nothing to tell anyone
                return
