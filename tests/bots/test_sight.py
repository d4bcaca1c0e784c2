"""A state as a seat may know it (service/engine/sight.py), which every bot starts from.

RULES.md §8: a seat sees its own hand, what lies face up, and how many cards and tiles lie face
down; it does not see the deck's order, the bag's, the others' hands, face-down craftsmen and
servants, what another player's power drew or hid, or the others' secret vendor choices.
`as_seen(state, seat)` must be a function of what the seat sees alone: two states that differ
only in what it may not see give the same bytes, and it shows the seat exactly the view of the
real state, in a state that can occur. `sampled` deals the same places at random, and every
world it deals is one the seat cannot tell from the real one.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service import i18n
from service.engine import Generator, check_consistency, iter_legal_actions
from service.engine.module import registered
from service.engine.sight import as_seen, sampled, unseen_places
from service.engine.state import GameState
from service.engine.view import view
from tests.support.play import after_steps

from .support import CONFIGS, MODULES, deck_cards_moved, ids, unseen_changed

encode = i18n.encode  # a view's who-must-act words are Texts: as the referee answers them


def seen_view(state: GameState, seat: int) -> bytes:
    return encode(view(state, state.players[seat].name))


def check_seat(state: GameState, seat: int, rnd: random.Random) -> None:
    seen = as_seen(state, seat)
    assert check_consistency(seen) == [], check_consistency(seen)
    assert seen_view(seen, seat) == seen_view(state, seat), "the seat's view changed"
    changed = unseen_changed(state, seat, rnd)
    assert seen_view(changed, seat) == seen_view(state, seat)  # the perturbation is unseen
    assert encode(as_seen(changed, seat)) == encode(seen), "what the seat may not see shows through"
    name = state.players[seat].name
    assert list(iter_legal_actions(seen, name)) == list(iter_legal_actions(state, name))
    world = sampled(seen, seat, Generator(rnd.getrandbits(64)))
    assert check_consistency(world) == [], check_consistency(world)
    assert seen_view(world, seat) == seen_view(state, seat)
    # strong.py plays the options listed for the seat's view in such worlds, unvalidated
    # (engine.advance): they must be the world's legal actions too
    assert list(iter_legal_actions(world, name)) == list(iter_legal_actions(state, name))


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32),
       steps=st.one_of(st.integers(0, 6), st.integers(0, 200)))
def test_a_state_as_seen_depends_on_what_the_seat_sees_alone(config: tuple[str, ...], players: int,
                                                             seed: int, steps: int) -> None:
    state = after_steps(config, players, seed, steps)
    rnd = random.Random(seed)
    for seat in range(players):
        check_seat(state, seat, rnd)


def test_every_hidden_field_is_dealt_by_some_module() -> None:
    """Each module that marks a part of its state hidden (records.HIDDEN) says where it lies
    (its `unseen` hook), and the base game deals the hands, the deck, the bag and the generator."""
    from service.engine.secrecy import _plan
    from service.engine.state import GameState as State

    hiding = {name for name, _, _ in _plan(State)}  # the fields that are or hold hidden parts
    with_hook = {m.id for m in registered() if m.unseen is not None}
    module_parts = hiding & set(MODULES)
    assert module_parts <= with_hook, f"hidden parts but no unseen hook: {module_parts - with_hook}"
    assert "base" in with_hook


def test_the_deck_keeps_its_scoring_cards_in_order_in_every_world() -> None:
    """base.setup.scoring-cards: scoring card 1 lies in an earlier pile than scoring card 2; a
    world dealt at random keeps them so, wherever it puts them."""
    state = after_steps((), 4, seed=3, steps=10)
    for k in range(20):
        world = sampled(as_seen(state, 0), 0, Generator(k))
        order = [c for c in world.deck if c.startswith("scoring-")]
        assert order == sorted(order) and len(order) == 2


def test_the_property_can_fail() -> None:
    """Not vacuous: a state whose seen form kept the others' hands would fail the check, and
    moving the deck's scoring cards does change the real state."""
    state = after_steps((), 3, seed=7, steps=30)
    assert unseen_places(state, 0)
    moved = deck_cards_moved(state, 0, random.Random(1))
    assert moved.deck != state.deck and encode(as_seen(moved, 0)) == encode(as_seen(state, 0))
    other_hand = msgspec.structs.replace(as_seen(state, 0), players=state.players)
    assert encode(other_hand) != encode(as_seen(state, 0))


def test_a_spectator_is_dealt_every_hand() -> None:
    """A spectator sees no hand: every hand is dealt anew, so changing them all changes nothing."""
    from tests.support.hidden import all_of

    state = after_steps(("power",), 3, seed=11, steps=40)
    seen = as_seen(state, None)
    assert check_consistency(seen) == []
    assert encode(view(seen, None)) == encode(view(state, None))
    changed = all_of(state, None, random.Random(2))
    assert [p.hand for p in changed.players] != [p.hand for p in state.players]
    assert encode(as_seen(changed, None)) == encode(seen)
