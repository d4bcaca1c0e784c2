"""base.buy.*: buy the building on a market space with cards of that space's currency."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from msgspec.structs import replace

from ..actions import BuyBuilding
from ..catalogue import CATALOGUE
from ..events import BuildingBought
from ..flow import spend_action, with_player, without
from ..module import ActionRule, Context, payment_values, plan_of
from ..rng import Generator
from ..state import GameState, MarketSpace, emptied, market_tile
from ..text import t, word
from ..violations import Violation
from .money import duplicates


def market_space(state: GameState, tile: str) -> MarketSpace | None:
    for space in state.market:
        if space.tile == tile:
            return space
    return None


def check(state: GameState, action: BuyBuilding) -> list[Violation]:
    """base.buy.currency, base.buy.amount: a building on the market, paid with the buyer's own
    money cards, all of the space's currency, at least its price. Each stage is judged only
    once the one before stands (whose cards, then their currency, then their sum)."""
    space = market_space(state, action.tile)
    if space is None:
        on_market = [s.tile for s in state.market if s.tile]
        return [Violation("base.buy.currency", t("{tile} is not on the market (it holds {market})",
                                                 tile=action.tile, market=tuple(on_market)))]
    extra = extra_paid(state, action)
    values = payment_values(state, action)
    price = price_of(state, action)
    if not action.payment and not extra and not values and price > 0:
        # A price lowered to 0 (craftsmen.carpenter) is paid with nothing, exactly.
        return [Violation("base.buy.amount", t("no cards are paid for {tile}, which costs {price}",
                                               tile=action.tile, price=price))]
    return (_cards_not_payable(state, action, extra)
            or _wrong_currency(action, space, extra, values)
            or _too_little(action, extra, values, price))


def _cards_not_payable(state: GameState, action: BuyBuilding, extra: tuple[str, ...]) -> list[Violation]:
    """Cards that are not the buyer's to pay with: what is paid (base.buy.amount) does not stand,
    whatever their currency (base.buy.currency is about the currency of cards one holds)."""
    hand = state.players[state.turn.player].hand
    out = [Violation("base.buy.amount", t("{card} is paid twice", card=c))
           for c in duplicates(action.payment)]
    out += [Violation("base.buy.amount", t("{card} is not in {player}'s hand: only cards of the hand pay",
                                           card=c, player=action.player))
            for c in action.payment if c not in hand]
    out += [Violation("base.buy.currency", t("{card} is no money card", card=c))
            for c in extra if c not in CATALOGUE.money]
    return out


def _wrong_currency(action: BuyBuilding, space: MarketSpace, extra: tuple[str, ...],
                    values: tuple[tuple[str, int], ...]) -> list[Violation]:
    """base.buy.currency: every card, and any other money counted (payment_values), is of the
    currency of the building's market space."""
    out = [Violation("base.buy.currency",
                     t("{card} is not {currency}: {tile} stands on the {currency} space and is paid "
                       "only in {currency}", card=c, tile=action.tile, currency=word(space.currency)))
           for c in (*action.payment, *extra) if CATALOGUE.money[c].currency != space.currency]
    out += [Violation("base.buy.currency",
                      t("money of {other} counts in the payment: {tile} stands on the {currency} space "
                        "and is paid only in {currency}", other=word(currency), tile=action.tile,
                        currency=word(space.currency)))
            for currency in sorted({c for c, _ in values if c != space.currency})]
    return out


def _too_little(action: BuyBuilding, extra: tuple[str, ...], values: tuple[tuple[str, int], ...],
                price: int) -> list[Violation]:
    """base.buy.amount: the payment totals at least the price (more is allowed, without the
    exact-payment bonus)."""
    paid = sum(CATALOGUE.money[c].value for c in (*action.payment, *extra)) + sum(v for _, v in values)
    if paid < price:
        return [Violation("base.buy.amount", t("{tile} costs {price} but the payment totals {paid}",
                                               tile=action.tile, price=price, paid=paid))]
    return []


