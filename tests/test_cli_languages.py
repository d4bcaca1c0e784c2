"""The command line in the players' languages (issue 29): what it prints for a person follows
the locale (LC_ALL, LC_MESSAGES, LANG) or `--lang`; the engine's messages in its answers too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import locale_language, main


@pytest.mark.parametrize(("environ", "language"), [
    ({}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "ca_ES.UTF-8"}, "ca"),
    ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "ca_ES.UTF-8", "LC_ALL": "es_ES.UTF-8"}, "es"),
    ({"LANG": "fr_CA"}, "fr"),
    ({"LANG": "it_IT.UTF-8"}, "en"),
    ({"LC_ALL": "", "LANG": "fr_FR"}, "fr"),
])
def test_the_locale_names_the_language(environ: dict[str, str], language: str) -> None:
    assert locale_language(environ) == language


def _wrong_currency(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A validate body: the player to act buys a market tile with a card of another currency."""
    assert main(["new", "--players", "Ana,Ben,Cyd", "--seed", "5"]) == 0
    state = json.loads(capsys.readouterr().out)["state"]
    player = state["players"][state["turn"]["player"]]
    card = player["hand"][0]
    space = next(s for s in state["market"] if s["tile"] and not card.startswith(s["currency"]))
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"state": state, "action": {
        "type": "buy-building", "player": player["name"], "tile": space["tile"], "payment": [card]}}))
    return move


def test_validate_words_the_violations_in_the_language_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    move = _wrong_currency(tmp_path, capsys)
    assert main(["validate", str(move)]) == 0
    english = json.loads(capsys.readouterr().out)["violations"]
    assert main(["validate", str(move), "--lang", "de"]) == 0
    german = json.loads(capsys.readouterr().out)["violations"]
    assert [v["rule"] for v in german] == [v["rule"] for v in english]  # rule ids never change
    assert "is not" in english[0]["message"]
    assert "ist kein" in german[0]["message"] and german[0]["message"] != english[0]["message"]


def test_play_follows_the_locale_and_lang_overrides_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert main(["play", "--players", "2", "--seed", "1", "--quiet"]) == 0
    french = capsys.readouterr().out
    assert "Partie terminée après" in french and "Décompte 1" in french
    assert main(["play", "--players", "2", "--seed", "1", "--quiet", "--lang", "es"]) == 0
    spanish = capsys.readouterr().out
    assert "Fin de la partida tras" in spanish and "puntuación acumulada" in spanish
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["play", "--players", "2", "--seed", "1", "--quiet"]) == 0
    assert "Game over after" in capsys.readouterr().out


def test_render_draws_in_the_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "--players", "Ana,Ben,Cyd", "--seed", "5"]) == 0
    game = tmp_path / "game.json"
    game.write_text(capsys.readouterr().out)
    picture = tmp_path / "game.svg"
    assert main(["render", str(game), "-o", str(picture), "--lang", "ca"]) == 0
    assert "Mercat d&#x27;edificis" in picture.read_text() or "Mercat d'edificis" in picture.read_text()


# The score table's English words: the modules' rows and their lines' fields.
SCORE_WORDS = ("zoo", "staff", "power", "treasure", "vendors", "animals", "unserved", "dice",
               "inhabitants", "sets")


@pytest.mark.parametrize("language", ["de", "fr", "es", "ca"])
def test_score_words_the_modules_rows_and_fields_as_the_pictures_do(
    language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import re

    from service import i18n
    from service.engine.text import word
    from service.i18n.catalogue import translated
    from tests.render.test_render import POSITION

    position = tmp_path / "position.json"
    position.write_text(json.dumps(POSITION))
    assert main(["score", str(position)]) == 0
    english = capsys.readouterr().out
    assert main(["score", str(position), "--lang", language]) == 0
    table = capsys.readouterr().out
    for w in SCORE_WORDS:
        assert re.search(rf"\b{w}\b", english), w
        assert w in translated(language), (language, w)  # the catalogues word it
        said = i18n.render(word(w), language)
        assert said in table, (language, w, said)
        if said != w:  # (a zoo is a zoo in French, Spanish and Catalan)
            assert not re.search(rf"(?<![\w-]){w}\b", table), (language, w, table)
    assert i18n.render(word("wall"), language) in table
