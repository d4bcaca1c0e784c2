"""The Travelling Craftsmen's own actions: passing a craftsman (craftsmen.pass) and the abilities
that are actions of their own (blacksmith, mortar mixer, stonemason, builder; kind "free"), with
the checks every ability shares (craftsmen.use-one) and the marking of a craftsman used."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from msgspec.structs import replace

from ...actions import (
    Action,
)
from ...base.buy import market_space
from ...base.redesign import in_reserve, placed, removal_problems, swap_problems
from ...base.turn import refill_display, scoring_step
from ...catalogue import CATALOGUE, FOUNTAIN, NEIGHBOURS
from ...events import BuildingPlaced, BuildingRemoved, BuildingReserved, Event
from ...flow import with_player
from ...grid import (
    check_layout,
    check_placement,
    fits,
    free_spots,
    placements,
    removal,
    walls_of,
)
from ...module import ActionRule, Context
from ...records import Text
from ...rng import Generator
from ...state import Coord, GameState, PlacedTile, lift_tile, place_tile
from ...text import t, tn, word
from ...violations import Violation
from .data import DATA, FLIP, KIND, PASS, craftsmen_of

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


# --- using an ability (craftsmen.use-one) ---------------------------------------------------

def card_of(state: GameState, seat: int, kind: str) -> str | None:
    """The first face-up craftsman of `kind` of the player at `seat`."""
    return next((c for c in craftsmen_of(state).face_up[seat] if KIND[c] == kind), None)


def can_use(state: GameState, seat: int, kind: str) -> bool:
    cs = state.craftsmen
    return (cs is not None and state.phase == "play" and seat == state.turn.player and cs.used is None
            and card_of(state, seat, kind) is not None)


def ability_problem(state: GameState, kind: str, rule: str) -> list[Violation]:
    """May the active player use a face-up craftsman of `kind` now? (craftsmen.use-one)"""
    if state.phase != "play":
        return [Violation(rule, t("the {kind}'s ability is used only during its holder's turn, not "
                                  "while leftover tiles are placed", kind=word(kind)))]
    seat = state.turn.player
    name = state.players[seat].name
    cs = craftsmen_of(state)
    if card_of(state, seat, kind) is None:
        return [Violation(rule, t("{player} has no face-up {kind} (face up: {cards})", player=name,
                                  kind=word(kind), cards=tuple(cs.face_up[seat])))]
    if cs.used is not None:
        return [Violation("craftsmen.use-one", t("{player} already used the {card} this turn: one "
                                                 "craftsman's ability, once a turn", player=name,
                                                 card=cs.used))]
    return []


def fields_problem(state: GameState, uses: list[tuple[str, str]]) -> list[Violation]:
    if len(uses) > 1:
        first, second = (word(k) for k, _ in uses)
        return [Violation("craftsmen.use-one", t("one action cannot use both the {first} and the "
                                                 "{second}: one craftsman's ability a turn",
                                                 first=first, second=second))]
    return ability_problem(state, *uses[0]) if uses else []


def mark_used(state: GameState, kind: str, ctx: Context) -> GameState:
    seat = state.turn.player
    card = card_of(state, seat, kind)
    assert card is not None
    ctx.events.append(CraftsmanUsed(player=state.players[seat].name, craftsman=card))
    cs = replace(craftsmen_of(state), used=card)
    if cs.passing:
        # Used while the pass was awaited (craftsmen.use-one): the end of the turn goes on again
        # from the pass, after any decision the ability brought about (a vendor's visit after a
        # builder's move), so the pass stays the turn's last decision.
        cs = replace(cs, passing=False)
        state = replace(state, turn=replace(state.turn, ending=PASS))
    return replace(state, craftsmen=cs)


# --- the pass (craftsmen.pass) --------------------------------------------------------------

def check_pass(state: GameState, action: PassCraftsman) -> list[Violation]:
    cs = craftsmen_of(state)
    seat = state.turn.player
    if action.craftsman not in cs.face_up[seat]:
        return [Violation("craftsmen.pass", t("{card} is no face-up craftsman of {player} ({cards})",
                                              card=action.craftsman, player=action.player,
                                              cards=tuple(cs.face_up[seat])))]
    if cs.used is not None and action.craftsman != cs.used:
        return [Violation("craftsmen.pass", t("{player} used the {card} this turn and must pass it, "
                                              "not {other}", player=action.player, card=cs.used,
                                              other=action.craftsman))]
    return []


def left_of(state: GameState, seat: int) -> int:
    """The left neighbour; Dirk has no seat, so with two players it is the other player."""
    return (seat + 1) % len(state.players)


def apply_pass(state: GameState, action: PassCraftsman, ctx: Context) -> GameState:
    cs = craftsmen_of(state)
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
    cs = craftsmen_of(state)
    name = state.players[seat].name
    for card in [cs.used] if cs.used else cs.face_up[seat]:
        yield PassCraftsman(player=name, craftsman=card)


# --- sampling -------------------------------------------------------------------------------

def sampler(candidates):  # type: ignore[no-untyped-def]
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
        out.append(Violation("craftsmen.blacksmith", tn("the display already holds {n} card",
                                                        "the display already holds {n} cards",
                                                        len(state.display))))
    return out


def apply_blacksmith(state: GameState, action: UseBlacksmith, ctx: Context) -> GameState:
    """A scoring card drawn is set aside; its round is held at the end of this turn (step 40),
    or at once when the turn is past that step, waiting for the pass (seed 000.18)."""
    late = craftsmen_of(state).passing
    state = refill_display(mark_used(state, "blacksmith", ctx), ctx, DATA["blacksmith_display"])
    return scoring_step(state, ctx) if late else state


def candidates_blacksmith(state: GameState, seat: int) -> Iterator[UseBlacksmith]:
    if can_use(state, seat, "blacksmith") and len(state.display) < DATA["blacksmith_display"]:
        yield UseBlacksmith(player=state.players[seat].name)


def check_mortar(state: GameState, action: SwapMarketTiles) -> list[Violation]:
    out = ability_problem(state, "mortar-mixer", "craftsmen.mortar-mixer")
    if out:
        return out
    on_market = tuple(s.tile for s in state.market if s.tile)
    out = [Violation("craftsmen.mortar-mixer", t("{tile} is not on the market (it holds {market})",
                                                 tile=tile, market=on_market))
           for tile in (action.first, action.second) if market_space(state, tile) is None]
    if not out and action.first == action.second:
        out.append(Violation("craftsmen.mortar-mixer", t("{tile} cannot swap with itself",
                                                         tile=action.first)))
    return out


def apply_mortar(state: GameState, action: SwapMarketTiles, ctx: Context) -> GameState:
    a = market_space(state, action.first)
    b = market_space(state, action.second)
    assert a is not None and b is not None
    tokens = [f for f in a.__struct_fields__ if f != "currency"]

    def moved(space, other):  # type: ignore[no-untyped-def]
        return replace(space, **{f: getattr(other, f) for f in tokens})

    market = tuple(moved(s, b) if s is a else moved(s, a) if s is b else s for s in state.market)
    state = mark_used(replace(state, market=market), "mortar-mixer", ctx)
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
        out.append(Violation("craftsmen.stonemason", t("{card} is not in {player}'s hand",
                                                       card=action.give, player=player.name)))
    if action.take not in state.display:
        out.append(Violation("craftsmen.stonemason", t("{card} is not in the money display ({display})",
                                                       card=action.take, display=tuple(state.display))))
    if not out and CATALOGUE.money[action.give].currency != CATALOGUE.money[action.take].currency:
        out.append(Violation("craftsmen.stonemason", t("{give} and {take} are not of the same currency",
                                                       give=action.give, take=action.take)))
    return out


def apply_stonemason(state: GameState, action: ExchangeMoney, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    hand = (*(c for c in player.hand if c != action.give), action.take)
    display = tuple(action.give if c == action.take else c for c in state.display)
    state = with_player(replace(state, display=display), seat, hand=hand)
    ctx.events.append(MoneyExchanged(player=player.name, gave=action.give, took=action.take))
    return mark_used(state, "stonemason", ctx)


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
        return [Violation(rule, t("give both x and y, or neither"))]
    to = (action.x, action.y) if action.x is not None and action.y is not None else None
    if to is not None and action.replaces is not None:
        return [Violation(rule, t("a tile goes either to (x, y) or into the space of `replaces`, not both"))]
    new = in_reserve(player, action.tile)
    old = placed(player, action.tile)
    if new is not None:
        if action.replaces is not None:
            gone = placed(player, action.replaces)
            if gone is None or gone.tile == FOUNTAIN:
                return [Violation(rule, t("{tile} is no building of {player}'s Alhambra",
                                          tile=action.replaces, player=player.name))]
            return swap_problems(player, new, gone)
        if to is None:
            return [Violation(rule, t("{tile} is on the reserve: name where it goes (x, y or replaces)",
                                      tile=action.tile))]
        return check_placement(player.alhambra, to, action.tile, walls_of(new))
    if old is None:
        if any(t.tile == action.tile for t in player.held):
            return [Violation("base.buy.hold", t("{tile} was bought this turn and cannot be used in a "
                                                 "redesign", tile=action.tile))]
        return [Violation(rule, t("{tile} is neither in {player}'s Alhambra nor reserve",
                                  tile=action.tile, player=player.name))]
    if old.tile == FOUNTAIN:
        return [Violation("base.place.fountain-fixed", t("the fountain never moves"))]
    if action.replaces is not None:
        return [Violation(rule, t("{tile} is in the Alhambra: a swap takes a reserve tile",
                                  tile=action.tile))]
    if to is None:
        return removal_problems(player, old)
    return move_problems(player.alhambra, old, to)


def move_problems(alhambra: tuple[PlacedTile, ...], old: PlacedTile, to: tuple[int, int]) -> list[Violation]:
    """craftsmen.builder: `old` moved to the empty space `to`: the result must obey §4."""
    if to == (old.x, old.y):
        return [Violation("base.place.empty", t("{tile} already stands at ({x}, {y})", tile=old.tile,
                                                x=to[0], y=to[1]))]
    rest = tuple(p for p in alhambra if p is not old)
    out = check_placement(rest, to, old.tile, walls_of(old))
    if out:
        return out
    return [Violation(v.rule, t("moving {tile} to ({x}, {y}): {why}", tile=old.tile, x=to[0], y=to[1],
                                why=v.message))
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
            alhambra = replaced(player.alhambra, gone, place_tile(new, gone.x, gone.y))
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
            state = with_player(state, seat, alhambra=replaced(player.alhambra, old, _moved(old, to)))
            ctx.events.append(BuildingPlaced(player=name, tile=old.tile, x=action.x, y=action.y))
    return mark_used(state, "builder", ctx)


def candidates_builder(state: GameState, seat: int) -> Iterator[BuilderRedesign]:
    """Every builder redesign: the base game's three kinds and every move in the Alhambra."""
    if not can_use(state, seat, "builder"):
        return
    player = state.players[seat]
    name = player.name
    for tile, (x, y) in placements(player.alhambra, player.reserve):
        yield BuilderRedesign(player=name, tile=tile.tile, x=x, y=y)
    known = removal(player.alhambra)
    sound = known.all_reachable and not check_layout(player.alhambra)  # it obeys §4
    taken = {(p.x, p.y) for p in player.alhambra}
    for old in player.alhambra:
        if old.tile == FOUNTAIN:
            continue
        if (known.all_reachable and old in known.removable) or not removal_problems(player, old):
            yield BuilderRedesign(player=name, tile=old.tile)
        for tile in player.reserve:
            if not swap_problems(player, tile, old):
                yield BuilderRedesign(player=name, tile=tile.tile, replaces=old.tile)
        # An Alhambra that obeys §4 still obeys it with a tile where it fits (`fits`: its sides
        # match, it is reached, no space is enclosed), and so does one that obeys it less a
        # removable tile (`removal`): a move of such a tile is not checked whole. A tile hemmed
        # in on four sides leaves a hole wherever it goes. Any other move is checked whole.
        whole = sound and old in known.removable
        if sound and not whole and all((old.x + dx, old.y + dy) in taken for dx, dy, _, _ in NEIGHBOURS):
            continue
        rest = tuple(p for p in player.alhambra if p is not old)
        walls = walls_of(old)
        for where in free_spots(rest):  # spots(layout_of(rest)), from the memo
            if where.pos != (old.x, old.y) and fits(where, walls) and \
                    (whole or not check_layout((*rest, _moved(old, where.pos)))):
                yield BuilderRedesign(player=name, tile=old.tile, x=where.pos[0], y=where.pos[1])


def replaced(alhambra: tuple[PlacedTile, ...], old: PlacedTile, new: PlacedTile) -> tuple[PlacedTile, ...]:
    return tuple(new if p is old else p for p in alhambra)


def _free(action, rule, check, apply, candidates):  # type: ignore[no-untyped-def]
    return ActionRule(action=action, rule=rule, kind="free", check=check, apply=apply,
                      candidates=candidates, sample=sampler(candidates))


ACTIONS: tuple[ActionRule, ...] = (
    _free(UseBlacksmith, "craftsmen.blacksmith", check_blacksmith, apply_blacksmith,
          candidates_blacksmith),
    _free(SwapMarketTiles, "craftsmen.mortar-mixer", check_mortar, apply_mortar, candidates_mortar),
    _free(ExchangeMoney, "craftsmen.stonemason", check_stonemason, apply_stonemason,
          candidates_stonemason),
    _free(BuilderRedesign, "craftsmen.builder", check_builder, apply_builder, candidates_builder),
    ActionRule(action=PassCraftsman, rule="craftsmen.pass", kind="decision", check=check_pass,
               apply=apply_pass, candidates=candidates_pass, sample=sampler(candidates_pass)),
)
