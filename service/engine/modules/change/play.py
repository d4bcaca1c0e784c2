"""The Change in the rest of play: its setup, the coins in the payments of other actions
(change.spend: their check, their value, back in the bag), the change given for overpaying
(change.give), coins counted as money (change.count), and the purchases paid with coins
(variants of BuyBuilding and BuyTreasure, listed and sampled)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from msgspec.structs import replace

from ...actions import Action, BuyBuilding, CardList
from ...base.buy import payments as building_payments
from ...catalogue import CATALOGUE
from ...module import Context
from ...rng import Generator
from ...state import GameState
from ...text import t
from ...violations import Violation
from ..treasure import actions as treasure
from ..treasure.actions import BuyTreasure
from ..treasure.data import PRICE as TREASURE_PRICE
from .actions import CoinsGiven, CoinsSpent
from .data import COINS, currency_of, value_of
from .model import ChangeState

# --- setup --------------------------------------------------------------------------------

SETUP_STEP = 58  # after the market (52), Dirk's tiles (55) and the modules' boards (56, 57)


def setup(state: GameState, ctx: Context) -> GameState:
    """All coins in the bag; nobody holds any."""
    return replace(state, change=ChangeState(bag=tuple(sorted(COINS)), coins=((),) * len(state.players)))


def _change(state: GameState) -> ChangeState:
    assert state.change is not None
    return state.change

def _coins_paid(action: Action) -> CardList | None:
    if isinstance(action, (BuyBuilding, BuyTreasure)):
        return action.coins
    return None


# --- change.spend ---------------------------------------------------------------------------

def payment_values(state: GameState, action: Action) -> tuple[tuple[str, int], ...]:
    """The coins of a payment as (currency, value); unknown ids count nothing (refused below)."""
    return tuple(COINS[c] for c in _coins_paid(action) or () if c in COINS)


def check_coins(state: GameState, action: Action) -> list[Violation]:
    """change.spend: the coins named are the player's own, each once. `coins: []` pays no coin,
    as `coins` left out or null does: the same payment gets the same verdict."""
    coins = _coins_paid(action)
    if not coins:
        return []
    rule = "change.spend"
    seat = state.turn.player
    player = state.players[seat]
    own = _change(state).coins[seat] if seat < len(_change(state).coins) else ()
    out = [Violation(rule, t("{coin} is paid twice", coin=c))
           for c in sorted({c for c in coins if coins.count(c) > 1})]
    out += [Violation(rule, t("{coin} is no coin", coin=c)) for c in coins if c not in COINS]
    out += [Violation(rule, t("{coin} is not one of {player}'s coins (they hold {own})", coin=c,
                              player=player.name, own=tuple(own)) if own else
                      t("{coin} is not one of {player}'s coins (they hold none)", coin=c, player=player.name))
            for c in coins if c in COINS and c not in own]
    return out


def return_spent(state: GameState, action: Action, ctx: Context) -> GameState:
    """change.spend: coins paid go back into the bag."""
    coins = _coins_paid(action)
    if not coins or state.change is None:
        return state
    change = state.change
    seat = next((s for s, p in enumerate(state.players) if p.name == action.player), state.turn.player)
    left = tuple(c for c in change.coins[seat] if c not in coins)
    all_coins = tuple(left if s == seat else held for s, held in enumerate(change.coins))
    ctx.events.append(CoinsSpent(player=action.player, coins=tuple(coins)))
    return replace(state, change=replace(change, bag=tuple(sorted((*change.bag, *coins))), coins=all_coins))


# --- change.give ----------------------------------------------------------------------------

def give_change(state: GameState, action: Action, overpaid: int, ctx: Context) -> GameState:
    """change.give: one random coin from the bag per 2 units overpaid (as many as it holds)."""
    if state.change is None or not isinstance(action, BuyBuilding):
        return state
    change = state.change
    seat = state.turn.player
    bag = list(change.bag)
    drawn: list[str] = []
    for _ in range(min(overpaid // 2, len(bag))):
        drawn.append(bag.pop(ctx.rng.below(len(bag))))
    ctx.events.append(CoinsGiven(player=state.players[seat].name, tile=action.tile, overpaid=overpaid,
                                 coins=tuple(drawn)))
    if not drawn:
        return state
    all_coins = tuple((*held, *drawn) if s == seat else held for s, held in enumerate(change.coins))
    return replace(state, change=replace(change, bag=tuple(bag), coins=all_coins))


# --- change.count ---------------------------------------------------------------------------

def money_held(state: GameState, seat: int, currency: str) -> int:
    """change.count: a seat's coins of `currency` count as money at the end of the game."""
    change = state.change
    if change is None or seat >= len(change.coins):
        return 0
    return value_of(c for c in change.coins[seat] if c in COINS and currency_of(c) == currency)


