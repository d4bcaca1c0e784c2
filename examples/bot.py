"""A bot that plays whole games through the referee, as a game backend would: every state stays
between the bot and the referee (sealed, where the referee seals), each player is shown only
their view, and each move is chosen from the legal actions of the player `to_act` names.

    python examples/bot.py [--url http://127.0.0.1:8000] [--seed 1] [--modules zoo,walls,treasure]

The choice prefers what ends a game sooner: buying a building, placing it, letting animals be
(a zoo move costs a card), taking the most money, then the rest; ties are broken at random (from
`--seed`). Such a game of 3 players with zoo, walls and treasure takes about 300 actions. A
uniform random choice among the legal actions takes far longer: it redesigns, moves animals
(each move discards a card) and buys treasure over and over, and did not finish a game within
20000 actions (see docs/clients/python.md, "Bots").
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.client import Referee
from service.engine.actions import Action
from service.engine.view import View

# Lower is preferred.
PREFERENCE = {"buy-building": 0, "place-building": 1, "reserve-building": 1.5, "move-animals": 2,
              "take-money": 3, "buy-treasure": 4, "add-walls": 5, "end-turn": 6}


def preference(action: Action, seen: View) -> float:
    """How much the bot wants `action`, from what its player sees (`seen`) and the action."""
    kind = action.type
    if kind == "move-animals" and getattr(action, "card", None) is None:
        return 0  # letting the animals be keeps the hand
    if kind == "take-money":
        values = [int(card.split("-")[1]) for card in getattr(action, "cards", ()) if card.count("-") == 2]
        return 3 - 0.01 * sum(values)  # the most money
    return PREFERENCE.get(kind, 7)


@dataclass
class Game:
    actions: int = 0
    requests: int = 0
    ranking: list[tuple[str, int, int]] = field(default_factory=list)
    movers: set[str] = field(default_factory=set)


def play(referee: Referee, players: list[str], modules: list[str], seed: int,
         max_actions: int = 5000) -> Game:
    """One game to its end; each action chosen by the player `to_act` names first, from that
    player's view and legal actions only."""
    rnd = random.Random(seed)
    game = Game()
    created = referee.new_game(players, modules, seed=seed)
    state, who = created.state, created.to_act
    game.requests += 1
    while who.players:
        if game.actions >= max_actions:
            raise RuntimeError(f"no end after {max_actions} actions")
        name = who.players[0]
        seen = referee.view(state, name)  # all the player may know
        legal = referee.legal_actions(state, player=name).actions
        game.requests += 2
        assert legal and all(a.player == name for a in legal), (name, legal)
        action = min(legal, key=lambda a: (preference(a, seen), rnd.random()))
        applied = referee.apply(state, action)
        game.requests += 1
        game.actions += 1
        game.movers.add(name)
        state, who = applied.state, applied.to_act
    game.ranking = [(r.name, r.place, r.score) for r in state.ranking]
    return game


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="Ana,Ben,Cyd")
    parser.add_argument("--modules", default="zoo,walls,treasure")
    args = parser.parse_args()
    with Referee(args.url) as referee:
        game = play(referee, args.players.split(","), [m for m in args.modules.split(",") if m], args.seed)
    print(f"{game.actions} actions, {game.requests} requests; final ranking:")
    for name, place, score in game.ranking:
        print(f"  {place}. {name} {score}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
