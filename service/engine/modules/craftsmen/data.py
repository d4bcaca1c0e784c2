"""The Travelling Craftsmen's constants (data/craftsmen.json): each card's kind and mark, the
end-of-turn positions of the pass and the flip, and the craftsmen part of a state that its
actions, play and census read."""

from __future__ import annotations

from ...catalogue import load_data
from ...state import GameState
from .model import CraftsmenState

DATA = load_data("craftsmen")
KIND: dict[str, str] = {c["id"]: c["kind"] for c in DATA["cards"]}
MARK: dict[str, str] = {c["id"]: c["mark"] for c in DATA["cards"]}
PASS, FLIP = 70, 71  # RULES.md §H step 7, then right after the pass (craftsmen.flip)


def craftsmen_of(state: GameState) -> CraftsmenState:
    assert state.craftsmen is not None
    return state.craftsmen
