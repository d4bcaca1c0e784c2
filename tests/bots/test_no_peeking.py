"""No peeking, proved (issue 28 item 3): a bot sees what its seat sees, no more (RULES.md §8).

For every level and every module (alone, all eleven together, the base game), in random games:
change everything the seat may not see (the deck's order and where its scoring cards lie, the
bag, the others' hands, face-down craftsmen and servants, the chests' bag, what another
player's power drew or hid, the others' secret vendor choices, the generator) and the
suggestion stays the same, byte for byte, and is legal in both states.
"""

from __future__ import annotations

import hashlib
import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.bots import LEVELS, suggest
from service.engine import GameState, to_act, validate
from tests.support.play import after_steps

from .support import CONFIGS, ids, unseen_changed

encode = msgspec.json.encode
SMALL_BUDGET = 10  # ms: the least a request may ask; the search runs all the same


def suggestions(state: GameState, level: str) -> dict[str, bytes]:
    """Each seat that may act now: its suggestion's bytes (checked legal)."""
    out = {}
    for actor in to_act(state).actors:
        s = suggest(state, actor.player, level, SMALL_BUDGET)  # type: ignore[arg-type]
        if s.action is not None:
            assert validate(state, s.action) == [], (level, s.action)
        out[actor.player] = encode(s)
    return out


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("config", CONFIGS, ids=ids)
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32),
       steps=st.one_of(st.integers(0, 6), st.integers(0, 200)))
def test_a_suggestion_is_the_same_whatever_the_seat_may_not_see(level: str, config: tuple[str, ...],
                                                               players: int, seed: int, steps: int) -> None:
    state = after_steps(config, players, seed, steps)
    if state.phase == "over":
        return
    before = suggestions(state, level)
    rnd = random.Random(seed)
    for actor in to_act(state).actors:
        changed = unseen_changed(state, actor.seat, rnd)
        assert suggestions(changed, level)[actor.player] == before[actor.player], (
            f"{level}: {actor.player}'s suggestion changes with what they may not see")


def test_the_property_catches_a_bot_that_peeks() -> None:
    """Not vacuous: a 'bot' whose choice hangs on the deck's order (hidden) gives another
    choice once the hidden parts change."""

    def peeking(state: GameState) -> int:
        return hashlib.sha256(encode(state.deck)).digest()[0]

    state = after_steps((), 4, seed=5, steps=20)
    rnd = random.Random(0)
    seat = to_act(state).actors[0].seat
    assert any(peeking(unseen_changed(state, seat, rnd)) != peeking(state) for _ in range(5))
