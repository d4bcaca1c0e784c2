// Every method of the client against a live referee, its errors as typed values, and the seat
// tokens it sends (which token for which call: with a fetch that records the requests).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  type Action,
  type ActionOf,
  type GameAnswer,
  type Position,
  OPERATIONS,
  Referee,
  RefereeError,
  RefereeUnreachable,
  seatTokens,
} from "../src/index.js";
import { callers, live, skip } from "./server.js";

const PLAYERS = ["Ana", "Ben", "Cyd"];

async function refused(call: Promise<unknown>): Promise<RefereeError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof RefereeError, String(error));
    return error;
  }
  assert.fail("the call was not refused");
}

async function game(referee: Referee, seed = 3): Promise<GameAnswer> {
  const created = await referee.newGame(PLAYERS, { modules: ["zoo"], seed });
  referee.tokens = seatTokens(created);
  return created;
}

describe("the client against a live referee", { skip }, () => {
  test("health, readiness, modules, cache statistics and metrics", async () => {
    const referee = new Referee(`${live}/`); // a trailing slash is dropped
    assert.deepEqual(await referee.health(), { status: "ok" });
    assert.equal((await referee.ready()).status, "ready");
    const { modules } = await referee.modules();
    assert.ok(modules.some((m) => m.id === "zoo" && m.rule_ids.length > 0));
    assert.equal(typeof (await referee.cacheStats()).memory, "object");
    assert.match(await referee.metrics(), /^# (HELP|TYPE) /m);
  });

  test("a game: legal actions, validate, apply, view, score, render, echo", async () => {
    const referee = new Referee(live);
    const created = await game(referee);
    const sealed = created.seat_tokens.length > 0;
    assert.deepEqual(created.seat_tokens.map((s) => s.player), sealed ? PLAYERS : []);
    const player = created.to_act.players[0];
    const { actions, truncated } = await referee.legalActions(created.state, { player, limit: 2 });
    assert.equal(actions.length, 2);
    assert.ok(truncated && actions.every((a) => a.player === player));
    assert.deepEqual(await referee.validate(created.state, actions[0]), { valid: true, violations: [] });
    const applied = await referee.apply(created.state, actions[0]);
    assert.equal(applied.game_over, false);
    assert.ok(applied.events.length > 0 && applied.to_act.players.length > 0);
    const seen = await referee.view(applied.state, { player: "Ben" });
    assert.equal(seen.viewer, "Ben");
    assert.deepEqual(seen.players.map((p) => p.hand !== null), [false, true, false]);
    assert.equal((await referee.view(applied.state)).viewer, null);
    const breakdown = await referee.score(applied.state, 1);
    assert.equal(breakdown.round, 1);
    assert.deepEqual(breakdown.players.map((p) => p.name), PLAYERS);
    assert.match(await referee.render(applied.state, { player: "Ben" }), /^<\?xml/);
    assert.match(await referee.render(applied.state), /^<\?xml/);
    const echoed = await referee.echo(created.state, actions[0]);
    assert.deepEqual(echoed.action, actions[0]);
  });

  test("a bot's move for a seat: each level's suggestion applied; nothing to decide refused", async () => {
    const referee = new Referee(live);
    const created = await game(referee, 28);
    let { state, to_act } = created;
    for (const level of ["random", "basic", "strong"] as const) {
      const player = to_act.players[0];
      const move = await referee.suggest(state, player, { level, budgetMs: 20 });
      assert.equal(move.level, level);
      assert.equal(move.player, player);
      assert.ok(move.action !== null && move.action.player === player && move.legal > 0);
      assert.ok(move.considered.length <= 10);
      const applied = await referee.apply(state, move.action);
      ({ state, to_act } = applied);
    }
    const idle = PLAYERS.find((name) => !to_act.players.includes(name));
    assert.ok(idle !== undefined);
    const error = await refused(referee.suggest(state, idle));
    assert.equal(error.status, 422);
    assert.equal(error.error, "nothing-to-decide");
    assert.deepEqual(error.rules, ["base.turn.order"]);
  });

  test("scoring and drawing a position of a real table", async () => {
    const referee = new Referee(live);
    const position: Position = {
      round: 1,
      players: [
        { name: "Ana", alhambra: [{ x: 0, y: 0, tile: "fountain" }, { x: 1, y: 0, tile: "garden-10-open" }] },
        { name: "Ben", alhambra: [{ x: 0, y: 0, tile: "fountain" }] },
        { name: "Cyd", alhambra: [{ x: 0, y: 0, tile: "fountain" }] },
      ],
    };
    const breakdown = await referee.score(position);
    assert.deepEqual(breakdown.ranking.map((r) => [r.name, r.place]), [["Ana", 1], ["Ben", 2], ["Cyd", 2]]);
    assert.match(await referee.render({ ...position, draw: "sheet" }), /^<\?xml/);
  });

  test("refusals are RefereeErrors: status, error code, message, violations with rule ids", async () => {
    const referee = new Referee(live);
    const created = await game(referee, 5);
    const player = created.to_act.players[0];
    const other = PLAYERS.find((name) => name !== player) ?? "Ben";
    const notYours: ActionOf<"take-money"> = { type: "take-money", player: other, cards: [created.state.display[0]] };
    const illegal = await refused(referee.apply(created.state, notYours));
    assert.equal(illegal.status, 422);
    assert.equal(illegal.error, "illegal-action");
    assert.ok(illegal.rules.length > 0 && illegal.violations.every((v) => v.message.length > 0), illegal.message);
    assert.equal(illegal.name, "RefereeError");
    assert.match(illegal.message, /^422 illegal-action: /);
    const verdict = await referee.validate(created.state, notYours);
    assert.equal(verdict.valid, false);
    assert.deepEqual(verdict.violations.map((v) => v.rule), illegal.rules);
    // A body that is no state: 400, the message naming the field.
    const { display: _, ...broken } = created.state;
    const bad = await refused(referee.legalActions(broken as never, { player }));
    assert.equal(bad.status, 400);
    assert.equal(bad.error, "bad-request");
    assert.match(bad.body.message, /display/);
    const unknown = await refused(referee.newGame(["Ana", "Ben"], { modules: ["dragons"] }));
    assert.equal(unknown.status, 422);
  });

  test("seat tokens: each call about a player carries that player's token", { skip: callers !== "players" }, async () => {
    const referee = new Referee(live);
    const created = await game(referee, 7);
    const { state } = created;
    const player = created.to_act.players[0];
    const tokens = seatTokens(created);
    const other = PLAYERS.find((name) => name !== player) ?? "Ben";
    const [action] = (await referee.legalActions(state, { player, limit: 1 })).actions;
    // Without the tokens (a fresh client), or with another seat's: 403, the seat-token rule.
    const bare = new Referee(live);
    // Each call made only when awaited: four started at once reject before the loop awaits the
    // later ones, which Node reports as unhandled rejections (a flaky failure, seen in a full run).
    const calls = [() => bare.legalActions(state, { player }), () => bare.validate(state, action),
      () => bare.view(state, { player }), () => referee.apply(state, action, { token: tokens[other] })];
    for (const call of calls) {
      const forbidden = await refused(call());
      assert.equal(forbidden.status, 403);
      assert.equal(forbidden.error, "forbidden");
      assert.deepEqual(forbidden.rules, ["referee.seat-token"]);
    }
    // One token for every call (a player's own client), or a token given to one call.
    const own = new Referee(live, { token: tokens[player] });
    assert.equal((await own.validate(state, action)).valid, true);
    assert.equal((await bare.validate(state, action, { token: tokens[player] })).valid, true);
    // A spectator needs none, and neither does scoring.
    assert.equal((await bare.view(state)).viewer, null);
    assert.equal((await bare.score(state, 1)).round, 1);
  });
});

describe("the client on its own", () => {
  interface Sent {
    url: string;
    method: string;
    authorization: string | null;
    body: unknown;
  }

  function recording(status = 200, answer = "{}", type = "application/json") {
    const sent: Sent[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const headers = new Headers(init?.headers);
      sent.push({ url: String(input), method: init?.method ?? "GET", authorization: headers.get("authorization"),
        body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined });
      return new Response(answer, { status, headers: { "content-type": type } });
    };
    return { sent, fetch };
  }

  const state = { phase: "main", turn: {} } as never;
  const ana: Action = { type: "take-money", player: "Ana", cards: ["blue-5-a"] };
  const ben: Action = { type: "take-money", player: "Ben", cards: ["blue-5-a"] };

  test("the token of a call: its own, else its player's, else the client's", async () => {
    const { sent, fetch } = recording();
    const referee = new Referee("http://referee.test", { tokens: { Ana: "a" }, token: "all", fetch });
    await referee.apply(state, ana);
    await referee.apply(state, ben);
    await referee.apply(state, ana, { token: "mine" });
    await referee.legalActions(state, { player: "Ana" });
    await referee.view(state, { player: "constructor" }); // no token named so: not Object's
    await referee.view(state);
    referee.token = undefined;
    await referee.validate(state, ben);
    await referee.render(state, { player: "Ana" });
    await referee.newGame(["Ana", "Ben"]);
    assert.deepEqual(sent.map((s) => s.authorization),
      ["Bearer a", "Bearer all", "Bearer mine", "Bearer a", "Bearer all", "Bearer all", null, "Bearer a", null]);
    assert.deepEqual(sent[3], { url: "http://referee.test/v1/legal-actions", method: "POST",
      authorization: "Bearer a", body: { state, player: "Ana" } });
    assert.deepEqual(sent.at(-1)?.body, { players: ["Ana", "Ben"] }, "what is left out is not sent");
  });

  test("scoring a state needs its round", async () => {
    const { sent, fetch } = recording();
    await assert.rejects(new Referee("http://referee.test", { fetch }).score(state as never), TypeError);
    assert.deepEqual(sent, []);
  });

  test("every operation of the contract has its method", () => {
    for (const method of Object.values(OPERATIONS)) assert.equal(typeof Referee.prototype[method], "function", method);
  });

  test("seatTokens maps each seat's token to its player", () => {
    const answer = { seat_tokens: [{ player: "Ana", token: "t1" }, { player: "Ben", token: "t2" }] };
    assert.deepEqual(seatTokens(answer), { Ana: "t1", Ben: "t2" });
    assert.deepEqual(seatTokens({ seat_tokens: [] }), {});
  });

  test("an error answer that is not the contract's still gives a RefereeError", async () => {
    const { fetch } = recording(502, "<html>Bad Gateway</html>", "text/html");
    const error = await refused(new Referee("http://referee.test", { fetch }).health());
    assert.equal(error.status, 502);
    assert.equal(error.error, "internal-error");
    assert.equal(error.body.message, "<html>Bad Gateway</html>");
    assert.deepEqual(error.rules, []);
  });

  test("no answer is a RefereeUnreachable, not a RefereeError", async () => {
    const closed = new Referee("http://127.0.0.1:1");
    await assert.rejects(closed.health(), (error: unknown) => {
      assert.ok(error instanceof RefereeUnreachable && !(error instanceof RefereeError));
      assert.equal(error.url, "http://127.0.0.1:1/healthz");
      assert.ok(error.cause instanceof Error);
      return true;
    });
    const aborted = new Referee(live).modules({ signal: AbortSignal.abort() });
    await assert.rejects(aborted, RefereeUnreachable);
    const { fetch } = recording(200, "not json");
    await assert.rejects(new Referee("http://referee.test", { fetch }).health(), RefereeUnreachable);
  });
});
