"""base.end.leftovers over HTTP (RULES.md: "each tile still on the market goes to the player ...
Recipients place these tiles by the usual rules"): a state marking a tile leftover before the
game has ended cannot occur, so every endpoint refuses it alike, whatever the order of its keys,
and the referee never hands one out."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.engine import new_game


def with_leftover_in_reserve() -> tuple[dict[str, Any], str, str]:
    """A staff game at its start whose active player has a bag tile in the reserve, marked
    leftover (the reviewer's reproducer), with that player's name and the tile."""
    state = msgspec.json.decode(msgspec.json.encode(new_game(["Ana", "Ben", "Cy"], ["staff"], seed=9).state))
    seat = state["turn"]["player"]
    tile = next(t for t in state["bag"] if t.endswith("-open"))
    state["bag"].remove(tile)
    state["players"][seat]["reserve"].append({"tile": tile, "leftover": True})
    return state, state["players"][seat]["name"], tile


@pytest.mark.rule("base.end.leftovers")
def test_base_end_leftovers_refuses_a_reserve_tile_marked_leftover_during_play_on_every_endpoint(
        client: TestClient) -> None:
    """RULES.md base.end.leftovers: the tiles are handed out when the game ends; during play a
    reserve tile marked leftover is refused (422 citing base.end.leftovers and naming the tile),
    by legal-actions and by apply (which placed it into the Alhambra before), in any key order."""
    state, name, tile = with_leftover_in_reserve()
    place = {"type": "place-from-reserve", "tile": tile, "x": 1, "y": 0, "player": name}
    reordered = dict(reversed(list(state.items())))
    for path, body in (("/v1/legal-actions", {"state": state, "limit": 1}),
                       ("/v1/legal-actions", {"state": reordered, "limit": 1}),
                       ("/v1/apply", {"state": state, "action": place})):
        answer = client.post(path, json=body)
        assert answer.status_code == 422, (path, answer.text)
        violations = answer.json()["violations"]
        assert any(v["rule"] == "base.end.leftovers" and tile in v["message"] for v in violations), violations


@pytest.mark.rule("base.end.leftovers")
def test_base_end_leftovers_allows_the_same_reserve_tile_unmarked(client: TestClient) -> None:
    """The same state without the mark is a state of play: placing the tile is legal."""
    state, name, tile = with_leftover_in_reserve()
    for p in state["players"]:
        for t in p["reserve"]:
            t.pop("leftover", None)
    place = {"type": "place-from-reserve", "tile": tile, "x": 1, "y": 0, "player": name}
    answer = client.post("/v1/apply", json={"state": state, "action": place})
    assert answer.status_code == 200, answer.text
