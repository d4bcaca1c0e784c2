"""Travelling Craftsmen (RULES.md §C, seed 000): each player has two face-up craftsmen; during
their turn they may use one craftsman's ability once, and at the end of the turn they pass a
craftsman (the used one, else either face-up one) face down to their left neighbour, then turn
up their own face-down one (craftsmen.flip). Dirk never gets craftsmen.

How the abilities are used:
- mosaic-artist: `rotation` on `place-building`, `place-from-reserve` or `swap-with-reserve`;
- carpenter: `discount` (1 or 2) on `buy-building`; coiner: `from_display` on `buy-building`;
- goldsmith: `goldsmith: true` on `take-money`;
- brickmaker: `displaced` on `place-building` (the building at (x, y) goes to the reserve or to a
  position);
- blacksmith (`use-blacksmith`), mortar-mixer (`swap-market-tiles`), stonemason
  (`exchange-money`) and builder (`builder-redesign`) are actions of their own that do not use
  up the turn's action (kind "free").

Decisions where RULES.md is silent (gathered in docs/decisions.md, "Travelling Craftsmen"):
- A second use in the same turn (of any craftsman, also the same one) is refused citing
  craftsmen.use-one; an action naming two abilities too.
- The abilities work during the holder's whole turn while it is played (not while leftover
  tiles are placed at the end of the game): free actions before, between or after the turn's
  actions, also while held buildings are placed, and after the last action (a take-money, a
  purchase placed) until the craftsman is passed: `pass-craftsman` is awaited together with
  them (craftsmen.use-one). One used then asks for the pass again after any decision it
  brought about (a vendor's visit); a scoring card a blacksmith draws then, past the turn's
  scoring step, is resolved at once, before the pass (still at the end of the turn).
- The face-down card is turned up at end-of-turn position 71, right after the pass (70): the
  first player's third card at the end of their first turn, every received card at the end of
  its receiver's next turn.
- Passing is always asked (`pass-craftsman`), even when the used card leaves no choice.
- blacksmith: refused when the display already holds 6. mortar-mixer: both spaces must hold a
  tile (tokens and hidden tiles move with their tile). stonemason: any hand card for any
  display card of the same currency.
- builder: one of (a) reserve -> Alhambra (x, y), (b) Alhambra -> reserve (no position), (c)
  swap (`replaces`), (d) Alhambra -> another empty space (x, y); only the result counts: it must
  obey §4 as a whole (every tile reachable, no hole, sides matching). A moved tile keeps its
  rotation; the fountain never moves.
- brickmaker: the bought building takes the space when its sides match every neighbour there
  (so paths and holes stay as they were); the displaced building goes to the reserve or to an
  empty space where it obeys §4 in the Alhambra after the replacement, unrotated.
- Hidden: each face-down card (only its holder sees it) and the cards out of the game; a pass
  event does not name the card.
"""

from __future__ import annotations

from collections import Counter
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
)
from ...base.buy import market_space, payments
from ...base.money import duplicates
from ...base.placement import held_tile
from ...base.redesign import in_reserve, placed, removal_problems, swap_problems
from ...base.turn import refill_display, scoring_step
from ...catalogue import CATALOGUE, FOUNTAIN, load_data
from ...events import BuildingPlaced, BuildingRemoved, BuildingReserved, Event
from ...flow import with_player
from ...grid import (
    check_layout,
    check_placement,
    fits,
    layout_of,
    names_of,
    placements,
    rotate,
    side_mismatches,
    spots,
    walls_of,
)
from ...module import ActionRule, Context, Module, Pending, ViewPart, register
from ...records import Text
from ...rng import Generator
from ...state import Coord, GameState, PlacedTile, Tile, lift_tile, place_tile
from ...violations import Violation
from .model import CraftsmenSeen, CraftsmenState

DATA = load_data("craftsmen")
KIND: dict[str, str] = {c["id"]: c["kind"] for c in DATA["cards"]}
MARK: dict[str, str] = {c["id"]: c["mark"] for c in DATA["cards"]}
SETUP = 57  # after the first player is known (50), the market (52) and Dirk's tiles (55)
PASS, FLIP = 70, 71  # RULES.md §H step 7, then right after the pass (craftsmen.flip)
ROTATIONS: tuple[Rotation, ...] = (90, 180, 270)
_SAMPLE = 200


