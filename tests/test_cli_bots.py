"""Issue 28, item 5: `referee play --bots LEVELS`, a game between bots on the command line.

Each seat's bot is the pure core's (`service.bots.suggest`, what POST /v1/suggest answers):
the seat the game waits for is asked, and before it each seat that may act out of turn (a null
suggestion: it waits). The game runs to its end, prints its ranking with each seat's level, and
its record replays; a level the referee does not know, or a count of levels that is no table,
stops the command with a message naming it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import bot_move, main
from service.engine import apply, new_game, to_act

# A short game (some 170 actions, a few seconds): a random bot against a basic one, and Dirk.
LEVELS = "random,basic"
SEED = "5"


def test_a_game_of_random_and_basic_bots_runs_to_its_end_and_its_record_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "bots.json"
    assert main(["play", "--bots", LEVELS, "--seed", SEED, "--quiet", "--check",
                 "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Bots: Ana random, Ben basic" in out
    for round_ in (1, 2, 3):
        assert f"Scoring round {round_}" in out
    ranking = out[out.index("Final ranking:"):].splitlines()[1:4]
    assert sorted(line.split(". ", 1)[1].split(":")[0] for line in ranking) == [
        "Ana (random)", "Ben (basic)", "Dirk"]
    written = json.loads(record.read_text())
    assert written["setup"] == {"players": ["Ana", "Ben"], "seed": int(SEED)}
    assert main(["replay", str(record)]) == 0
    assert "The record's result agrees with the replay." in capsys.readouterr().out


def test_the_same_bots_and_seed_play_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    games = []
    for _ in range(2):
        assert main(["play", "--bots", "random,random,random", "--seed", "7", "--quiet"]) == 0
        games.append(capsys.readouterr().out)
    assert games[0] == games[1]


def test_seats_that_may_act_out_of_turn_are_asked_and_may_wait() -> None:
    """The thieves' window (thieves.window): a seat beside the active player's turn is asked
    first; it steals or waits (null), and then the active seat acts."""
    outcome = new_game(["Ana", "Ben", "Cyd"], ["thieves"], seed=1)
    out_of_turn = waited = 0
    while not outcome.game_over:
        actors = to_act(outcome.state).actors
        action = bot_move(outcome.state, ("random",) * 3, 200)
        assert action is not None and action.player in {a.player for a in actors}
        out_of_turn += action.player != actors[0].player
        waited += action.player == actors[0].player and any(a.kind == "out-of-turn" for a in actors)
        outcome = apply(outcome.state, action)
    assert out_of_turn and waited


@pytest.mark.parametrize(("bots", "message"), [
    ("strong,medium", "unknown level 'medium': each seat's level is one of random, basic, strong"),
    ("basic", "1 level(s) given: one a seat, 2 to 6 seats"),
    ("random," * 6 + "random", "7 level(s) given: one a seat, 2 to 6 seats"),
])
def test_a_wrong_level_or_count_of_levels_exits_with_a_message(
    bots: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--bots", bots, "--quiet"])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["--bots", "random,basic", "--players", "3"], "--players 3 but 2 levels in --bots"),
    (["--players", "3", "--budget-ms", "100"], "--budget-ms is the strong bots' budget: it needs --bots"),
])
def test_options_that_disagree_with_the_bots_exit_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--quiet", *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_budget_out_of_bounds_exits_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--bots", "strong,basic", "--budget-ms", "5"])
    assert "'5' is no budget: a whole number of ms, 10 to 2000" in capsys.readouterr().err
