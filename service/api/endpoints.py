"""The endpoint table: every endpoint that judges or sets up a game from a JSON body, once.

A row (`Endpoint`) names the path, the body's type, the handler, whether its answers are cached
(those are answered whole by the fast path, front.py), who may call it and the contract's words
(operation id, summary, tag, responses, description). From it are derived the litestar routes
(controllers.py), the fast path's routes (front.py), the OpenAPI document (litestar's, from
those routes) and the `referee` commands (`handle`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from litestar.openapi.datastructures import ResponseSpec

from service.bots.model import BUDGET_MS, LEAST_BUDGET_MS, MOST_BUDGET_MS, MOST_CONSIDERED
from service.cache import code_digest
from service.engine.replay import MAX_RECORD_ACTIONS
from service.seal import UNSEALED, Sealing

from .bodies import (
    Applied,
    Breakdown,
    ErrorBody,
    GameAnswer,
    LegalActions,
    LegalActionsQuery,
    Move,
    NewGame,
    Replayed,
    ReplayQuery,
    ReplayRefused,
    ScoreQuery,
    Suggested,
    SuggestQuery,
    Validity,
    View,
    ViewQuery,
)
from .handlers import Judge, apply, legal_actions, new_game, player_view, replay, score, suggest, validate
from .memo import States
from .reading import decoded
from .seats import BACKEND, Access


def error(description: str) -> ResponseSpec:
    return ResponseSpec(data_container=ErrorBody, description=description, generate_examples=False)


def ok(answer: type, description: str) -> ResponseSpec:
    return ResponseSpec(data_container=answer, description=description, generate_examples=False)


BAD_REQUEST = error("The body is not JSON or does not fit the schema (wrong type, unknown field, "
                    "value out of range); the message names the field's path, e.g. `$.state.turn`.")
TOO_LARGE = error("The body is larger than the limit (setting MAX_BODY_BYTES, 256 KiB by default).")
FORBIDDEN = error("`forbidden` (CALLERS=players only): the request acts for a seat or shows its "
                  "secrets and carries no `Authorization: Bearer <seat token>` of that seat.")
INCONSISTENT = error("`inconsistent-state`: the state (or position) cannot occur in a game; "
                     "`violations` says why. `outdated-state`: the state was made under an older "
                     "edition of the rules whose changes concern its game (`state.edition`). "
                     "With sealing on: `bad-seal` (altered, cut, another "
                     "state's or an unknown key's seal) or `unsealed-state`. Scoring: "
                     "`position-too-complex`, walls that branch past the search's bound.")


def responses(answer: type, description: str, status: int = 200,
              **refusals: ResponseSpec) -> dict[int, ResponseSpec]:
    out = {status: ok(answer, description), 400: BAD_REQUEST, 413: TOO_LARGE}
    out.update({int(code.removeprefix("s")): spec for code, spec in refusals.items()})
    return out


CACHED_NOTE = ("\n\n        Cached: send `Cache-Control: no-cache` to have it computed; `x-cache` says "
               "hit or miss.")


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One endpoint: `name` (the `referee` command's, and the cache's scope), `path`,
    `body_type`, `handler`, `cached` (answers kept by the body's bytes: the fast path answers
    it), `seat` (with CALLERS=players a request may need a seat token: the contract says so),
    and the contract's `operation_id`, `summary`, `tag`, `responses`, `status` and
    `description` (the operation's, as a docstring). `body_limit`: the setting that bounds its
    body's bytes; `threaded`: its handler runs in a worker thread (an answer that may take longer
    than the event loop should wait). `code`: a digest of the code its answers depend on
    besides the engine's (the bots'), part of its cache key: new code, new answers."""

    name: str
    path: str
    body_type: Any
    handler: Callable[[Any, Judge], Any]
    cached: bool
    seat: bool
    operation_id: str
    summary: str
    tag: str
    responses: dict[int, ResponseSpec]
    description: str
    status: int = 200
    body_limit: str = "max_body_bytes"
    threaded: bool = False
    code: str = ""


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "games", "/v1/games", NewGame, new_game, cached=False, seat=False,
        operation_id="createGame", summary="Set up a new game", tag="games", status=201,
        responses=responses(GameAnswer, "The state after the setup of RULES.md §2 and of each module.",
                            201, s422=error("`bad-game-request`: the players or modules cannot "
                                            "make a game (2 to 6 unique names, known modules).")),
        description="A new game's state after every setup step; all chance comes from `seed` (default 0)."),
    Endpoint(
        "validate", "/v1/validate", Move, validate, cached=True, seat=True,
        operation_id="validateAction", summary="Is an action legal in a state?", tag="referee",
        responses=responses(Validity, "Whether the action is legal, and if not, the violations.",
                            s422=INCONSISTENT, s403=FORBIDDEN),
        description="The violations of the action (rule id and message each), empty when it is legal."
                    + CACHED_NOTE),
    Endpoint(
        "apply", "/v1/apply", Move, apply, cached=True, seat=True,
        operation_id="applyAction", summary="Apply a legal action to a state", tag="referee",
        responses=responses(Applied, "The new state, the events, the scoring rounds triggered and "
                            "whether the game is over.",
                            s422=error("`illegal-action` with the violations, `inconsistent-state`, "
                                       "`outdated-state`, `position-too-complex` (a scoring round "
                                       "it triggers), or with sealing on `bad-seal` / "
                                       "`unsealed-state`."),
                            s409=error("`already-advanced`: with sealing and Redis on, another "
                                       "action was already applied to this sealed state "
                                       "(referee.one-future)."),
                            s503=error("`one-future-unavailable`: the one-future record cannot be "
                                       "made while Redis is down, or no replica confirmed it in "
                                       "time (ONE_FUTURE_REPLICAS) (ONE_FUTURE_WHEN_REDIS_DOWN="
                                       "refuse); retry after `Retry-After` seconds."),
                            s403=FORBIDDEN),
        description="The state after the action; chance (draws, refills) comes from the state's "
                    "generator." + CACHED_NOTE),
    Endpoint(
        "legal-actions", "/v1/legal-actions", LegalActionsQuery, legal_actions, cached=True, seat=True,
        operation_id="listLegalActions", summary="List the legal actions of a state", tag="referee",
        responses=responses(LegalActions, "Up to `limit` legal actions, each of which passes "
                            "/v1/validate, and whether the list was cut short (at most "
                            "LEGAL_ACTIONS_MAX_LIMIT; with CALLERS=players only the seat token's "
                            "seat's).", s403=FORBIDDEN,
                            s422=error(INCONSISTENT.description + " `unknown-player` when no "
                                       "player has the name given as `player`.")),
        description="The actions the players who may act can take now, in a stable order; with "
                    "`player`,\n        only that player's (an answer's `to_act` names who may act: "
                    "the active player, a player\n        a decision waits for, the players of an "
                    "out-of-turn window such as the thieves')."),
    Endpoint(
        "score", "/v1/score", ScoreQuery, score, cached=True, seat=False,
        operation_id="scorePosition", summary="Score a position or a game state", tag="scoring",
        responses=responses(Breakdown, "The scoring round's breakdown: lines and total per player, "
                            "and the ranking by running score (with `previous`: the running "
                            "totals of the score sheet; after round 3 the final ranking).",
                            s422=INCONSISTENT),
        description="A scoring position of a real table (API.md), each player given by tiles or by "
                    "a\n        `tally` of what was counted, with the earlier rounds' answers as "
                    "`previous` for a score\n        sheet; or `{\"state\", \"round\"}` for a game state."),
    Endpoint(
        "view", "/v1/view", ViewQuery, player_view, cached=False, seat=True,
        operation_id="viewState", summary="What one player may see of a state", tag="games",
        responses=responses(View, "The state with what the player may not see hidden (RULES.md §8).",
                            s422=error("`inconsistent-state`, `outdated-state`, or `unknown-player` "
                                       "when no player has that name."), s403=FORBIDDEN),
        description="Hands of the others, the deck's and the bag's order and the generator are "
                    "hidden; a\n        missing `player` is a spectator."),
)