# --- actions and events ---------------------------------------------------------------------

class UseBlacksmith(Action, tag="use-blacksmith"):
    """craftsmen.blacksmith: draw money cards until the display holds 6."""


class SwapMarketTiles(Action, tag="swap-market-tiles"):
    """craftsmen.mortar-mixer: the market tiles `first` and `second` change spaces."""

    first: Text
    second: Text


class ExchangeMoney(Action, tag="exchange-money"):
    """craftsmen.stonemason: `give` (hand) for `take` (display), of the same currency."""

    give: Text
    take: Text


class BuilderRedesign(Action, tag="builder-redesign"):
    """craftsmen.builder: an extra redesign. A reserve tile goes to (x, y) or takes the space of
    the Alhambra tile `replaces`; an Alhambra tile goes to the reserve (no position) or moves to
    the empty space (x, y)."""

    tile: Text
    x: Coord | None = None
    y: Coord | None = None
    replaces: Text | None = None


class PassCraftsman(Action, tag="pass-craftsman"):
    """craftsmen.pass: the craftsman passed face down to the left neighbour."""

    craftsman: Text


# The abilities that are actions of their own: usable until the craftsman is passed.
FREE_ABILITIES = (UseBlacksmith, SwapMarketTiles, ExchangeMoney, BuilderRedesign)


class CraftsmanUsed(Event, tag="craftsman-used"):
    player: str
    craftsman: str


class CraftsmanPassed(Event, tag="craftsman-passed"):
    """Public: who passed a craftsman to whom (the card goes face down)."""

    player: str
    to: str


class CraftsmanTurnedUp(Event, tag="craftsman-turned-up"):
    player: str
    craftsman: str


class MarketTilesSwapped(Event, tag="market-tiles-swapped"):
    player: str
    first: str
    second: str


class MoneyExchanged(Event, tag="money-exchanged"):
    player: str
    gave: str
    took: str


# --- helpers --------------------------------------------------------------------------------

def _cs(state: GameState) -> CraftsmenState:
    assert state.craftsmen is not None
    return state.craftsmen


def card_of(state: GameState, seat: int, kind: str) -> str | None:
    """The first face-up craftsman of `kind` of the player at `seat`."""
    return next((c for c in _cs(state).face_up[seat] if KIND[c] == kind), None)


def can_use(state: GameState, seat: int, kind: str) -> bool:
    cs = state.craftsmen
    return (cs is not None and state.phase == "play" and seat == state.turn.player and cs.used is None
            and card_of(state, seat, kind) is not None)


def ability_problem(state: GameState, kind: str, rule: str) -> list[Violation]:
    """May the active player use a face-up craftsman of `kind` now? (craftsmen.use-one)"""
    if state.phase != "play":
        return [Violation(rule, f"the {kind}'s ability is used only during its holder's turn, not "
                                "while leftover tiles are placed")]
    seat = state.turn.player
    name = state.players[seat].name
    cs = _cs(state)
    if card_of(state, seat, kind) is None:
        return [Violation(rule, f"{name} has no face-up {kind} (face up: {list(cs.face_up[seat])})")]
    if cs.used is not None:
        return [Violation("craftsmen.use-one", f"{name} already used the {cs.used} this turn: one "
                                               "craftsman's ability, once a turn")]
    return []


def fields_problem(state: GameState, uses: list[tuple[str, str]]) -> list[Violation]:
    if len(uses) > 1:
        kinds = " and ".join(k for k, _ in uses)
        return [Violation("craftsmen.use-one", f"one action cannot use both the {kinds}: one "
                                               "craftsman's ability a turn")]
    return ability_problem(state, *uses[0]) if uses else []


def _mark_used(state: GameState, kind: str, ctx: Context) -> GameState:
    seat = state.turn.player
    card = card_of(state, seat, kind)
    assert card is not None
    ctx.events.append(CraftsmanUsed(player=state.players[seat].name, craftsman=card))
    cs = replace(_cs(state), used=card)
    if cs.passing:
        # Used while the pass was awaited (craftsmen.use-one): the end of the turn goes on again
        # from the pass, after any decision the ability brought about (a vendor's visit after a
        # builder's move), so the pass stays the turn's last decision.
        cs = replace(cs, passing=False)
        state = replace(state, turn=replace(state.turn, ending=PASS))
    return replace(state, craftsmen=cs)


