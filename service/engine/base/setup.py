"""Setup of the base game (RULES.md §2), in steps so that modules can slot theirs between."""

from __future__ import annotations

from msgspec.structs import replace

from ..catalogue import CATALOGUE, base_tiles
from ..events import GameCreated
from ..flow import with_player
from ..module import Context, modules_of
from ..state import GameState, Turn
from .turn import draw_money, refill_market

BASE_TILES = base_tiles(CATALOGUE)

# Positions of the setup steps; modules place theirs relative to these.
PREPARE, DEAL, MARKET, PILES = 10, 50, 52, 60


def prepare(state: GameState, ctx: Context) -> GameState:
    """The bag and the money deck are shuffled (scoring cards wait for the piles)."""
    return replace(state, bag=ctx.rng.shuffled(BASE_TILES),
                   deck=ctx.rng.shuffled(tuple(CATALOGUE.money)))


def deal_starting_money(state: GameState, ctx: Context) -> GameState:
    """base.setup.starting-money and base.setup.first-player."""
    for seat in range(len(state.players)):
        hand: list[str] = []
        while sum(CATALOGUE.money[c].value for c in hand) < CATALOGUE.starting_money_at_least:
            state, card = draw_money(state, ctx)
            assert card is not None  # 108 cards always cover six starting hands
            hand.append(card)
        state = with_player(state, seat, hand=tuple(hand))

    def order(seat: int) -> tuple[int, int, int]:
        hand = state.players[seat].hand
        return len(hand), sum(CATALOGUE.money[c].value for c in hand), seat

    first = min(range(len(state.players)), key=order)
    ctx.events.append(GameCreated(players=tuple(p.name for p in state.players),
                                  first_player=state.players[first].name))
    return replace(state, turn=Turn.start(first))


def lay_display_and_market(state: GameState, ctx: Context) -> GameState:
    """base.setup.display: 4 money cards face up, 4 tiles onto the market."""
    cards = state.deck[:CATALOGUE.display_size]
    state = replace(state, display=cards, deck=state.deck[len(cards):])
    return refill_market(state, ctx)


def form_piles(state: GameState, ctx: Context) -> GameState:
    """base.setup.scoring-cards: 5 piles as equal as possible (the first ones larger), each
    scoring card (and each card a module adds to a pile) shuffled into its pile, the 1st pile
    on top."""
    n = CATALOGUE.money_piles
    size, extra = divmod(len(state.deck), n)
    piles: list[list[str]] = []
    start = 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        piles.append(list(state.deck[start:end]))
        start = end
    added: set[int] = set()
    for card, number in CATALOGUE.scoring_cards.items():
        piles[number - 1].append(card)
        added.add(number - 1)
    # Cards of modules (walls.setup), after the piles are formed (RULES.md §H).
    for m in modules_of(state):
        if m.pile_cards is not None:
            for number, card in m.pile_cards(state, ctx):
                piles[number - 1].append(card)
                added.add(number - 1)
    for i, cards in enumerate(piles):
        if i in added:
            piles[i] = list(ctx.rng.shuffled(cards))
    return replace(state, deck=tuple(c for pile in piles for c in pile))


SETUP_STEPS = ((PREPARE, prepare), (DEAL, deal_starting_money), (MARKET, lay_display_and_market),
               (PILES, form_piles))