# A record is whole games' worth of actions: its own limit on the body and a worker thread.
ENDPOINTS += (
    Endpoint(
        "replay", "/v1/replay", ReplayQuery, replay, cached=False, seat=False,
        operation_id="replayRecord", summary="Replay a game's record", tag="games",
        responses=responses(
            Replayed, "Where the replay stopped: the state (or the player's view), who must act, "
            "whether the game is over, the last action's events, every scoring round on the way, "
            "the final ranking and the record's result checked.",
            s422=ResponseSpec(data_container=ReplayRefused,  # type: ignore[arg-type]  # a union: litestar reads it
                              generate_examples=False,
                              description="`illegal-action`: the first illegal action, with its "
                              "`index`, the action, its violations and the `state` before it; "
                              "`outdated-state` (a record of an edition whose changed rules "
                              "apply to its game); `bad-game-request` (its setup makes no game); "
                              "`bad-seal` (a seal that is not of the first state of its setup); "
                              "`unknown-player`; `position-too-complex`.")),
        description="Every action of the record judged and applied in order, from its setup; "
                    "`upto` stops after that many. Answers what the record implies, so it needs "
                    "no seat token (a record holds its seed: it is the backend's to keep). "
                    "Bodies up to MAX_RECORD_BYTES (2 MiB by default); at most "
                    f"{MAX_RECORD_ACTIONS} actions.",
        body_limit="max_record_bytes", threaded=True),
)

