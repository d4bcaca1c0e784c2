import { errorBody, RefereeError, RefereeUnreachable } from "./errors.js";
import type {
  Action,
  Applied,
  Breakdown,
  CacheStats,
  GameAnswer,
  GameRecord,
  GameState,
  Health,
  LegalActions,
  Modules,
  Move,
  Position,
  Readiness,
  RenderPosition,
  Replayed,
  Suggested,
  Validity,
  View,
  operations,
} from "./types.js";

export interface RefereeOptions {
  /** The seat token sent by every call that names no other (one player's own client, say). */
  token?: string;
  /** Seat tokens by player name: a call about a player sends that player's token. */
  tokens?: Record<string, string>;
  /** How long a call may take, in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** The fetch to call (default: the global one of Node 18 or later, or of a browser). */
  fetch?: typeof fetch;
}

/** What any call may take: the seat token of this call, and a signal to abort it. */
export interface CallOptions {
  token?: string;
  signal?: AbortSignal;
}

export interface NewGameOptions extends CallOptions {
  modules?: string[];
  /** 0 when left out. A number: a seed past 2^53 cannot be written exactly. */
  seed?: number;
}

export interface PlayerOptions extends CallOptions {
  /** Whose actions to list, or whose view or picture (left out: everyone's, a spectator's). */
  player?: string;
}

export interface ReplayOptions extends PlayerOptions {
  /** Stop after this many of the record's actions (left out: all of them). */
  upto?: number;
}

export interface SuggestOptions extends CallOptions {
  /** The bot's level: `random`, `basic` (the referee's default when left out) or `strong`. */
  level?: "random" | "basic" | "strong";
  /** The strong level's budget in milliseconds of simulated work, 10 to 2000 (default 200). */
  budgetMs?: number;
}

export interface LegalActionsOptions extends PlayerOptions {
  /** The most actions to list (the referee's default when left out: 1000). */
  limit?: number;
}

/** Each seat's token of a new game's answer (sealing on; empty otherwise), by player name. */
export function seatTokens(game: Pick<GameAnswer, "seat_tokens">): Record<string, string> {
  return Object.fromEntries(game.seat_tokens.map((seat) => [seat.player, seat.token]));
}

function isGameState(what: GameState | Position | RenderPosition): what is GameState {
  return "phase" in what && "turn" in what;
}

/**
 * The referee over HTTP: one method per endpoint, each sending the body the contract names and
 * resolving to its answer. A refusal rejects with a `RefereeError` (status, error code, message,
 * violations with their rule ids); no answer at all with a `RefereeUnreachable`.
 *
 * Seat tokens (`Authorization: Bearer <token>`, needed where the referee runs with
 * CALLERS=players): a call's `token`, else the token in `tokens` of the player the call is
 * about (the player of an action, the `player` of legal actions, a view, a picture or a
 * suggestion), else the
 * client's `token`.
 */
export class Referee {
  readonly url: string;
  /** Seat tokens by player name; add to it, or replace it, as seats get theirs. */
  tokens: Record<string, string>;
  token: string | undefined;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;

