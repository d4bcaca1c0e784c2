// Complete games through the client, as a game backend would play them: the state stays with the
// caller, each move is one the referee lists for a player `to_act` names (with that seat's token),
// chosen by a preference that ends games sooner and, among equals, a seeded PRNG.
import {
  type Action, type ActionOf, type GameRecord, type GameState, type RankEntry, type Replayed, Referee, seatTokens,
} from "../src/index.js";

export const NAMES = ["Ana", "Ben", "Cyd", "Dov", "Eli", "Fay"];
// A bound against a game that never ends (not a length: these take a few hundred actions).
export const MAX_ACTIONS = 5000;

/** mulberry32: a small deterministic PRNG, uniform on [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Lower is preferred (as examples/bot.py): a uniform choice redesigns, moves animals and buys
// treasure over and over and takes thousands of actions to end a game.
const PREFERENCE: Partial<Record<Action["type"], number>> = {
  "buy-building": 0, "place-building": 1, "reserve-building": 1.5, "move-animals": 2, "take-money": 3,
  "buy-treasure": 4, "add-walls": 5, "end-turn": 6,
};

export function preference(action: Action): number {
  switch (action.type) {
    case "move-animals":
      return action.card == null ? 0 : 2; // letting the animals be keeps the hand
    case "take-money":
      return 3 - 0.01 * moneyOf(action); // the most money
    default:
      return PREFERENCE[action.type] ?? 7;
  }
}

function moneyOf(action: ActionOf<"take-money">): number {
  return action.cards.reduce((sum, card) => sum + (Number(card.split("-")[1]) || 0), 0);
}

export interface Played {
  state: GameState;
  actions: number;
  movers: Set<string>;
  /** Actions of a player other than the one the game waited for (an out-of-turn window's). */
  outOfTurn: number;
  rounds: number[];
  ranking: RankEntry[];
  /** The game's record (issue 27), built as it was played, and the referee's replay of it. */
  record: GameRecord;
  replayed: Replayed;
}

export interface Game {
  players: number;
  modules: string[];
  seed: number;
  /** The most actions to list each move (the referee's default, 1000, when left out). */
  limit?: number;
}

/** One game to its end; every action is applied with the token of its player's seat. */
export async function play(url: string, game: Game): Promise<Played> {
  const referee = new Referee(url);
  const random = prng(game.seed);
  const created = await referee.newGame(NAMES.slice(0, game.players), { modules: game.modules, seed: game.seed });
  referee.tokens = seatTokens(created);
  let state = created.state;
  let who = created.to_act.players;
  const setup = { players: NAMES.slice(0, game.players), modules: game.modules, seed: game.seed };
  const record: GameRecord = { format: "alhambra-record/1", edition: state.edition, setup, actions: [] };
  if (state.seal) record.seal = state.seal;
  const played: Played = {
    state, actions: 0, movers: new Set(), outOfTurn: 0, rounds: [], ranking: [], record, replayed: undefined!,
  };
  while (who.length > 0) {
    if (played.actions >= MAX_ACTIONS) throw new Error(`no end after ${MAX_ACTIONS} actions: ${JSON.stringify(game)}`);
    // Mostly the player the game waits for; now and then one of an out-of-turn window.
    const player = who.length > 1 && random() < 0.25 ? who[1 + Math.floor(random() * (who.length - 1))] : who[0];
    const { actions } = await referee.legalActions(state, { player, limit: game.limit });
    if (actions.length === 0) throw new Error(`${player} is to act but has no legal action`);
    const scored = actions.map((action) => ({ action, key: preference(action), tie: random() }));
    scored.sort((a, b) => a.key - b.key || a.tie - b.tie);
    const action = scored[0].action;
    if (action.player !== player) throw new Error(`${player}'s list holds ${action.player}'s action`);
    const applied = await referee.apply(state, action);
    record.actions!.push(action);
    played.actions += 1;
    played.movers.add(player);
    if (player !== who[0]) played.outOfTurn += 1;
    played.rounds.push(...applied.scoring.map((b) => b.round));
    if (applied.game_over !== (applied.to_act.players.length === 0)) throw new Error("game_over and to_act disagree");
    state = applied.state;
    who = applied.to_act.players;
  }
  played.state = state;
  played.ranking = state.ranking;
  record.result = state.ranking;
  played.replayed = await referee.replay(record);
  return played;
}
