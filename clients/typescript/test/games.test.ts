// Complete games against a live referee: every module alone, then all eleven together, 2 to 6
// players, each move chosen from the legal actions of a player `to_act` names (test/play.ts).
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";

import { Referee } from "../src/index.js";
import { NAMES, play } from "./play.js";
import { callers, live, skip } from "./server.js";

describe("complete games", { skip }, () => {
  let ids: string[] = [];
  before(async () => {
    ids = (await new Referee(live).modules()).modules.map((module) => module.id);
  });

  test("the referee offers the eleven modules", () => {
    assert.equal(ids.length, 11, ids.join(", "));
  });

  // 12 games: module i alone with 2 + i % 5 players, then all of them with 4.
  for (let i = 0; i <= 11; i++) {
    const players = i < 11 ? 2 + (i % 5) : 4;
    test(`game ${i + 1}: ${i < 11 ? `module ${i + 1} alone` : "all eleven modules"}, ${players} players`, async () => {
      const modules = i < 11 ? [ids[i]] : ids;
      const played = await play(live, { players, modules, seed: 1 + i });
      const names = NAMES.slice(0, players);
      assert.equal(played.state.phase, "over");
      assert.deepEqual(played.rounds, [1, 2, 3], "three scoring rounds");
      assert.deepEqual(new Set(played.movers), new Set(names), "every player acted");
      if (modules.includes("thieves")) assert.ok(played.outOfTurn > 0, "a thief acted out of turn");
      // The final ranking: every player (and Dirk in a game of two), places from 1, by score.
      const ranked = played.ranking.map((entry) => entry.name);
      assert.deepEqual(ranked.filter((name) => names.includes(name)).sort(), [...names].sort());
      assert.equal(ranked.length, players === 2 ? 3 : players);
      assert.equal(played.ranking[0].place, 1);
      // Its record replays to the last state the game handed out, byte for byte (issue 27); where
      // players call the referee, sealed as a game of the record's own: the same but for the seal.
      const unsealed = (state: object | null | undefined) => JSON.stringify({ ...state, seal: undefined });
      if (callers === "players") {
        assert.equal(unsealed(played.replayed.state), unsealed(played.state));
        assert.notEqual(played.replayed.state?.seal, played.state.seal);
      } else {
        assert.equal(JSON.stringify(played.replayed.state), JSON.stringify(played.state));
      }
      assert.equal(played.replayed.result.verdict, "agrees");
      assert.equal(played.replayed.actions, played.actions);
      for (let k = 1; k < played.ranking.length; k++) {
        const [above, below] = [played.ranking[k - 1], played.ranking[k]];
        assert.ok(above.score >= below.score && above.place <= below.place, JSON.stringify(played.ranking));
      }
    });
  }
});