def _value(cards: tuple[str, ...]) -> int:
    return sum(CATALOGUE.money[c].value for c in cards)


# --- setup, flip, pass ----------------------------------------------------------------------

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
    cs = _cs(state)
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
    cs = _cs(state)
    if not cs.face_up[state.turn.player]:
        return state
    return replace(state, craftsmen=replace(cs, passing=True))


def pending(state: GameState) -> Pending | None:
    """craftsmen.pass, awaited with the abilities that take no action: craftsmen.use-one allows
    one until the craftsman is passed (their checks refuse a second use)."""
    cs = state.craftsmen
    if cs is None or not cs.passing or state.phase != "play":
        return None
    what = (f"pass the used {cs.used}" if cs.used else
            f"pass one of {list(cs.face_up[state.turn.player])}") + " to the left neighbour (pass-craftsman)"
    if cs.used is None:
        what += "; until then one of them may still be used"
    return Pending(seat=state.turn.player, rule="craftsmen.pass", what=what,
                   actions=(PassCraftsman, *FREE_ABILITIES))


def check_pass(state: GameState, action: PassCraftsman) -> list[Violation]:
    cs = _cs(state)
    seat = state.turn.player
    if action.craftsman not in cs.face_up[seat]:
        return [Violation("craftsmen.pass", f"{action.craftsman} is no face-up craftsman of "
                                            f"{action.player} ({list(cs.face_up[seat])})")]
    if cs.used is not None and action.craftsman != cs.used:
        return [Violation("craftsmen.pass", f"{action.player} used the {cs.used} this turn and must "
                                            f"pass it, not {action.craftsman}")]
    return []


def left_of(state: GameState, seat: int) -> int:
    """The left neighbour; Dirk has no seat, so with two players it is the other player."""
    return (seat + 1) % len(state.players)


def apply_pass(state: GameState, action: PassCraftsman, ctx: Context) -> GameState:
    cs = _cs(state)
    seat = state.turn.player
    to = left_of(state, seat)
    face_up = list(cs.face_up)
    face_up[seat] = tuple(c for c in face_up[seat] if c != action.craftsman)
    face_down = list(cs.face_down)
    face_down[to] = action.craftsman
    ctx.events.append(CraftsmanPassed(player=action.player, to=state.players[to].name))
    cs = replace(cs, face_up=tuple(face_up), face_down=tuple(face_down), used=None, passing=False)
    return replace(state, craftsmen=cs, turn=replace(state.turn, ending=FLIP))