# A bot's move (issue 28): seconds of CPU at most, so a worker thread; deterministic, so cached
# (a retry, a second click, another replica with the same Redis costs nothing), under a key that
# holds the bots' code too (`code`: a stronger bot is not answered by a weaker one's moves).
ENDPOINTS += (
    Endpoint(
        "suggest", "/v1/suggest", SuggestQuery, suggest, cached=True, seat=True,
        operation_id="suggestAction", summary="A bot's move for a seat", tag="referee",
        responses=responses(
            Suggested, "The action a bot of `level` suggests for `player` (null: wait), how many "
            "options the seat had, the best of those it weighed (at most "
            f"{MOST_CONSIDERED}) and how many actions it simulated.",
            s422=error("`unknown-player` when no player has the name given as `player`; "
                       "`nothing-to-decide` (base.turn.order) when the game waits for nothing "
                       "from that seat now (the message names whom it waits for); "
                       "`inconsistent-state`, `outdated-state`, with sealing on `bad-seal` or "
                       "`unsealed-state`, as for every state; `position-too-complex` (walls that "
                       "branch past the search's bound)."),
            s403=error("`forbidden` (CALLERS=players only): a suggestion depends on the seat's "
                       "secrets (its hand, its secret choices), so it needs `Authorization: Bearer "
                       "<seat token>` of `player`.")),
        description="A legal action for `player`, or for the decision the game waits on from "
                    "that seat (a craftsman to pass, chests to place, a theft, a vendor disc, ...), "
                    "chosen by a bot from what that seat may see alone (RULES.md §8: two states "
                    "that differ only in what it may not see get the same answer). `level`: "
                    "`random` (any legal action, each as likely), `basic` (one step ahead, by a "
                    "player's reckoning of the position; the default) or `strong` (a search over "
                    "worlds the seat cannot tell from the real one within `budget_ms`, "
                    f"{LEAST_BUDGET_MS} to {MOST_BUDGET_MS}, default {BUDGET_MS}, spent as simulated "
                    "work, never by the clock). Deterministic: the same body gives the same bytes. "
                    "Computed in a worker thread." + CACHED_NOTE,
        threaded=True, code=code_digest("bots")),
)

BY_NAME = {e.name: e for e in ENDPOINTS}
BY_PATH = {e.path: e for e in ENDPOINTS}


def handle(command: str, raw: bytes, sealing: Sealing = UNSEALED, access: Access = BACKEND,
           memo: States | None = None) -> Any:
    """The answer of the endpoint named `command` to the JSON body `raw` (raises RequestError),
    as the HTTP referee computes it; `memo`: the states met before (a fresh one by default)."""
    endpoint = BY_NAME[command]
    memo = States() if memo is None else memo
    body, seen = decoded(endpoint.body_type, raw, memo)
    return endpoint.handler(body, Judge(sealing, access, memo, seen))
