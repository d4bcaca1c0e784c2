"""The Extensions module's action: buying an extension tile and putting it on a building
(extensions.action, extensions.matching, extensions.owns-type, extensions.dirk), and its event."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import combinations_with_replacement, product
from typing import Literal

from msgspec.structs import replace

from ...actions import Action, CardList
from ...catalogue import CATALOGUE, FOUNTAIN
from ...events import Event
from ...flow import spend_action, with_player, without
from ...module import ActionRule, Context
from ...records import Text
from ...rng import Generator
from ...scoring import building_type
from ...state import GameState, Player, Tile
from ...text import t, word
from ...violations import Violation
from .data import AMOUNTS, COLUMNS, TYPE_OF

_NEEDED = tuple(Counter(c) for c in COLUMNS)  # each column's combination as currency counts

Where = Literal["alhambra", "reserve", "held", "dirk"]


class BuyExtension(Action, tag="buy-extension"):
    """extensions.action: pay exactly three money cards forming the combination of the column
    of `extension` (an extension tile on the board) and put it at once on `building`: a building
    of its type without an extension, in the player's Alhambra, reserve or held buildings, or
    (two players, extensions.dirk) one of Dirk's tiles."""

    extension: Text
    payment: CardList
    building: Text


class ExtensionBought(Event, tag="extension-bought"):
    player: str
    extension: str
    payment: tuple[str, ...]
    building: str
    owner: str  # who owns the extended building: the buyer, or Dirk
    matching: bool  # extensions.matching: the player takes another action


def _spot(state: GameState, extension: str) -> tuple[int, int] | None:
    """(column, row) of an extension tile on the board."""
    ext = state.extensions
    if ext is None:
        return None
    for col, column in enumerate(ext.board):
        for row, tile in enumerate(column):
            if tile == extension:
                return col, row
    return None


def _owned(player: Player) -> Iterator[tuple[Tile, Where]]:
    """The player's buildings: the Alhambra (not the fountain), the reserve, held buildings."""
    for placed in player.alhambra:
        if placed.tile != FOUNTAIN:
            yield placed, "alhambra"
    for tile in player.reserve:
        yield tile, "reserve"
    for tile in player.held:
        yield tile, "held"


