"""The zoo's constants, read from `data/zoo.json`: the animals' kinds and counts (zoo.setup), the
animals a garden takes on the market (zoo.arrive), and what a garden is."""

from __future__ import annotations

from ...catalogue import CATALOGUE, load_data

DATA = load_data("zoo")
KINDS: tuple[str, ...] = tuple(DATA["kinds"])
PER_KIND: int = DATA["per_kind"]
IN_PLAY = len(KINDS) * PER_KIND - DATA["removed_unseen_at_setup"]  # zoo.setup: 2 put back unseen
MOVE_STEP = 20  # RULES.md §H: animals move after placement (10s), before the refills (30)


def is_garden(tile: str) -> bool:
    found = CATALOGUE.tiles.get(tile)
    return found is not None and found.type == "garden"
