"""The refusals of the edge: `RequestError` (an HTTP status, an error code, a message and the
violations) and the few ways a handler words one."""

from __future__ import annotations

import logging

from service import engine
from service.engine.text import Text, t, tn

from .bodies import ErrorBody, RecordRefusal

log = logging.getLogger("service.api")


class RequestError(Exception):
    """A request the referee refuses: the HTTP status, the error code, a message, violations."""

    def __init__(self, status: int, error: str, message: str,
                 violations: list[engine.Violation] | tuple[engine.Violation, ...] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.error = error
        self.message = message
        self.violations = tuple(violations)

    def body(self) -> ErrorBody:
        return ErrorBody(error=self.error, message=self.message,  # type: ignore[arg-type]
                         violations=self.violations)


def said(e: BaseException) -> str:
    """An exception's message: the Text it was raised with (worded in the request's language),
    else its English string."""
    return e.args[0] if len(e.args) == 1 and isinstance(e.args[0], Text) else str(e)


def summed_up(summary: str, violations: list[engine.Violation] | tuple[engine.Violation, ...]) -> Text:
    """`summary: first violation (and n more)`, a Text whose parts are worded in their language."""
    first = violations[0].message if violations else ""
    if len(violations) > 1:
        return tn("{summary}: {first} (and {n} more)", "{summary}: {first} (and {n} more)",
                  len(violations) - 1, summary=summary, first=first)
    return t("{summary}: {first}", summary=summary, first=first)


def joined(violations: list[engine.Violation] | tuple[engine.Violation, ...]) -> str:
    """Every violation as `rule: message`, joined with "; " (as the engine's exceptions say them),
    a Text whose parts are worded in their language."""
    out: str = ""
    for v in violations:
        one = t("{rule}: {why}", rule=v.rule, why=v.message)
        out = one if not out else t("{before}; {after}", before=out, after=one)
    return out


def refused(error: str, summary: str, violations: list[engine.Violation]) -> RequestError:
    return RequestError(422, error, summed_up(summary, violations), violations)


def too_complex(e: engine.PositionTooComplex) -> RequestError:
    """A wall whose search passed its bound (only a drawing no game produces): 422, never a
    number that might be wrong."""
    message = said(e)
    return RequestError(422, "position-too-complex", message, [engine.Violation("base.score.wall", message)])


def unchecked(what: str, error: Exception) -> list[engine.Violation]:
    """The consistency check itself failed on a client's input: an engine bug, logged with its
    traceback; the input is refused as one the referee cannot vouch for (never a 5xx)."""
    log.error("the engine's check of a %s failed (engine bug)", what, exc_info=error)
    name, detail = type(error).__name__, said(error)
    message = (t("the position could not be checked ({error}: {detail})", error=name, detail=detail)
               if what == "position" else
               t("the state could not be checked ({error}: {detail})", error=name, detail=detail))
    return [engine.Violation(engine.INCONSISTENT, message)]


def outdated(violation: engine.Violation) -> RequestError:
    return RequestError(422, "outdated-state", violation.message, [violation])


def unknown_player(message: str) -> RequestError:
    return RequestError(422, "unknown-player", message, [engine.Violation("base.turn.order", message)])


def nothing_to_decide(message: str) -> RequestError:
    """A bot asked to move for a seat the game does not wait for (base.turn.order); the message
    names whom it waits for."""
    return RequestError(422, "nothing-to-decide", message, [engine.Violation("base.turn.order", message)])


FORBIDDEN = "referee.seat-token"


def forbidden(message: str) -> RequestError:
    return RequestError(403, "forbidden", message, [engine.Violation(FORBIDDEN, message)])


class RecordRefused(RequestError):
    """POST /v1/replay: the first illegal action of a record, with its index, the action and the
    state before it (already encoded for the answer: sealed when sealing is on)."""

    def __init__(self, index: int, action: object, state: object, view: object,
                 violations: list[engine.Violation]) -> None:
        first = violations[0].message if violations else ""
        super().__init__(422, "illegal-action", t("action {index} of the record is illegal: {first}",
                                                  index=index, first=first), violations)
        self.index, self.action, self.state, self.view = index, action, state, view

    def body(self) -> RecordRefusal:  # type: ignore[override]
        return RecordRefusal(error="illegal-action", message=self.message, violations=self.violations,
                             index=self.index, action=self.action, state=self.state,  # type: ignore[arg-type]
                             view=self.view)  # type: ignore[arg-type]
