"""Reading a request body: strictly, into its type, within the contract's limits (the body
nests at most MAX_DEPTH levels), with the state of a body sent back taken from the app's memo.

Every refusal is a 400 `RequestError` naming the offending field's path; a body whose `state`
was written before editions is 422 `outdated-state`.
"""

from __future__ import annotations

from array import array
from itertools import accumulate
from typing import Any

import msgspec

from service import engine
from service.engine.text import t

from .bodies import LegalActionsQuery, Move, Position, ScoreQuery, StateRound, SuggestQuery, ViewQuery
from .memo import Seen, States
from .refusals import RequestError, outdated
from .wording import decoding


class Received:
    """A body as it arrived: its bytes, decoded strictly on first use (with the app's `memo`).

    The cached endpoints look their answer up by the bytes alone, so a repeated request is
    answered without decoding it; only a miss pays for `body` (400 if it does not decode).
    `seen`: the memo's entry of the body's state, once decoded.
    """

    __slots__ = ("_body", "body_type", "memo", "raw", "seen")

    def __init__(self, body_type: Any, raw: bytes, memo: States | None = None) -> None:
        self.body_type = body_type
        self.raw = raw
        self.memo = memo
        self._body: Any = None
        self.seen: Seen | None = None

    @property
    def body(self) -> Any:
        if self._body is None:
            self._body, self.seen = decoded(self.body_type, self.raw, self.memo)
        return self._body


# Just enough of a /v1/score body to tell a scoring position from a state and a round.
_KEYS = msgspec.json.Decoder(dict[str, msgspec.Raw])
_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


# The deepest nesting of objects and arrays in any request body the contract describes (the
# OpenAPI description says so; tests/api/test_limits.py checks the schema against it).
MAX_DEPTH = 8
_STRUCTURE = bytes(set(range(256)) - set(b'"[]{}'))  # what `bytes.translate` deletes
_ONE_KIND = bytes.maketrans(b"{}", b"[]")


def nesting_problem(raw: bytes, limit: int = MAX_DEPTH) -> str | None:
    """Why `raw` nests deeper than `limit` (None when it does not), found without recursion and
    before any decoder recurses: msgspec's decoders recurse once per level (a body 1,000 levels
    deep raised RecursionError, a 500).

    Only the brackets outside strings count: escaped backslashes and quotes are dropped, then
    everything but quotes and brackets, then the strings; each pass of removing adjacent
    `[]` pairs lowers the deepest nesting of a balanced sequence by exactly one, so a body that
    is empty after `limit` passes nests at most `limit` deep. What is left (too deep, or not
    JSON) is told apart. About 20 us for a 7 kB state, all in C loops."""
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = raw.translate(_ONE_KIND, _STRUCTURE).replace(b'""', b"")
    if b'"' in brackets:  # strings holding brackets: keep what lies between them
        brackets = b"".join(brackets.split(b'"')[::2])
    run = b"[" * (limit + 1)  # opens side by side nest, one in the next
    if run in brackets:
        return _too_deep(limit)
    rest = brackets
    for _ in range(limit):
        if not rest:
            return None
        rest = rest.replace(b"[]", b"")
    if not rest:
        return None
    # Too deep, or unbalanced (not JSON). Opens left side by side were nested in the body (only
    # balanced pairs lay between them): more than `limit` of them is too deep.
    too_deep = run in rest
    if not too_deep and len(rest) <= _MEASURED:
        if max(accumulate(array("b", brackets.translate(_DEPTH_STEP)))) <= limit:
            return None  # not JSON, but not deep: the decoder says what is wrong
    elif not too_deep:
        return t("the body is not JSON, or nests objects and arrays deeper than {limit} levels", limit=limit)
    return _too_deep(limit)


_DEPTH_STEP = bytes.maketrans(b"[]", bytes([1, 255]))  # +1 and -1 as signed bytes


def _too_deep(limit: int) -> str:
    return t("the body nests objects and arrays deeper than {limit} levels, the most any request of "
             "the contract needs", limit=limit)


def invalid(problem: str) -> RequestError:
    """400 `bad-request`: the body does not decode (`problem`: why, a Text or msgspec's words)."""
    return RequestError(400, "bad-request", t("invalid request body: {problem}", problem=problem))
_MEASURED = 4096  # the longest rest measured exactly (a truncated body leaves a few brackets)


def decode(body_type: Any, raw: bytes, memo: States | None = None) -> Any:
    """The body as `body_type`, strictly; 400 naming the offending field's path otherwise (and
    400 for a body nested deeper than the contract allows). With `memo`, see `decoded`."""
    return decoded(body_type, raw, memo)[0]


