"""One error shape for every refusal (`ErrorBody`), and the exception handlers that produce it.

A client's mistake is a 4xx with a stable `error` code; a 500 means a bug in the referee, is
logged with its traceback, and says nothing of the internals.
"""

from __future__ import annotations

import logging
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from service import engine, i18n
from service.engine.text import Text, t

from . import wording
from .bodies import ErrorBody
from .refusals import RequestError, joined

log = logging.getLogger("service.api")

_ENCODE = i18n.encode  # every Text worded in the request's language

_CODES = {400: "bad-request", 404: "not-found", 405: "method-not-allowed", 413: "body-too-large",
          415: "unsupported-media-type"}


def error_response(status: int, body: ErrorBody, headers: dict[str, str] | None = None) -> Response[bytes]:
    return Response(_ENCODE(body), status_code=status, media_type="application/json", headers=headers)


def on_request_error(_: Request[Any, Any, Any], exc: RequestError) -> Response[bytes]:
    return error_response(exc.status, exc.body())


DISCONNECTED = "client disconnected prematurely"  # litestar's words, as a 500
EMPTY = ErrorBody(error="bad-request", message=t("invalid request body: {problem}",
                                                  problem=t("the body is empty; a JSON object is expected")))
GONE = ErrorBody(error="bad-request", message=t("the client disconnected before its request's body was "
                                                "complete"))


def too_large(limit: int, setting: str = "max_body_bytes") -> ErrorBody:
    return ErrorBody(error="body-too-large",  # type: ignore[arg-type]
                     message=t("the request body is larger than the limit of {limit} bytes ({setting})",
                               limit=limit, setting=setting.upper()))


def on_http_exception(request: Request[Any, Any, Any], exc: HTTPException) -> Response[bytes]:
    status = exc.status_code
    if status >= 500 and exc.detail == DISCONNECTED:  # the client's doing (or a timeout's): no bug
        return error_response(400, GONE)
    if status >= 500:
        return on_bug(request, exc)
    code = _CODES.get(status, "bad-request")
    detail = str(exc.detail)
    # a detail the referee worded itself (a Text) as it is; litestar's own words matched
    message = exc.detail if isinstance(exc.detail, Text) else wording.litestar(detail)
    if isinstance(exc, ValidationException) and exc.extra:
        extra: Any = exc.extra
        if any(isinstance(e, dict) and e.get("key") == "data" for e in extra):
            message = EMPTY.message
        else:
            message = t("{summary}: {extra}", summary=message, extra=str(extra))
    if status == 413:  # the limit of this route's body (endpoints.py names its setting)
        from .endpoints import BY_PATH

        setting = getattr(BY_PATH.get(request.url.path), "body_limit", "max_body_bytes")
        return error_response(413, too_large(getattr(request.app.state.settings, setting), setting))
    if status == 400 and message.lower().startswith("validation failed"):
        message = t("invalid request body: {problem}", problem=message)
    headers = {k: v for k, v in (exc.headers or {}).items() if k.lower() == "allow"}
    return error_response(status, ErrorBody(error=code, message=message), headers or None)  # type: ignore[arg-type]


def on_engine_refusal(_: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    """An engine refusal that reached the edge without a handler mapping it (belt and braces)."""
    violations = tuple(getattr(exc, "violations", ()))
    code = "illegal-action" if isinstance(exc, engine.IllegalAction) else (
        "bad-game-request" if isinstance(exc, engine.GameRequestError) else engine.INCONSISTENT)
    message = joined(violations) if violations else str(exc)
    return error_response(422, ErrorBody(error=code, message=message, violations=violations))


def on_bug(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    return error_response(500, bug(request.method, request.url.path, exc))


def bug(method: str, path: str, exc: Exception) -> ErrorBody:
    """A referee bug: logged with its traceback; the answer says nothing of the internals."""
    log.error("internal error on %s %s", method, path, exc_info=exc)
    return ErrorBody(error="internal-error", message=t("the referee failed; the error is logged"))


EXCEPTION_HANDLERS: dict[Any, Any] = {
    RequestError: on_request_error,
    HTTPException: on_http_exception,
    engine.IllegalAction: on_engine_refusal,
    engine.InconsistentState: on_engine_refusal,
    engine.GameRequestError: on_engine_refusal,
    Exception: on_bug,
}
