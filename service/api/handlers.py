"""The handlers: each answers one endpoint's decoded body, and the steps they share (a state
opened and checked, a state handed out).

No game rule lives here. Every handler takes a decoded body and a `Judge` (the sealing, who
asks, the app's memo of states and its entry of the body's state) and returns an answer Struct,
or raises `RequestError` carrying the HTTP status, the error code and the violations. The HTTP
edge and the `referee` commands both reach them through the endpoint table (endpoints.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import msgspec

from service import bots, engine, i18n
from service.engine.module import registered
from service.engine.replay import IllegalRecordAction, result_differences
from service.engine.replay import replay as replayed
from service.engine.scoring.positions import position_problems
from service.engine.scoring.sheet import score_sheet
from service.engine.text import t
from service.engine.view import UnknownViewer, view
from service.seal import UNSEALED, Game, Known, Opened, SealError, Sealing

from .bodies import (
    Applied,
    Breakdown,
    Considered,
    GameAnswer,
    LegalActions,
    LegalActionsQuery,
    ModuleInfo,
    Modules,
    Move,
    NewGame,
    Replayed,
    ReplayQuery,
    ResultCheck,
    ScoreQuery,
    SeatToken,
    StateRound,
    Suggested,
    SuggestQuery,
    Validity,
    View,
    ViewQuery,
)
from .memo import Seen, States
from .refusals import (
    RecordRefused,
    RequestError,
    nothing_to_decide,
    outdated,
    refused,
    said,
    too_complex,
    unchecked,
    unknown_player,
)
from .seats import BACKEND, Access, authorised, token_seat

_ENCODE = i18n.encode  # every Text worded in the request's language


@dataclass(frozen=True, slots=True)
class Judge:
    """What a handler answers with besides the body: the sealing, who asks (`access`), the app's
    memo of states (a call without an app gets a memo of its own) and the memo's entry of the
    body's state (`seen`: None when the state was not read from bytes through the memo)."""

    sealing: Sealing = UNSEALED
    access: Access = BACKEND
    memo: States = field(default_factory=States)
    seen: Seen | None = None


ALONE = Judge(memo=States(size=0))  # no sealing, a backend caller, nothing remembered


def opened(state: engine.GameState, judge: Judge = ALONE) -> Opened:
    """The whole state behind `state` (opened when sealed) and its game, if it could occur in a
    game; else 422: `inconsistent-state` with the reasons, `outdated-state`, or the seal's
    refusal (`bad-seal`, `unsealed-state`). What the memo knows of it is not done again: bytes
    opened before are not opened again, a seal is not decrypted again, a whole state checked
    before is not checked again."""
    seen = _entry(state, judge)
    if seen is not None and seen.opened is not None and seen.checked:
        return seen.opened
    found, sealed = _opening(state, judge, seen)
    if not ((seen is not None and seen.checked) or (sealed is not None and sealed.checked)):
        try:
            problems = engine.check_consistency(found.state)
        except Exception as e:
            problems = unchecked("state", e)
        if problems:
            raise refused(engine.INCONSISTENT, t("the state cannot occur in a game"), problems)
    for entry in (seen, sealed):
        if entry is not None:
            entry.checked = True
    return found


def unsealed(state: engine.GameState, judge: Judge = ALONE) -> Opened:
    """`opened` without the consistency check: the seal opened and the edition brought up to
    date (one_future's, for a state whose answer was given)."""
    return _opening(state, judge, _entry(state, judge))[0]


def checked(state: engine.GameState, judge: Judge = ALONE) -> engine.GameState:
    """The whole state behind `state`, if it could occur in a game (see `opened`)."""
    return opened(state, judge).state


def _entry(state: engine.GameState, judge: Judge) -> Seen | None:
    """The memo's entry of the bytes `state` was read from (None: it was not read so)."""
    seen = judge.seen
    return seen if seen is not None and seen.state is state else None


