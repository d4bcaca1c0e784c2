"""The base game of Alhambra, registered as a module like every expansion (RULES.md §1-§8)."""

from __future__ import annotations

from .. import events as ev
from ..flow import NEXT_TURN
from ..module import Module, register
from ..scoring import MajorityLine, WallLine
from ..text import t
from . import buy, components, money, placement, redesign, turn
from .setup import SETUP_STEPS
from .turn import REFILL, SCORING

BASE = register(Module(
    id="base",
    name=t("Alhambra (base game)"),
    rule_ids=(
        "base.setup.players", "base.setup.starting-money", "base.setup.first-player",
        "base.setup.display", "base.setup.scoring-cards", "base.money.take", "base.buy.currency",
        "base.buy.amount", "base.buy.exact-bonus", "base.buy.hold", "base.redesign",
        "base.turn.order", "base.turn.one-action", "base.turn.placement", "base.turn.refill",
        "base.turn.deck-empty", "base.turn.scoring-card", "base.place.orientation",
        "base.place.empty", "base.place.adjacent", "base.place.sides-match",
        "base.place.reachable", "base.place.no-hole", "base.place.fountain-fixed",
        "base.remove.valid-after", "base.swap.same-space", "base.end.trigger",
        "base.end.leftovers", "base.end.final-scoring", "base.score.majority",
        "base.score.ties", "base.score.wall", "base.score.rounds",
    ),
    actions=(money.RULE_TAKE, buy.RULE_BUY, redesign.RULE_PLACE, redesign.RULE_REMOVE,
             redesign.RULE_SWAP, placement.RULE_PLACE, placement.RULE_RESERVE,
             placement.RULE_END_TURN),
    setup=SETUP_STEPS,
    end_of_turn=((REFILL, turn.refill_step), (SCORING, turn.scoring_step),
                 (NEXT_TURN, turn.next_turn_step)),
    components=components.located,
    census=components.census,
    expected=components.expected,
    places=components.places,
    consistency=components.check,
    unseen=components.unseen,
    events=(ev.GameCreated, ev.MoneyTaken, ev.BuildingBought, ev.BuildingPlaced,
            ev.BuildingReserved, ev.BuildingRemoved, ev.TurnEnded, ev.TurnStarted,
            ev.DisplayRefilled, ev.DeckReshuffled, ev.ScoringCardDrawn, ev.MarketRefilled,
            ev.ScoringRoundHeld, ev.LeftoverAwarded, ev.LeftoverRemoved, ev.GameEnded),
    tokens=("leftover",),
    lines=(MajorityLine, WallLine),
    default_data={"catalogue": "service/engine/data/base.json"},
))
