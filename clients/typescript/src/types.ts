// Names for the contract's shapes. Every one is `components["schemas"][...]` of src/api.ts, which
// `npm run generate` writes from ../../openapi/openapi.json: nothing here is written by hand,
// so the types are those of the committed contract.
import type { components, operations, paths } from "./api.js";

export type { components, operations, paths };

type Schemas = components["schemas"];

/** The tagged union of every action (on `type`); each names its `player`. */
export type Action = Schemas["Action"];
/** The action of one tag: `ActionOf<"take-money">` is `TakeMoney`. */
export type ActionOf<T extends Action["type"]> = Extract<Action, { type: T }>;
export type Event = Schemas["Event"];
export type GameState = Schemas["GameState"];
export type NewGame = Schemas["NewGame"];
export type GameAnswer = Schemas["GameAnswer"];
export type SeatToken = Schemas["SeatToken"];
export type ToAct = Schemas["ToAct"];
export type Move = Schemas["Move"];
export type Validity = Schemas["Validity"];
export type Applied = Schemas["Applied"];
export type LegalActions = Schemas["LegalActions"];
export type View = Schemas["View"];
export type Position = Schemas["Position"];
export type RenderPosition = Schemas["RenderPosition"];
export type Breakdown = Schemas["Breakdown"];
export type RankEntry = Schemas["RankEntry"];
export type Modules = Schemas["Modules"];
export type ModuleInfo = Schemas["ModuleInfo"];
export type Health = Schemas["Health"];
export type Readiness = Schemas["Readiness"];
export type CacheStats = Schemas["CacheStats"];
export type ErrorBody = Schemas["ErrorBody"];
export type GameRecord = Schemas["GameRecord"];
export type ReplayQuery = Schemas["ReplayQuery"];
export type Replayed = Schemas["Replayed"];
/** POST /v1/replay's 422 at a record's first illegal action: its index, the action, the state before it. */
export type RecordRefusal = Schemas["RecordRefusal"];
export type SuggestQuery = Schemas["SuggestQuery"];
/** POST /v1/suggest: a bot's move for a seat, what it weighed and what it simulated. */
export type Suggested = Schemas["Suggested"];
export type Considered = Schemas["Considered"];
/** The stable error codes of an error answer (`illegal-action`, `forbidden`, ...). */
export type ErrorCode = ErrorBody["error"];
export type Violation = Schemas["Violation"];