# --- listing and sampling -------------------------------------------------------------------

def _own(state: GameState, seat: int) -> tuple[str, ...]:
    change = state.change
    if change is None or seat >= len(change.coins):
        return ()
    return tuple(sorted(change.coins[seat]))


def candidates_building(state: GameState, seat: int) -> Iterator[BuyBuilding]:
    """Every purchase with 1 to all of the player's coins of the space's currency (coins of a
    currency are alike: the first ones by id), the rest paid with every distinct payment of
    cards (none when the coins suffice)."""
    player = state.players[seat]
    own = _own(state, seat)
    for space in state.market:
        if space.tile is None:
            continue
        mine = [c for c in own if currency_of(c) == space.currency]
        price = CATALOGUE.tiles[space.tile].price
        for n in range(1, len(mine) + 1):
            coins = tuple(mine[:n])
            rest = price - value_of(coins)
            if rest <= 0:
                yield BuyBuilding(player=player.name, tile=space.tile, payment=(), coins=coins)
                break
            for payment in building_payments(player.hand, space.currency, rest):
                yield BuyBuilding(player=player.name, tile=space.tile, payment=payment, coins=coins)


def sample_building(state: GameState, seat: int, rng: Generator) -> BuyBuilding | None:
    """A random affordable building paid with some coins of its currency and random cards."""
    player = state.players[seat]
    own = _own(state, seat)
    options = []
    for space in state.market:
        if space.tile is None:
            continue
        mine = [c for c in own if currency_of(c) == space.currency]
        cards = [c for c in player.hand if CATALOGUE.money[c].currency == space.currency]
        price = CATALOGUE.tiles[space.tile].price
        if mine and value_of(mine) + sum(CATALOGUE.money[c].value for c in cards) >= price:
            options.append((space.tile, mine, cards, price))
    if not options:
        return None
    tile, mine, cards, price = rng.choice(options)
    coins = tuple(rng.shuffled(mine)[:1 + rng.below(len(mine))])
    paid: list[str] = []
    for card in rng.shuffled(cards):
        if value_of(coins) + sum(CATALOGUE.money[c].value for c in paid) >= price:
            break
        paid.append(card)
    if value_of(coins) + sum(CATALOGUE.money[c].value for c in paid) < price:
        coins = tuple(mine)
    return BuyBuilding(player=player.name, tile=tile, payment=tuple(paid), coins=coins)


def candidates_treasure(state: GameState, seat: int) -> Iterator[BuyTreasure]:
    """Every room with 1 to all of the player's coins (sorted by id) and every payment of cards
    in which no card is superfluous for the rest, the chests on the first free buildings."""
    chamber = state.treasure
    own = _own(state, seat)
    if chamber is None or not any(chamber.rooms) or not own:
        return
    player = state.players[seat]
    free = treasure.free_buildings(player)
    rooms = [(i + 1, treasure.first_free(r, free)) for i, r in enumerate(chamber.rooms) if r]
    for n in range(1, len(own) + 1):
        coins = own[:n]
        rest = TREASURE_PRICE - value_of(coins)
        cards_options: Iterable[tuple[str, ...]] = [()] if rest <= 0 else treasure.payments(player.hand, rest)
        for payment in cards_options:
            for room, buildings in rooms:
                yield BuyTreasure(player=player.name, room=room, payment=payment, buildings=buildings,
                                  coins=coins)
        if rest <= 0:
            break


def sample_treasure(state: GameState, seat: int, rng: Generator) -> BuyTreasure | None:
    """Now and then (one time in 8), a random room paid with all the player's coins and random
    cards, the chests on random free buildings of their colour."""
    chamber = state.treasure
    own = _own(state, seat)
    player = state.players[seat]
    if chamber is None or not own or rng.below(8):
        return None
    if value_of(own) + sum(CATALOGUE.money[c].value for c in player.hand) < TREASURE_PRICE:
        return None
    rooms = [i + 1 for i, r in enumerate(chamber.rooms) if r]
    if not rooms:
        return None
    room = rng.choice(rooms)
    paid: list[str] = []
    for card in rng.shuffled(sorted(player.hand)):
        if value_of(own) + sum(CATALOGUE.money[c].value for c in paid) >= TREASURE_PRICE:
            break
        paid.append(card)
    free = treasure.free_buildings(player)
    buildings: list[str] = []
    for colour, n in sorted(treasure.placeable(chamber.rooms[room - 1], free).items()):
        buildings += rng.shuffled(free[colour])[:n]
    return BuyTreasure(player=player.name, room=room, payment=tuple(paid), buildings=tuple(buildings),
                       coins=own)
