"""The `referee` console script: play, new, and the engine commands on JSON files."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from service.cli import main


def test_play_prints_every_scoring_round_and_the_final_ranking(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "4", "--seed", "1", "--quiet", "--check"]) == 0
    out = capsys.readouterr().out
    for round_ in (1, 2, 3):
        assert f"Scoring round {round_}" in out
    assert "Final ranking" in out and "1. " in out


def test_play_with_two_players_ranks_dirk(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "2", "--seed", "3", "--quiet", "--modules", "zoo"]) == 0
    assert "Dirk" in capsys.readouterr().out


def test_new_then_validate_apply_and_score_from_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "--players", "Ana,Ben,Cyd", "--seed", "5"]) == 0
    game = json.loads(capsys.readouterr().out)
    state = game["state"]
    seat = state["turn"]["player"]
    player = state["players"][seat]["name"]
    move = tmp_path / "move.json"
    move.write_text(
        json.dumps(
            {
                "state": state,
                "action": {"type": "take-money", "player": player, "cards": [state["display"][0]]},
            }
        )
    )
    assert main(["validate", str(move)]) == 0
    assert json.loads(capsys.readouterr().out) == {"valid": True, "violations": []}
    assert main(["apply", str(move)]) == 0
    applied = json.loads(capsys.readouterr().out)
    assert applied["game_over"] is False and applied["events"][0]["type"] == "money-taken"
    query = tmp_path / "score.json"
    query.write_text(json.dumps({"state": applied["state"], "round": 1}))
    assert main(["score", str(query), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["round"] == 1


def test_an_illegal_action_exits_non_zero_with_its_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "--players", "Ana,Ben,Cyd", "--seed", "5"]) == 0
    state = json.loads(capsys.readouterr().out)["state"]
    move = tmp_path / "move.json"
    move.write_text(
        json.dumps(
            {
                "state": state,
                "action": {"type": "take-money", "player": "Nobody", "cards": [state["display"][0]]},
            }
        )
    )
    assert main(["apply", str(move)]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["error"] == "illegal-action"
    assert answer["violations"][0]["rule"] == "base.turn.order"


def test_a_bad_game_request_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "--players", "Ana"]) == 1
    assert "base.setup.players" in capsys.readouterr().out


def test_render_writes_svg_of_a_new_game_and_of_a_players_view(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "--players", "Ana,Ben,Cyd", "--seed", "5"]) == 0
    game = tmp_path / "game.json"
    game.write_text(capsys.readouterr().out)
    ben_hand = json.loads(game.read_text())["state"]["players"][1]["hand"]
    whole, view = tmp_path / "whole.svg", tmp_path / "ana.svg"
    assert main(["render", str(game), "-o", str(whole)]) == 0
    assert main(["render", str(game), "--player", "Ana", "-o", str(view)]) == 0
    assert whole.read_text().startswith("<?xml") and view.read_text().startswith("<?xml")
    assert all(card in whole.read_text() and card not in view.read_text() for card in ben_hand)


def test_render_refuses_a_player_not_at_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "--players", "Ana,Ben", "--seed", "5"]) == 0
    game = tmp_path / "game.json"
    game.write_text(capsys.readouterr().out)
    assert main(["render", str(game), "--player", "Nobody", "-o", str(tmp_path / "x.svg")]) == 1
    assert json.loads(capsys.readouterr().out)["error"] == "unknown-player"
    assert not (tmp_path / "x.svg").exists()


def test_render_png_without_resvg_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "resvg_py", None)  # import resvg_py raises ImportError
    assert main(["new", "--players", "Ana,Ben", "--seed", "5"]) == 0
    game = tmp_path / "game.json"
    game.write_text(capsys.readouterr().out)
    assert main(["render", str(game), "-o", str(tmp_path / "game.png")]) == 2
    assert "pip install resvg-py" in capsys.readouterr().err
    assert not (tmp_path / "game.png").exists()


@pytest.mark.parametrize(("command", "missing"), [(["play", "--players", "2", "--quiet"], "rich"),
                                                  (["serve"], "uvicorn")])
def test_a_command_that_needs_the_servers_packages_says_which_install_brings_them(
    command: list[str], missing: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 26: `pip install alhambra-referee` is the engine and the client; `referee play` or
    `referee serve` there stops with one line naming the install, not a traceback."""
    import sys

    for name in [m for m in sys.modules if m.split(".")[0] == missing] or [missing]:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed (nor imported before)
    assert main(command) == 2
    err = capsys.readouterr().err
    assert f"needs the package {missing!r}" in err and "pip install 'alhambra-referee[server]'" in err


