"""The public part of a state (engine.secrecy.conceal), which sealed states show: every hidden
field of RULES.md §8 and of each module emptied, in random games of every module."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine.rules import registered
from service.engine.secrecy import _plan, conceal
from service.engine.state import GameState

from .play import after_steps

# What RULES.md §8 and the modules' state docstrings call hidden, as (struct, field).
HIDDEN = {
    ("GameState", "deck"), ("GameState", "bag"), ("GameState", "rng"), ("Player", "hand"),
    ("ZooState", "supply"), ("ZooState", "removed"), ("PowerState", "drawn"), ("PowerState", "hidden"),
    ("PowerState", "choices"), ("StaffState", "pile"), ("CraftsmenState", "face_down"),
    ("CraftsmenState", "out"), ("TreasureState", "bag"), ("Disc", "inhabitants"), ("Disc", "x"),
    ("Disc", "y"),
}
MODULES = [m.id for m in registered() if m.id not in ("base", "dirk")]


def _marked(struct: type, seen: set[type]) -> set[tuple[str, str]]:
    if struct in seen:
        return set()
    seen.add(struct)
    found = set()
    for name, hidden, _ in _plan(struct):
        if hidden:
            found.add((struct.__name__, name))
    import msgspec.inspect as mi

    from service.engine.secrecy import _structs_in

    for field in mi.type_info(struct).fields:  # type: ignore[union-attr]
        for inner in _structs_in(field.type):
            found |= _marked(inner, seen)
    return found


def test_exactly_the_hidden_fields_are_marked() -> None:
    assert _marked(GameState, set()) == HIDDEN


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(modules=st.lists(st.sampled_from(MODULES), unique=True, max_size=4),
       players=st.integers(2, 5), seed=st.integers(0, 2**32), steps=st.integers(0, 60))
def test_the_public_part_holds_no_hidden_content(modules: list[str], players: int, seed: int,
                                                 steps: int) -> None:
    state = after_steps(modules, players, seed, steps)
    public = conceal(state)
    assert public.deck == public.bag == () and public.rng == "0000000000000000"
    assert all(p.hand == () for p in public.players)
    for module in ("zoo", "staff", "treasure"):
        part = getattr(public, module)
        if part is not None:
            assert all(getattr(part, f, ()) == () for f in ("supply", "removed", "pile", "bag"))
    # Everything else is as it was: concealing twice changes nothing, and the public fields agree.
    assert conceal(public) == public
    for field in ("market", "display", "discard", "turn", "phase", "walls", "change", "thieves"):
        assert getattr(public, field) == getattr(state, field)
    assert [p.alhambra for p in public.players] == [p.alhambra for p in state.players]
    assert state.rng.encode() not in msgspec.json.encode(public) or state.rng == "0000000000000000"
