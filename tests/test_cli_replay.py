"""Issue 27: `referee play --record FILE` and `referee replay FILE` (records on the command line).

A game played by `referee play --record` replays, through the /v1/replay endpoint's own handler,
to the game's final state, ranking and scoring rounds, its result agreeing; a record with an
action dropped is refused at its first illegal action, found here by judging each action in turn;
`--upto K --render` draws, byte for byte, what the endpoint's replay and the render handler give;
`--player` answers that seat's view; a result that disagrees exits RESULT_DISAGREES; a bad file
prints the HTTP error shape.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from service import i18n
from service.api import render
from service.api.bodies import RenderState
from service.api.endpoints import handle
from service.cli import RESULT_DISAGREES, main
from service.engine import Generator, apply, new_game, random_action
from service.engine.state import GameState
from tests.support.play import first_illegal

SEED, PLAYERS, MODULES = 4, 3, "zoo,treasure"
NAMES = ["Ana", "Ben", "Cyd"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A game of `referee play --record`: the record's path and what play printed."""
    path = tmp_path_factory.mktemp("records") / "game.json"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["play", "--players", str(PLAYERS), "--seed", str(SEED), "--modules", MODULES,
                     "--quiet", "--record", str(path)])
    assert code == 0, out.getvalue()
    return path, out.getvalue()


def _ranking_lines(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if "Final ranking:" in line)
    return [line.strip() for line in lines[start + 1:start + 1 + PLAYERS]]


def _game_as_play_plays_it() -> GameState:
    """The final state of `referee play`'s game, played again here as cmd_play plays it."""
    state = new_game(NAMES, MODULES.split(","), seed=SEED).state
    rng = Generator(SEED)
    while state.phase != "over":
        action = random_action(state, rng)
        assert action is not None
        state = apply(state, action).state
    return state


def _json(capsys: pytest.CaptureFixture[str]) -> Any:
    return json.loads(capsys.readouterr().out)