def _combination(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(word(c) for c in sorted(CATALOGUE.money[c].currency for c in cards))


def _column_text(col: int) -> tuple[str, ...]:
    return tuple(word(c) for c in COLUMNS[col])

def check(state: GameState, action: BuyExtension) -> list[Violation]:
    spot = _spot(state, action.extension)
    if spot is None:
        ext = state.extensions
        shown = [tile for column in (ext.board if ext else ()) for tile in column if tile]
        return [Violation("extensions.action", t("{extension} is not on the extension board (it holds "
                                                 "{shown})", extension=action.extension, shown=tuple(shown)))]
    col = spot[0]
    player = state.players[state.turn.player]
    out = _payment_problems(player, action.payment, col)
    if out:
        return out
    return _target_problems(state, player, action.extension, action.building)


def _payment_problems(player: Player, payment: tuple[str, ...], col: int) -> list[Violation]:
    rule = "extensions.action"
    if len(payment) != len(COLUMNS[col]):
        return [Violation(rule, t("an extension is paid with exactly {count} money cards, not {paid}",
                                  count=len(COLUMNS[col]), paid=len(payment)))]
    if len(set(payment)) != len(payment):
        return [Violation(rule, t("a card is paid twice in {payment}", payment=payment))]
    missing = [c for c in payment if c not in player.hand]
    if missing:
        return [Violation(rule, t("{card} is not in {player}'s hand", card=c, player=player.name))
                for c in missing]
    if Counter(CATALOGUE.money[c].currency for c in payment) != _NEEDED[col]:
        return [Violation(rule, t("{cards} form the combination ({combination}), but column {column} of the "
                                  "extension board asks for ({wanted})", cards=payment,
                                  combination=_combination(payment), column=col + 1,
                                  wanted=_column_text(col)))]
    return []


def _target_problems(state: GameState, player: Player, extension: str, building: str) -> list[Violation]:
    wanted = TYPE_OF[extension]
    owns_type = any(building_type(tile) == wanted for tile, _ in _owned(player))
    mine = next((tile for tile, _ in _owned(player) if tile.tile == building), None)
    if building == FOUNTAIN:
        return [Violation("extensions.owns-type", t("the fountain is no building: {extension} goes on a "
                                                    "{kind}", extension=extension, kind=word(wanted)))]
    if mine is not None:
        if building_type(mine) != wanted:
            return [Violation("extensions.owns-type", _extends(extension, wanted, building, mine))]
        if mine.extension:
            return [Violation("extensions.owns-type", t("{building} already has an extension (a building "
                                                        "takes at most one)", building=building))]
        return []
    dirk = state.dirk
    theirs = None if dirk is None else next((tile for tile in dirk.tiles if tile.tile == building), None)
    if dirk is None or theirs is None:
        return [Violation("extensions.owns-type", t("{building} is not a building of {player}'s (Alhambra, "
                                                    "reserve, or bought this turn)", building=building,
                                                    player=player.name))]
    out = []
    if not owns_type:
        out.append(Violation("extensions.owns-type", t("{player} owns no {kind} (Alhambra, reserve, or "
                                                       "bought this turn), so may not buy {extension}, not "
                                                       "even to give to Dirk", player=player.name,
                                                       kind=word(wanted), extension=extension)))
    if building_type(theirs) != wanted:
        out.append(Violation("extensions.dirk", _extends(extension, wanted, building, theirs, dirk=True)))
    elif theirs.extension:
        out.append(Violation("extensions.dirk", t("Dirk's {building} already has an extension",
                                                  building=building)))
    return out


def _extends(extension: str, wanted: str, building: str, tile: Tile, dirk: bool = False) -> str:
    """Why `extension` does not go on `tile` (`building`), of another type than `wanted`."""
    kind = building_type(tile)
    if kind is None:
        return (t("{extension} extends a {kind}, but Dirk's {building} is a building site",
                  extension=extension, kind=word(wanted), building=building) if dirk else
                t("{extension} extends a {kind}, but {building} is a building site",
                  extension=extension, kind=word(wanted), building=building))
    return (t("{extension} extends a {kind}, but Dirk's {building} is a {other}", extension=extension,
              kind=word(wanted), building=building, other=word(kind)) if dirk else
            t("{extension} extends a {kind}, but {building} is a {other}", extension=extension,
              kind=word(wanted), building=building, other=word(kind)))


def apply(state: GameState, action: BuyExtension, ctx: Context) -> GameState:
    spot = _spot(state, action.extension)
    ext = state.extensions
    assert spot is not None and ext is not None
    row = spot[1]
    board = tuple(tuple(None if (c, r) == spot else tile for r, tile in enumerate(column))
                  for c, column in enumerate(ext.board))
    seat = state.turn.player
    player = state.players[seat]
    paid = sum(CATALOGUE.money[c].value for c in action.payment)
    matching = paid <= AMOUNTS[row]
    state = replace(state, extensions=replace(ext, board=board),
                    discard=(*state.discard, *action.payment))
    owner = player.name
    if any(tile.tile == action.building for tile, _ in _owned(player)):
        def extend(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
            return tuple(replace(tile, extension=True) if tile.tile == action.building else tile
                         for tile in tiles)
        state = with_player(state, seat, hand=without(player.hand, *action.payment),
                            alhambra=extend(player.alhambra), reserve=extend(player.reserve),
                            held=extend(player.held))
    else:
        dirk = state.dirk
        assert dirk is not None
        owner = dirk.name
        tiles = tuple(replace(tile, extension=True) if tile.tile == action.building else tile
                      for tile in dirk.tiles)
        state = with_player(state, seat, hand=without(player.hand, *action.payment))
        state = replace(state, dirk=replace(dirk, tiles=tiles))
    ctx.events.append(ExtensionBought(player=player.name, extension=action.extension,
                                      payment=action.payment, building=action.building,
                                      owner=owner, matching=matching))
    return spend_action(state, another=matching)  # extensions.matching


# --- listing and sampling -------------------------------------------------------------------

def payments(hand: Iterable[str], col: int) -> Iterator[tuple[str, ...]]:
    """Every payment of the column's combination from `hand`: cards of equal currency and
    value are listed once (like base.buy's payments)."""
    by_key: dict[tuple[str, int], list[str]] = {}
    for card in sorted(hand):
        money = CATALOGUE.money[card]
        by_key.setdefault((money.currency, money.value), []).append(card)
    per_currency = []
    for currency, n in sorted(_NEEDED[col].items()):
        values = sorted(v for (c, v) in by_key if c == currency)
        picks = []
        for chosen in combinations_with_replacement(values, n):
            counts = Counter(chosen)
            if all(len(by_key[(currency, v)]) >= k for v, k in counts.items()):
                picks.append(tuple(card for v, k in sorted(counts.items())
                                   for card in by_key[(currency, v)][:k]))
        if not picks:
            return
        per_currency.append(picks)
    for parts in product(*per_currency):
        yield tuple(card for part in parts for card in part)


def targets(state: GameState, seat: int) -> dict[str, list[str]]:
    """Per building type, the buildings an extension of that type may go on: the player's own
    without an extension, then (two players) one of Dirk's without one, if the player owns a
    building of the type (Dirk's tiles of a type are alike, so one stands for all)."""
    player = state.players[seat]
    out: dict[str, list[str]] = {}
    owned: set[str] = set()
    for tile, _ in _owned(player):
        kind = building_type(tile)
        if kind is None:
            continue
        owned.add(kind)
        if not tile.extension:
            out.setdefault(kind, []).append(tile.tile)
    if state.dirk is not None:
        given: set[str] = set()
        for tile in state.dirk.tiles:
            kind = building_type(tile)
            if kind in owned and kind not in given and not tile.extension:
                given.add(kind)
                out.setdefault(kind, []).append(tile.tile)
    return out


def candidates(state: GameState, seat: int) -> Iterator[BuyExtension]:
    ext = state.extensions
    if ext is None:
        return
    player = state.players[seat]
    where = targets(state, seat)
    if not where:
        return
    for col, column in enumerate(ext.board):
        tiles = [tile for tile in column if tile is not None and where.get(TYPE_OF[tile])]
        if not tiles:
            continue
        for payment in payments(player.hand, col):
            for tile in tiles:
                for building in where[TYPE_OF[tile]]:
                    yield BuyExtension(player=player.name, extension=tile, payment=payment,
                                       building=building)


def sample(state: GameState, seat: int, rng: Generator) -> BuyExtension | None:
    """A random extension the player can pay and place, paid with random cards."""
    ext = state.extensions
    if ext is None:
        return None
    where = targets(state, seat)
    if not where:
        return None
    player = state.players[seat]
    by_currency: dict[str, list[str]] = {}
    for card in player.hand:
        by_currency.setdefault(CATALOGUE.money[card].currency, []).append(card)
    options = [(col, tile) for col, column in enumerate(ext.board) for tile in column
               if tile is not None and where.get(TYPE_OF[tile])
               and all(len(by_currency.get(c, ())) >= n for c, n in _NEEDED[col].items())]
    if not options:
        return None
    col, tile = rng.choice(options)
    payment: list[str] = []
    for currency, n in sorted(_NEEDED[col].items()):
        payment += rng.shuffled(sorted(by_currency[currency]))[:n]
    return BuyExtension(player=player.name, extension=tile, payment=tuple(payment),
                        building=rng.choice(where[TYPE_OF[tile]]))


ACTIONS: tuple[ActionRule, ...] = (
    ActionRule(action=BuyExtension, rule="extensions.action", kind="action", check=check, apply=apply,
               candidates=candidates, sample=sample),
)
