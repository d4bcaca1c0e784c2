import { Referee, seatTokens } from "@alhambra/referee-client";

const referee = new Referee(process.env.REFEREE_URL ?? "http://localhost:8000");
const game = await referee.newGame(["Ana", "Ben", "Cyd"], { modules: ["zoo"], seed: 1 });
referee.tokens = seatTokens(game); // each seat's token, sent by the calls about that player
let { state, to_act } = game;
while (to_act.players.length > 0) {
  const player = to_act.players[0];
  const { actions } = await referee.legalActions(state, { player, limit: 1 });
  ({ state, to_act } = await referee.apply(state, actions[0]));
}
for (const { place, name, score } of state.ranking) console.log(`${place}. ${name}: ${score}`);
