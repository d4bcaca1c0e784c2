"""A thousand complete random games across 2 to 6 players (issue 2), each checked at every step:
consistency, component totals, legal random actions, and the end reached with round 3."""

from __future__ import annotations

import pytest

from tests.support.play import play_random_game

GAMES = 1000


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(GAMES))
def test_random_complete_game(seed: int) -> None:
    players = 2 + seed % 5
    game = play_random_game(seed, players)
    final = game.states[-1]
    assert final.phase == "over"
    assert game.rounds[-1] == 3
    assert sorted(r.name for r in final.ranking) == sorted(
        [p.name for p in final.players] + ([final.dirk.name] if final.dirk else []))
