// What `tsc --strict` checks of the generated types (the build fails if a line here stops
// compiling, or if a @ts-expect-error line starts to): the contract as a TypeScript backend
// reads it with openapi-typescript and no flag.
import assert from "node:assert/strict";
import { test } from "node:test";

import type { Action, ActionOf, components, ErrorCode, GameState, RefereeError } from "../src/index.js";

// A plain take-money action: the fields a module adds (goldsmith) need not be written.
const take: components["schemas"]["TakeMoney"] = { type: "take-money", player: "Ana", cards: ["blue-5-a"] };
const asAction: Action = take;
const named: ActionOf<"take-money"> = take;

// @ts-expect-error a take-money names its cards
const missingCards: Action = { type: "take-money", player: "Ana" };
// @ts-expect-error no action has this tag
const unknownType: Action = { type: "take-everything", player: "Ana" };
// @ts-expect-error an action names its player
const nobody: Action = { type: "take-money", cards: ["blue-5-a"] };
// @ts-expect-error the error codes are the contract's
const code: ErrorCode = "no-such-error";

// The fields every answer writes are not optional: no `?.` or `!` needed.
export function ranking(state: GameState): string[] {
  const turnActions: number = state.turn.actions;
  return state.ranking.map((entry) => `${entry.place}. ${entry.name} ${entry.score} (${turnActions})`);
}

// The action union narrows on `type`.
export function cardsOf(action: Action): string[] {
  return action.type === "take-money" ? action.cards : [];
}

export function rulesOf(error: RefereeError): string[] {
  return error.rules;
}

test("the typed values are plain JSON", () => {
  assert.deepEqual(cardsOf(asAction), ["blue-5-a"]);
  assert.equal(named.type, "take-money");
  assert.deepEqual([missingCards.type, unknownType.type, nobody.type, code], 
    ["take-money", "take-everything", "take-money", "no-such-error"]);
});