def _opening(state: engine.GameState, judge: Judge, seen: Seen | None) -> tuple[Opened, Seen | None]:
    """What opening `state` gives (kept in the entry of its bytes) and the entry of its seal."""
    sealed = _sealed(state, judge) if state.seal is not None else None
    if seen is not None and seen.opened is not None:
        return seen.opened, sealed
    known = None if sealed is None else Known(sealed.opened, sealed.public)  # type: ignore[arg-type]
    try:
        found = judge.sealing.open(state, None if seen is None else seen.digest, known)
    except SealError as e:
        raise _seal_refused(e) from None
    if found.state.edition != engine.EDITION:
        # An older edition plays on as the current one where nothing that changed concerns it.
        try:
            found = dataclasses.replace(found, state=engine.check_edition(found.state))
        except engine.OutdatedState as e:
            raise outdated(e.violation) from None
    if seen is not None:
        seen.opened = found
    return found, sealed


def _sealed(state: engine.GameState, judge: Judge) -> Seen | None:
    """The memo's entry of the state's seal: what it opened to (decrypted now, if it is new);
    None when this referee cannot open seals (`Sealing.open` then says so)."""
    assert state.seal is not None
    entry = judge.memo.get(state.seal)
    if entry is None and judge.sealing.keys:
        try:
            known = judge.sealing.unseal(state.seal)
        except SealError as e:
            raise _seal_refused(e) from None
        entry = judge.memo.put(state.seal, Seen(known.opened.state, opened=known.opened, public=known.public))
    return entry


def _seal_refused(e: SealError) -> RequestError:
    return RequestError(422, e.error, e.message, [engine.Violation("referee.seal", e.message)])


def handed_out(state: engine.GameState, judge: Judge, game: Game | None = None) -> msgspec.Raw:
    """A state the referee produced, encoded for the answer (sealed when sealing is on, as a
    state of `game`). It is consistent by construction, and the client brings these bytes back:
    the memo keeps it, checked, under the answer's bytes (and its seal)."""
    encoded = _ENCODE(state)
    digest = States.digest(encoded)
    memo = judge.memo
    public, known = judge.sealing.sealed(state, encoded, game, digest)
    if known is None:
        memo.put(digest, Seen(state, True, Opened(state, False, digest), digest=digest))
        return msgspec.Raw(encoded)
    assert public.seal is not None
    memo.put(public.seal, Seen(state, True, known.opened, known.public))
    out = _ENCODE(public)
    handed = States.digest(out)
    memo.put(handed, Seen(public, True, known.opened, digest=handed))
    return msgspec.Raw(out)


# Every handler answers one endpoint's decoded body. The answers that hold a state hold it
# already encoded (`handed_out`: a msgspec.Raw), which encodes like the state it stands for.


def new_game(body: NewGame, judge: Judge = ALONE) -> GameAnswer:
    try:
        outcome = engine.new_game(body.players, body.modules, seed=body.seed)
    except engine.GameRequestError as e:
        raise refused("bad-game-request", t("the game cannot be set up"), e.violations) from None
    sealing = judge.sealing
    game = sealing.new_game()
    seats = () if game is None else tuple(SeatToken(player=p.name, token=sealing.seat_token(game, i))
                                          for i, p in enumerate(outcome.state.players))
    return GameAnswer(state=handed_out(outcome.state, judge, game),  # type: ignore[arg-type]
                      game_over=outcome.game_over, to_act=engine.to_act(outcome.state), seat_tokens=seats)


def validate(body: Move, judge: Judge = ALONE) -> Validity:
    found = opened(body.state, judge)
    authorised(found, judge.sealing, judge.access, body.action.player, t("validating an action"))
    violations = engine.validate(found.state, body.action)
    return Validity(valid=not violations, violations=tuple(violations))


def apply(body: Move, judge: Judge = ALONE) -> Applied:
    found = opened(body.state, judge)
    sealing = judge.sealing
    authorised(found, sealing, judge.access, body.action.player, t("applying an action"))
    try:
        outcome = engine.apply(found.state, body.action)
    except engine.IllegalAction as e:
        raise refused("illegal-action", t("the action is illegal"), e.violations) from None
    except engine.PositionTooComplex as e:  # a scoring round this action triggered
        raise too_complex(e) from None
    game = found.game
    if game is None and sealing.enabled:  # it came in unsealed (ALLOW_UNSEALED): mark its seal
        game = sealing.unsealed_game(_ENCODE(found.state))
    return Applied(state=handed_out(outcome.state, judge, game),  # type: ignore[arg-type]
                   events=outcome.events, scoring=outcome.scoring,  # type: ignore[arg-type]
                   game_over=outcome.game_over, to_act=engine.to_act(outcome.state))


