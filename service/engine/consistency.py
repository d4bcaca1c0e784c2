"""Refuse states that cannot occur in a game: every component exactly once, nothing off the
catalogue, every Alhambra obeying §4, and each module's own checks."""

from __future__ import annotations

from collections import Counter

from .rules import modules_of
from .state import GameState
from .violations import Violation

INCONSISTENT = "inconsistent-state"
_KNOWN_LIMIT = 12  # list at most this many places per problem, so messages stay readable


def check_consistency(state: GameState) -> list[Violation]:
    """The violations that make `state` impossible (empty when it could occur in play)."""
    from .rules import registered

    known = {m.id for m in registered()}
    bad = [m for m in state.modules if m not in known or m in ("base", "dirk")]
    if bad:
        return [Violation(INCONSISTENT, f"unknown modules {bad}; supported: "
                                        f"{sorted(known - {'base', 'dirk'})}")]
    if len(set(state.modules)) != len(state.modules):
        return [Violation(INCONSISTENT, f"a module is named twice in {list(state.modules)}")]
    modules = modules_of(state)
    out: list[Violation] = []
    for m in modules:
        if m.consistency is not None:
            out += m.consistency(state)
    expected: Counter[str] = Counter()
    places: dict[str, list[str]] = {}
    for m in modules:
        if m.expected is not None:
            expected.update(m.expected(state))
        if m.components is not None:
            for component, where in m.components(state):
                places.setdefault(component, []).append(where)
    for component, found_in in places.items():
        want = expected.get(component, 0)
        if want == 0:
            out.append(Violation(INCONSISTENT, f"{component!r} is not a component of this game "
                                               f"(found in {found_in[0]})"))
        elif len(found_in) > want:
            listed = "; ".join(found_in[:_KNOWN_LIMIT])
            out.append(Violation(INCONSISTENT, f"{component} appears {len(found_in)} times, "
                                               f"expected {want}: {listed}"))
    missing = sorted(c for c, n in expected.items() if len(places.get(c, ())) < n)
    if missing:
        shown = ", ".join(missing[:_KNOWN_LIMIT]) + (" ..." if len(missing) > _KNOWN_LIMIT else "")
        out.append(Violation(INCONSISTENT, f"{len(missing)} components are missing: {shown}"))
    return out
