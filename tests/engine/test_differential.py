"""The engine plays seeded games exactly as it did before it was made faster (issue 28 item 4).

`tests/engine/data/differential.json` holds, for seeded random games of the base game, of each
module alone and of all eleven together, 2 to 6 players, a digest of every step's state bytes,
`legal_actions(state, 50)`, `to_act`, the action picked (one of those listed, by a
`random.Random` of the game's seed: not `random_action`, whose draws may change for speed), the
events and scoring of applying it and what `validate` says of the actions legal one step before
(rule ids: the messages' wording is not behaviour, issue 29 rewords them). It was written by the
engine of 7530110, before the speed work, with `bench/engine_differential.py --tree
OLD_TREE --write tests/engine/data/differential.json`; this test replays one game of each
configuration (the bench replays all of them, or compares two trees directly with
`--compare`). A change of behaviour that is meant rewrites the file the same way, saying why
in its commit.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((Path(__file__).parent / "data" / "differential.json").read_text())


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("engine_differential",
                                                  ROOT / "bench" / "engine_differential.py")
    assert spec is not None and spec.loader is not None
    found = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(found)
    return found


BENCH = _bench()
# One game of each configuration, the player counts taking turns.
CHOSEN = [(modules, 2 + i % 5, 1 + i % GOLDEN["seeds"]) for i, modules in enumerate(BENCH.configs())]


@pytest.mark.parametrize(("modules", "players", "seed"), CHOSEN,
                         ids=[BENCH.game_key(*c) for c in CHOSEN])
def test_engine_plays_seeded_games_as_before(modules: tuple[str, ...], players: int, seed: int) -> None:
    parts = BENCH.game_parts(modules, players, seed, GOLDEN["steps"])
    assert BENCH.digest(parts) == GOLDEN["games"][BENCH.game_key(modules, players, seed)]