def decoded(body_type: Any, raw: bytes, memo: States | None = None) -> tuple[Any, Seen | None]:
    """The body as `body_type` (see `decode`) and the memo's entry of its `state` (None for a
    body without one, or without a memo).

    A body whose `state` bytes were decoded or handed out lately (an entry under their digest)
    takes that entry's state instead of decoding them again: the rest of the body is decoded as
    strictly, into the same type with its `state` left as bytes (`_WITH_RAW_STATE`), and
    anything that does not decode so goes the whole way below, which says what is wrong. On a
    miss the state's bytes are decoded alone, once, and put in the memo; where they do not
    decode, the whole body is decoded again for the 400's path (a refusal, not the way of a
    state sent back). A body that may name `state` twice goes the whole way (issue 23 item 7):
    the whole decode decodes every value of a repeated field (a first `{"junk": [1]}` is a 400)
    where the memo's way would see only the last, so equal bytes would get a 400 or a 200 by
    what the memo held. (Its last state's bytes may still be put in the memo: the whole decode
    decoded them alone, as any body would.)"""
    twin = _WITH_RAW_STATE.get(body_type)
    if twin is None or memo is None:
        return _decoded(body_type, raw), None
    try:
        parts = _decoder(twin).decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return _decoded(body_type, raw), None
    key = States.digest(parts.state)
    seen = memo.get(key)
    if not _one_state_key(raw):
        body = _decoded(body_type, raw)
        return body, memo.put(key, Seen(body.state, digest=key))
    if seen is None:
        try:
            state = _STATE.decode(parts.state)
        except (msgspec.DecodeError, RecursionError):
            return _decoded(body_type, raw), None  # raises the 400 naming the path
        seen = memo.put(key, Seen(state, digest=key))
    fields = {name: getattr(parts, name) for name in twin.__struct_fields__ if name != "state"}
    return body_type(**fields, state=seen.state), seen


def _one_state_key(raw: bytes) -> bool:
    """Whether `raw` surely names `state` at most once: the spelling `"state"` occurs once and
    no escape could spell the key otherwise (`"st\\u0061te"`). Anything else (a player named
    "state", a name with an escaped quote) is only sent the whole way. A few us for a 5 kB body,
    paid on a hit only (a miss goes the whole way anyway), where it saves some 11 us."""
    return b"\\" not in raw and raw.count(b'"state"') == 1


def _with_raw_state(body_type: Any) -> Any:
    """`body_type` with its `state` left as raw bytes: the same fields, types and config."""
    fields = [(f.name, msgspec.Raw if f.name == "state" else f.type)
              if f.required else (f.name, f.type, f.default) for f in msgspec.structs.fields(body_type)]
    config = body_type.__struct_config__
    return msgspec.defstruct(f"{body_type.__name__}WithRawState", fields, kw_only=True,
                             forbid_unknown_fields=config.forbid_unknown_fields, frozen=True)


# The bodies whose state a client sends back as it was handed (the answers' own bytes).
_STATE = msgspec.json.Decoder(engine.GameState)
_WITH_RAW_STATE = {t: _with_raw_state(t) for t in (Move, LegalActionsQuery, ViewQuery, SuggestQuery)}


def _decoded(body_type: Any, raw: bytes) -> Any:
    """`decode` without the memo of states.

    The nesting is measured only once the strict decode has failed, and before anything that
    decodes without a schema (which would recurse as deep as the body goes): a body that
    decodes fits the schema, which nests at most MAX_DEPTH levels (tests/api/test_limits.py),
    so the scan would find nothing. Where a strict decoder does recurse into a value (a value
    before an action's `type` is skipped to find the tag), msgspec stops at the interpreter's
    recursion limit with a RecursionError, which is such a failure. The answers are those of
    scanning first; a body that decodes skips the scan (10 to 20 us a request)."""
    try:
        return _decoder(_concrete(body_type, raw)).decode(raw)
    except (msgspec.DecodeError, RecursionError) as e:  # ValidationError is a DecodeError
        failure = e
    problem = nesting_problem(raw)
    if problem is not None or isinstance(failure, RecursionError):
        raise invalid(problem or _too_deep(MAX_DEPTH))
    try:
        if not isinstance(failure, msgspec.ValidationError) or "got `float`" not in str(failure):
            raise failure
        # JSON Schema counts 3.0 as an integer: accept integral numbers written as floats.
        return msgspec.convert(_integral(msgspec.json.decode(raw)), _concrete(body_type, raw), strict=True)
    except msgspec.DecodeError as e:
        if isinstance(e, msgspec.ValidationError):
            _refuse_written_before_editions(raw)
        raise invalid(decoding(str(e))) from None


def _concrete(body_type: Any, raw: bytes) -> Any:
    """The type to decode `raw` as: /v1/score's body is a state and a round, or a position."""
    if body_type is ScoreQuery:
        return StateRound if "state" in _KEYS.decode(raw) else Position
    return body_type


def _decoder(body_type: Any) -> msgspec.json.Decoder[Any]:
    decoder = _DECODERS.get(body_type)
    if decoder is None:
        decoder = _DECODERS[body_type] = msgspec.json.Decoder(body_type)
    return decoder


def _refuse_written_before_editions(raw: bytes) -> None:
    """A body whose `state` does not fit the contract because it was written before editions
    existed (no `edition`: edition 1, which left out fields holding their default): 422
    `outdated-state` rather than a 400 naming the first field it lacks."""
    try:
        state = _KEYS.decode(_KEYS.decode(raw)["state"])
        if "edition" in state:
            return
        modules = msgspec.json.decode(state.get("modules", b"[]"), type=tuple[str, ...])
        players = len(msgspec.json.decode(state.get("players", b"[]"), type=list[msgspec.Raw]))
    except (msgspec.DecodeError, KeyError):
        return  # no state, or not one an edition could explain: the 400 says what is wrong
    raise outdated(engine.editions.outdated(1, modules, players))


def _integral(value: Any) -> Any:
    """`value` with every float that has an integer value turned into that integer."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    return value
