"""An action's type is a plain attribute (issue 26): `action.type` is its tag on the wire, for
every action of every module, as a client reading a listing or a view expects."""

from __future__ import annotations

import msgspec
import pytest

from service.engine.module import all_action_types
from tests.support.play import play_random_game

MODULES = ("craftsmen", "zoo", "power", "grounds", "extensions", "staff", "walls", "thieves",
           "change", "vendors", "treasure")


@pytest.mark.parametrize("seed", [1, 2])
def test_every_action_played_names_its_type_as_the_wire_does(seed: int) -> None:
    game = play_random_game(seed, 3 + seed, MODULES, check_every=50)
    seen = set()
    for action in game.actions:
        assert action.type == msgspec.json.decode(msgspec.json.encode(action))["type"]
        seen.add(action.type)
    assert len(seen) >= 8, seen


def test_the_type_is_no_field_and_every_action_type_has_one() -> None:
    for action_type in all_action_types():
        assert "type" not in action_type.__struct_fields__
        assert isinstance(action_type.__struct_config__.tag, str), action_type
