"""Issue 13 item 2: whatever a seat receives names nothing its view does not show. Over random
games of every module alone and all together, for every seat:

- a refusal's messages, for any action that seat might send (the acting players' options and
  actions of other moments of the game, all sent as that seat's), depend only on what the seat
  may see: they are the same when everything the seat may not see is changed
  (`tests/support/hidden.py`'s perturbations), and name no secret of the seat's that the action
  itself does not name;
- the events of an action it applies name no secret of its own, before or after the action,
  that its views do not show;
- the legal actions listed for it (CALLERS=players lists a seat its own) name none either.

The security review found the power module's pending decisions naming the drawn cards to every
other player ("the game waits for Ben to keep one of the drawn cards ['green-7-a', ...]").
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from service.engine import GameState, apply, legal_actions, validate
from service.engine.actions import Action
from service.engine.catalogue import CATALOGUE
from service.engine.module import registered
from service.engine.modules.craftsmen.data import DATA as CRAFTSMEN_DATA
from service.engine.view import view
from service.i18n import encode
from tests.engine.test_view import sample_states
from tests.support.hidden import all_of, secrets, strings_of

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
CONFIGS = [*((m,) for m in MODULES), ()]
_WORD = re.compile(r"[A-Za-z0-9_:-]+")


def _builtins(value: Any) -> Any:
    return msgspec.json.decode(encode(value))  # messages (Texts) worded as the referee answers


def _seen(state: GameState, seat: int) -> set[str]:
    """The strings of the seat's view, and the scoring cards set aside (the view shows their
    rounds as called or held)."""
    seen = set(strings_of(_builtins(view(state, state.players[seat].name))))
    return seen | {card for card in CATALOGUE.scoring_cards
                   if CATALOGUE.scoring_round_of(card) in (*state.rounds_held, *state.scoring_called)}


# A craftsman's ability is named like its first card ("the brickmaker's ability ..." when an
# action uses it): naming the ability says nothing of where that card lies (the perturbations
# move the cards, and the messages must not change).
_ABILITIES = frozenset(card["kind"] for card in CRAFTSMEN_DATA["cards"])


def _named(texts: Iterable[str]) -> set[str]:
    return {w for text in texts for w in _WORD.findall(text)} - _ABILITIES


def _as(action: Action, name: str) -> Action | None:
    try:
        return replace(action, player=name)
    except (TypeError, ValueError):
        return None


def check_messages(state: GameState, seat: int, pool: list[Action], rnd: random.Random) -> None:
    name = state.players[seat].name
    changed = all_of(state, seat, rnd)
    secret = secrets(state, seat)
    listed, _ = legal_actions(state, 40)
    candidates = [a for a in (_as(x, name) for x in [*listed, *rnd.sample(pool, min(len(pool), 40))]) if a]
    for action in candidates:
        said = [v.message for v in validate(state, action)]
        assert said == [v.message for v in validate(changed, action)], (
            f"seat {seat} ({name}) is told something of what it may not see: {said} vs "
            f"{[v.message for v in validate(changed, action)]} for {action}")
        named = set(strings_of(_builtins(action)))
        leaked = (_named(said) & secret) - named
        assert not leaked, f"seat {seat} ({name}) is told {sorted(leaked)}: {said} for {action}"
    own = [a for a in listed if a.player == name]
    leaked = set(strings_of(_builtins(own))) & secret
    assert not leaked, f"the legal actions listed for seat {seat} name {sorted(leaked)}"


def check_events(state: GameState, rnd: random.Random) -> None:
    listed, _ = legal_actions(state, 200)
    for action in rnd.sample(listed, min(len(listed), 8)):
        actor = state.seat_of(action.player)
        outcome = apply(state, action)
        told = set(strings_of(_builtins(outcome.events))) | _named(
            s for s in strings_of(_builtins(outcome.events)))
        secret = secrets(state, actor) | secrets(outcome.state, actor)
        leaked = (told & secret) - _seen(state, actor) - _seen(outcome.state, actor)
        assert not leaked, f"the events of {action} tell its player {sorted(leaked)}: {outcome.events}"


def check_game(modules: tuple[str, ...], seed: int, players: int, shuffles: int) -> None:
    rnd = random.Random(shuffles)
    states = sample_states(modules, players, seed, every=60)
    pool: list[Action] = []
    for state in states:  # actions of other moments of the game, to send at the wrong one
        listed, _ = legal_actions(state, 50)
        pool += rnd.sample(listed, min(len(listed), 6))
    for state in states:
        if state.phase == "over":
            continue
        for seat in range(players):
            check_messages(state, seat, pool, rnd)
        check_events(state, rnd)


MESSAGES = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    phases=[Phase.explicit, Phase.reuse, Phase.generate])
seeds = st.integers(min_value=0, max_value=2**63 - 1)
player_counts = st.integers(min_value=2, max_value=6)
shuffle_seeds = st.integers(min_value=0, max_value=2**32)


@pytest.mark.parametrize("modules", CONFIGS, ids=lambda m: m[0] if m else "base")
@settings(MESSAGES, max_examples=2)
@given(seed=seeds, players=player_counts, shuffles=shuffle_seeds)
def test_messages_and_events_of_each_module_alone_name_only_what_the_seat_sees(
        modules: tuple[str, ...], seed: int, players: int, shuffles: int) -> None:
    check_game(modules, seed, players, shuffles)


@settings(MESSAGES, max_examples=2)  # each a whole game of all eleven (~40 s of CI's 2 cores)
@given(seed=seeds, players=player_counts, shuffles=shuffle_seeds)
def test_messages_and_events_with_every_module_name_only_what_the_seat_sees(
        seed: int, players: int, shuffles: int) -> None:
    check_game(MODULES, seed, players, shuffles)


def test_a_pending_wisdom_draw_is_named_to_no_other_player() -> None:
    """The review's leak: while Ben keeps one of the cards his wisdom power drew, Ana's action
    was refused naming them."""
    from tests.support.play import play_until

    state = play_until(("power",), 3, seed=5, wanted=lambda s: bool(
        s.power and s.power.drawn and s.power.using and "wisdom" in s.power.using))
    drawn = set(state.power.drawn)  # type: ignore[union-attr]
    waiting = state.players[state.turn.player].name
    for seat, player in enumerate(state.players):
        if player.name == waiting:
            continue
        said = [v.message for v in validate(state, _end_turn(player.name))]
        assert said and not _named(said) & drawn, (seat, said)


def _end_turn(name: str) -> Any:
    from service.engine.actions import EndTurn

    return EndTurn(player=name)
