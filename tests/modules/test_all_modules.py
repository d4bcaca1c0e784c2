"""The Thief's Turn modules together, and all eleven modules together (issue 5): random complete
games for 2 to 6 players with the consistency check holding after every step."""

from __future__ import annotations

import pytest

from service.engine.module import registered
from tests.support.play import play_random_game

THIEFS_TURN = ("walls", "thieves", "change", "vendors", "treasure")
ELEVEN = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))


def test_all_eleven_modules_are_registered() -> None:
    assert sorted(ELEVEN) == sorted(
        ("craftsmen", "zoo", "power", "grounds", "extensions", "staff", *THIEFS_TURN))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_five_thiefs_turn_modules_reach_the_end(players: int) -> None:
    game = play_random_game(800 + players, players, THIEFS_TURN, list_every=80)
    assert game.states[-1].phase == "over" and game.rounds[-1] == 3


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_all_eleven_modules_reach_the_end(players: int) -> None:
    game = play_random_game(900 + players, players, ELEVEN, list_every=80)
    assert game.states[-1].phase == "over" and game.rounds[-1] == 3
