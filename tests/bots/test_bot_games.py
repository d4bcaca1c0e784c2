"""Bots play whole games of every module (issue 28: "every module's decisions reached by bots"):
one game per module alone, one with all eleven together and one of the base game, 2 to 6
players, the seats played by every level (strong on a small budget). Every action is legal in
the real state, the game ends, and each module's decisions (its actions that answer a pending
decision, and its out-of-turn actions: passing a craftsman, placing chests, a power, a theft,
a vendor disc, ...) are each taken by a bot at least once in the module's game."""

from __future__ import annotations

import pytest

from service.bots.table import next_move
from service.engine import apply, check_consistency, new_game, validate
from service.engine.module import module
from tests.support.play import NAMES

from .support import CONFIGS, MODULES, ids

LEVELS = ("basic", "random", "strong", "basic", "random", "basic")
BUDGET_MS = 10
LONGEST = 4000
# The game of each configuration: (players, seed), chosen so that every decision of the module
# comes up (the power's choice between a market tile and the one hidden under it, power.end-hidden,
# needs a tile hidden at the game's end, and declining a power a random seat: seed 17 has both).
GAMES = {("power",): (4, 17)}


def decisions(module_id: str) -> set[str]:
    return {r.action.__struct_config__.tag for r in module(module_id).actions
            if r.kind in ("decision", "out-of-turn")}


def game_of(index: int, config: tuple[str, ...]) -> tuple[int, int]:
    return GAMES.get(config, (2 + index % 5, 0))


@pytest.mark.parametrize(("index", "config"), list(enumerate(CONFIGS)), ids=[ids(c) for c in CONFIGS])
def test_bots_play_a_whole_game_and_reach_every_decision(index: int, config: tuple[str, ...]) -> None:
    players, seed = game_of(index, config)
    state = new_game(NAMES[:players], config, seed=seed).state
    played: set[str] = set()
    for _ in range(LONGEST):
        if state.phase == "over":
            break
        action, _ = next_move(state, LEVELS[:players], BUDGET_MS)
        assert validate(state, action) == [], action
        played.add(action.type)
        state = apply(state, action).state
    assert state.phase == "over", f"the game did not end in {LONGEST} actions"
    assert check_consistency(state) == []
    if len(config) == 1:
        missing = decisions(config[0]) - played
        assert not missing, f"no bot took {sorted(missing)} in the game of {config[0]}"


def test_every_module_has_its_game() -> None:
    assert {m for c in CONFIGS for m in c} == set(MODULES) and MODULES in CONFIGS
    assert {2, 3, 4, 5, 6} <= {game_of(i, c)[0] for i, c in enumerate(CONFIGS)}
