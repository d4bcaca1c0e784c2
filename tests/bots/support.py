"""What the bots' tests share: the module configurations, states of random games, and a
perturbation of what the hidden-part perturbations of tests/support/hidden.py leave alone:
where the deck's scoring cards (and walls' cards) lie."""

from __future__ import annotations

import random

from msgspec.structs import replace

from service.engine import GameState
from service.engine.catalogue import CATALOGUE
from service.engine.module import registered
from tests.support.hidden import all_of

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
# Every module alone, all eleven together, and the base game alone.
CONFIGS = [*((m,) for m in MODULES), MODULES, ()]


def ids(config: tuple[str, ...]) -> str:
    return "+".join(config) or "base"


def deck_cards_moved(state: GameState, seat: int | None, rnd: random.Random) -> GameState:
    """The deck's cards that are no money (scoring cards, walls' cards) at other places of the
    deck, scoring cards kept in their order: where they lie is hidden (base.setup.scoring-cards:
    each is shuffled into its pile), so a seat cannot tell the two states apart."""
    deck = list(state.deck)
    others = [c for c in deck if c not in CATALOGUE.money]
    if not others:
        return state
    money = [c for c in deck if c in CATALOGUE.money]
    places = sorted(rnd.sample(range(len(deck)), len(others)))
    scoring = iter(sorted(c for c in others if c in CATALOGUE.scoring_cards))
    rest = [c for c in others if c not in CATALOGUE.scoring_cards]
    rnd.shuffle(rest)
    rest_iter = iter(rest)
    out, cash = [], iter(money)
    for i in range(len(deck)):
        if i in places:
            card = next(scoring, None)
            out.append(card if card is not None else next(rest_iter))
        else:
            out.append(next(cash))
    return replace(state, deck=tuple(out))


def unseen_changed(state: GameState, seat: int, rnd: random.Random) -> GameState:
    """Every perturbation of what `seat` may not see, together (tests/support/hidden.py, and
    where the deck's other cards lie)."""
    return deck_cards_moved(all_of(state, seat, rnd), seat, rnd)
