"""Dirk's components (RULES.md §9): the money cards a two-player game leaves in the box, and
the counts of tiles he takes (the base catalogue's; Dirk has no data file of his own)."""

from __future__ import annotations

from ...catalogue import CATALOGUE

# dirk.setup: with two players one of the three copies of every money card stays in the box.
IN_THE_BOX = tuple(c.id for c in CATALOGUE.money.values()
                   if c.copy in CATALOGUE.dirk_money_copies_in_the_box)


DATA = {"money_copies_in_the_box": list(CATALOGUE.dirk_money_copies_in_the_box),
        "tiles_at_setup": CATALOGUE.dirk_tiles_at_setup,
        "tiles_after_round_1": CATALOGUE.dirk_tiles_after_round_1,
        "bag_share_after_round_2": CATALOGUE.dirk_bag_share_after_round_2}
