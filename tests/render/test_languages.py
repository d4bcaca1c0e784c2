"""The pictures in the players' languages (issue 29): captions, panel titles, the score sheet's
labels and the tiles' words are worded in the language asked for (or i18n.LANGUAGE, the
request's); ids and names are not."""

from __future__ import annotations

import msgspec

from service import i18n
from service.engine import score
from service.engine.scoring import Position
from service.render import render_position, render_sheet, render_state
from tests.render.test_render import POSITION, random_state


def test_a_state_is_drawn_in_german() -> None:
    state = random_state([], players=3, steps=20, seed=1)
    english, german = render_state(state), render_state(state, language="de")
    assert "Building market" in english and "Money display" in english
    assert "Bauhof" in german and "Geldauslage" in german
    assert "Building market" not in german
    for player in state.players:  # names are never translated
        assert player.name in german


def test_the_language_defaults_to_the_requests() -> None:
    state = random_state([], players=3, steps=20, seed=1)
    told = i18n.LANGUAGE.set("fr")
    try:
        french = render_state(state)
    finally:
        i18n.LANGUAGE.reset(told)
    assert "Chantier" in french
    assert french == render_state(state, language="fr")
    assert "Building market" in render_state(state)  # the context is English again


def test_a_score_sheet_in_catalan_and_spanish() -> None:
    position = msgspec.convert(POSITION, Position)
    breakdown = score(position)
    catalan = render_sheet(position, breakdown, language="ca")
    assert "Full de puntuació" in catalan and "ronda" in catalan
    spanish = render_position(position, breakdown, language="es")
    assert "Ronda de puntuación" in spanish and "puntuación acumulada" in spanish
