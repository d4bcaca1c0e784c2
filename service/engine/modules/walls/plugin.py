"""The Walls, assembled: the Module registered from its parts."""

from __future__ import annotations

from ...module import Module, register
from ...text import t
from .actions import ACTIONS, WallCardSetAside, WallsAdded
from .census import VIEW, census, consistency, expected, located, places
from .data import DATA
from .play import SETUP_STEP, pile_cards, setup, take_drawn
from .scoring import TALLY, check_position

MODULE = register(Module(
    id="walls",
    name=t("The Walls"),
    rule_ids=("walls.setup", "walls.reveal", "walls.action", "walls.no-overlap", "walls.fixed"),
    actions=ACTIONS,
    setup=((SETUP_STEP, setup),),
    pile_cards=pile_cards,
    take_drawn=take_drawn,
    components=located,
    places=places,
    census=census,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    tally=TALLY,
    events=(WallCardSetAside, WallsAdded),
    tokens=("added_walls",),
    play_tokens={"added_walls": "walls.action"},  # never on a leftover tile (base.end.leftovers)
    view=VIEW,
    default_data=DATA,
))
