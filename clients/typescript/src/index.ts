export { OPERATIONS, Referee, seatTokens } from "./referee.js";
export type {
  CallOptions, LegalActionsOptions, NewGameOptions, PlayerOptions, RefereeOptions, ReplayOptions,
  SuggestOptions,
} from "./referee.js";
export { RefereeError, RefereeUnreachable } from "./errors.js";
export type * from "./types.js";
