"""Per-player views (RULES.md §8, issue 6): what the base game shows and hides, how the modules
plug their parts in, and the property over random games of every module: two states that differ
only in what a viewer may not see give that viewer byte-identical views, and no view holds
another player's secrets, any deck, bag or pile content, or the generator's state."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from service.engine import GameState, Generator, apply, new_game, random_action
from service.engine.module import module, modules_of, registered
from service.engine.view import BaseView, UnknownViewer, View, view
from tests.support.hidden import assert_holds_no_secret, assert_views_unchanged, encoded
from tests.support.play import MAX_ACTIONS, NAMES, play_until

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
# Every module alone and the base game alone (with all of them together in a test of its own).
CONFIGS = [*((m,) for m in MODULES), ()]


# --- the base game ---------------------------------------------------------------------------

def test_a_player_sees_their_own_hand_and_the_others_hand_sizes() -> None:
    """RULES.md §1, §8: from the deal on a hand is secret; the others see how many cards."""
    state = new_game(NAMES[:3], seed=4).state
    seen = view(state, "Ben")
    assert seen.viewer == "Ben"
    assert [p.hand for p in seen.players] == [None, state.players[1].hand, None]
    assert [p.hand_size for p in seen.players] == [len(p.hand) for p in state.players]


def test_the_deck_the_bag_and_the_generator_show_only_as_sizes() -> None:
    state = new_game(NAMES[:3], seed=4).state
    for seat in (None, 0):
        seen = msgspec.json.decode(encoded(state, seat))
        assert seen["deck_size"] == len(state.deck) and seen["bag_size"] == len(state.bag)
        assert not {"deck", "bag", "rng"} & set(seen)


def test_a_spectator_sees_no_hand_and_an_unknown_viewer_is_refused() -> None:
    state = new_game(NAMES[:3], seed=4).state
    assert all(p.hand is None for p in view(state, None).players)
    with pytest.raises(UnknownViewer, match="Zed"):
        view(state, "Zed")


def test_the_public_parts_show_as_they_are() -> None:
    """RULES.md §8: Alhambras, reserves, display, market, discard pile, scores are public."""
    state = play_until((), 3, seed=2, wanted=lambda s: s.discard and s.players[0].alhambra[1:])
    seen = view(state, None)
    assert seen.display == state.display and seen.market == state.market
    assert seen.discard == state.discard and seen.dirk == state.dirk
    assert [p.alhambra for p in seen.players] == [p.alhambra for p in state.players]
    assert [p.reserve for p in seen.players] == [p.reserve for p in state.players]


# --- the modules' parts ----------------------------------------------------------------------

def test_the_view_has_one_optional_field_per_module_named_after_it() -> None:
    fields = View.__struct_fields__
    assert [f for f in fields if f in MODULES] == [m.id for m in registered() if m.view is not None]
    assert set(MODULES) <= set(fields)
    off = view(new_game(NAMES[:3], seed=1).state, None)
    assert all(getattr(off, m) is None for m in MODULES)


def test_every_module_that_keeps_a_state_has_a_view_hook() -> None:
    """Explicit about what a module shows, so a new module cannot leave it to chance (Dirk's
    tiles are public and in the base game's part)."""
    keeping = [m.id for m in registered()
               if m.id in GameState.__struct_fields__ and m.id not in BaseView.__struct_fields__]
    assert keeping and all(module(m).view is not None for m in keeping)


def test_every_module_with_a_state_gives_its_part_through_the_hook() -> None:
    state = new_game(NAMES[:3], MODULES, seed=1).state
    seen = view(state, "Ana")
    for m in modules_of(state):
        if m.view is not None:
            assert isinstance(getattr(seen, m.id), m.view.type), m.id
    assert all(getattr(seen, m) is not None for m in MODULES)


def test_view_py_imports_no_module() -> None:
    """The base code never knows the modules: view.py assembles their parts from the registry."""
    tree = ast.parse(Path("service/engine/view.py").read_text())
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [m for m in imported if m.startswith("modules.")], imported


# --- the property over random games ----------------------------------------------------------

def rare_secret(state: GameState) -> bool:
    """A player knows something the others do not, of a kind that lasts only a few steps: what
    a power drew, a face-down craftsman, a vendor choice made before everyone chose."""
    return bool((state.power and state.power.drawn)
                or (state.craftsmen and any(state.craftsmen.face_down))
                or (state.vendors and not all(d.chosen for d in state.vendors.discs)))


def sample_states(modules: tuple[str, ...], players: int, seed: int, every: int) -> list[GameState]:
    """The first, every `every`-th and the last state of a random game, and every state with a
    rare secret."""
    state = new_game(NAMES[:players], modules, seed=seed).state
    rng = Generator(seed ^ 0x71E5)
    out = [state]
    for step in range(1, MAX_ACTIONS):  # play.py's bound: all eleven, 3 players, seed 22521: 3,230
        action = random_action(state, rng)
        assert action is not None
        outcome = apply(state, action)
        state = outcome.state
        if outcome.game_over or step % every == 0 or rare_secret(state):
            out.append(state)
        if outcome.game_over:
            return out
    raise AssertionError("the game did not end")


def check_every_view(modules: tuple[str, ...], seed: int, players: int, shuffles: int) -> None:
    rnd = random.Random(shuffles)
    for state in sample_states(modules, players, seed, every=80):
        for seat in (None, *range(players)):
            assert_views_unchanged(state, seat, rnd)
            assert_holds_no_secret(state, seat)


# Random games are long: a failing example is reported as found (seed, players), not shrunk.
VIEWS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow],
                 phases=[Phase.explicit, Phase.reuse, Phase.generate])
seeds = st.integers(min_value=0, max_value=2**63 - 1)
player_counts = st.integers(min_value=2, max_value=6)
shuffle_seeds = st.integers(min_value=0, max_value=2**32)


@pytest.mark.parametrize("modules", CONFIGS[:-1], ids=lambda m: m[0] if m else "base")
@settings(VIEWS, max_examples=2)
@given(seed=seeds, players=player_counts, shuffles=shuffle_seeds)
def test_views_of_each_module_alone_do_not_change_with_what_the_viewer_may_not_see(
        modules: tuple[str, ...], seed: int, players: int, shuffles: int) -> None:
    check_every_view(modules, seed, players, shuffles)


@settings(VIEWS, max_examples=3)  # each a whole game of all eleven (~45 s of CI's 2 cores)
@given(seed=seeds, players=player_counts, shuffles=shuffle_seeds)
def test_views_with_every_module_do_not_change_with_what_the_viewer_may_not_see(
        seed: int, players: int, shuffles: int) -> None:
    check_every_view(MODULES, seed, players, shuffles)
