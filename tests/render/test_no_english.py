"""No English left in a German picture (issue 29): random states of every module, a player's
view of them and a scoring position drawn in German hold none of the game's words in English
(building types in a module's chips, a module part's field names as captions, a scoring line's
details, a building site's or a power tile's caption), and no Python value (`True`) as text.
Ids (`extension-garden-1`, `craftsmen.pass`), names and the modules' ids in the header stay."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import msgspec
import pytest

from service import i18n
from service.engine import score
from service.engine.modules import (
    change,
    craftsmen,
    extensions,
    grounds,
    power,
    staff,
    thieves,
    treasure,
    vendors,
    walls,
    zoo,
)
from service.engine.scoring import Position
from service.engine.view import view
from service.render import palette, render_position, render_state, render_view
from tests.render.test_render import ALL_MODULES, POSITION, SVG, parse, random_state

# The words the review found in English in German pictures.
REPORTED = ("seraglio", "arcades", "chambers", "garden", "site", "inhabitants", "sets", "bag size",
            "room", "supply size", "removed size", "out size", "pile size", "passing", "chosen",
            "steps", "own face down", "played", "display", "board", "columns", "rooms",
            "architecture", "prosperity", "strength", "dice", "unserved", "animals", "exhaustive")
WORDS_MODULES = (change, craftsmen, extensions, grounds, power, staff, thieves, treasure, vendors,
                 walls, zoo)
PYTHON = ("True", "False", "None")


@cache
def english_words() -> tuple[str, ...]:
    """The reported words, every field name the modules' words.py list, the building types,
    animals and kinds of craftsman: those German says otherwise."""
    import importlib

    listed = set(REPORTED) | set(palette.WORDS)
    for package in WORDS_MODULES:
        words = importlib.import_module(f"{package.__name__}.words")
        for value in vars(words).values():
            listed |= set(value) if isinstance(value, tuple) else {value} if isinstance(value, str) else set()
    return tuple(sorted(w for w in listed if i18n.render(_word(w), "de") != w))


def _word(text: str) -> str:
    from service.engine.text import word

    return word(text)


def texts(svg: str) -> Iterator[str]:
    for element in parse(svg).iter(f"{SVG}text"):
        yield "".join(element.itertext())


def english_in(svg: str, modules: tuple[str, ...]) -> list[str]:
    """The texts of the picture that hold an English word as a word of their own (not inside an
    id or a rule id), the header's line of module ids apart."""
    header = f"Module: {', '.join(modules)}"
    found = []
    for text in texts(svg):
        if text == header:
            continue
        for w in (*english_words(), *PYTHON):
            if re.search(rf"(?<![\w.-]){re.escape(w)}(?![\w.-])", text):
                found.append(f"{w!r} in {text!r}")
    return found


@pytest.mark.parametrize("module", ALL_MODULES)
def test_a_german_picture_of_every_module_holds_no_english_word(module: str) -> None:
    found = []
    for seed in (1, 2, 3):
        for steps in (10, 40, 90):
            state = random_state([module], players=3, steps=steps, seed=seed)
            found += english_in(render_state(state, language="de"), state.modules)
            seen = view(state, state.players[seed % 3].name)
            found += english_in(render_view(seen, language="de"), state.modules)
    assert not found, sorted(set(found))


def test_every_module_at_once_and_a_scoring_position() -> None:
    state = random_state(ALL_MODULES, players=4, steps=80, seed=7)
    found = english_in(render_state(state, language="de"), state.modules)
    position = msgspec.convert(POSITION, Position)
    found += english_in(render_position(position, score(position), language="de"), position.modules)
    assert not found, sorted(set(found))


def test_the_words_checked_are_words_german_says_otherwise() -> None:
    words = english_words()
    assert {"seraglio", "inhabitants", "sets", "bag size", "own face down", "architecture",
            "site", "columns"} <= set(words)
