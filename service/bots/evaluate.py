"""What a position is worth to each seat, as a player would reckon it: the points scored, the
points the scoring rounds still to come would give if held now (every module's lines, by the
engine's own scoring), the buildings bought and not yet placed counted as built, money in hand
and an extra action in hand.

It reads a state as a seat may know it (`service.engine.sight`): the others' money only by how
many cards they hold, never which.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from msgspec.structs import replace

from service.engine.catalogue import CATALOGUE
from service.engine.grid import layout_of, longest_wall
from service.engine.module import Module, modules_of, plan_of
from service.engine.records import per_type
from service.engine.scoring.round import (
    Position,
    PositionPlayer,
    building_type,
    counted_buildings,
    score_position,
)
from service.engine.scoring.tally import Tally
from service.engine.state import Dirk, GameState, PlacedTile, Player, Tile

# The weights of the reckoning (points per unit). A scoring round still to come counts in full
# if it is the next one and for less after it (the table will change before then); a money
# card's value is worth some points while tiles remain to be bought; an extra action in hand
# (an exact payment's, base.buy.exact-bonus) is worth a few; a building in the reserve counts
# for less than one in the Alhambra, which scores.
NEXT_ROUND = 1.0
LATER_ROUND = 0.6
MONEY = 0.3
ACTION = 2.5
RESERVED = 1.0
AVERAGE_CARD = sum(c.value for c in CATALOGUE.money.values()) / len(CATALOGUE.money)
# The most money of one currency worth holding: the dearest tile's price (one purchase at once).
SPENDABLE = max(t.price for t in CATALOGUE.tiles.values())


@lru_cache(maxsize=8192)
def _wall(alhambra: tuple[PlacedTile, ...]) -> int:
    """base.score.wall: the longest outer wall of an Alhambra (memoized: most of a position's
    Alhambras are unchanged from one reckoning to the next)."""
    return longest_wall(layout_of(alhambra))


def _tally(p: PositionPlayer, held: tuple[Tile, ...], modules: tuple[Module, ...]) -> Tally:
    """scoring.round.tally_of, with the buildings bought and not yet placed counted as built."""
    kinds = Counter(kind for t in counted_buildings(p) if (kind := building_type(t)) is not None)
    kinds.update(kind for t in held if (kind := building_type(t)) is not None)
    parts = {}
    for m in modules:
        if m.tally is not None and m.tally.of_tiles is not None:
            part = m.tally.of_tiles(p)
            if part is not None:
                parts[m.id] = part
    return Tally(buildings=per_type(kinds), wall=0 if p.dirk else _wall(p.alhambra), **parts)


class _Counted:
    """Each player (or Dirk) as scoring counts them, memoized by what is counted, the tuples of
    their tiles themselves: a state after an action shares every tuple it did not change with
    the state before (frozen structs), so most of a reckoning's players were counted already,
    a hand that changed or not. Holding the tuples keeps their ids from being reused; the memo
    is emptied when it grows past `size`."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self.memo: dict[tuple[int, ...], tuple[tuple[object, ...], PositionPlayer]] = {}

    def of(self, owner: Player | Dirk, modules: tuple[Module, ...]) -> PositionPlayer:
        if isinstance(owner, Player):
            parts: tuple[object, ...] = (owner.name, owner.score, owner.alhambra, owner.reserve,
                                         owner.held, modules)
        else:
            parts = (owner.name, owner.score, owner.tiles, modules)
        key = tuple(map(id, parts))
        found = self.memo.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], parts, strict=True)):
            return found[1]
        if isinstance(owner, Player):
            pp = PositionPlayer(name=owner.name, score=owner.score, alhambra=owner.alhambra,
                                reserve=owner.reserve)
            held = owner.held
        else:
            pp = PositionPlayer(name=owner.name, dirk=True, score=owner.score, tiles=owner.tiles)
            held = ()
        counted = replace(pp, alhambra=(), reserve=(), tiles=(), tally=_tally(pp, held, modules))
        if len(self.memo) >= self.size:
            self.memo.clear()
        self.memo[key] = (parts, counted)
        return counted


_COUNTED = _Counted()


def points_to_come(state: GameState) -> list[float]:
    """Per seat, the points of the scoring rounds not yet held, as if each were held now."""
    rounds = [r for r in (1, 2, 3) if r not in state.rounds_held]
    if not rounds or state.phase == "over":
        return [0.0] * len(state.players)
    modules = modules_of(state)
    counted = [_COUNTED.of(p, modules) for p in state.players]
    if state.dirk is not None:
        counted.append(_COUNTED.of(state.dirk, modules))
    players = tuple(counted)
    out = [0.0] * len(state.players)
    for i, r in enumerate(rounds):
        weight = NEXT_ROUND if i == 0 else LATER_ROUND
        totals = _totals(Position(round=r, players=players, modules=state.modules, check_layout=False))
        for seat in range(len(state.players)):
            out[seat] += weight * totals[seat]
    return out


@lru_cache(maxsize=16384)
def _totals(position: Position) -> tuple[int, ...]:
    """Each player's points of a scoring round (memoized: one option changes one player's
    counts, and many options change none)."""
    return tuple(p.total for p in score_position(position).players)


def money(state: GameState, seat: int, me: int) -> float:
    """The money `seat` holds as `me` may know it, as far as it can be spent: its own cards per
    currency up to the dearest tile (more of one currency buys nothing more at once), or the
    others' card count at an average value; and the money beyond the hand a module shows
    (coins: change.count). Without the cap a player reckons hoarding worth more than building,
    and may take the whole money supply (a table where nobody else can act)."""
    hand = state.players[seat].hand
    held = plan_of(state).hooks["money_held"]
    if seat != me:
        total = min(len(hand) * AVERAGE_CARD, SPENDABLE * len(CATALOGUE.currencies))
        return total + sum(fn(state, seat, c) for fn in held for c in CATALOGUE.currencies)
    per = dict.fromkeys(CATALOGUE.currencies, 0)
    for card in hand:
        per[CATALOGUE.money[card].currency] += CATALOGUE.money[card].value
    for fn in held:
        for currency in CATALOGUE.currencies:
            per[currency] += fn(state, seat, currency)
    return float(sum(min(v, SPENDABLE) for v in per.values()))


def worth(state: GameState, me: int) -> list[float]:
    """What each seat's position is worth, as `me` reckons it."""
    to_come = points_to_come(state)
    money_weight = MONEY if state.phase == "play" and state.bag else 0.0
    out = []
    for seat, p in enumerate(state.players):
        value = p.score + to_come[seat] + money_weight * money(state, seat, me)
        value += RESERVED * len(p.reserve)
        if state.phase == "play" and state.turn.player == seat and state.turn.actions and state.turn.acted:
            value += ACTION
        out.append(value)
    return out


def advantage(state: GameState, me: int) -> float:
    """`me`'s worth less the best other seat's (Dirk is no rival: he never wins alone)."""
    values = worth(state, me)
    mine = values[me]
    others = [v for i, v in enumerate(values) if i != me]
    return mine - max(others) if others else mine
