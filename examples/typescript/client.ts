// A small client of the referee written against the types openapi-typescript generates from
// openapi/openapi.json with no flag. It must compile with `tsc --strict`: the contract is read
// as a TypeScript backend would read it (plain actions type-check, answers have no optional
// fields that are always there, the action union has a name).
import type { components } from "./api";

type Schemas = components["schemas"];
export type Action = Schemas["Action"];
export type GameState = Schemas["GameState"];
export type GameAnswer = Schemas["GameAnswer"];
export type Applied = Schemas["Applied"];
export type LegalActions = Schemas["LegalActions"];
export type ErrorBody = Schemas["ErrorBody"];

// A plain take-money action: the fields a module adds (goldsmith) need not be written.
const take: Schemas["TakeMoney"] = { type: "take-money", player: "Ana", cards: ["blue-5-a"] };
const asAction: Action = take;

// @ts-expect-error a take-money names its cards
const missingCards: Action = { type: "take-money", player: "Ana" };
// @ts-expect-error no action has this tag
const unknownType: Action = { type: "take-everything", player: "Ana" };

export class RefereeError extends Error {
  constructor(readonly status: number, readonly body: ErrorBody) {
    super(`${body.error}: ${body.message}`);
  }
}

async function post<T>(base: string, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data: unknown = await response.json();
  if (!response.ok) throw new RefereeError(response.status, data as ErrorBody);
  return data as T;
}

// One game to its end: always the first legal action of the first player named in `to_act`.
export async function playOneGame(base: string, players: string[]): Promise<GameState> {
  const created = await post<GameAnswer>(base, "/v1/games", { players, modules: ["zoo"], seed: 1 });
  let state: GameState = created.state;
  let who: string[] = created.to_act.players;
  while (who.length > 0) {
    const legal = await post<LegalActions>(base, "/v1/legal-actions", { state, player: who[0], limit: 1 });
    const action: Action = legal.actions[0];
    const applied = await post<Applied>(base, "/v1/apply", { state, action });
    state = applied.state;
    who = applied.to_act.players;
  }
  // Fields every answer writes are not optional: no `?.` or `!` needed.
  const ranking: string[] = state.ranking.map((entry) => `${entry.place}. ${entry.name} ${entry.score}`);
  const turnActions: number = state.turn.actions;
  console.log(ranking.join("\n"), turnActions, asAction.player, missingCards, unknownType);
  return state;
}
