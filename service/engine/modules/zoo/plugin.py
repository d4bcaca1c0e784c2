"""The Alhambra Zoo as a Module: its parts (actions, play, scoring, census) assembled and
registered; `modules.register_all` imports this file."""

from __future__ import annotations

from ...module import Module, register
from ...text import t
from .actions import ACTIONS, AnimalsArrived, AnimalsDiscarded, AnimalsMoved
from .census import VIEW, consistency, expected, located, unseen
from .data import DATA, MOVE_STEP
from .play import ARRIVE_REFILL, ARRIVE_SETUP, arrive, discard_at_dirk, move_step, pending, setup
from .scoring import TALLY, ZooLine, check_position, score

MODULE = register(Module(
    id="zoo",
    name=t("Alhambra Zoo"),
    rule_ids=("zoo.setup", "zoo.arrive", "zoo.buy", "zoo.move", "zoo.score", "zoo.dirk"),
    actions=ACTIONS,
    setup=((ARRIVE_SETUP, setup),),
    end_of_turn=((MOVE_STEP, move_step), (ARRIVE_REFILL, arrive)),
    after_action=discard_at_dirk,
    pending=pending,
    scoring=score,
    components=located,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    tally=TALLY,
    events=(AnimalsArrived, AnimalsMoved, AnimalsDiscarded),
    lines=(ZooLine,),
    tokens=("animals",),
    view=VIEW,
    unseen=unseen,
    default_data=DATA,
))