def legal_actions(body: LegalActionsQuery, judge: Judge = ALONE) -> LegalActions:
    """Up to `limit` legal actions (at most LEGAL_ACTIONS_MAX_LIMIT), of `player` only when one
    is named; with CALLERS=players only those of the seat whose token the request carries
    (another seat's options would show its hand)."""
    found = opened(body.state, judge)
    sealing, access = judge.sealing, judge.access
    state = found.state
    if body.player is not None and state.seat_of(body.player) < 0:
        raise unknown_player(t("no player is named {player}", player=repr(body.player)))
    seat = token_seat(found, sealing, access, t("listing legal actions"))
    player = body.player
    if seat is not None:
        if player is not None and player != state.players[seat].name:
            authorised(found, sealing, access, player, t("listing legal actions"))  # 403: not its token
        player = state.players[seat].name
    actions, truncated = engine.legal_actions(state, min(body.limit, access.legal_actions_limit), player)
    return LegalActions(actions=tuple(actions), truncated=truncated)


def score(body: ScoreQuery, judge: Judge = ALONE) -> Breakdown:
    if isinstance(body, StateRound):
        state = checked(body.state, judge)
        try:
            return engine.score_state(state, body.round)  # type: ignore[return-value]
        except engine.InconsistentState as e:  # a round already held (base.score.rounds)
            raise refused(engine.INCONSISTENT, t("the round cannot be scored from this state"),
                           e.violations) from None
        except engine.PositionTooComplex as e:
            raise too_complex(e) from None
    try:
        problems = position_problems(body)
    except engine.PositionTooComplex as e:  # a tally's walls measured (the most wall, ...)
        raise too_complex(e) from None
    except Exception as e:
        problems = unchecked("position", e)
    if problems:
        raise refused(engine.INCONSISTENT, t("the position cannot occur"), problems)
    try:
        return score_sheet(body, body.previous)  # type: ignore[return-value]  # the engine's: same fields
    except engine.InconsistentState as e:
        raise refused(engine.INCONSISTENT, t("the score sheet is not this table's"), e.violations) from None
    except engine.PositionTooComplex as e:
        raise too_complex(e) from None


def player_view(body: ViewQuery, judge: Judge = ALONE) -> View:
    found = opened(body.state, judge)
    if body.player is not None:
        if found.state.seat_of(body.player) < 0:
            raise unknown_player(t("no player is named {player}", player=repr(body.player)))
        authorised(found, judge.sealing, judge.access, body.player, t("a player's view"))
    try:
        return view(found.state, body.player)
    except UnknownViewer as e:
        raise unknown_player(said(e)) from None


def suggest(body: SuggestQuery, judge: Judge = ALONE) -> Suggested:
    """A bot's move for `body.player` (service.bots, issue 28), chosen at `body.level` from what
    that seat may see alone, so with CALLERS=players it needs that seat's token (the move
    depends on its hand and its secret choices). 422 `unknown-player` for a name not at the
    table, `nothing-to-decide` (base.turn.order) when the seat has nothing to decide now."""
    found = opened(body.state, judge)
    if found.state.seat_of(body.player) < 0:
        raise unknown_player(t("no player is named {player}", player=repr(body.player)))
    authorised(found, judge.sealing, judge.access, body.player, t("a suggestion"))
    try:
        made = bots.suggest(found.state, body.player, body.level, body.budget_ms)
    except bots.UnknownSeat as e:
        raise unknown_player(said(e)) from None
    except bots.NotToAct as e:
        raise nothing_to_decide(said(e)) from None
    except engine.PositionTooComplex as e:  # a wall reckoned past the search's bound
        raise too_complex(e) from None
    considered = tuple(Considered(action=c.action, value=c.value, simulations=c.simulations)
                       for c in made.considered)
    return Suggested(player=made.player, level=made.level, action=made.action, legal=made.legal,
                     considered=considered, simulated=made.simulated, truncated=made.truncated)


