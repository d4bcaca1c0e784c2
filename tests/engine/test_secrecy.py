"""The public part of a state (engine.secrecy.conceal), which sealed states show to whoever
holds them: RULES.md §8, "whatever a seat receives is derived from what that seat may see".

The property replaces a hand-kept list of hidden fields (which agreed with the code, not with
the rules, and so missed the vendors' supply, issue 12 item 10): two states that differ only in
what no player may see, or in what only one seat may see (hands, face-down cards, secret
choices, piles and bags, the generator), give byte-identical public parts, in random games of
every module alone and all together. The perturbations are those the view tests use
(tests/support/hidden.py), each keeping the state consistent.
"""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine import check_consistency, new_game
from service.engine.module import registered
from service.engine.secrecy import conceal
from service.engine.state import GameState
from service.seal import Sealing, new_key, parse_keys
from tests.support.hidden import PERTURBATIONS, all_of, secrets, strings_of
from tests.support.play import NAMES, after_steps, play_until

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
# Every module alone, all of them together, and the base game alone.
CONFIGS = [*((m,) for m in MODULES), MODULES, ()]
SEALING = Sealing(parse_keys(new_key("k1")))


def public(state: GameState) -> bytes:
    """The public part a sealed state shows: the sealed state without its seal."""
    sealed = SEALING.seal(state)
    return msgspec.json.encode(msgspec.structs.replace(sealed, seal=None))


def assert_public_part_unchanged(state: GameState, rnd: random.Random) -> None:
    """Every perturbation of what a spectator may not see, together, leaves the public part
    byte-identical; a failure names the perturbations that show through."""
    before = public(state)
    assert before == msgspec.json.encode(conceal(state))
    changed = all_of(state, None, rnd)
    assert check_consistency(changed) == [], check_consistency(changed)
    if public(changed) != before:
        culprits = [p.__name__ for p in PERTURBATIONS if public(p(state, None, rnd)) != before]
        raise AssertionError(f"the public part changes with {culprits or 'their combination'}")


def assert_holds_no_secret(state: GameState) -> None:
    """No id that a spectator may not see, and not the generator's state."""
    shown = public(state)
    leaked = sorted(secrets(state, None) & set(strings_of(msgspec.json.decode(shown))))
    assert not leaked, f"the public part shows {leaked}"
    assert state.rng.encode() not in shown


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "+".join(c) or "base")
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32),
       steps=st.one_of(st.integers(0, 6), st.integers(0, 150)))  # the setup's choices, and later
def test_the_public_part_shows_nothing_hidden_in_random_games(config: tuple[str, ...], players: int,
                                                              seed: int, steps: int) -> None:
    """RULES.md §8 for every module: the public part is the same whatever the hidden parts
    hold, and names none of them."""
    state = after_steps(config, players, seed, steps)
    assert_public_part_unchanged(state, random.Random(seed))
    assert_holds_no_secret(state)


def test_every_module_and_all_together_are_covered() -> None:
    """The property above runs every module alone, all eleven together and the base game."""
    assert set(MODULES) == {m for c in CONFIGS for m in c} and len(MODULES) == 11
    assert MODULES in CONFIGS and () in CONFIGS


def test_vendors_setup_refuses_to_show_a_choice_in_the_supply_of_the_public_part() -> None:
    """vendors.setup (RULES.md §V, §8; issue 12 item 10): each player chooses three inhabitants
    in secret. After Ana's choice the supply gains the three colours she did not choose, so a
    public part showing the supply would tell Ben her choice before he makes his. Two choices of
    Ana's give the same public part."""
    state = play_until(("vendors",), 3, seed=5,
                       wanted=lambda s: s.vendors is not None
                       and [d.chosen for d in s.vendors.discs] == [True, False, False])
    assert_public_part_unchanged(state, random.Random(1))


def test_the_property_can_fail_on_a_public_field() -> None:
    """The check is not vacuous: a perturbation of something everybody sees (the display) is
    caught."""
    state = new_game(NAMES[:3], seed=2).state
    moved = msgspec.structs.replace(state, display=state.display[::-1])
    assert public(moved) != public(state)
