"""Issue 29: every refusal a random game of every module produces, and every description of who
must act, renders in every language with no missing parameter and no untranslated message: over
random games of each module alone, all eleven together and the base game (2-6 players), the
violations of actions sent at the right and at the wrong moment (the acting players' options and
actions of other moments, as tests/engine/test_messages.py sends them) and every actor's `what`
are Texts whose every message id, nested detail and game word the language's catalogues
translate, and that format there (no detail missing, none unknown)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from service.engine import GameState, legal_actions, to_act, validate
from service.engine.actions import Action
from service.engine.module import registered
from service.engine.text import Text, Word
from service.i18n import speaker
from service.i18n.catalogue import TRANSLATED, translated
from tests.engine.test_view import sample_states

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
CONFIGS = [*((m,) for m in MODULES), MODULES, ()]


def untranslated(value: Any, language: str) -> list[str]:
    """The message ids and game words within `value` that `language` does not translate."""
    if isinstance(value, Text):
        missing = [] if value.id in translated(language) else [value.id]
        return missing + [m for _, d in value.details for m in untranslated(d, language)]
    if isinstance(value, Word):
        return [] if str.__str__(value) in translated(language) else [f"word {value!r}"]
    if isinstance(value, tuple | list):
        return [m for v in value for m in untranslated(v, language)]
    return []


def assert_worded(message: str, where: str) -> None:
    assert isinstance(message, Text), f"{where}: a bare string, not a catalogued message: {message!r}"
    for language in TRANSLATED:
        missing = untranslated(message, language)
        assert not missing, f"{where} [{language}]: no translation of {missing} in {message!r}"
        message.worded(speaker(language))  # formats: no detail missing or unknown (KeyError)


def _as(action: Action, name: str) -> Action | None:
    try:
        return replace(action, player=name)
    except (TypeError, ValueError):
        return None


def check_game(modules: tuple[str, ...], seed: int, players: int, shuffles: int) -> int:
    rnd = random.Random(shuffles)
    states: list[GameState] = sample_states(modules, players, seed, every=70)
    pool: list[Action] = []
    for state in states:
        listed, _ = legal_actions(state, 50)
        pool += rnd.sample(listed, min(len(listed), 6))
    seen = 0
    for state in states:
        for actor in to_act(state).actors:
            assert_worded(actor.what, f"to_act of {modules}")
            for viewer in state.players:
                for told in to_act(state, viewer.name).actors:
                    assert_worded(told.what, f"to_act told to {viewer.name}")
        if state.phase == "over":
            continue
        for seat in range(players):
            name = state.players[seat].name
            for action in rnd.sample(pool, min(len(pool), 25)):
                sent = _as(action, name)
                if sent is None:
                    continue
                for violation in validate(state, sent):
                    assert_worded(violation.message, f"{violation.rule} for {sent}")
                    seen += 1
    return seen


RANDOM_GAMES = settings(deadline=None, max_examples=1, suppress_health_check=[HealthCheck.too_slow],
                        phases=[Phase.explicit, Phase.reuse, Phase.generate])


@pytest.mark.parametrize("modules", CONFIGS, ids=lambda m: "all" if len(m) > 1 else (m[0] if m else "base"))
@RANDOM_GAMES
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(2, 6), shuffles=st.integers(0, 2**32))
def test_every_refusal_of_a_random_game_renders_in_every_language(
        modules: tuple[str, ...], seed: int, players: int, shuffles: int) -> None:
    assert check_game(modules, seed, players, shuffles) > 0