def replay(body: ReplayQuery, judge: Judge = ALONE) -> Replayed:
    """A record replayed (docs/records.md): the editions policy for its edition, its setup and
    its seal checked, each action judged and applied in order (the first illegal one refused,
    422, with its index and the state before it, or `player`'s view of it), up to `upto`; the
    state (or `player`'s view), the scoring rounds on the way and the record's result checked.
    Everything it answers the record itself implies (its seed draws every hidden card and tile),
    so with CALLERS=players it asks no seat token; and then, as whenever futures are recorded,
    its states are sealed as a game of the record's own, never as the real game: a state of the
    real game minted from a record would let its holder act for seats whose tokens they lack, or
    fork a state past its one future."""
    record, setup = body.record, body.record.setup
    try:
        engine.check_record_edition(record.edition, tuple(setup.modules), len(setup.players))
    except engine.OutdatedState as e:
        raise outdated(e.violation) from None
    try:
        first = engine.new_game(setup.players, setup.modules, seed=setup.seed).state
    except engine.GameRequestError as e:
        raise refused("bad-game-request", t("the record's setup makes no game"), e.violations) from None
    game = _record_game(body, first, judge)
    _seen(first, body.player)  # an unknown player is refused before any action is judged
    try:
        done = replayed(setup.players, setup.modules, setup.seed, record.actions, body.upto)
    except engine.PositionTooComplex as e:  # a scoring round an action triggered
        raise too_complex(e) from None
    except IllegalRecordAction as e:
        before = _seen(e.state, body.player)
        state = None if before is not None else handed_out(e.state, judge, game)
        raise RecordRefused(e.index, e.action, state, before, e.violations) from None
    seen = _seen(done.state, body.player)
    state = None if seen is not None else handed_out(done.state, judge, game)
    return Replayed(actions=done.applied, state=state, view=seen,  # type: ignore[arg-type]
                    to_act=engine.to_act(done.state), game_over=done.game_over,
                    events=done.events, scoring=done.scoring,  # type: ignore[arg-type]
                    ranking=done.state.ranking, result=_result(body, done))


def _seen(state: engine.GameState, player: str | None) -> View | None:
    if player is None:
        return None
    try:
        return view(state, player)
    except UnknownViewer as e:
        raise unknown_player(said(e)) from None


def _record_game(body: ReplayQuery, first: engine.GameState, judge: Judge) -> Game | None:
    """The game a record's states are sealed as (None with sealing off). Its `seal` is checked
    to be of the first state of its setup (else 422 `bad-seal`); the real game it names seals
    the replay's states only for a trusted backend whose futures are not recorded; otherwise,
    and without a seal, a game of the record's own (`Sealing.record_game`). A referee that does
    not seal reads no seal."""
    sealing, record = judge.sealing, body.record
    if not sealing.enabled:
        return None
    own = sealing.record_game(_ENCODE(record.setup))
    if record.seal is None:
        return own
    try:
        known = sealing.unseal(record.seal)
    except SealError as e:
        raise _seal_refused(e) from None
    try:
        sealed_first = engine.check_edition(known.opened.state)
    except engine.OutdatedState:
        sealed_first = known.opened.state
    if _ENCODE(sealed_first) != _ENCODE(first):
        message = t("the record's seal is not of the first state of its setup (the players, "
                    "modules and seed of the game it seals differ): leave the seal out, or give "
                    "the setup of the game it seals")
        raise RequestError(422, "bad-seal", message, [engine.Violation("referee.seal", message)])
    if judge.access.players or judge.access.futures_recorded:
        return own
    return known.opened.game


def _result(body: ReplayQuery, done: engine.Replay) -> ResultCheck:
    record = body.record
    if body.upto is not None and body.upto < len(record.actions):
        return ResultCheck(verdict="not-reached", differences=())
    if record.result is None:
        return ResultCheck(verdict="absent", differences=())
    differences = tuple(result_differences(record.result, done))
    return ResultCheck(verdict="disagrees" if differences else "agrees", differences=differences)


def modules() -> Modules:
    """The modules a game may name (the base game and Dirk are always on when they apply)."""
    return Modules(modules=tuple(
        ModuleInfo(id=m.id, name=m.name, rule_ids=m.rule_ids, default_data=m.default_data)
        for m in registered() if m.id not in ("base", "dirk")
    ))