def test_render_png_needs_nothing_but_the_package_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PNG through resvg-py (a wheel): no system tool is asked for, so an empty PATH is fine."""
    import struct

    monkeypatch.setenv("PATH", "")
    assert main(["new", "--players", "Ana,Ben", "--seed", "5"]) == 0
    game = tmp_path / "game.json"
    game.write_text(capsys.readouterr().out)
    assert main(["render", str(game), "--png", "-o", str(tmp_path / "game.img")]) == 0
    png = (tmp_path / "game.img").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk: the picture's size
    assert width > 400 and height > 300


def test_keygen_makes_a_key_the_cli_seals_and_opens_with(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from service.engine import new_game
    from service.seal import Sealing, parse_keys

    assert main(["keygen", "k1"]) == 0
    entry = capsys.readouterr().out.strip()
    sealing = Sealing(parse_keys(entry))
    state = new_game(["Ana", "Ben"], seed=2).state
    sealed = json.loads(msgspec.json.encode(sealing.seal(state)))
    player = state.players[state.turn.player].name
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"state": sealed, "action": {
        "type": "take-money", "player": player, "cards": [state.display[0]]}}))
    monkeypatch.setenv("SEAL_KEYS", entry)
    assert main(["apply", str(move)]) == 0
    assert json.loads(capsys.readouterr().out)["state"]["seal"].startswith("v4.k1.")
    monkeypatch.delenv("SEAL_KEYS")
    assert main(["apply", str(move)]) == 1  # without the key the seal cannot be opened
    assert json.loads(capsys.readouterr().out)["error"] == "bad-seal"
    assert main(["keygen", "no spaces"]) == 2


ROUND_1 = {"round": 1, "modules": ["zoo"], "players": [
    {"name": "Ana", "tally": {"buildings": {"garden": 2, "tower": 1}, "wall": 4, "zoo": {"animals": 2}}},
    {"name": "Ben", "tally": {"buildings": {"pavilion": 2, "garden": 1}, "wall": 3}},
    {"name": "Cyd", "tally": {}}]}  # base.setup.players: two players need Dirk, so three
ROUND_1_TOML = """round = 1
modules = ["zoo"]

[[players]]
name = "Ana"
tally = { buildings = { garden = 2, tower = 1 }, wall = 4, zoo = { animals = 2 } }

[[players]]
name = "Ben"
tally = { buildings = { pavilion = 2, garden = 1 }, wall = 3 }

[[players]]
name = "Cyd"
tally = {}
"""


def test_score_prints_a_tallys_breakdown_as_a_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Round 1: Ana's gardens 5, tower 6, wall 4, animals 2 = 17; Ben's pavilions 1, wall 3 = 4."""
    tally = tmp_path / "round1.json"
    tally.write_text(json.dumps(ROUND_1))
    assert main(["score", str(tally)]) == 0
    out = capsys.readouterr().out
    assert "Scoring round 1" in out
    rows = {line.split("\u2502")[1].strip(): [c.strip() for c in line.split("\u2502")[2:4]]
            for line in out.splitlines() if line.startswith("\u2502")}
    assert rows["garden"] == ["5 (2, 1.)", "0 (1, 2.)"]  # 2nd place scores nothing in round 1
    assert rows["zoo"] == ["2 (animals 2)", "0 (animals 0)"]
    assert rows["round total"] == ["17", "4"]


def test_score_reads_the_same_tally_in_toml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "round1.json").write_text(json.dumps(ROUND_1))
    (tmp_path / "round1.toml").write_text(ROUND_1_TOML)
    assert main(["score", str(tmp_path / "round1.json"), "--json"]) == 0
    from_json = capsys.readouterr().out
    assert main(["score", str(tmp_path / "round1.toml"), "--json"]) == 0
    assert capsys.readouterr().out == from_json
    (tmp_path / "bad.toml").write_text("round = ")
    assert main(["score", str(tmp_path / "bad.toml")]) == 1


def test_score_prints_a_sheet_and_the_final_ranking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's evening: round 3 with the answers of rounds 1 and 2."""
    from tests.api.test_score_sheet import readme_evening

    rounds, ranking = readme_evening()
    answers: list[object] = []
    for body in rounds:
        path = tmp_path / f"round{body['round']}.json"
        path.write_text(json.dumps({**body, "previous": answers} if answers else body))
        assert main(["score", str(path), "--json"]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Score sheet" in out and "Final ranking:" in out
    assert [line.strip() for line in out.splitlines()[-3:]] == [
        f"{r['place']}. {r['name']}: {r['score']}" for r in ranking]


def test_score_refuses_an_impossible_tally_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = json.loads(json.dumps(ROUND_1))
    body["players"][1]["tally"]["wall"] = 20
    (tmp_path / "bad.json").write_text(json.dumps(body))
    assert main(["score", str(tmp_path / "bad.json")]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["violations"][0]["rule"] == "base.score.wall"
    assert "$.players[1].tally.wall is 20" in answer["violations"][0]["message"]


def test_score_of_a_file_that_is_no_json_nor_toml_says_why_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 26: the reason was only on stderr, stdout said `{"error": "bad-request",
    "violations": []}`; a refusal on stdout has the HTTP error's shape, message included."""
    (tmp_path / "bad.toml").write_text("players = [\n")
    assert main(["score", str(tmp_path / "bad.toml")]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["error"] == "bad-request" and answer["violations"] == []
    assert answer["message"].startswith(str(tmp_path / "bad.toml")), answer
