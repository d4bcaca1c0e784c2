"""The Travelling Craftsmen in the rest of play: dealing them (craftsmen.setup), the pass awaited
and the flip at the end of a turn, and the abilities used on the base game's actions (checks,
a lower price, display cards paid, a larger take, the brickmaker's placement, the larger
display) with the forms of those actions they add (`VARIANTS`)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from msgspec.structs import replace

from ...actions import (
    Action,
    BuyBuilding,
    PlaceBuilding,
    PlaceFromReserve,
    Rotation,
    SwapWithReserve,
    TakeMoney,
    ToAlhambra,
    ToReserve,
)
from ...base.buy import payments
from ...base.money import duplicates
from ...base.placement import held_tile
from ...base.redesign import swap_problems
from ...catalogue import CATALOGUE, FOUNTAIN
from ...events import BuildingPlaced, BuildingRemoved, BuildingReserved
from ...flow import with_player
from ...grid import (
    check_placement,
    fits,
    free_spots,
    layout_of,
    names_of,
    placements,
    rotate,
    side_mismatches,
    walls_of,
)
from ...module import Context, Pending
from ...state import GameState, PlacedTile, Tile, lift_tile, place_tile
from ...text import t
from ...violations import Violation
from .actions import (
    FREE_ABILITIES,
    CraftsmanTurnedUp,
    PassCraftsman,
    can_use,
    fields_problem,
    mark_used,
    replaced,
    sampler,
)
from .data import DATA, KIND, MARK, craftsmen_of
from .model import CraftsmenState

SETUP = 57  # after the first player is known (50), the market (52) and Dirk's tiles (55)
ROTATIONS: tuple[Rotation, ...] = (90, 180, 270)


def _value(cards: tuple[str, ...]) -> int:
    return sum(CATALOGUE.money[c].value for c in cards)


# --- setup, pass, flip ----------------------------------------------------------------------

def setup(state: GameState, ctx: Context) -> GameState:
    """craftsmen.setup: the cards for this player count are shuffled; 2 face up to each player
    (not Dirk), a third face down to the first player (turned up at the end of their first turn,
    craftsmen.flip); the rest leave the game."""
    n = len(state.players)
    marks = DATA["marks_in_play"][str(n)]
    cards = list(ctx.rng.shuffled([c for c in KIND if MARK[c] in marks]))
    per = DATA["dealt_face_up"]
    face_up = tuple(tuple(cards[per * seat:per * seat + per]) for seat in range(n))
    face_down: list[str | None] = [None] * n
    face_down[state.turn.player] = cards[per * n]
    out = (*cards[per * n + 1:], *(c for c in KIND if MARK[c] not in marks))
    return replace(state, craftsmen=CraftsmenState(face_up=face_up, face_down=tuple(face_down), out=out))


def flip(state: GameState, ctx: Context) -> GameState:
    """craftsmen.flip: right after passing a craftsman, at the end of their turn, the active
    player turns their face-down craftsman up (received from the right neighbour before this
    turn, or dealt at setup): they choose among these two during their next turn."""
    cs = craftsmen_of(state)
    seat = state.turn.player
    card = cs.face_down[seat]
    if card is None:
        return replace(state, craftsmen=replace(cs, used=None)) if cs.used else state
    face_up = list(cs.face_up)
    face_up[seat] = (*face_up[seat], card)
    face_down = list(cs.face_down)
    face_down[seat] = None
    ctx.events.append(CraftsmanTurnedUp(player=state.players[seat].name, craftsman=card))
    cs = replace(cs, face_up=tuple(face_up), face_down=tuple(face_down), used=None)
    return replace(state, craftsmen=cs)


def start_passing(state: GameState, ctx: Context) -> GameState:
    """craftsmen.pass: the end of the turn waits for the active player to pass a craftsman."""
    cs = craftsmen_of(state)
    if not cs.face_up[state.turn.player]:
        return state
    return replace(state, craftsmen=replace(cs, passing=True))


def pending(state: GameState) -> Pending | None:
    """craftsmen.pass, awaited with the abilities that take no action: craftsmen.use-one allows
    one until the craftsman is passed (their checks refuse a second use)."""
    cs = state.craftsmen
    if cs is None or not cs.passing or state.phase != "play":
        return None
    what = (t("pass the used {card} to the left neighbour (pass-craftsman)", card=cs.used) if cs.used else
            t("pass one of {cards} to the left neighbour (pass-craftsman); until then one of them may "
              "still be used", cards=tuple(cs.face_up[state.turn.player])))
    return Pending(seat=state.turn.player, rule="craftsmen.pass", what=what,
                   actions=(PassCraftsman, *FREE_ABILITIES))


# --- abilities on the base game's actions ---------------------------------------------------

def check_take(state: GameState, action: TakeMoney) -> list[Violation]:
    return fields_problem(state, [("goldsmith", "craftsmen.goldsmith")] if action.goldsmith else [])


def take_limit(state: GameState, action: TakeMoney) -> int:
    """craftsmen.goldsmith: several cards may total up to 8. A goldsmith use that is refused
    (check_take cites the craftsmen rule that forbids it) leaves the total unjudged: the base
    game's limit of 5 is not what the take asked for, nor is the goldsmith's 8 granted."""
    if not action.goldsmith:
        return 0
    if check_take(state, action):
        return _value(action.cards)  # no total is over it: the refusal is the goldsmith's alone
    return int(DATA["goldsmith_take_at_most"])


def check_buy(state: GameState, action: BuyBuilding) -> list[Violation]:
    uses = []
    if action.discount is not None:
        uses.append(("carpenter", "craftsmen.carpenter"))
    if action.from_display is not None:
        uses.append(("coiner", "craftsmen.coiner"))
    out = fields_problem(state, uses)
    if out or action.from_display is None:
        return out
    cards = action.from_display
    if not cards:
        return [Violation("craftsmen.coiner", t("from_display names no card: leave it out"))]
    out = [Violation("craftsmen.coiner", t("{card} is named twice", card=c)) for c in duplicates(cards)]
    out += [Violation("craftsmen.coiner", t("{card} is not in the money display ({display})", card=c,
                                            display=tuple(state.display)))
            for c in cards if c not in state.display]
    return out


def price_reduction(state: GameState, action: BuyBuilding) -> int:
    """craftsmen.carpenter: 1 or 2 off the price (base.buy: never below 0)."""
    return action.discount or 0


def extra_payment(state: GameState, action: BuyBuilding) -> tuple[str, ...]:
    """craftsmen.coiner: the display cards count in the payment."""
    return action.from_display or ()


def check_rotation(state: GameState, action: PlaceFromReserve | SwapWithReserve) -> list[Violation]:
    return fields_problem(state, [("mosaic-artist", "craftsmen.mosaic-artist")] if action.rotation else [])


def check_place_building(state: GameState, action: PlaceBuilding) -> list[Violation]:
    uses = []
    if action.rotation is not None:
        uses.append(("mosaic-artist", "craftsmen.mosaic-artist"))
    if action.displaced is not None:
        uses.append(("brickmaker", "craftsmen.brickmaker"))
    return fields_problem(state, uses)


def brickmaker_check(state: GameState, action: PlaceBuilding) -> list[Violation] | None:
    """craftsmen.brickmaker: the bought building takes an occupied space when its sides match
    every neighbour there; the displaced one goes to the reserve or obeys §4 where it goes."""
    if action.displaced is None:
        return None
    player = state.active
    tile = held_tile(player, action.tile)
    assert tile is not None
    pos = (action.x, action.y)
    old = next((p for p in player.alhambra if (p.x, p.y) == pos), None)
    if old is None:
        return [Violation("craftsmen.brickmaker", t("({x}, {y}) holds no building for {tile} to displace",
                                                    x=action.x, y=action.y, tile=action.tile))]
    if old.tile == FOUNTAIN:
        return [Violation("base.place.fountain-fixed", t("the fountain is never displaced"))]
    walls = rotate(walls_of(tile), action.rotation or 0)
    layout = layout_of(player.alhambra)
    out = [Violation("base.place.sides-match", t("{tile} taking the space of {old}: {why}",
                                                 tile=action.tile, old=old.tile, why=m))
           for m in side_mismatches(layout, names_of(player.alhambra), pos, walls, action.tile)]
    if out or not isinstance(action.displaced, ToAlhambra):
        return out
    after = replaced(player.alhambra, old, place_tile(tile, *pos, rotation=action.rotation or 0))
    target = (action.displaced.x, action.displaced.y)
    return [Violation(v.rule, t("the displaced {tile}: {why}", tile=old.tile, why=v.message))
            for v in check_placement(after, target, old.tile, walls_of(lift_tile(old)))]


def after_action(state: GameState, action: Action, ctx: Context) -> GameState:
    """Record the ability an action of the base game used; move what it displaced or paid."""
    if isinstance(action, TakeMoney) and action.goldsmith:
        return mark_used(state, "goldsmith", ctx)
    if isinstance(action, BuyBuilding):
        if action.discount is not None:
            return mark_used(state, "carpenter", ctx)
        if action.from_display is not None:
            display = tuple(c for c in state.display if c not in action.from_display)
            state = replace(state, display=display, discard=(*state.discard, *action.from_display))
            return mark_used(state, "coiner", ctx)
    if isinstance(action, PlaceFromReserve | PlaceBuilding | SwapWithReserve) and action.rotation is not None:
        return mark_used(state, "mosaic-artist", ctx)
    if isinstance(action, PlaceBuilding) and action.displaced is not None:
        return mark_used(_displace(state, action, ctx), "brickmaker", ctx)
    return state


def _displace(state: GameState, action: PlaceBuilding, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    old = next(p for p in player.alhambra if (p.x, p.y) == (action.x, action.y) and p.tile != action.tile)
    alhambra = tuple(p for p in player.alhambra if p is not old)
    lifted = lift_tile(old)
    ctx.events.append(BuildingRemoved(player=player.name, tile=old.tile, x=old.x, y=old.y))
    if not isinstance(action.displaced, ToAlhambra):
        ctx.events.append(BuildingReserved(player=player.name, tile=old.tile))
        return with_player(state, seat, alhambra=alhambra, reserve=(*player.reserve, lifted))
    x, y = action.displaced.x, action.displaced.y
    ctx.events.append(BuildingPlaced(player=player.name, tile=old.tile, x=x, y=y))
    return with_player(state, seat, alhambra=(*alhambra, place_tile(lifted, x, y)))


# --- variants: the base actions with an ability ---------------------------------------------

def candidates_carpenter(state: GameState, seat: int) -> Iterator[BuyBuilding]:
    if not can_use(state, seat, "carpenter"):
        return
    player = state.players[seat]
    for discount in DATA["carpenter_discounts"]:
        for space in state.market:
            if space.tile is None:
                continue
            price = max(0, CATALOGUE.tiles[space.tile].price - discount)
            for payment in payments(player.hand, space.currency, price):  # () when the price is 0
                yield BuyBuilding(player=player.name, tile=space.tile, payment=payment, discount=discount)


def candidates_coiner(state: GameState, seat: int) -> Iterator[BuyBuilding]:
    if not can_use(state, seat, "coiner"):
        return
    player = state.players[seat]
    for space in state.market:
        if space.tile is None:
            continue
        mine = [c for c in state.display if CATALOGUE.money[c].currency == space.currency]
        for size in range(1, len(mine) + 1):
            for cards in combinations(mine, size):
                need = max(0, CATALOGUE.tiles[space.tile].price - _value(cards))
                for payment in payments(player.hand, space.currency, need):
                    yield BuyBuilding(player=player.name, tile=space.tile, payment=payment,
                                      from_display=cards)


def candidates_goldsmith(state: GameState, seat: int) -> Iterator[TakeMoney]:
    """The takes only the goldsmith allows: several cards totalling 6 to 8."""
    if not can_use(state, seat, "goldsmith"):
        return
    name = state.players[seat].name
    seen: set[tuple[tuple[str, int], ...]] = set()
    limit = DATA["goldsmith_take_at_most"]
    for size in range(2, len(state.display) + 1):
        for cards in combinations(state.display, size):
            key = tuple(sorted((CATALOGUE.money[c].currency, CATALOGUE.money[c].value) for c in cards))
            if key in seen or not CATALOGUE.take_money_total_at_most < _value(cards) <= limit:
                continue
            seen.add(key)
            yield TakeMoney(player=name, cards=cards, goldsmith=True)


def _rotated_placements(alhambra: tuple[PlacedTile, ...],
                        tiles: tuple[Tile, ...]) -> Iterator[tuple[Tile, Rotation, tuple[int, int]]]:
    free = free_spots(alhambra)  # spots(layout_of(alhambra)), from the memo
    for tile in tiles:
        for rotation in ROTATIONS:
            walls = rotate(walls_of(tile), rotation)
            for where in free:
                if fits(where, walls):
                    yield tile, rotation, where.pos


def candidates_mosaic_held(state: GameState, seat: int) -> Iterator[PlaceBuilding]:
    if not can_use(state, seat, "mosaic-artist"):
        return
    player = state.players[seat]
    for tile, rotation, (x, y) in _rotated_placements(player.alhambra, player.held):
        yield PlaceBuilding(player=player.name, tile=tile.tile, x=x, y=y, rotation=rotation)


def candidates_mosaic_reserve(state: GameState, seat: int) -> Iterator[PlaceFromReserve]:
    if not can_use(state, seat, "mosaic-artist"):
        return
    player = state.players[seat]
    for tile, rotation, (x, y) in _rotated_placements(player.alhambra, player.reserve):
        yield PlaceFromReserve(player=player.name, tile=tile.tile, x=x, y=y, rotation=rotation)


def candidates_mosaic_swap(state: GameState, seat: int) -> Iterator[SwapWithReserve]:
    """Every reserve tile turned into the space of an Alhambra building it then matches."""
    if not can_use(state, seat, "mosaic-artist"):
        return
    player = state.players[seat]
    for old in player.alhambra:
        if old.tile == FOUNTAIN:
            continue
        for tile in player.reserve:
            for rotation in ROTATIONS:
                if not swap_problems(player, tile, old, rotation):
                    yield SwapWithReserve(player=player.name, tile=tile.tile, replaces=old.tile,
                                          rotation=rotation)


def candidates_brickmaker(state: GameState, seat: int) -> Iterator[PlaceBuilding]:
    if not can_use(state, seat, "brickmaker"):
        return
    player = state.players[seat]
    layout = layout_of(player.alhambra)
    names = names_of(player.alhambra)
    for tile in player.held:
        walls = walls_of(tile)
        for old in player.alhambra:
            pos = (old.x, old.y)
            if old.tile == FOUNTAIN or side_mismatches(layout, names, pos, walls, tile.tile):
                continue
            yield PlaceBuilding(player=player.name, tile=tile.tile, x=old.x, y=old.y, displaced=ToReserve())
            after = replaced(player.alhambra, old, place_tile(tile, *pos))
            for _, (x, y) in placements(after, [lift_tile(old)]):
                yield PlaceBuilding(player=player.name, tile=tile.tile, x=old.x, y=old.y,
                                    displaced=ToAlhambra(x=x, y=y))


# --- the blacksmith's display ---------------------------------------------------------------

def display_limit(state: GameState) -> int:
    return int(DATA["blacksmith_display"])


VARIANTS = (
    (BuyBuilding, candidates_carpenter, sampler(candidates_carpenter)),
    (BuyBuilding, candidates_coiner, sampler(candidates_coiner)),
    (TakeMoney, candidates_goldsmith, sampler(candidates_goldsmith)),
    (PlaceBuilding, candidates_mosaic_held, sampler(candidates_mosaic_held)),
    (PlaceBuilding, candidates_brickmaker, sampler(candidates_brickmaker)),
    (PlaceFromReserve, candidates_mosaic_reserve, sampler(candidates_mosaic_reserve)),
    (SwapWithReserve, candidates_mosaic_swap, sampler(candidates_mosaic_swap)),
)
