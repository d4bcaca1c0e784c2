"""The request bodies and answers of the HTTP contract (API.md), as msgspec Structs.

Request bodies forbid unknown fields. The engine's own types (GameState, Position, View,
Violation) are used as they are; the unions (actions, events, scoring lines) are assembled from
what the registered modules declare, so a new module's actions appear here without an edit.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import msgspec

import service.engine  # noqa: F401  (registers every module before the unions are built)
from service.bots.model import BUDGET_MS, MOST_CONSIDERED, Budget, Level
from service.engine import scoring
from service.engine.census import CENSUS
from service.engine.flow import Actor, ToAct
from service.engine.module import all_action_types, all_event_types, all_line_types
from service.engine.records import Int, Record
from service.engine.replay import MAX_RECORD_ACTIONS
from service.engine.scoring import Round
from service.engine.state import GameState, RankEntry, RulesEdition
from service.engine.view import View
from service.engine.violations import Violation

AnyAction = Union[all_action_types()]  # type: ignore[valid-type]  # noqa: UP007
AnyEvent = Union[all_event_types()]  # type: ignore[valid-type]  # noqa: UP007
AnyLine = Union[all_line_types()]  # type: ignore[valid-type]  # noqa: UP007

PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
ModuleId = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Seed = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
Limit = Annotated[int, msgspec.Meta(ge=0, le=10_000)]


class NewGame(Record):
    """POST /v1/games: the players in seat order, the modules, and the seed of the generator."""

    players: Annotated[tuple[PlayerName, ...], msgspec.Meta(max_length=16)]
    modules: Annotated[tuple[ModuleId, ...], msgspec.Meta(max_length=16)] = ()
    seed: Seed = 0


RECORD_FORMAT = "alhambra-record/1"
SealText = Annotated[str, msgspec.Meta(min_length=1, max_length=65_536)]  # as GameState.seal


class GameRecord(Record):
    """A whole game in one document (docs/records.md): its `format` and the rules `edition` it
    was played under, its `setup` as POST /v1/games takes it, every action in the order it was
    applied, and optionally its `result` (the final ranking, which a replay checks). `seal`: the
    seal of the game's first state as a sealing referee handed it out; with it, a sealing
    referee replays the game's own states byte for byte (without it, a game of the record's own).
    """

    format: Literal["alhambra-record/1"]
    edition: RulesEdition  # as a state's: above this referee's, 400
    setup: NewGame
    seal: SealText | None = None
    actions: Annotated[tuple[AnyAction, ...], msgspec.Meta(max_length=MAX_RECORD_ACTIONS)] = ()
    result: Annotated[tuple[RankEntry, ...], msgspec.Meta(max_length=CENSUS.players)] | None = None


class ReplayQuery(Record):
    """POST /v1/replay: a record; `upto`: stop after that many actions (a viewer stepping
    through; all of them when left out); `player`: answer that seat's view instead of the state
    (a spectator's replay without spoilers)."""

    record: GameRecord
    upto: Annotated[int, msgspec.Meta(ge=0, le=MAX_RECORD_ACTIONS)] | None = None
    player: PlayerName | None = None


class Move(Record):
    """A state and an action in it: the body of /v1/validate, /v1/apply and /v1/echo."""

    state: GameState
    action: AnyAction


class LegalActionsQuery(Record):
    """POST /v1/legal-actions: a state, the most actions to list, and optionally the player whose
    actions to list (`to_act` of an answer names who may act; without `player`, the actions of
    everyone who may, e.g. every thief's in the thieves' window)."""

    state: GameState
    limit: Limit = 1000
    player: PlayerName | None = None


class SuggestQuery(Record):
    """POST /v1/suggest: a state (sealed or not, as the other endpoints take it), the player a
    bot should move for, the bot's `level` and the strong level's `budget_ms` (the other levels
    spend none of it)."""

    state: GameState
    player: PlayerName
    level: Level = "basic"
    budget_ms: Budget = BUDGET_MS


class PastPlayer(Record):
    """A player's part of an earlier round's breakdown, as /v1/score answered it."""

    name: PlayerName
    total: Int
    lines: Annotated[tuple[AnyLine, ...], msgspec.Meta(max_length=32)]


class PastRound(Record):
    """An earlier round of the same table: the breakdown /v1/score answered for it, sent back
    as it came."""

    round: Round
    players: Annotated[tuple[PastPlayer, ...], msgspec.Meta(min_length=1, max_length=CENSUS.players)]
    ranking: Annotated[tuple[RankEntry, ...], msgspec.Meta(max_length=CENSUS.players)]


class Position(scoring.Position):
    """A scoring position of a real table (API.md): each player given by tiles (`alhambra`,
    `reserve`; Dirk: `tiles`) or by what was counted of them (`tally`). `previous`: the
    breakdowns of the earlier rounds of the same evening, as /v1/score answered them (round 1
    first; all of them), which makes a score sheet: the points before this round are then their
    totals (leave `score` out) and the ranking holds the running totals, after round 3 the
    final ranking."""

    previous: Annotated[tuple[PastRound, ...], msgspec.Meta(max_length=CENSUS.rounds - 1)] = ()


class StateRound(Record):
    """POST /v1/score with a game state: its scoring round `round` as if it were held now (a
    round the state already held is refused, 422: its points are in the scores)."""

    state: GameState
    round: Round


class ViewQuery(Record):
    """POST /v1/view: a state and the player who looks at it (none: a spectator)."""

    state: GameState
    player: PlayerName | None = None


ScoreQuery = Position | StateRound


class RenderState(Record):
    """POST /v1/render with a game state: all of it, or only what `player` may see of it."""

    state: GameState
    player: PlayerName | None = None


class RenderPosition(Position):
    """POST /v1/render with a scoring position (as /v1/score takes it). `draw`: `position` (the
    default) draws every player's tiles or counts, the round's breakdown and the score sheet;
    `sheet` only the score sheet: each round's points and running totals and their chart by
    round, small enough for a phone."""

    draw: Literal["position", "sheet"] = "position"


# POST /v1/render: a state (told apart by its `state` field) or a scoring position.
RenderQuery = RenderState | RenderPosition


class Answer(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """The base of every answer: all fields always present, so clients read one shape."""


class SeatToken(Answer):
    """A seat's secret (sealing on): hand it to that player only. With CALLERS=players a request
    acting for the seat or showing its secrets carries it as `Authorization: Bearer <token>`."""

    player: str
    token: str


class GameAnswer(Answer):
    """POST /v1/games: the new game's state, whether it is over, and who must act first."""

    state: GameState
    to_act: ToAct
    game_over: bool
    # One per seat, in seat order, when the referee seals states (else empty).
    seat_tokens: tuple[SeatToken, ...]


class Validity(Answer):
    valid: bool
    violations: tuple[Violation, ...]


class PlayerScore(Answer):
    name: str
    total: int
    lines: tuple[AnyLine, ...]


class Breakdown(Answer):
    """A scoring round (API.md): each player's lines and total, and the ranking after it."""

    round: int
    players: tuple[PlayerScore, ...]
    ranking: tuple[RankEntry, ...]


class Applied(Answer):
    """POST /v1/apply: the new state, what happened, the scoring rounds held, whether the game is
    over, and who must act next."""

    state: GameState
    events: tuple[AnyEvent, ...]
    scoring: tuple[Breakdown, ...]
    to_act: ToAct
    game_over: bool  # last: the metrics find a finished game by the answer's tail (observe.py)


class ResultCheck(Answer):
    """Whether the record's result agrees with the replay's final ranking: `agrees`,
    `disagrees` (each difference named), `absent` (the record has no result) or `not-reached`
    (`upto` stopped the replay before the record's last action)."""

    verdict: Literal["agrees", "disagrees", "absent", "not-reached"]
    differences: tuple[str, ...]


class Replayed(Answer):
    """POST /v1/replay: where the replay stopped. `actions`: how many of the record's actions
    were applied; `state`: the state then (sealed when sealing is on; null when `player` was
    given), `view`: that player's view (null without `player`); `events`: those of the last
    action applied; `scoring`: every scoring round held on the way; `ranking`: the final ranking
    (empty until the game is over); `result`: the record's result checked."""

    actions: int
    state: GameState | None
    view: View | None
    to_act: ToAct
    game_over: bool
    events: tuple[AnyEvent, ...]
    scoring: tuple[Breakdown, ...]
    ranking: tuple[RankEntry, ...]
    result: ResultCheck


class RecordRefusal(Answer):
    """POST /v1/replay, 422 `illegal-action`: the first action of the record that is illegal
    where it stands: its `index` (from 0), the action, the violations (rule ids) and the `state`
    the record reached before it (sealed when sealing is on), or with `player` that player's
    `view` of it instead (no spoilers in a refusal either)."""

    error: Literal["illegal-action"]
    message: str
    violations: tuple[Violation, ...]
    index: int
    action: AnyAction
    state: GameState | None  # null when the replay was asked for a `player`'s view
    view: View | None  # that player's view of the state before the action


# The bounds of a suggestion's numbers. A seat's legal actions are counted by the engine's
# listing: a purchase is one action per distinct payment, and a hand of every money card of a
# currency pays a tile 4^9 ways (values 1 to 9, up to 3 cards each), so MOST_OPTIONS holds the
# four market spaces so paid and every other action with room to spare. A value is what a
# position is worth to the seat ahead of the best other player: two scores (generic Int,
# +-1,000,000) and the points a reckoning adds to them, within MOST_VALUE. Simulated actions are
# the strong level's work units, some WORK_PER_MS a millisecond of at most MOST_BUDGET_MS, plus
# a few per option weighed: within MOST_SIMULATED.
MOST_OPTIONS = 10_000_000
MOST_VALUE = 10_000_000
MOST_SIMULATED = 100_000_000
Options = Annotated[int, msgspec.Meta(ge=0, le=MOST_OPTIONS)]
Value = Annotated[float, msgspec.Meta(ge=-MOST_VALUE, le=MOST_VALUE)]
Simulated = Annotated[int, msgspec.Meta(ge=0, le=MOST_SIMULATED)]


class Considered(Answer):
    """One option a bot weighed: the `action` (null: waiting, for a seat that may only act out
    of turn, as in the thieves' window, and may as well not), its `value` for the seat (points
    ahead of the best other player, as the level reckons them) and in how many simulated worlds
    it was tried (`simulations`: the strong level's; 0 for the others)."""

    action: AnyAction | None
    value: Value
    simulations: Simulated


class Suggested(Answer):
    """POST /v1/suggest: a bot's move for `player`, chosen from what that seat may see alone:
    the `action` (null: wait, see `Considered`), the `level` that chose it, how many options the
    seat had (`legal`: its legal actions, and waiting where it is one), the best of those it
    weighed (`considered`, best first, at most 10; none at the random level) and how many
    actions it simulated in all (`simulated`: the strong level's work; 0 for the others)."""

    player: str
    level: Level
    action: AnyAction | None
    legal: Options
    considered: Annotated[tuple[Considered, ...], msgspec.Meta(max_length=MOST_CONSIDERED)]
    simulated: Simulated


class LegalActions(Answer):
    actions: tuple[AnyAction, ...]
    truncated: bool


class ModuleInfo(Answer):
    id: str
    name: str
    rule_ids: tuple[str, ...]
    default_data: dict[str, Any]


class Modules(Answer):
    modules: tuple[ModuleInfo, ...]


class Health(Answer):
    status: Literal["ok"]


class Readiness(Answer):
    status: Literal["ready"]
    cache: Literal["memory", "memory+redis"]
    redis: Literal["off", "up", "down"]


ErrorCode = Literal[
    "bad-request", "inconsistent-state", "outdated-state", "illegal-action", "bad-game-request",
    "unknown-player", "not-found", "method-not-allowed", "body-too-large", "unsupported-media-type",
    "internal-error",
    "bad-seal", "unsealed-state", "already-advanced", "one-future-unavailable", "forbidden",
    "position-too-complex", "request-timeout", "nothing-to-decide",
]


class ErrorBody(Answer, forbid_unknown_fields=True):
    """Every error answer: a stable code, a message (for a schema error it names the field's
    path, e.g. `$.state.turn.player`) and the rule violations behind a refusal (else empty).
    Closed (no other field), so that /v1/replay's RecordRefusal, which has more, is told apart."""

    error: ErrorCode
    message: str
    violations: tuple[Violation, ...] = ()


# POST /v1/replay's 422: a record's illegal action (RecordRefusal), else another refusal.
ReplayRefused = RecordRefusal | ErrorBody


__all__ = [
    "Actor",
    "AnyAction",
    "AnyEvent",
    "AnyLine",
    "Applied",
    "Breakdown",
    "Considered",
    "ErrorBody",
    "GameAnswer",
    "GameRecord",
    "Health",
    "LegalActions",
    "LegalActionsQuery",
    "ModuleInfo",
    "Modules",
    "Move",
    "NewGame",
    "PastPlayer",
    "PastRound",
    "PlayerScore",
    "Position",
    "Readiness",
    "RecordRefusal",
    "RenderPosition",
    "RenderQuery",
    "RenderState",
    "ReplayQuery",
    "Replayed",
    "ResultCheck",
    "ScoreQuery",
    "SeatToken",
    "StateRound",
    "SuggestQuery",
    "Suggested",
    "ToAct",
    "Validity",
    "View",
    "ViewQuery",
]
