"""States and positions naming components that do not exist are refused, never crash."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from service.engine import InconsistentState, check_consistency, new_game, score
from service.engine.scoring import Position, PositionPlayer
from service.engine.state import PlacedTile, Tile


@pytest.mark.parametrize("where", ["alhambra", "reserve", "held", "bag", "hand", "market"])
def test_an_unknown_id_anywhere_is_refused_by_the_consistency_check(where: str) -> None:
    state = new_game(["Ana", "Ben", "Cyd"], ["zoo", "staff"], seed=4).state
    ana = state.players[0]
    if where == "alhambra":
        ana = replace(ana, alhambra=(*ana.alhambra, PlacedTile(tile="castle-99-N", x=1, y=0)))
    elif where in ("reserve", "held"):
        ana = replace(ana, **{where: (Tile(tile="castle-99-N"),)})
    elif where == "hand":
        ana = replace(ana, hand=(*ana.hand, "gold-1-a"))
    state = replace(state, players=(ana, *state.players[1:]))
    if where == "bag":
        state = replace(state, bag=("castle-99-N", *state.bag))
    if where == "market":
        state = replace(state, market=(replace(state.market[0], tile="castle-99-N"), *state.market[1:]))
    problems = check_consistency(state)
    assert problems and all(v.rule == "inconsistent-state" for v in problems)
    assert any("castle-99-N" in v.message or "gold-1-a" in v.message for v in problems)


def test_an_unknown_tile_in_a_scoring_position_is_refused() -> None:
    position = Position(round=1, players=(PositionPlayer(name="Ana", alhambra=(
        PlacedTile(tile="fountain", x=0, y=0), PlacedTile(tile="castle-99-N", x=1, y=0))),))
    with pytest.raises(InconsistentState) as refused:
        score(position)
    assert "castle-99-N" in refused.value.violations[0].message
