"""The Treasure Chamber's actions (treasure.action, treasure.place, treasure.pass): buying a
room's chests and placing those passed on, with the chests' way round the table, back to the bag
and the room's refill, their listing and sampling."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, product
from typing import ClassVar

from msgspec.structs import replace

from ...actions import Action, CardList, CoinList
from ...catalogue import CATALOGUE
from ...events import Event
from ...flow import spend_action, with_player, without
from ...module import ActionRule, Context, payment_values
from ...records import Int
from ...rng import Generator
from ...state import GameState, Player, Tile
from ...text import t, tn, word
from ...violations import Violation
from .data import PER_ROOM, PRICE, chest_colour
from .model import Room, TreasureState


class BuyTreasure(Action, tag="buy-treasure"):
    """treasure.action and treasure.place: pay `payment` (money cards of the hand worth at least
    8 in all, any currencies) and take all chests of room `room` (1 to 3); `buildings` names the
    buildings of the player's Alhambra or bought this turn that take one chest each (a chest of
    the building's colour). Every chest the player can place must be placed; the others pass on
    (treasure.pass): each receiver places theirs (place-chests)."""

    room: Int
    payment: CardList
    buildings: Room = ()  # one per chest of the room
    # change.spend: coins of the player that count in the payment (any currencies).
    coins: CoinList | None = None

    module_fields: ClassVar[dict[str, tuple[str, str]]] = {"coins": ("change", "change.spend")}


class PlaceChests(Action, tag="place-chests"):
    """treasure.pass: the receiver of chests passed on names the buildings of their Alhambra
    that take one each (a chest of the building's colour); every chest that fits must be
    placed, the rest pass on to the left."""

    buildings: Room = ()  # one per chest passed on


class ChestsPlaced(Event, tag="chests-placed"):
    """Chests put on buildings: the buyer's (named in the action) or, passed on, a neighbour's
    or Dirk's."""

    owner: str
    buildings: tuple[str, ...]


class TreasureBought(Event, tag="treasure-bought"):
    player: str
    room: int
    payment: tuple[str, ...]
    chests: tuple[str, ...]  # the colours of the room's chests


class ChestsReturned(Event, tag="chests-returned"):
    """Chests back in the bag: nobody could place them, or their building left the Alhambra."""

    chests: tuple[str, ...]


class RoomRefilled(Event, tag="room-refilled"):
    """treasure.refill: the emptied room's 4 new chests from the bag."""

    room: int
    chests: tuple[str, ...]


class ChamberClosed(Event, tag="chamber-closed"):
    """treasure.refill (seeds 004.22, 004.23): the bag held only `left` chests, fewer than 4, so
    the emptied room stays empty and from now on no room is refilled (the state's `closed`).
    Once closed, a room emptied later stays empty with no event."""

    room: int
    left: int


def _treasure(state: GameState) -> TreasureState:
    assert state.treasure is not None
    return state.treasure

# --- the payment (treasure.action) ----------------------------------------------------------

def payment_problems(state: GameState, player: Player, payment: Sequence[str],
                     extra: int = 0) -> list[Violation]:
    """treasure.action: money worth at least 8 from the hand, in any mix of currencies. The one
    place the payment is judged; `extra` is the money in it that is no card (coins, checked by
    the Change module)."""
    rule = "treasure.action"
    if not payment and not extra:
        return [Violation(rule, t("treasure chests cost money worth at least {price}; nothing is paid",
                                  price=PRICE))]
    twice = sorted({c for c in payment if payment.count(c) > 1})
    out = [Violation(rule, t("{card} is paid twice", card=c)) for c in twice]
    out += [Violation(rule, t("{card} is no money card", card=c))
            for c in payment if c not in CATALOGUE.money]
    out += [Violation(rule, t("{card} is not in {player}'s hand", card=c, player=player.name))
            for c in payment if c in CATALOGUE.money and c not in player.hand]
    if out:
        return out
    paid = sum(CATALOGUE.money[c].value for c in payment) + extra
    if paid < PRICE:
        return [Violation(rule, t("treasure chests cost money worth at least {price}, but {cards} total "
                                  "{paid}", price=PRICE, cards=tuple(payment), paid=paid))]
    return []


def payments(hand: Sequence[str], price: int = PRICE) -> Iterator[tuple[str, ...]]:
    """Every payment of at least `price` from `hand` in which no card is superfluous (leaving
    out its smallest card falls short), cards of equal currency and value listed once."""
    by_key: dict[tuple[int, str], list[str]] = {}
    for card in sorted(hand):
        money = CATALOGUE.money[card]
        by_key.setdefault((money.value, money.currency), []).append(card)
    keys = sorted(by_key)  # by value, smallest first: a card added later is never the smallest

    def grow(i: int, chosen: tuple[str, ...], total: int, smallest: int) -> Iterator[tuple[str, ...]]:
        if total >= price:
            if total - smallest < price:
                yield chosen
            return
        for j in range(i, len(keys)):
            value = keys[j][0]
            cards = by_key[keys[j]]
            for k in range(1, len(cards) + 1):
                yield from grow(j + 1, chosen + tuple(cards[:k]), total + value * k,
                                smallest if chosen else value)
                if total + value * k >= price:
                    break

    yield from grow(0, (), 0, 0)


# --- placing the chests (treasure.place, treasure.pass) ---------------------------------------

def free_buildings(player: Player) -> dict[str, list[str]]:
    """Per colour, the player's buildings that may take a chest: the Alhambra's (in its order),
    then the held ones; never the reserve's, never one that has a chest."""
    out: dict[str, list[str]] = {}
    for tile in (*player.alhambra, *player.held):
        colour = chest_colour(tile)
        if colour is not None and not tile.chest:
            out.setdefault(colour, []).append(tile.tile)
    return out


def placeable(chests: Sequence[str], free: dict[str, list[str]]) -> Counter[str]:
    """How many chests of each colour fit on the free buildings."""
    wanted = Counter(chests)
    return Counter({c: min(n, len(free.get(c, ()))) for c, n in wanted.items() if free.get(c)})


def first_free(chests: Sequence[str], free: dict[str, list[str]]) -> tuple[str, ...]:
    """The engine's placement: each chest on the first free building of its colour."""
    return tuple(b for colour, n in sorted(placeable(chests, free).items()) for b in free[colour][:n])


def _placement_problems(state: GameState, player: Player, chests: tuple[str, ...],
                        buildings: tuple[str, ...], rule: str = "treasure.place") -> list[Violation]:
    """treasure.place (the buyer) or treasure.pass (a receiver): one chest per named building of
    the player's, of its colour, and (once those stand) every chest that fits placed."""
    out = [Violation(rule, t("{tile} is named twice: a building takes at most one chest", tile=b))
           for b in sorted({b for b in buildings if buildings.count(b) > 1})]
    out += _named_buildings(state, player, chests, buildings, rule)
    if out:
        return out
    return _chests_left(player, chests, buildings, rule)


def _named_buildings(state: GameState, player: Player, chests: tuple[str, ...],
                     buildings: tuple[str, ...], rule: str) -> list[Violation]:
    """Each named building (once) is the player's, in the Alhambra or bought this turn, of a
    colour, without a chest, and a chest of its colour is left for it."""
    out = []
    mine = {t.tile: t for t in (*player.alhambra, *player.held)}
    left = Counter(chests)
    for b in dict.fromkeys(buildings):
        tile = mine.get(b)
        if tile is None:
            out.append(_not_placeable(state, player, b, rule))
            continue
        colour = chest_colour(tile)
        if colour is None:
            out.append(Violation(rule, t("{tile} is no building of a colour: it takes no chest", tile=b)))
        elif tile.chest:
            out.append(Violation(rule, t("{tile} already has a chest (a building takes at most one)",
                                         tile=b)))
        elif left[colour] <= 0:
            out.append(Violation(rule, t("{tile} is a {colour}, but the room holds no (further) {colour} "
                                         "chest (it holds {chests})", tile=b, colour=word(colour),
                                         chests=tuple(word(c) for c in chests))))
        else:
            left[colour] -= 1
    return out


def _not_placeable(state: GameState, player: Player, b: str, rule: str) -> Violation:
    """Why a building outside the player's Alhambra and held buildings takes none of their
    chests: another's (treasure.pass: they place their own), in the reserve, or nobody's."""
    owner = _owner_of(state, b)
    if owner is not None and owner != player.name:
        return Violation("treasure.pass", t("{tile} is {owner}'s: only chests {player} cannot place "
                                            "pass on, and the others place them themselves",
                                            tile=b, owner=owner, player=player.name))
    if b in {r.tile for r in player.reserve}:
        return Violation(rule, t("{tile} is in the reserve (reserve buildings take no chest)", tile=b))
    return Violation(rule, t("{tile} is not a building of {player}'s Alhambra nor bought this turn",
                             tile=b, player=player.name))


def _chests_left(player: Player, chests: tuple[str, ...], buildings: tuple[str, ...],
                 rule: str) -> list[Violation]:
    """Every chest that fits on a free building of its colour is placed (the rest pass on)."""
    mine = {t.tile: t for t in (*player.alhambra, *player.held)}
    can = placeable(chests, free_buildings(player))
    placed = Counter(chest_colour(mine[b]) for b in buildings)
    short = {c: n - placed[c] for c, n in can.items() if placed[c] < n}
    if not short:
        return []
    listed = tuple(tn("{n} more {colour}", "{n} more {colour}", n, colour=word(c))
                   for c, n in sorted(short.items()))
    if rule == "treasure.place":
        return [Violation(rule, t("{player} must place every chest they can: {chests} (on buildings of "
                                  "the Alhambra or bought this turn)", player=player.name, chests=listed))]
    return [Violation(rule, t("{player} must place every chest they can: {chests} (on buildings of the "
                              "Alhambra)", player=player.name, chests=listed))]


def _owner_of(state: GameState, tile: str) -> str | None:
    """Who has the building `tile` (Alhambra, reserve, held, or Dirk's tiles), if anyone."""
    for p in state.players:
        if any(t.tile == tile for t in (*p.alhambra, *p.reserve, *p.held)):
            return p.name
    if state.dirk is not None and any(t.tile == tile for t in state.dirk.tiles):
        return state.dirk.name
    return None


def check(state: GameState, action: BuyTreasure) -> list[Violation]:
    treasure = _treasure(state)
    if not 1 <= action.room <= len(treasure.rooms):
        return [Violation("treasure.action", t("the treasure chamber has rooms 1 to {rooms}, not {room}",
                                               rooms=len(treasure.rooms), room=action.room))]
    chests = treasure.rooms[action.room - 1]
    if not chests:
        return [Violation("treasure.action", t("room {room} of the treasure chamber is empty",
                                               room=action.room))]
    player = state.players[state.turn.player]
    extra = sum(v for _, v in payment_values(state, action))
    return payment_problems(state, player, action.payment, extra) or \
        _placement_problems(state, player, chests, action.buildings)


def _put_chests(tiles: tuple[Tile, ...], buildings: Sequence[str]) -> tuple[Tile, ...]:
    named = set(buildings)
    if not any(t.tile in named for t in tiles):
        return tiles
    return tuple(replace(t, chest=True) if t.tile in named else t for t in tiles)


def _remove_placed(chests: list[str], colours: Sequence[str | None]) -> None:
    for colour in colours:
        chests.remove(colour)  # type: ignore[arg-type]


def pass_on(state: GameState, after: int, chests: Sequence[str], room: int, ctx: Context) -> GameState:
    """treasure.pass: the chests go on to the left of the seat `after`, up to the buyer's right
    neighbour: the next player who can place any of them is asked (`receiver`, the decision
    place-chests); when nobody can, they go back in the bag and the room is refilled."""
    treasure = _treasure(state)
    buyer, n = state.turn.player, len(state.players)
    seat = after
    while chests:
        seat = (seat + 1) % n
        if seat == buyer:
            break
        if placeable(chests, free_buildings(state.players[seat])):
            return replace(state, treasure=replace(treasure, passing=tuple(chests), receiver=seat, room=room))
    state = replace(state, treasure=replace(treasure, passing=(), receiver=None, room=0))
    state = to_bag(state, chests, ctx)
    return refill(state, room, ctx)


def to_dirk(state: GameState, chests: list[str], ctx: Context) -> GameState:
    """treasure.pass: with two players the chests pass to Dirk first, onto his buildings of
    their colours (his tiles are never removed, so which of them takes a chest does not matter:
    the first free ones)."""
    dirk = state.dirk
    if not chests or dirk is None:
        return state
    free: dict[str, list[str]] = {}
    for tile in dirk.tiles:
        colour = chest_colour(tile)
        if colour is not None and not tile.chest:
            free.setdefault(colour, []).append(tile.tile)
    chosen = first_free(chests, free)
    if chosen:
        _remove_placed(chests, [chest_colour(t) for t in dirk.tiles if t.tile in chosen])
        state = replace(state, dirk=replace(dirk, tiles=_put_chests(dirk.tiles, chosen)))
        ctx.events.append(ChestsPlaced(owner=dirk.name, buildings=chosen))
    return state


def to_bag(state: GameState, chests: Sequence[str], ctx: Context) -> GameState:
    """Chests go back in the bag, which is shaken: its order stays random."""
    if not chests:
        return state
    treasure = _treasure(state)
    ctx.events.append(ChestsReturned(chests=tuple(chests)))
    return replace(state, treasure=replace(treasure, bag=ctx.rng.shuffled((*treasure.bag, *chests))))


def refill(state: GameState, room: int, ctx: Context) -> GameState:
    """treasure.refill: 4 chests from the bag into the emptied room; with fewer than 4 left the
    room stays empty and no room is refilled any more."""
    treasure = _treasure(state)
    rooms = list(treasure.rooms)
    if treasure.closed or len(treasure.bag) < PER_ROOM:
        rooms[room - 1] = ()
        if not treasure.closed:
            ctx.events.append(ChamberClosed(room=room, left=len(treasure.bag)))
        return replace(state, treasure=replace(treasure, rooms=tuple(rooms), closed=True))
    rooms[room - 1] = treasure.bag[:PER_ROOM]
    ctx.events.append(RoomRefilled(room=room, chests=rooms[room - 1]))
    return replace(state, treasure=replace(treasure, rooms=tuple(rooms), bag=treasure.bag[PER_ROOM:]))


def apply(state: GameState, action: BuyTreasure, ctx: Context) -> GameState:
    treasure = _treasure(state)
    seat = state.turn.player
    player = state.players[seat]
    chests = list(treasure.rooms[action.room - 1])
    ctx.events.append(TreasureBought(player=player.name, room=action.room, payment=action.payment,
                                     chests=tuple(chests)))
    rooms = tuple(() if i == action.room - 1 else r for i, r in enumerate(treasure.rooms))
    state = replace(state, treasure=replace(treasure, rooms=rooms), discard=(*state.discard, *action.payment))
    state = _place(state, seat, chests, action.buildings, ctx)
    state = with_player(state, seat, hand=without(state.players[seat].hand, *action.payment))
    state = to_dirk(state, chests, ctx)
    state = pass_on(state, seat, chests, action.room, ctx)
    return spend_action(state, another=False)  # treasure.action: no extra action, even if exact


def _place(state: GameState, seat: int, chests: list[str], buildings: Sequence[str],
           ctx: Context) -> GameState:
    """Chests on the named buildings of a seat (Alhambra or held); they leave `chests`."""
    if not buildings:
        return state
    player = state.players[seat]
    _remove_placed(chests, [chest_colour(t) for t in (*player.alhambra, *player.held) if t.tile in buildings])
    ctx.events.append(ChestsPlaced(owner=player.name, buildings=tuple(buildings)))
    return with_player(state, seat, alhambra=_put_chests(player.alhambra, buildings),
                       held=_put_chests(player.held, buildings))


def check_place(state: GameState, action: PlaceChests) -> list[Violation]:
    treasure = _treasure(state)
    player = state.players[state.seat_of(action.player)]
    return _placement_problems(state, player, treasure.passing, action.buildings, rule="treasure.pass")


def apply_place(state: GameState, action: PlaceChests, ctx: Context) -> GameState:
    treasure = _treasure(state)
    seat = state.seat_of(action.player)
    chests = list(treasure.passing)
    state = _place(state, seat, chests, action.buildings, ctx)
    return pass_on(state, seat, chests, treasure.room, ctx)


def _placements(chests: Sequence[str], free: dict[str, list[str]]) -> Iterator[tuple[str, ...]]:
    """Every choice of buildings that places every chest that fits (per colour, any of the
    free buildings of that colour)."""
    fits = sorted(placeable(chests, free).items())
    per_colour = [list(combinations(free[colour], n)) for colour, n in fits]
    for choice in product(*per_colour):
        yield tuple(b for group in choice for b in group)


def candidates_place(state: GameState, seat: int) -> Iterator[PlaceChests]:
    treasure = _treasure(state)
    player = state.players[seat]
    for buildings in _placements(treasure.passing, free_buildings(player)):
        yield PlaceChests(player=player.name, buildings=buildings)


def sample_place(state: GameState, seat: int, rng: Generator) -> PlaceChests | None:
    player = state.players[seat]
    buildings = _random_placement(_treasure(state).passing, free_buildings(player), rng)
    return PlaceChests(player=player.name, buildings=buildings)


def _random_placement(chests: Sequence[str], free: dict[str, list[str]], rng: Generator) -> tuple[str, ...]:
    buildings: list[str] = []
    for colour, n in sorted(placeable(chests, free).items()):
        buildings += rng.shuffled(free[colour])[:n]
    return tuple(buildings)


# --- listing and sampling -------------------------------------------------------------------

def candidates(state: GameState, seat: int) -> Iterator[BuyTreasure]:
    """Every room with chests, with every payment in which no card is superfluous, the chests
    on the first free buildings of their colour (other payments and placements are legal too;
    they are not listed, there are too many)."""
    treasure = state.treasure
    if treasure is None or not any(treasure.rooms):
        return
    player = state.players[seat]
    if sum(CATALOGUE.money[c].value for c in player.hand) < PRICE:
        return
    free = free_buildings(player)
    rooms = [(i + 1, first_free(r, free)) for i, r in enumerate(treasure.rooms) if r]
    for payment in payments(player.hand):
        for room, buildings in rooms:
            yield BuyTreasure(player=player.name, room=room, payment=payment, buildings=buildings)


def sample(state: GameState, seat: int, rng: Generator) -> BuyTreasure | None:
    """Now and then (one time in 8 it is asked, so random games still build) a random room,
    paid with cards drawn at random until 8 is reached, the chests on random free buildings of
    their colour."""
    treasure = state.treasure
    player = state.players[seat]
    if treasure is None or rng.below(8) or sum(CATALOGUE.money[c].value for c in player.hand) < PRICE:
        return None
    rooms = [i + 1 for i, r in enumerate(treasure.rooms) if r]
    if not rooms:
        return None
    room = rng.choice(rooms)
    paid: list[str] = []
    for card in rng.shuffled(sorted(player.hand)):
        if sum(CATALOGUE.money[c].value for c in paid) >= PRICE:
            break
        paid.append(card)
    buildings = _random_placement(treasure.rooms[room - 1], free_buildings(player), rng)
    return BuyTreasure(player=player.name, room=room, payment=tuple(paid), buildings=buildings)


ACTIONS = (ActionRule(action=BuyTreasure, rule="treasure.action", kind="action", check=check,
                      apply=apply, candidates=candidates, sample=sample),
           ActionRule(action=PlaceChests, rule="treasure.pass", kind="decision", check=check_place,
                      apply=apply_place, candidates=candidates_place, sample=sample_place))