def candidates_pass(state: GameState, seat: int) -> Iterator[PassCraftsman]:
    cs = _cs(state)
    name = state.players[seat].name
    for card in [cs.used] if cs.used else cs.face_up[seat]:
        yield PassCraftsman(player=name, craftsman=card)


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
        return [Violation("craftsmen.coiner", "from_display names no card: leave it out")]
    out = [Violation("craftsmen.coiner", f"{c} is named twice") for c in duplicates(cards)]
    out += [Violation("craftsmen.coiner", f"{c} is not in the money display {list(state.display)}")
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
        return [Violation("craftsmen.brickmaker", f"{pos} holds no building for {action.tile} to displace")]
    if old.tile == FOUNTAIN:
        return [Violation("base.place.fountain-fixed", "the fountain is never displaced")]
    walls = rotate(walls_of(tile), action.rotation or 0)
    layout = layout_of(player.alhambra)
    out = [Violation("base.place.sides-match", f"{action.tile} taking the space of {old.tile}: {m}")
           for m in side_mismatches(layout, names_of(player.alhambra), pos, walls, action.tile)]
    if out or not isinstance(action.displaced, tuple):
        return out
    after = _replaced(player.alhambra, old, place_tile(tile, *pos, rotation=action.rotation or 0))
    target = (action.displaced[0], action.displaced[1])
    return [Violation(v.rule, f"the displaced {old.tile}: {v.message}")
            for v in check_placement(after, target, old.tile, walls_of(lift_tile(old)))]


def _replaced(alhambra: tuple[PlacedTile, ...], old: PlacedTile, new: PlacedTile) -> tuple[PlacedTile, ...]:
    return tuple(new if p is old else p for p in alhambra)


def after_action(state: GameState, action: Action, ctx: Context) -> GameState:
    """Record the ability an action of the base game used; move what it displaced or paid."""
    if isinstance(action, TakeMoney) and action.goldsmith:
        return _mark_used(state, "goldsmith", ctx)
    if isinstance(action, BuyBuilding):
        if action.discount is not None:
            return _mark_used(state, "carpenter", ctx)
        if action.from_display is not None:
            display = tuple(c for c in state.display if c not in action.from_display)
            state = replace(state, display=display, discard=(*state.discard, *action.from_display))
            return _mark_used(state, "coiner", ctx)
    if isinstance(action, PlaceFromReserve | PlaceBuilding | SwapWithReserve) and action.rotation is not None:
        return _mark_used(state, "mosaic-artist", ctx)
    if isinstance(action, PlaceBuilding) and action.displaced is not None:
        return _mark_used(_displace(state, action, ctx), "brickmaker", ctx)
    return state


def _displace(state: GameState, action: PlaceBuilding, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    old = next(p for p in player.alhambra if (p.x, p.y) == (action.x, action.y) and p.tile != action.tile)
    alhambra = tuple(p for p in player.alhambra if p is not old)
    lifted = lift_tile(old)
    ctx.events.append(BuildingRemoved(player=player.name, tile=old.tile, x=old.x, y=old.y))
    if not isinstance(action.displaced, tuple):
        ctx.events.append(BuildingReserved(player=player.name, tile=old.tile))
        return with_player(state, seat, alhambra=alhambra, reserve=(*player.reserve, lifted))
    x, y = action.displaced
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
    free = spots(layout_of(alhambra))
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
            yield PlaceBuilding(player=player.name, tile=tile.tile, x=old.x, y=old.y, displaced="reserve")
            after = _replaced(player.alhambra, old, place_tile(tile, *pos))
            for _, target in placements(after, [lift_tile(old)]):
                yield PlaceBuilding(player=player.name, tile=tile.tile, x=old.x, y=old.y, displaced=target)


def _sampler(candidates):  # type: ignore[no-untyped-def]
    """A random pick among (up to _SAMPLE of) the candidates."""
    def sample(state: GameState, seat: int, rng: Generator):  # type: ignore[no-untyped-def]
        options = []
        for action in candidates(state, seat):
            options.append(action)
            if len(options) >= _SAMPLE:
                break
        return rng.choice(options) if options else None
    return sample


# --- blacksmith, mortar mixer, stonemason ---------------------------------------------------

def check_blacksmith(state: GameState, action: UseBlacksmith) -> list[Violation]:
    out = ability_problem(state, "blacksmith", "craftsmen.blacksmith")
    size = DATA["blacksmith_display"]
    if not out and len(state.display) >= size:
        out.append(Violation("craftsmen.blacksmith", f"the display already holds {len(state.display)} cards"))
    return out


def apply_blacksmith(state: GameState, action: UseBlacksmith, ctx: Context) -> GameState:
    """A scoring card drawn is set aside; its round is held at the end of this turn (step 40),
    or at once when the turn is past that step, waiting for the pass (seed 000.18)."""
    late = _cs(state).passing
    state = refill_display(_mark_used(state, "blacksmith", ctx), ctx, DATA["blacksmith_display"])
    return scoring_step(state, ctx) if late else state


def candidates_blacksmith(state: GameState, seat: int) -> Iterator[UseBlacksmith]:
    if can_use(state, seat, "blacksmith") and len(state.display) < DATA["blacksmith_display"]:
        yield UseBlacksmith(player=state.players[seat].name)


def check_mortar(state: GameState, action: SwapMarketTiles) -> list[Violation]:
    out = ability_problem(state, "mortar-mixer", "craftsmen.mortar-mixer")
    if out:
        return out
    on_market = [s.tile for s in state.market if s.tile]
    out = [Violation("craftsmen.mortar-mixer", f"{t} is not on the market (it holds {on_market})")
           for t in (action.first, action.second) if market_space(state, t) is None]
    if not out and action.first == action.second:
        out.append(Violation("craftsmen.mortar-mixer", f"{action.first} cannot swap with itself"))
    return out


def apply_mortar(state: GameState, action: SwapMarketTiles, ctx: Context) -> GameState:
    a = market_space(state, action.first)
    b = market_space(state, action.second)
    assert a is not None and b is not None
    tokens = [f for f in a.__struct_fields__ if f != "currency"]

    def moved(space, other):  # type: ignore[no-untyped-def]
        return replace(space, **{f: getattr(other, f) for f in tokens})

    market = tuple(moved(s, b) if s is a else moved(s, a) if s is b else s for s in state.market)
    state = _mark_used(replace(state, market=market), "mortar-mixer", ctx)
    ctx.events.append(MarketTilesSwapped(player=action.player, first=action.first, second=action.second))
    return state


def candidates_mortar(state: GameState, seat: int) -> Iterator[SwapMarketTiles]:
    if not can_use(state, seat, "mortar-mixer"):
        return
    tiles = [s.tile for s in state.market if s.tile is not None]
    for first, second in combinations(tiles, 2):
        yield SwapMarketTiles(player=state.players[seat].name, first=first, second=second)


def check_stonemason(state: GameState, action: ExchangeMoney) -> list[Violation]:
    out = ability_problem(state, "stonemason", "craftsmen.stonemason")
    if out:
        return out
    player = state.active
    if action.give not in player.hand:
        out.append(Violation("craftsmen.stonemason", f"{action.give} is not in {player.name}'s hand"))
    if action.take not in state.display:
        out.append(Violation("craftsmen.stonemason", f"{action.take} is not in the money display "
                                                     f"{list(state.display)}"))
    if not out and CATALOGUE.money[action.give].currency != CATALOGUE.money[action.take].currency:
        out.append(Violation("craftsmen.stonemason", f"{action.give} and {action.take} are not of the "
                                                     "same currency"))
    return out


def apply_stonemason(state: GameState, action: ExchangeMoney, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    hand = (*(c for c in player.hand if c != action.give), action.take)
    display = tuple(action.give if c == action.take else c for c in state.display)
    state = with_player(replace(state, display=display), seat, hand=hand)
    ctx.events.append(MoneyExchanged(player=player.name, gave=action.give, took=action.take))
    return _mark_used(state, "stonemason", ctx)


def candidates_stonemason(state: GameState, seat: int) -> Iterator[ExchangeMoney]:
    if not can_use(state, seat, "stonemason"):
        return
    player = state.players[seat]
    for give in sorted(player.hand):
        for take in state.display:
            if CATALOGUE.money[give].currency == CATALOGUE.money[take].currency:
                yield ExchangeMoney(player=player.name, give=give, take=take)


# --- builder --------------------------------------------------------------------------------

def check_builder(state: GameState, action: BuilderRedesign) -> list[Violation]:
    out = ability_problem(state, "builder", "craftsmen.builder")
    if out:
        return out
    player = state.active
    rule = "craftsmen.builder"
    if (action.x is None) != (action.y is None):
        return [Violation(rule, "give both x and y, or neither")]
    to = (action.x, action.y) if action.x is not None and action.y is not None else None
    if to is not None and action.replaces is not None:
        return [Violation(rule, "a tile goes either to (x, y) or into the space of `replaces`, not both")]
    new = in_reserve(player, action.tile)
    old = placed(player, action.tile)
    if new is not None:
        if action.replaces is not None:
            gone = placed(player, action.replaces)
            if gone is None or gone.tile == FOUNTAIN:
                return [Violation(rule, f"{action.replaces} is no building of {player.name}'s Alhambra")]
            return swap_problems(player, new, gone)
        if to is None:
            return [Violation(rule, f"{action.tile} is on the reserve: name where it goes (x, y or "
                                    "replaces)")]
        return check_placement(player.alhambra, to, action.tile, walls_of(new))
    if old is None:
        if any(t.tile == action.tile for t in player.held):
            return [Violation("base.buy.hold", f"{action.tile} was bought this turn and cannot be used "
                                               "in a redesign")]
        return [Violation(rule, f"{action.tile} is neither in {player.name}'s Alhambra nor reserve")]
    if old.tile == FOUNTAIN:
        return [Violation("base.place.fountain-fixed", "the fountain never moves")]
    if action.replaces is not None:
        return [Violation(rule, f"{action.tile} is in the Alhambra: a swap takes a reserve tile")]
    if to is None:
        return removal_problems(player, old)
    return move_problems(player.alhambra, old, to)


def move_problems(alhambra: tuple[PlacedTile, ...], old: PlacedTile, to: tuple[int, int]) -> list[Violation]:
    """craftsmen.builder: `old` moved to the empty space `to`: the result must obey §4."""
    if to == (old.x, old.y):
        return [Violation("base.place.empty", f"{old.tile} already stands at {to}")]
    rest = tuple(p for p in alhambra if p is not old)
    out = check_placement(rest, to, old.tile, walls_of(old))
    if out:
        return out
    return [Violation(v.rule, f"moving {old.tile} to {to}: {v.message}")
            for v in check_layout((*rest, _moved(old, to)))]


def _moved(old: PlacedTile, to: tuple[int, int]) -> PlacedTile:
    return place_tile(lift_tile(old), *to, rotation=old.rotation)


def apply_builder(state: GameState, action: BuilderRedesign, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    name = player.name
    new = in_reserve(player, action.tile)
    old = placed(player, action.tile)
    if new is not None:
        reserve = tuple(t for t in player.reserve if t is not new)
        if action.replaces is not None:
            gone = placed(player, action.replaces)
            assert gone is not None
            alhambra = _replaced(player.alhambra, gone, place_tile(new, gone.x, gone.y))
            reserve = (*reserve, lift_tile(gone))
            ctx.events += [BuildingRemoved(player=name, tile=gone.tile, x=gone.x, y=gone.y),
                           BuildingReserved(player=name, tile=gone.tile),
                           BuildingPlaced(player=name, tile=new.tile, x=gone.x, y=gone.y)]
        else:
            assert action.x is not None and action.y is not None
            alhambra = (*player.alhambra, place_tile(new, action.x, action.y))
            ctx.events.append(BuildingPlaced(player=name, tile=new.tile, x=action.x, y=action.y))
        state = with_player(state, seat, alhambra=alhambra, reserve=reserve)
    else:
        assert old is not None
        ctx.events.append(BuildingRemoved(player=name, tile=old.tile, x=old.x, y=old.y))
        if action.x is None or action.y is None:
            state = with_player(state, seat, alhambra=tuple(p for p in player.alhambra if p is not old),
                                reserve=(*player.reserve, lift_tile(old)))
            ctx.events.append(BuildingReserved(player=name, tile=old.tile))
        else:
            to = (action.x, action.y)
            state = with_player(state, seat, alhambra=_replaced(player.alhambra, old, _moved(old, to)))
            ctx.events.append(BuildingPlaced(player=name, tile=old.tile, x=action.x, y=action.y))
    return _mark_used(state, "builder", ctx)


def candidates_builder(state: GameState, seat: int) -> Iterator[BuilderRedesign]:
    """Every builder redesign: the base game's three kinds and every move in the Alhambra."""
    if not can_use(state, seat, "builder"):
        return
    player = state.players[seat]
    name = player.name
    for tile, (x, y) in placements(player.alhambra, player.reserve):
        yield BuilderRedesign(player=name, tile=tile.tile, x=x, y=y)
    for old in player.alhambra:
        if old.tile == FOUNTAIN:
            continue
        if not removal_problems(player, old):
            yield BuilderRedesign(player=name, tile=old.tile)
        for t in player.reserve:
            if not swap_problems(player, t, old):
                yield BuilderRedesign(player=name, tile=t.tile, replaces=old.tile)
        rest = tuple(p for p in player.alhambra if p is not old)
        walls = walls_of(old)
        for where in spots(layout_of(rest)):
            if where.pos != (old.x, old.y) and fits(where, walls) and \
                    not check_layout((*rest, _moved(old, where.pos))):
                yield BuilderRedesign(player=name, tile=old.tile, x=where.pos[0], y=where.pos[1])


# --- consistency and components -------------------------------------------------------------

def expected(state: GameState) -> Iterator[str]:
    for card in KIND:
        yield f"craftsman:{card}"


def located(state: GameState) -> Iterator[tuple[str, str]]:
    cs = state.craftsmen
    if cs is None:
        return
    for seat, cards in enumerate(cs.face_up):
        who = state.players[seat].name if seat < len(state.players) else f"seat {seat}"
        for card in cards:
            yield f"craftsman:{card}", f"{who}'s face-up craftsmen"
    for seat, down in enumerate(cs.face_down):
        if down is not None:
            yield f"craftsman:{down}", f"face down before seat {seat}"
    for card in cs.out:
        yield f"craftsman:{card}", "out of the game"


def consistency(state: GameState) -> list[Violation]:
    """A craftsmen part dealt to the players' seats only (craftsmen.setup, craftsmen.dirk), of
    known cards, as many as were dealt, each once; flips, the use and the pass as a turn leaves
    them. Nothing more is judged of cards of the wrong seats, nor of unknown cards."""
    cs = state.craftsmen
    if cs is None:
        return [Violation("craftsmen.setup", "the craftsmen module is on but the state has no "
                                             "`craftsmen` part")]
    seats = _seat_problems(state, cs)
    if seats:
        return seats
    if not 0 <= state.turn.player < len(state.players):
        return []  # the base game refuses the state
    unknown = [c for c in (*(c for cards in cs.face_up for c in cards), *cs.out) if c not in KIND]
    unknown += [c for c in cs.face_down if c is not None and c not in KIND]
    if unknown:
        return [Violation("craftsmen.setup", f"{unknown} are no craftsman cards")]
    in_play = [c for cards in cs.face_up for c in cards] + [c for c in cs.face_down if c is not None]
    return (_dealt_problems(in_play, len(state.players)) + flip_problems(state, cs)
            + _use_and_pass_problems(state, cs) + _twice(in_play, cs))


def _seat_problems(state: GameState, cs: CraftsmenState) -> list[Violation]:
    """Face-up and face-down craftsmen for each player's seat; craftsmen.dirk when Dirk's seat
    seems dealt too (he never gets any)."""
    n = len(state.players)
    if len(cs.face_up) == n and len(cs.face_down) == n:
        return []
    rule = "craftsmen.dirk" if state.dirk is not None and n + 1 in (len(cs.face_up), len(cs.face_down)) \
        else "craftsmen.setup"
    return [Violation(rule, f"craftsmen are held by the {n} players only (Dirk never gets any), "
                            f"not face up by {len(cs.face_up)} seats and face down by "
                            f"{len(cs.face_down)}")]


def _dealt_problems(in_play: list[str], n: int) -> list[Violation]:
    """craftsmen.setup: as many craftsmen in play as are dealt for `n` players, each of a mark
    used with `n` players."""
    out = []
    marks = DATA["marks_in_play"].get(str(n), [])
    if len(in_play) != DATA["dealt_face_up"] * n + 1:
        out.append(Violation("craftsmen.setup", f"{len(in_play)} craftsmen are in play; with {n} players "
                                                f"there are {DATA['dealt_face_up'] * n + 1}"))
    out += [Violation("craftsmen.setup", f"{c} (marked {MARK[c]}) is not used with {n} players")
            for c in in_play if MARK[c] not in marks]
    return out


def _use_and_pass_problems(state: GameState, cs: CraftsmenState) -> list[Violation]:
    """craftsmen.use-one: the used craftsman is one of the active player's face-up ones;
    craftsmen.pass: a craftsman is passed during play, once the turn's actions are over."""
    out = []
    if cs.used is not None and cs.used not in cs.face_up[state.turn.player]:
        out.append(Violation("craftsmen.use-one", f"the used {cs.used} is not among "
                                                  f"{state.active.name}'s face-up craftsmen"))
    if cs.passing and state.phase != "play":
        out.append(Violation("craftsmen.pass", "a craftsman is passed only during play"))
    if cs.passing and state.turn.actions:
        out.append(Violation("craftsmen.pass", "a craftsman is passed once the turn's actions are over"))
    return out


def _twice(in_play: list[str], cs: CraftsmenState) -> list[Violation]:
    """craftsmen.setup: each craftsman card exists once, in play or out."""
    counts = Counter(in_play + list(cs.out))
    return [Violation("craftsmen.setup", f"{c} appears {k} times")
            for c, k in sorted(counts.items()) if k > 1]


def flip_problems(state: GameState, cs: CraftsmenState) -> list[Violation]:
    """craftsmen.flip: one card lies face down, from setup to the end of the game; during play
    the active player holds it (dealt at setup, or received before their turn; it is turned up
    right after they pass); every player holds two face up."""
    per = DATA["dealt_face_up"]
    out = [Violation("craftsmen.flip", f"{state.players[seat].name} holds {len(cards)} face-up "
                                       f"craftsmen; every player holds {per}")
           for seat, cards in enumerate(cs.face_up) if len(cards) != per]
    down = [seat for seat, c in enumerate(cs.face_down) if c is not None]
    if len(down) != 1:
        out.append(Violation("craftsmen.flip", f"{len(down)} craftsmen lie face down; exactly one does"))
    elif state.phase == "play" and down != [state.turn.player]:
        holder = state.players[down[0]].name
        out.append(Violation("craftsmen.flip", f"{holder} holds a face-down craftsman during "
                                               f"{state.active.name}'s turn: it is turned up right "
                                               "after its holder passes, at the end of their turn"))
    return out


def display_limit(state: GameState) -> int:
    return int(DATA["blacksmith_display"])


def _free(action, rule, check, apply, candidates):  # type: ignore[no-untyped-def]
    return ActionRule(action=action, rule=rule, kind="free", check=check, apply=apply,
                      candidates=candidates, sample=_sampler(candidates))


def seen(state: GameState, seat: int | None) -> CraftsmenSeen:
    """craftsmen.pass: a face-down craftsman only its holder sees; the cards out of the game
    nobody (a count)."""
    cs = _cs(state)
    return CraftsmenSeen(face_up=cs.face_up, face_down=tuple(c is not None for c in cs.face_down),
                         own_face_down=None if seat is None else cs.face_down[seat],
                         out_size=len(cs.out), used=cs.used, passing=cs.passing)


CRAFTSMEN = register(Module(
    id="craftsmen",
    name="Travelling Craftsmen",
    rule_ids=("craftsmen.setup", "craftsmen.flip", "craftsmen.use-one", "craftsmen.pass",
              "craftsmen.mosaic-artist", "craftsmen.carpenter", "craftsmen.blacksmith",
              "craftsmen.goldsmith", "craftsmen.coiner", "craftsmen.mortar-mixer", "craftsmen.builder",
              "craftsmen.brickmaker", "craftsmen.stonemason", "craftsmen.dirk"),
    actions=(
        _free(UseBlacksmith, "craftsmen.blacksmith", check_blacksmith, apply_blacksmith,
              candidates_blacksmith),
        _free(SwapMarketTiles, "craftsmen.mortar-mixer", check_mortar, apply_mortar, candidates_mortar),
        _free(ExchangeMoney, "craftsmen.stonemason", check_stonemason, apply_stonemason,
              candidates_stonemason),
        _free(BuilderRedesign, "craftsmen.builder", check_builder, apply_builder, candidates_builder),
        ActionRule(action=PassCraftsman, rule="craftsmen.pass", kind="decision", check=check_pass,
                   apply=apply_pass, candidates=candidates_pass, sample=_sampler(candidates_pass)),
    ),
    checks=((TakeMoney, check_take), (BuyBuilding, check_buy), (PlaceBuilding, check_place_building),
            (PlaceFromReserve, check_rotation), (SwapWithReserve, check_rotation)),
    variants=(
        (BuyBuilding, candidates_carpenter, _sampler(candidates_carpenter)),
        (BuyBuilding, candidates_coiner, _sampler(candidates_coiner)),
        (TakeMoney, candidates_goldsmith, _sampler(candidates_goldsmith)),
        (PlaceBuilding, candidates_mosaic_held, _sampler(candidates_mosaic_held)),
        (PlaceBuilding, candidates_brickmaker, _sampler(candidates_brickmaker)),
        (PlaceFromReserve, candidates_mosaic_reserve, _sampler(candidates_mosaic_reserve)),
        (SwapWithReserve, candidates_mosaic_swap, _sampler(candidates_mosaic_swap)),
    ),
    setup=((SETUP, setup),),
    end_of_turn=((PASS, start_passing), (FLIP, flip)),
    after_action=after_action,
    pending=pending,
    price_reduction=price_reduction,
    extra_payment=extra_payment,
    take_limit=take_limit,
    placement_check=brickmaker_check,
    display_limit=display_limit,
    components=located,
    expected=expected,
    consistency=consistency,
    events=(CraftsmanUsed, CraftsmanPassed, CraftsmanTurnedUp, MarketTilesSwapped, MoneyExchanged),
    tokens=("rotation",),
    play_tokens={"rotation": "craftsmen.mosaic-artist"},  # never on a leftover tile (base.end.leftovers)
    view=ViewPart(CraftsmenSeen, seen),
    default_data=DATA,
))
