"""Each module's part of the per-player views (RULES.md §8, issue 6): what a player sees, what
stays hidden from the others and from spectators, and that changing only the hidden part leaves
every view byte-identical."""

from __future__ import annotations

import random

import msgspec
import pytest

from service.engine import GameState, new_game
from service.engine.modules.vendors.actions import ChooseInhabitants
from service.engine.view import view
from tests.support.helpers import NAMES, allowed
from tests.support.hidden import (
    assert_holds_no_secret,
    assert_views_unchanged,
    face_down_piles,
    other_choices,
    other_craftsmen,
    other_money,
    other_tiles,
)
from tests.support.play import play_until


def names(state: GameState) -> list[str | None]:
    return [None, *(p.name for p in state.players)]


def seat_of(state: GameState, name: str | None) -> int | None:
    return None if name is None else state.seat_of(name)


def unchanged_for_all(state: GameState) -> None:
    rnd = random.Random(5)
    for seat in (None, *range(len(state.players))):
        assert_views_unchanged(state, seat, rnd)
        assert_holds_no_secret(state, seat)


# --- face-down supplies: counts only ---------------------------------------------------------

@pytest.mark.rule("zoo.setup")
def test_zoo_the_supply_and_the_animals_put_back_show_as_counts() -> None:
    """zoo.setup, seeds 000.29, 000.30: "Shuffle the 24 animal tiles face down" and "Two random
    tiles are placed back in the box unseen": no view shows which."""
    state = play_until(("zoo",), 3, seed=3, wanted=lambda s: s.zoo.discarded or len(s.zoo.supply) < 18)
    seen = view(state, "Ana").zoo
    assert seen is not None and seen.supply_size == len(state.zoo.supply) and seen.removed_size == 2
    assert seen.discarded == state.zoo.discarded
    assert not {"supply", "removed"} & set(msgspec.json.decode(msgspec.json.encode(seen)))
    assert face_down_piles(state, None, random.Random(1)).zoo != state.zoo
    unchanged_for_all(state)


@pytest.mark.rule("staff.setup")
def test_staff_the_servant_pile_shows_as_its_size_the_display_as_it_is() -> None:
    state = new_game(NAMES[:3], ["staff"], seed=2).state
    seen = view(state, None).staff
    assert seen is not None and seen.pile_size == len(state.staff.pile) == 48
    assert seen.display == state.staff.display and seen.marshals == state.staff.marshals
    assert face_down_piles(state, None, random.Random(1)).staff != state.staff
    unchanged_for_all(state)


@pytest.mark.rule("treasure.setup")
def test_treasure_the_bag_shows_as_its_size_the_rooms_as_they_are() -> None:
    state = new_game(NAMES[:3], ["treasure"], seed=2).state
    seen = view(state, "Ben").treasure
    assert seen is not None and seen.bag_size == len(state.treasure.bag) == 30
    assert seen.rooms == state.treasure.rooms
    assert face_down_piles(state, None, random.Random(1)).treasure != state.treasure
    unchanged_for_all(state)


# --- secrets of one player -------------------------------------------------------------------

@pytest.mark.rule("power.architecture")
def test_power_a_hidden_tile_shows_only_in_its_owners_view() -> None:
    state = play_until(("power",), 3, seed=2, wanted=lambda s: s.power.hidden)
    hidden = state.power.hidden[0]
    for name in names(state):
        seen = view(state, name).power
        assert seen is not None
        mine = seen.hidden[0]
        assert (mine.above, mine.currency, mine.owner) == (hidden.above, hidden.currency, hidden.owner)
        assert mine.tile == (hidden.tile if name == hidden.owner else None), name
    other = next(i for i, p in enumerate(state.players) if p.name != hidden.owner)
    assert other_tiles(state, other, random.Random(1)).power.hidden != state.power.hidden
    unchanged_for_all(state)


@pytest.mark.rule("power.architecture")
def test_power_the_tiles_an_architecture_power_drew_show_only_to_its_user() -> None:
    state = play_until(("power",), 3, seed=2, wanted=lambda s: s.power.drawn and s.power.using
                       and "architecture" in s.power.using)
    user = state.active.name
    for name in names(state):
        seen = view(state, name).power
        assert seen is not None and seen.drawn_size == len(state.power.drawn)
        assert seen.drawn == (state.power.drawn if name == user else None), name
    other = (state.turn.player + 1) % len(state.players)
    assert other_tiles(state, other, random.Random(1)).power.drawn != state.power.drawn
    unchanged_for_all(state)


@pytest.mark.rule("power.wisdom")
def test_power_the_cards_a_wisdom_power_drew_show_only_to_its_user() -> None:
    state = play_until(("power",), 3, seed=1, wanted=lambda s: s.power.drawn and s.power.using
                       and "wisdom" in s.power.using and len(s.power.drawn) > 1)
    user = state.active.name
    for name in names(state):
        seen = view(state, name).power
        assert seen is not None and seen.drawn_size == len(state.power.drawn)
        assert seen.drawn == (state.power.drawn if name == user else None), name
    other = (state.turn.player + 1) % len(state.players)
    assert other_money(state, other, random.Random(1)).power.drawn != state.power.drawn
    unchanged_for_all(state)


@pytest.mark.rule("craftsmen.pass")
def test_craftsmen_a_face_down_card_shows_only_to_its_holder() -> None:
    # With 3 players 2 unmarked cards are out of the game, so the face-down one could be either.
    state = play_until(("craftsmen",), 3, seed=1, wanted=lambda s: any(s.craftsmen.face_down))
    cs = state.craftsmen
    holder = next(i for i, c in enumerate(cs.face_down) if c is not None)
    for name in names(state):
        seen = view(state, name).craftsmen
        assert seen is not None and seen.face_up == cs.face_up
        assert seen.face_down == tuple(i == holder for i in range(len(state.players)))
        assert seen.own_face_down == (cs.face_down[holder] if seat_of(state, name) == holder else None)
        assert seen.out_size == len(cs.out)
    other = (holder + 1) % len(state.players)
    assert other_craftsmen(state, other, random.Random(1)).craftsmen.face_down != cs.face_down
    unchanged_for_all(state)


@pytest.mark.rule("vendors.setup")
def test_vendors_a_choice_made_before_everyone_chose_shows_only_to_its_maker() -> None:
    state = new_game(NAMES[:3], ["vendors"], seed=1).state
    state = allowed(state, ChooseInhabitants(player="Ana", inhabitants=("garden", "tower", "pavilion"),
                                             x=0, y=-1))
    assert other_choices(state, 1, random.Random(1)).vendors != state.vendors
    assert other_choices(state, 0, random.Random(1)) == state  # her own choice she sees
    unchanged_for_all(state)


# --- public modules: the part as it is -------------------------------------------------------

@pytest.mark.parametrize("module", ["grounds", "extensions", "walls", "thieves", "change"])
def test_a_module_without_hidden_parts_shows_its_state_as_it_is(module: str) -> None:
    state = play_until((module,), 3, seed=2, wanted=lambda s: len(s.players[0].alhambra) > 2)
    for name in names(state):
        assert getattr(view(state, name), module) == getattr(state, module)
    unchanged_for_all(state)
