"""The thin edge between a request body and the engine: decode, check, call, build the answer.

No game rule lives here. Every function takes a decoded body and returns an answer Struct, or
raises `RequestError` carrying the HTTP status, the error code and the violations. The HTTP
controllers and the `referee validate|apply|score` commands both go through `handle`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import logging
import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

import msgspec

from service import engine
from service.engine.module import registered
from service.engine.scoring.positions import position_problems
from service.engine.scoring.sheet import score_sheet
from service.engine.view import UnknownViewer, view
from service.seal import UNSEALED, Game, Opened, SealError, Sealing

from .bodies import (
    Applied,
    Breakdown,
    ErrorBody,
    GameAnswer,
    LegalActions,
    LegalActionsQuery,
    ModuleInfo,
    Modules,
    Move,
    NewGame,
    Position,
    ScoreQuery,
    SeatToken,
    StateRound,
    Validity,
    View,
    ViewQuery,
)

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


def _refused(error: str, summary: str, violations: list[engine.Violation]) -> RequestError:
    first = violations[0].message if violations else ""
    more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
    return RequestError(422, error, f"{summary}: {first}{more}", violations)


def _too_complex(e: engine.PositionTooComplex) -> RequestError:
    """A wall whose search passed its bound (only a drawing no game produces): 422, never a
    number that might be wrong."""
    return RequestError(422, "position-too-complex", str(e), [engine.Violation("base.score.wall", str(e))])


def _unchecked(what: str, error: Exception) -> list[engine.Violation]:
    """The consistency check itself failed on a client's input: an engine bug, logged with its
    traceback; the input is refused as one the referee cannot vouch for (never a 5xx)."""
    log.error("the engine's check of a %s failed (engine bug)", what, exc_info=error)
    return [engine.Violation(engine.INCONSISTENT, f"the {what} could not be checked "
                                                   f"({type(error).__name__}: {error})")]


class KnownStates:
    """Digests of states known to be consistent: those this process checked, and those its
    engine produced (an applied action's new state). A client sends back the state it was
    given, so the next request skips the full check. Bounded; an LRU of digests.

    A digest is the SHA-256 of bytes that decode to the state: its canonical encoding (what the
    referee hands out), or the bytes a client sent for it (`DecodedStates`). Either way equal
    digests mean equal bytes, so the same state."""

    def __init__(self, size: int = 65536) -> None:
        self.size = size
        self._digests: OrderedDict[bytes, None] = OrderedDict()
        # The render threads reach it too: a lookup is a test and a move, an addition an insert
        # and an eviction; another thread's eviction between a test and its move raised KeyError
        # (a 500). Each runs whole under the lock (a fraction of a microsecond uncontended).
        self._lock = threading.Lock()

    @staticmethod
    def digest(state: engine.GameState) -> bytes:
        return KnownStates.digest_of(_ENCODE(state))

    @staticmethod
    def digest_of(encoded_state: bytes) -> bytes:
        # SHA-256 (hardware-accelerated here) of the canonical bytes: collisions cannot be made.
        return hashlib.sha256(encoded_state).digest()

    def __contains__(self, digest: bytes) -> bool:
        with self._lock:
            if digest in self._digests:
                self._digests.move_to_end(digest)
                return True
            return False

    def add(self, digest: bytes) -> None:
        with self._lock:
            self._digests[digest] = None
            if len(self._digests) > self.size:
                self._digests.popitem(last=False)


KNOWN = KnownStates()


class DecodedStates:
    """States decoded lately, by the SHA-256 of the bytes they were decoded from (the `state`
    of a body as sent, or the encoding the referee handed out): a client sends back the state it
    was handed, to validate an action and then to apply it, so the next body with those bytes
    gets the state without decoding it again (11 us for a 3 kB state), and `digest` gives the
    digest for KNOWN without encoding it again (6 us). Equal digests mean equal bytes, so the
    state those bytes decode to. Plain dicts, emptied when full: safe from the render threads,
    as each step is one dict operation (atomic under the GIL), an entry is put whole into each
    dict, and an emptying racing a put loses entries (a miss), never pairs a key with another's
    state (`digest` checks the very object)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._states: dict[bytes, engine.GameState] = {}
        self._digests: dict[int, tuple[engine.GameState, bytes]] = {}  # id -> (the state, its digest)

    def get(self, digest: bytes) -> engine.GameState | None:
        return self._states.get(digest)

    def put(self, digest: bytes, state: engine.GameState) -> None:
        if len(self._states) >= self.size:
            self._states.clear()
            self._digests.clear()
        self._states[digest] = state
        self._digests[id(state)] = (state, digest)  # the entry holds the state: its id stays its own

    def digest(self, state: engine.GameState) -> bytes | None:
        """The digest this very object was decoded or handed out under, if it is here."""
        entry = self._digests.get(id(state))
        return entry[1] if entry is not None and entry[0] is state else None


DECODED = DecodedStates()
_ENCODE = msgspec.json.Encoder().encode


@dataclass(frozen=True, slots=True)
class Access:
    """Who may ask what (CALLERS). `backend`: the caller is a game backend, trusted to act for
    any seat. `players`: players call the referee themselves, so a request that acts for a seat
    or shows its secrets (validate, apply, legal-actions, a player's view or picture) must carry
    that seat's token (`token`: the `Authorization: Bearer` of the request, None without one);
    spectators' views and scoring stay open. `legal_actions_limit`: LEGAL_ACTIONS_MAX_LIMIT."""

    players: bool = False
    token: str | None = None
    legal_actions_limit: int = 2_000


BACKEND = Access()


def opened(state: engine.GameState, sealing: Sealing = UNSEALED) -> Opened:
    """The whole state behind `state` (opened when sealed) and its game, if it could occur in a
    game; else 422: `inconsistent-state` with the reasons, `outdated-state`, or the seal's
    refusal (`bad-seal`, `unsealed-state`)."""
    try:
        found = sealing.open(state, DECODED.digest(state))
    except SealError as e:
        raise RequestError(422, e.error, e.message, [engine.Violation("referee.seal", e.message)]) from None
    if found.state.edition != engine.EDITION:
        # An older edition plays on as the current one where nothing that changed concerns it.
        try:
            found = dataclasses.replace(found, state=engine.check_edition(found.state))
        except engine.OutdatedState as e:
            raise _outdated(e.violation) from None
    if found.digest in KNOWN:
        return found
    try:
        problems = engine.check_consistency(found.state)
    except Exception as e:
        problems = _unchecked("state", e)
    if problems:
        raise _refused(engine.INCONSISTENT, "the state cannot occur in a game", problems)
    KNOWN.add(found.digest)
    return found


def _outdated(violation: engine.Violation) -> RequestError:
    return RequestError(422, "outdated-state", violation.message, [violation])


def checked(state: engine.GameState, sealing: Sealing = UNSEALED) -> engine.GameState:
    """The whole state behind `state`, if it could occur in a game (see `opened`)."""
    return opened(state, sealing).state


def handed_out(state: engine.GameState, sealing: Sealing, game: Game | None = None) -> msgspec.Raw:
    """A state the referee produced, encoded for the answer (sealed when sealing is on, as a
    state of `game`). It is consistent by construction: its digest is kept, so the next request
    with it skips the check."""
    encoded = _ENCODE(state)
    digest = KNOWN.digest_of(encoded)
    KNOWN.add(digest)
    if sealing.enabled:
        return msgspec.Raw(_ENCODE(sealing.seal(state, encoded, game, digest)))
    DECODED.put(digest, state)  # the next request brings these bytes back
    return msgspec.Raw(encoded)


FORBIDDEN = "referee.seat-token"


def _forbidden(message: str) -> RequestError:
    return RequestError(403, "forbidden", message, [engine.Violation(FORBIDDEN, message)])


def authorised(found: Opened, sealing: Sealing, access: Access, name: str, what: str) -> None:
    """With CALLERS=players: 403 unless the request carries the seat token of the player `name`
    (`what` the request does for them). Nothing of the state is looked at before."""
    if not access.players:
        return
    seat = found.state.seat_of(name)
    if access.token is None:
        raise _forbidden(f"{what} for {name!r} needs {name!r}'s seat token as `Authorization: Bearer "
                         "<token>` (CALLERS=players)")
    if found.game is None or seat < 0 or not hmac.compare_digest(
            _seat_token(sealing, found.game, seat).encode(), access.token.encode()):
        raise _forbidden(f"the seat token sent is not {name!r}'s: {what} for a seat needs that "
                         "seat's own token (CALLERS=players)")


def _seat_token(sealing: Sealing, game: Game, seat: int) -> str:
    try:
        return sealing.seat_token(game, seat)
    except SealError as e:  # the key the game was set up under was retired
        raise _forbidden(e.message) from None


def token_seat(found: Opened, sealing: Sealing, access: Access, what: str) -> int | None:
    """With CALLERS=players, the seat whose token the request carries (403 without a token of
    this game); None in backend mode."""
    if not access.players:
        return None
    if access.token is None:
        raise _forbidden(f"{what} needs a seat token as `Authorization: Bearer <token>` (CALLERS=players)")
    players = len(found.state.players)
    try:
        seat = None if found.game is None else sealing.token_seat(found.game, access.token, players)
    except SealError as e:  # the key the game was set up under was retired
        raise _forbidden(e.message) from None
    if seat is None:
        raise _forbidden(f"the seat token sent is no seat's of this game: {what} needs one (CALLERS=players)")
    return seat


# Every handler answers one endpoint's decoded body. The answers that hold a state hold it
# already encoded (`handed_out`: a msgspec.Raw), which encodes like the state it stands for.


def new_game(body: NewGame, sealing: Sealing = UNSEALED, access: Access = BACKEND) -> GameAnswer:
    try:
        outcome = engine.new_game(body.players, body.modules, seed=body.seed)
    except engine.GameRequestError as e:
        raise _refused("bad-game-request", "the game cannot be set up", e.violations) from None
    game = sealing.new_game()
    seats = () if game is None else tuple(SeatToken(player=p.name, token=sealing.seat_token(game, i))
                                          for i, p in enumerate(outcome.state.players))
    return GameAnswer(state=handed_out(outcome.state, sealing, game),  # type: ignore[arg-type]
                      game_over=outcome.game_over, to_act=engine.to_act(outcome.state), seat_tokens=seats)


def validate(body: Move, sealing: Sealing = UNSEALED, access: Access = BACKEND) -> Validity:
    found = opened(body.state, sealing)
    authorised(found, sealing, access, body.action.player, "validating an action")
    violations = engine.validate(found.state, body.action)
    return Validity(valid=not violations, violations=tuple(violations))


def apply(body: Move, sealing: Sealing = UNSEALED, access: Access = BACKEND) -> Applied:
    found = opened(body.state, sealing)
    authorised(found, sealing, access, body.action.player, "applying an action")
    try:
        outcome = engine.apply(found.state, body.action)
    except engine.IllegalAction as e:
        raise _refused("illegal-action", "the action is illegal", e.violations) from None
    except engine.PositionTooComplex as e:  # a scoring round this action triggered
        raise _too_complex(e) from None
    game = found.game
    if game is None and sealing.enabled:  # it came in unsealed (ALLOW_UNSEALED): mark its seal
        game = sealing.unsealed_game(_ENCODE(found.state))
    return Applied(state=handed_out(outcome.state, sealing, game),  # type: ignore[arg-type]
                   events=outcome.events, scoring=outcome.scoring,  # type: ignore[arg-type]
                   game_over=outcome.game_over, to_act=engine.to_act(outcome.state))


def legal_actions(body: LegalActionsQuery, sealing: Sealing = UNSEALED,
                  access: Access = BACKEND) -> LegalActions:
    """Up to `limit` legal actions (at most LEGAL_ACTIONS_MAX_LIMIT), of `player` only when one
    is named; with CALLERS=players only those of the seat whose token the request carries
    (another seat's options would show its hand)."""
    found = opened(body.state, sealing)
    state = found.state
    if body.player is not None and state.seat_of(body.player) < 0:
        message = f"no player is named {body.player!r}"
        raise RequestError(422, "unknown-player", message, [engine.Violation("base.turn.order", message)])
    seat = token_seat(found, sealing, access, "listing legal actions")
    player = body.player
    if seat is not None:
        if player is not None and player != state.players[seat].name:
            authorised(found, sealing, access, player, "listing legal actions")  # 403: not its token
        player = state.players[seat].name
    actions, truncated = engine.legal_actions(state, min(body.limit, access.legal_actions_limit), player)
    return LegalActions(actions=tuple(actions), truncated=truncated)


def score(body: ScoreQuery, sealing: Sealing = UNSEALED, access: Access = BACKEND) -> Breakdown:
    if isinstance(body, StateRound):
        state = checked(body.state, sealing)
        try:
            return engine.score_state(state, body.round)  # type: ignore[return-value]
        except engine.InconsistentState as e:  # a round already held (base.score.rounds)
            raise _refused(engine.INCONSISTENT, "the round cannot be scored from this state",
                           e.violations) from None
        except engine.PositionTooComplex as e:
            raise _too_complex(e) from None
    try:
        problems = position_problems(body)
    except engine.PositionTooComplex as e:  # a tally's walls measured (the most wall, ...)
        raise _too_complex(e) from None
    except Exception as e:
        problems = _unchecked("position", e)
    if problems:
        raise _refused(engine.INCONSISTENT, "the position cannot occur", problems)
    try:
        return score_sheet(body, body.previous)  # type: ignore[return-value]  # the engine's: same fields
    except engine.InconsistentState as e:
        raise _refused(engine.INCONSISTENT, "the score sheet is not this table's", e.violations) from None
    except engine.PositionTooComplex as e:
        raise _too_complex(e) from None


def player_view(body: ViewQuery, sealing: Sealing = UNSEALED, access: Access = BACKEND) -> View:
    found = opened(body.state, sealing)
    if body.player is not None:
        if found.state.seat_of(body.player) < 0:
            message = f"no player is named {body.player!r}"
            raise RequestError(422, "unknown-player", message, [engine.Violation("base.turn.order", message)])
        authorised(found, sealing, access, body.player, "a player's view")
    try:
        return view(found.state, body.player)
    except UnknownViewer as e:
        raise RequestError(422, "unknown-player", str(e),
                           [engine.Violation("base.turn.order", str(e))]) from None


def modules() -> Modules:
    """The modules a game may name (the base game and Dirk are always on when they apply)."""
    return Modules(modules=tuple(
        ModuleInfo(id=m.id, name=m.name, rule_ids=m.rule_ids, default_data=m.default_data)
        for m in registered() if m.id not in ("base", "dirk")
    ))


# --- decoding -------------------------------------------------------------------------------


class Received:
    """A body as it arrived: its bytes, decoded strictly on first use.

    The cached endpoints look their answer up by the bytes alone, so a repeated request is
    answered without decoding it; only a miss pays for `body` (400 if it does not decode).
    """

    __slots__ = ("_body", "body_type", "raw")

    def __init__(self, body_type: Any, raw: bytes) -> None:
        self.body_type = body_type
        self.raw = raw
        self._body: Any = None

    @property
    def body(self) -> Any:
        if self._body is None:
            self._body = decode(self.body_type, self.raw)
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
        return _TOO_DEEP.format(limit=limit)
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
        return f"the body is not JSON, or nests objects and arrays deeper than {limit} levels"
    return _TOO_DEEP.format(limit=limit)


_DEPTH_STEP = bytes.maketrans(b"[]", bytes([1, 255]))  # +1 and -1 as signed bytes
_TOO_DEEP = ("the body nests objects and arrays deeper than {limit} levels, the most any request of "
             "the contract needs")
_MEASURED = 4096  # the longest rest measured exactly (a truncated body leaves a few brackets)


def decode(body_type: Any, raw: bytes) -> Any:
    """The body as `body_type`, strictly; 400 naming the offending field's path otherwise (and
    400 for a body nested deeper than the contract allows). A body with a `state` whose bytes
    were decoded lately (DECODED) takes that state instead of decoding them again: the rest of
    the body is decoded as strictly, into the same type (`_WITH_RAW_STATE`), and anything that
    does not decode so goes the whole way below, which says what is wrong. So does a body that
    may name `state` twice (issue 23 item 7): the whole decode decodes every value of a repeated
    field (a first `{"junk": [1]}` is a 400) where the memo's way would see only the last, so
    equal bytes would get a 400 or a 200 by what the memo held. (Its last state's bytes may
    still be put in the memo: the whole decode decoded them alone, as any body would.)"""
    twin = _WITH_RAW_STATE.get(body_type)
    if twin is None:
        return _decoded(body_type, raw)
    try:
        parts = _decoder(twin).decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return _decoded(body_type, raw)
    digest = hashlib.sha256(parts.state).digest()
    state = DECODED.get(digest)
    if state is None or not _one_state_key(raw):
        body = _decoded(body_type, raw)
        DECODED.put(digest, body.state)
        return body
    return body_type(**{name: getattr(parts, name) for name in twin.__struct_fields__ if name != "state"},
                     state=state)


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
_WITH_RAW_STATE = {t: _with_raw_state(t) for t in (Move, LegalActionsQuery, ViewQuery)}


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
        problem = problem or _TOO_DEEP.format(limit=MAX_DEPTH)
        raise RequestError(400, "bad-request", f"invalid request body: {problem}")
    try:
        if not isinstance(failure, msgspec.ValidationError) or "got `float`" not in str(failure):
            raise failure
        # JSON Schema counts 3.0 as an integer: accept integral numbers written as floats.
        return msgspec.convert(_integral(msgspec.json.decode(raw)), _concrete(body_type, raw), strict=True)
    except msgspec.DecodeError as e:
        if isinstance(e, msgspec.ValidationError):
            _refuse_written_before_editions(raw)
        raise RequestError(400, "bad-request", f"invalid request body: {e}") from None


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
    raise _outdated(engine.editions.outdated(1, modules, players))


def _integral(value: Any) -> Any:
    """`value` with every float that has an integer value turned into that integer."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    return value


# --- the commands of the CLI ------------------------------------------------------------------

COMMANDS: dict[str, tuple[Any, Callable[[Any], Any]]] = {
    "games": (NewGame, new_game),
    "validate": (Move, validate),
    "apply": (Move, apply),
    "legal-actions": (LegalActionsQuery, legal_actions),
    "score": (ScoreQuery, score),
    "view": (ViewQuery, player_view),
}


def handle(command: str, raw: bytes, sealing: Sealing = UNSEALED, access: Access = BACKEND) -> Any:
    """The answer of the endpoint `command` to the JSON body `raw` (raises RequestError)."""
    body_type, fn = COMMANDS[command]
    return fn(decode(body_type, raw), sealing, access)