def price_of(state: GameState, action: BuyBuilding) -> int:
    """The printed price less what modules take off it (never below 0)."""
    hooks = plan_of(state).hooks["price_reduction"]
    reduction = sum([fn(state, action) for fn in hooks]) if hooks else 0
    return max(0, CATALOGUE.tiles[action.tile].price - reduction)


def extra_paid(state: GameState, action: BuyBuilding) -> tuple[str, ...]:
    """Cards from outside the hand that modules count in the payment (craftsmen.coiner); the
    module that names them checks them and moves them."""
    hooks = plan_of(state).hooks["extra_payment"]
    return tuple([c for fn in hooks for c in fn(state, action)]) if hooks else ()


def apply(state: GameState, action: BuyBuilding, ctx: Context) -> GameState:
    space = market_space(state, action.tile)
    assert space is not None
    seat = state.turn.player
    player = state.players[seat]
    paid = sum(CATALOGUE.money[c].value for c in (*action.payment, *extra_paid(state, action)))
    paid += sum(v for _, v in payment_values(state, action))
    price = price_of(state, action)
    exact = paid == price
    market = tuple(emptied(s) if s is space else s for s in state.market)
    state = replace(state, market=market, discard=(*state.discard, *action.payment))
    state = with_player(state, seat, hand=without(player.hand, *action.payment),
                        held=(*player.held, market_tile(space)))
    ctx.events.append(BuildingBought(player=player.name, tile=action.tile,
                                     currency=space.currency, payment=action.payment, exact=exact))
    if paid > price:
        for fn in plan_of(state).hooks["overpaid"]:
            state = fn(state, action, paid - price, ctx)
    return spend_action(state, another=exact)  # base.buy.exact-bonus


def payments(hand: tuple[str, ...], currency: str, price: int) -> Iterator[tuple[str, ...]]:
    """Every distinct payment of at least `price` from `hand`: equal cards listed once."""
    by_value: dict[int, list[str]] = {}
    for card in sorted(hand):
        money = CATALOGUE.money[card]
        if money.currency == currency:
            by_value.setdefault(money.value, []).append(card)
    values = sorted(by_value)
    if sum(v * len(by_value[v]) for v in values) < price:
        return
    for counts in product(*(range(len(by_value[v]) + 1) for v in values)):
        if sum(v * k for v, k in zip(values, counts, strict=True)) >= price:
            yield tuple(c for v, k in zip(values, counts, strict=True) for c in by_value[v][:k])


def candidates(state: GameState, seat: int) -> Iterator[BuyBuilding]:
    player = state.players[seat]
    for space in state.market:
        if space.tile is None:
            continue
        price = CATALOGUE.tiles[space.tile].price
        for payment in payments(player.hand, space.currency, price):
            yield BuyBuilding(player=player.name, tile=space.tile, payment=payment)


def sample(state: GameState, seat: int, rng: Generator) -> BuyBuilding | None:
    """A random affordable building, paid with cards drawn at random until the price is met."""
    player = state.players[seat]
    money = CATALOGUE.money
    held: dict[str, list[str]] = {}  # the hand's cards of each currency, in hand order
    totals: dict[str, int] = {}
    for card in player.hand:
        kind = money[card]
        held.setdefault(kind.currency, []).append(card)
        totals[kind.currency] = totals.get(kind.currency, 0) + kind.value
    options = []
    for space in state.market:
        if space.tile is None:
            continue
        if totals.get(space.currency, 0) >= CATALOGUE.tiles[space.tile].price:
            options.append((space.tile, held.get(space.currency, [])))
    if not options:
        return None
    tile, cards = rng.choice(options)
    price = CATALOGUE.tiles[tile].price
    paid: list[str] = []
    total = 0
    for card in rng.drawn(cards):  # only the draws the payment needs
        paid.append(card)
        total += money[card].value
        if total >= price:
            break
    return BuyBuilding(player=player.name, tile=tile, payment=tuple(paid))


RULE_BUY = ActionRule(action=BuyBuilding, rule="base.buy.currency", kind="action", check=check,
                      apply=apply, candidates=candidates, sample=sample,
                      exact_sample=True)