def test_a_played_games_record_replays_to_its_ranking_and_its_result_agrees(
        played: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    path, play_out = played
    record = json.loads(path.read_text())
    assert record["format"] == "alhambra-record/1" and "seal" not in record
    assert record["setup"] == {"players": NAMES, "modules": MODULES.split(","), "seed": SEED}
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for round_ in (1, 2, 3):
        assert f"Scoring round {round_}" in out
    assert _ranking_lines(out) == _ranking_lines(play_out)
    assert f"Game over after {len(record['actions'])} actions" in out
    assert "The record's result agrees with the replay." in out
    # The record replays to the very state the game ended in, and its result is that ranking.
    final = _game_as_play_plays_it()
    assert main(["replay", str(path), "--json"]) == 0
    answer = _json(capsys)
    assert answer["actions"] == len(record["actions"]) and answer["game_over"] is True
    assert msgspec.json.encode(answer["state"]) == msgspec.json.encode(final)
    assert record["result"] == answer["ranking"] == json.loads(msgspec.json.encode(final.ranking))
    assert answer["result"] == {"verdict": "agrees", "differences": []}
    assert [b["round"] for b in answer["scoring"]] == [1, 2, 3]


@pytest.mark.parametrize("dropped", [0, 7, 100])
def test_a_record_with_an_action_dropped_prints_its_first_illegal_action_and_exits_1(
        dropped: int, played: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(played[0].read_text())
    del record["actions"][dropped]
    corrupted = tmp_path / "corrupted.json"
    corrupted.write_text(json.dumps(record))
    found = first_illegal(record)
    assert found is not None
    index, _, rules = found
    assert main(["replay", str(corrupted)]) == 1
    captured = capsys.readouterr()
    answer = json.loads(captured.out)
    assert answer["error"] == "illegal-action" and answer["index"] == index
    assert [v["rule"] for v in answer["violations"]] == rules
    assert answer["action"] == record["actions"][index]
    assert answer["message"].startswith(f"action {index} of the record is illegal")
    assert f"action {index} of the record is illegal" in captured.err
    # --json: the endpoint's 422 body itself, the state before the action included.
    assert main(["replay", str(corrupted), "--json"]) == 1
    whole = _json(capsys)
    assert whole["index"] == index and whole["state"]["players"][0]["name"] == "Ana"


def _endpoints_picture(record: dict[str, Any], upto: int, player: str | None) -> bytes:
    """What the endpoints draw: POST /v1/replay's state after `upto` actions (as it answers it:
    encoded), then /v1/render's handler on {"state", "player"}."""
    replayed = handle("replay", json.dumps({"record": record, "upto": upto}).encode())
    body = {"state": replayed.state} | ({} if player is None else {"player": player})
    return render.render(render.decode(msgspec.json.encode(body))).encode()


@pytest.mark.parametrize("player", [None, "Ben"])
def test_upto_and_render_draw_the_state_the_replay_reaches_byte_for_byte(
        player: str | None, played: tuple[Path, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(played[0].read_text())
    picture = tmp_path / "after.svg"
    given = [] if player is None else ["--player", player]
    for upto in (0, 57):
        assert main(["replay", str(played[0]), "--upto", str(upto), "--render", str(picture), *given]) == 0
        out = capsys.readouterr().out
        assert f"Stopped after {upto} actions" in out and "not checked" in out
        assert picture.read_bytes() == _endpoints_picture(record, upto, player)
    # The picture of `referee render` of the same state is the same picture.
    replayed = handle("replay", json.dumps({"record": record, "upto": 57}).encode())
    state = tmp_path / "state.json"
    state.write_bytes(msgspec.json.encode({"state": replayed.state}))
    assert main(["render", str(state), "-o", str(tmp_path / "render.svg"), *given]) == 0
    assert (tmp_path / "render.svg").read_bytes() == picture.read_bytes()


def test_player_answers_that_seats_view_and_refuses_a_stranger(
        played: tuple[Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(played[0].read_text())
    assert main(["replay", str(played[0]), "--upto", "20", "--player", "Ben", "--json"]) == 0
    answer = _json(capsys)
    expected = handle("replay", json.dumps({"record": record, "upto": 20, "player": "Ben"}).encode())
    assert answer["state"] is None and answer["view"]["viewer"] == "Ben"
    assert msgspec.json.encode(answer) == i18n.encode(expected)  # its messages in English
    hands = {p["name"]: p["hand"] for p in answer["view"]["players"]}
    assert hands["Ben"] and hands["Ana"] is None and hands["Cyd"] is None
    assert main(["replay", str(played[0]), "--player", "Zed"]) == 1
    assert _json(capsys)["error"] == "unknown-player"


def test_a_replay_query_file_and_stdin_give_the_same_answer_as_the_options(
        played: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    record = json.loads(played[0].read_text())
    assert main(["replay", str(played[0]), "--upto", "33", "--player", "Cyd", "--json"]) == 0
    by_options = capsys.readouterr().out
    query = tmp_path / "query.json"
    query.write_text(json.dumps({"record": record, "upto": 33, "player": "Cyd"}))
    assert main(["replay", str(query), "--json"]) == 0
    assert capsys.readouterr().out == by_options
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(played[0].read_bytes())))
    assert main(["replay", "-", "--upto", "33", "--player", "Cyd", "--json"]) == 0
    assert capsys.readouterr().out == by_options
    # The command line's options go over the file's.
    assert main(["replay", str(query), "--upto", "34", "--json"]) == 0
    assert _json(capsys)["actions"] == 34


def test_a_record_whose_result_disagrees_exits_with_result_disagrees(
        played: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads(played[0].read_text())
    first = record["result"][0]
    record["result"][0] = {**first, "score": first["score"] + 3}
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(record))
    assert RESULT_DISAGREES == 3
    assert main(["replay", str(wrong)]) == RESULT_DISAGREES
    out = capsys.readouterr().out
    assert "The record's result disagrees with the replay:" in out
    assert (f"{first['name']}: the record says place {first['place']} with {first['score'] + 3} "
            f"points; the replay, place {first['place']} with {first['score']}") in out
    assert main(["replay", str(wrong), "--json"]) == RESULT_DISAGREES
    assert _json(capsys)["result"]["verdict"] == "disagrees"
    # No result: nothing to disagree with.
    del record["result"]
    wrong.write_text(json.dumps(record))
    assert main(["replay", str(wrong)]) == 0
    assert "The record has no result to check." in capsys.readouterr().out


@pytest.mark.parametrize(("content", "error", "where"), [
    (b"not json", "bad-request", "JSON is malformed"),
    (b'{"format": "alhambra-record/1", "edition": 3, "actions": []}', "bad-request",
     "missing required field `setup` - at `$.record`"),
    (b'{"format": "alhambra-record/1", "edition": 3, "setup": {"players": ["Ana"]}}',
     "bad-game-request", "the record's setup makes no game"),
    (None, "bad-request", "No such file or directory"),
])
def test_a_bad_file_prints_the_http_error_shape_and_exits_1(
        content: bytes | None, error: str, where: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    assert main(["replay", str(path)]) == 1
    answer = _json(capsys)
    assert set(answer) == {"error", "message", "violations"}
    assert answer["error"] == error and where in answer["message"], answer


def test_replay_without_rich_says_which_install_brings_it_and_json_needs_none(
        played: tuple[Path, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As `referee play` (issue 26): the tables need rich, the server's install brings it."""
    for name in [m for m in sys.modules if m.split(".")[0] == "rich"] or ["rich"]:
        monkeypatch.setitem(sys.modules, name, None)
    assert main(["replay", str(played[0])]) == 2
    assert "needs the package 'rich'" in capsys.readouterr().err
    assert main(["replay", str(played[0]), "--json"]) == 0
    assert _json(capsys)["result"]["verdict"] == "agrees"


def test_a_sealing_referees_replay_seals_the_state_and_draws_a_spectators_picture(
        played: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from service.api.handlers import Judge
    from service.seal import Sealing, new_key, parse_keys

    key = new_key("cli")
    monkeypatch.setenv("SEAL_KEYS", key)
    picture = tmp_path / "sealed.svg"
    assert main(["replay", str(played[0]), "--upto", "40", "--json", "--render", str(picture)]) == 0
    answer = _json(capsys)
    assert answer["state"]["seal"].startswith("v4.cli.")
    sealing = Sealing(parse_keys(key))
    state = msgspec.convert(answer["state"], GameState)
    assert picture.read_bytes() == render.render(RenderState(state=state), Judge(sealing)).encode()
