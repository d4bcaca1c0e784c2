"""state.has_tokens: a tile carries a token when any field but its id (and, placed, its position
and rotation) differs from a plain tile's; place_tile and lift_tile carry the tokens with the
tile (RULES.md's modules put tokens on tiles: chests, animals, servants, dice, ...)."""

from __future__ import annotations

import pytest

from service.engine.state import TOKENS, PlacedTile, Tile, has_tokens, lift_tile, place_tile

SOME = {"added_walls": "N", "animals": ("camel",), "chest": True, "servant": True, "inhabitant": True,
        "extension": True, "die": 3, "construction": "garden", "leftover": True}


def test_every_token_field_is_tried() -> None:
    assert set(SOME) == set(TOKENS)


@pytest.mark.parametrize("field", sorted(SOME))
def test_a_token_on_a_tile_is_seen_off_and_on_the_grid(field: str) -> None:
    for tile_id in ("garden-1", "a-tile-no-catalogue-knows"):
        plain = Tile(tile=tile_id)
        marked = Tile(tile=tile_id, **{field: SOME[field]})
        assert not has_tokens(plain) and has_tokens(marked)
        assert not has_tokens(place_tile(plain, 1, 0)) and has_tokens(place_tile(marked, 1, 0))
        assert lift_tile(place_tile(marked, 1, 0)) == marked
        assert not has_tokens(PlacedTile(tile=tile_id, x=2, y=-1, rotation=90))


def test_many_unknown_ids_do_not_grow_the_memo_past_its_bound() -> None:
    from service.engine import state

    for i in range(3000):
        assert not has_tokens(Tile(tile=f"made-up-{i}"))
    assert len(state._PLAIN) <= 1024