  constructor(url = "http://127.0.0.1:8000", options: RefereeOptions = {}) {
    this.url = url.replace(/\/+$/, "");
    this.token = options.token;
    this.tokens = { ...options.tokens };
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** POST /v1/games: a new game's state, who must act first, and each seat's token. */
  newGame(players: string[], options: NewGameOptions = {}): Promise<GameAnswer> {
    const { modules, seed } = options;
    return this.post("/v1/games", { players, modules, seed }, undefined, options);
  }

  /** POST /v1/validate: whether `action` is legal in `state`, and if not, why. */
  validate(state: GameState, action: Action, options: CallOptions = {}): Promise<Validity> {
    return this.post("/v1/validate", { state, action }, action.player, options);
  }

  /** POST /v1/apply: the state after `action`; rejects with 422 `illegal-action` if it is not legal. */
  apply(state: GameState, action: Action, options: CallOptions = {}): Promise<Applied> {
    return this.post("/v1/apply", { state, action }, action.player, options);
  }

  /** POST /v1/legal-actions: the legal actions (of `player` only, when given), up to `limit`. */
  legalActions(state: GameState, options: LegalActionsOptions = {}): Promise<LegalActions> {
    const { player, limit } = options;
    return this.post("/v1/legal-actions", { state, player, limit }, player, options);
  }

  /** POST /v1/score: a scoring position's breakdown, or a state's round as if it were held now. */
  score(position: Position, options?: CallOptions): Promise<Breakdown>;
  score(state: GameState, round: number, options?: CallOptions): Promise<Breakdown>;
  score(what: Position | GameState, round?: number | CallOptions, options?: CallOptions): Promise<Breakdown> {
    if (typeof round === "number") return this.post("/v1/score", { state: what, round }, undefined, options);
    if (isGameState(what)) return Promise.reject(new TypeError("scoring a game state needs the round to score"));
    return this.post("/v1/score", what, undefined, round);
  }

  /** POST /v1/view: what `player` (left out: a spectator) may see of `state`. */
  view(state: GameState, options: PlayerOptions = {}): Promise<View> {
    return this.post("/v1/view", { state, player: options.player }, options.player, options);
  }

  /** POST /v1/render: an SVG of a state (as `player` sees it, when given) or of a scoring position. */
  render(state: GameState, options?: PlayerOptions): Promise<string>;
  render(position: RenderPosition, options?: CallOptions): Promise<string>;
  render(what: GameState | RenderPosition, options: PlayerOptions = {}): Promise<string> {
    const player = isGameState(what) ? options.player : undefined;
    const body = isGameState(what) ? { state: what, player } : what;
    return this.send("POST", "/v1/render", body, player, options, "text");
  }

  /** POST /v1/replay: a game's record replayed (up to `upto` actions; `player`'s view instead of
   * the state); rejects with 422 `illegal-action` at its first illegal action (the error's `body`
   * is then a RecordRefusal: `index`, `action`, `state`). */
  replay(record: GameRecord, options: ReplayOptions = {}): Promise<Replayed> {
    const { upto, player } = options;
    return this.post("/v1/replay", { record, upto, player }, undefined, options);
  }

  /** POST /v1/suggest: a bot's move for `player` (`action`, null: wait) at `level`, from what
   * that seat may see alone; rejects with 422 `nothing-to-decide` when the game waits for
   * nothing from that seat. */
  suggest(state: GameState, player: string, options: SuggestOptions = {}): Promise<Suggested> {
    const { level, budgetMs } = options;
    return this.post("/v1/suggest", { state, player, level, budget_ms: budgetMs }, player, options);
  }

  /** POST /v1/echo: the body read and written again (the benchmarks' baseline). */
  echo(state: GameState, action: Action, options: CallOptions = {}): Promise<Move> {
    return this.post("/v1/echo", { state, action }, undefined, options);
  }

  /** GET /v1/modules: the modules a game may name, with their rule ids and default data. */
  modules(options: CallOptions = {}): Promise<Modules> {
    return this.send("GET", "/v1/modules", undefined, undefined, options, "json");
  }

  /** GET /healthz. */
  health(options: CallOptions = {}): Promise<Health> {
    return this.send("GET", "/healthz", undefined, undefined, options, "json");
  }

  /** GET /readyz: ready, and whether Redis answers. */
  ready(options: CallOptions = {}): Promise<Readiness> {
    return this.send("GET", "/readyz", undefined, undefined, options, "json");
  }

  /** GET /v1/cache/stats: hits and misses per cache tier. */
  cacheStats(options: CallOptions = {}): Promise<CacheStats> {
    return this.send("GET", "/v1/cache/stats", undefined, undefined, options, "json");
  }

  /** GET /metrics: the Prometheus text (outside the contract). */
  metrics(options: CallOptions = {}): Promise<string> {
    return this.send("GET", "/metrics", undefined, undefined, options, "text");
  }

  /** The token a call sends: its own, else its player's, else the client's. */
  tokenFor(player: string | undefined, options: CallOptions = {}): string | undefined {
    const own = player !== undefined && Object.hasOwn(this.tokens, player) ? this.tokens[player] : undefined;
    return options.token ?? own ?? this.token;
  }

  private post<T>(path: string, body: unknown, player: string | undefined, options: CallOptions = {}): Promise<T> {
    return this.send("POST", path, body, player, options, "json");
  }

  private async send<T>(method: "GET" | "POST", path: string, body: unknown, player: string | undefined,
    options: CallOptions, answer: "json" | "text"): Promise<T> {
    const url = `${this.url}${path}`;
    const headers: Record<string, string> = { accept: answer === "json" ? "application/json" : "*/*" };
    if (body !== undefined) headers["content-type"] = "application/json";
    const token = this.tokenFor(player, options);
    if (token) headers.authorization = `Bearer ${token}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: options.signal ?? AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (cause) {
      throw new RefereeUnreachable(url, cause);
    }
    if (!response.ok) throw new RefereeError(response.status, errorBody(response.status, text, response.statusText));
    if (answer === "text") return text as T;
    try {
      return JSON.parse(text) as T;
    } catch (cause) {
      throw new RefereeUnreachable(url, cause);
    }
  }
}

/** The contract's operations (operationId) and the method of each: the build fails where the
 * contract names an operation the client has no method for. */
export const OPERATIONS = {
  createGame: "newGame", validateAction: "validate", applyAction: "apply", listLegalActions: "legalActions",
  scorePosition: "score", viewState: "view", renderPicture: "render", replayRecord: "replay", echo: "echo",
  suggestAction: "suggest", listModules: "modules",
  health: "health", ready: "ready", cacheStats: "cacheStats",
} as const satisfies { [operation in keyof operations]: keyof Referee };
