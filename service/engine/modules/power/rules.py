"""Buildings of Power (RULES.md §P, seed 000): twelve special tiles replace base tiles. Strength
and prosperity tiles get a die when bought: black dice let a second wall score, white dice lower
later prices. Architecture and wisdom may be used at the end of the turn they were bought (the
player may decline): the red die says how many tiles (or money cards) to draw; one must be
hidden under a market tile (or kept), the rest go back on top in the player's order (all of
them only when no market tile can take one, or when a drawn scoring card is resolved instead).
Hidden tiles still on the market at the end go to the two richest in that currency."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import permutations
from typing import ClassVar

from msgspec.structs import replace

from ...actions import Action, BuyBuilding
from ...base.buy import payments
from ...base.components import TILES, deck_cards
from ...base.turn import draw_card, hold_scoring_round, richest
from ...catalogue import CATALOGUE, load_data
from ...events import BuildingBought, Event
from ...flow import with_player
from ...grid import best_wall_pair, layout_of
from ...module import (
    ActionRule,
    Context,
    Module,
    Pending,
    Place,
    TallyPart,
    ViewPart,
    modules_of_ids,
    register,
)
from ...records import Text, counts_of
from ...rng import Generator
from ...scoring import Line, Position, PositionPlayer, WallLine
from ...scoring.tally import Tally
from ...scoring.tally_checks import field, given, most_wall, over_table
from ...state import GameState, MarketSpace, Tile, market_tile
from ...violations import Violation
from .model import BlackPips, Drawn, EndChoice, HiddenTile, HiddenTileSeen, PowerSeen, PowerState, PowerTally

DATA = load_data("power")
SPECIAL = {t["id"]: t["id"].rsplit("-", 1)[1] for t in DATA["tiles"]}  # tile -> its power
REPLACED = {t["replaces"]: t["id"] for t in DATA["tiles"]}
FACES = DATA["die_faces"]
REVEAL, POWERS, TURN_START = 29, 50, 95  # RULES.md §H: before the refills; step 5; a new turn
SETUP = 11  # right after the bag is shuffled (10), before the market is laid (52)
DIE_OF = {"strength": "black", "prosperity": "white"}


class UsePower(Action, tag="use-power"):
    """power.end-of-turn: use the power of `tile` (the architecture or wisdom tile whose power is
    offered): the red die is rolled and the tiles or cards drawn."""

    tile: Text


class DeclinePower(Action, tag="decline-power"):
    """power.end-of-turn: do not use the power of `tile` (the one offered): nothing is rolled or
    drawn."""

    tile: Text


class HideTile(Action, tag="hide-tile"):
    """power.architecture: hide `tile` (one of those drawn) under the market tile `under`; the
    others go back on top of the bag, `order[0]` on top. Hiding nothing (no `tile`, no `under`:
    every drawn tile goes back) only when no market tile can take one (power.end-of-turn)."""

    tile: Text | None = None
    under: Text | None = None
    order: Drawn = ()


class KeepCard(Action, tag="keep-card"):
    """power.wisdom: keep `card` (one of those drawn), or hold the scoring round of the drawn
    scoring card `score` instead; the others go back on top of the deck, `order[0]` on top.
    Keeping nothing (neither: every drawn card goes back) only when no money card was drawn
    (power.end-of-turn)."""

    card: Text | None = None
    score: Text | None = None
    order: Drawn = ()


class ChooseTile(Action, tag="choose-tile"):
    """power.end-hidden: the richest in a currency takes one of the two tiles of that space."""

    tile: Text


class DieRolled(Event, tag="die-rolled"):
    player: str
    die: str
    pips: int
    tile: str


class PowerUsed(Event, tag="power-used"):
    player: str
    tile: str
    power: str
    drawn: int


class PowerDeclined(Event, tag="power-declined"):
    player: str
    tile: str
    power: str


class TileHidden(Event, tag="tile-hidden"):
    """Public: that a tile was hidden under `under`; which one only the owner's view shows."""

    player: str
    under: str


class HiddenTileRevealed(Event, tag="hidden-tile-revealed"):
    tile: str
    currency: str


class PowerLine(Line, tag="power"):
    """power.strength: the second wall, counted up to the pips of the player's black dice."""

    rule: ClassVar[str] = "power.strength"

    dice: BlackPips
    # Always true: a wall past the search's bound is refused (PositionTooComplex), never guessed.
    exhaustive: bool = True


def power_of(tile: str) -> str | None:
    return SPECIAL.get(tile)


def _power(state: GameState) -> PowerState:
    assert state.power is not None
    return state.power


# --- setup ----------------------------------------------------------------------------------

def setup(state: GameState, ctx: Context) -> GameState:
    """power.setup: the special tiles take their base tiles' places in the bag."""
    bag = tuple(REPLACED.get(t, t) for t in state.bag)
    dice = DATA["dice"]
    return replace(state, bag=bag, power=PowerState(white=dice["white"], black=dice["black"]))


# --- buying: dice, white dice, hidden tiles -------------------------------------------------

def check_buy(state: GameState, action: BuyBuilding) -> list[Violation]:
    """power.prosperity: a white die on the player's own prosperity tile, once a turn."""
    if action.white_die is None:
        return []
    player = state.players[state.turn.player]
    tile = next((t for t in (*player.alhambra, *player.reserve) if t.tile == action.white_die), None)
    if tile is None or power_of(tile.tile) != "prosperity":
        return [Violation("power.prosperity", f"{action.white_die} is no prosperity tile in "
                                              f"{player.name}'s Alhambra or reserve")]
    if tile.die is None:
        return [Violation("power.prosperity", f"{action.white_die} carries no white die")]
    if action.white_die in _power(state).used_white:
        return [Violation("power.prosperity", f"the die on {action.white_die} was used this turn")]
    return []


def price_reduction(state: GameState, action: BuyBuilding) -> int:
    return 1 if action.white_die is not None else 0


def after_action(state: GameState, action: Action, ctx: Context) -> GameState:
    if isinstance(action, BuyBuilding):
        bought = next(e for e in ctx.events if isinstance(e, BuildingBought))
        if action.white_die is not None:
            state = _turn_white_die(state, action.white_die, ctx)
        state = _hidden_under_bought(state, bought)
        state = _on_buying(state, bought, ctx)
    elif state.dirk is not None and any(t.die for t in state.dirk.tiles):
        state = _dice_back_from_dirk(state)
    return _hidden_follow_market(state)


def _hidden_follow_market(state: GameState) -> GameState:
    """power.architecture: a hidden tile lies at the space of the market tile above it, wherever
    that tile goes (a mortar mixer's swap moves both)."""
    power = _power(state)
    at = {s.tile: s.currency for s in state.market if s.tile is not None}
    if all(h.above is None or at.get(h.above, h.currency) == h.currency for h in power.hidden):
        return state
    hidden = tuple(h if h.above is None else replace(h, currency=at.get(h.above, h.currency))
                   for h in power.hidden)
    return replace(state, power=replace(power, hidden=hidden))


def _on_buying(state: GameState, bought: BuildingBought, ctx: Context) -> GameState:
    """Roll a die onto a strength or prosperity tile; note an architecture or wisdom power."""
    kind = power_of(bought.tile)
    power = _power(state)
    if kind in ("architecture", "wisdom"):
        return replace(state, power=replace(power, due=(*power.due, bought.tile)))
    die = DIE_OF.get(kind or "")
    if die is None or getattr(power, die) == 0:
        return state
    pips = ctx.rng.below(FACES) + 1
    seat = state.turn.player
    player = state.players[seat]
    held = tuple(replace(t, die=pips) if t.tile == bought.tile else t for t in player.held)
    ctx.events.append(DieRolled(player=player.name, die=die, pips=pips, tile=bought.tile))
    state = with_player(state, seat, held=held)
    return replace(state, power=replace(power, **{die: getattr(power, die) - 1}))


def _turn_white_die(state: GameState, tile: str, ctx: Context) -> GameState:
    """The die shows one pip less; used at 1 pip, it leaves the game."""
    seat = state.turn.player
    player = state.players[seat]
    power = _power(state)
    out = 0

    def turned(t: Tile) -> Tile:
        nonlocal out
        if t.tile != tile or t.die is None:
            return t
        if t.die == 1:
            out = 1
            return replace(t, die=None)
        return replace(t, die=t.die - 1)

    state = with_player(state, seat, alhambra=tuple(turned(t) for t in player.alhambra),  # type: ignore[misc]
                        reserve=tuple(turned(t) for t in player.reserve))
    return replace(state, power=replace(power, used_white=(*power.used_white, tile),
                                        white_out=power.white_out + out))


def _hidden_under_bought(state: GameState, bought: BuildingBought) -> GameState:
    power = _power(state)
    if not any(h.above == bought.tile for h in power.hidden):
        return state
    # It is turned up on the space its tile was bought from (a mortar mixer may have moved it).
    hidden = tuple(replace(h, above=None, currency=bought.currency) if h.above == bought.tile else h
                   for h in power.hidden)
    return replace(state, power=replace(power, hidden=hidden))


def _dice_back_from_dirk(state: GameState) -> GameState:
    """power.dirk (decision): Dirk rolls no dice and keeps none: a die on a tile given to him
    goes back to the supply."""
    assert state.dirk is not None
    power = _power(state)
    back = Counter(DIE_OF[power_of(t.tile) or ""] for t in state.dirk.tiles if t.die)
    tiles = tuple(replace(t, die=None) for t in state.dirk.tiles)
    return replace(state, dirk=replace(state.dirk, tiles=tiles),
                   power=replace(power, white=power.white + back["white"], black=power.black + back["black"]))


def reveal(state: GameState, ctx: Context) -> GameState:
    """A hidden tile whose market tile was bought is turned up on that space (not the bag)."""
    power = _power(state)
    waiting = [h for h in power.hidden if h.above is None]
    if not waiting:
        return state
    spaces = list(state.market)
    for h in waiting:
        i = next(i for i, s in enumerate(spaces) if s.currency == h.currency)
        spaces[i] = replace(spaces[i], tile=h.tile)
        ctx.events.append(HiddenTileRevealed(tile=h.tile, currency=h.currency))
    return replace(state, market=tuple(spaces),
                   power=replace(power, hidden=tuple(h for h in power.hidden if h.above is not None)))


# --- architecture and wisdom at the end of the turn -----------------------------------------

def offer_powers(state: GameState, ctx: Context) -> GameState:
    """power.end-of-turn: the next architecture or wisdom power bought this turn is offered (in
    the order bought): the player uses it (use-power: the red die is rolled, then the draw) or
    declines it (decline-power: nothing is rolled or drawn). This step runs again after each
    answer, until no power is due."""
    power = _power(state)
    if not power.due or power.using is not None:
        return state
    return replace(state, power=replace(power, due=power.due[1:], using=power.due[0]))


def _offered(power: PowerState) -> bool:
    """A power is offered and its die not rolled yet (once rolled, it has drawn something or
    is over)."""
    return power.using is not None and not power.drawn


def pending(state: GameState) -> Pending | None:
    power = state.power
    if power is None:
        return None
    if power.choices:
        choice = power.choices[0]
        return Pending(seat=choice.chooser, rule="power.end-hidden",
                       what=f"choose one of {list(choice.options)} (choose-tile)", actions=(ChooseTile,))
    if power.using is None:
        return None
    seat, kind = state.turn.player, power_of(power.using)
    if _offered(power):
        return Pending(seat=seat, rule="power.end-of-turn",
                       what=f"use the {kind} power of {power.using} or decline it (use-power or "
                            "decline-power)", actions=(UsePower, DeclinePower), step=POWERS)
    # What was drawn only the player using the power sees (RULES.md §8): the others are told
    # how many.
    n = len(power.drawn)
    if kind == "architecture":
        # Which market tiles have a tile under them is public; which tiles were drawn is not.
        free = _free_market_tiles(state)
        told = ("hide one of the {} under one of the market tiles " + str(free) if free else
                "put the {} back: no market tile can take one") + " (hide-tile)"
        return Pending(seat=seat, rule="power.architecture", what=told.format(f"{n} drawn tiles"),
                       own_what=told.format(f"drawn tiles {list(power.drawn)}"), actions=(HideTile,),
                       step=POWERS)
    # Whether a money or a scoring card was drawn only the player sees.
    return Pending(seat=seat, rule="power.wisdom",
                   what=f"keep one of the {n} drawn cards (keep-card)",
                   own_what=_keep_what(power),
                   actions=(KeepCard,), step=POWERS)


def _keep_what(power: PowerState) -> str:
    drawn = list(power.drawn)
    scoring = [c for c in drawn if c in CATALOGUE.scoring_cards]
    resolve = f", or hold the scoring round of {' or '.join(scoring)}" if scoring else ""
    first = (f"keep one money card of the drawn cards {drawn}" if _money_drawn(power) else
             f"put the drawn cards {drawn} back (no money card to keep)")
    return f"{first}{resolve} (keep-card)"


def _money_drawn(power: PowerState) -> bool:
    """power.end-of-turn: a money card was drawn, so one must be kept (or a scoring card resolved)."""
    return any(c in CATALOGUE.money for c in power.drawn)


def check_offer(state: GameState, action: UsePower | DeclinePower) -> list[Violation]:
    using = _power(state).using
    if action.tile != using:
        return [Violation("power.end-of-turn", f"the power offered now is that of {using}, not "
                                               f"{action.tile}")]
    return []


def apply_use(state: GameState, action: UsePower, ctx: Context) -> GameState:
    """The red die is rolled and that many tiles (architecture) or cards (wisdom) drawn; a card
    a module takes as it turns up (walls.reveal) does not count, the draw goes on."""
    roll = ctx.rng.below(FACES) + 1
    kind = power_of(action.tile)
    drawn: list[str] = []
    if kind == "architecture":
        drawn = list(state.bag[:roll])
        state = replace(state, bag=state.bag[roll:])
    else:
        for _ in range(roll):
            state, card = draw_card(state, ctx)
            if card is None:
                break
            drawn.append(card)
    ctx.events.append(PowerUsed(player=action.player, tile=action.tile, power=str(kind), drawn=len(drawn)))
    if not drawn:  # nothing left to draw: the power is over
        return _resume(state, _power(state))
    power = replace(_power(state), roll=roll, drawn=tuple(drawn))
    return replace(state, power=power, turn=replace(state.turn, ending=POWERS))


def apply_decline(state: GameState, action: DeclinePower, ctx: Context) -> GameState:
    ctx.events.append(PowerDeclined(player=action.player, tile=action.tile,
                                    power=str(power_of(action.tile))))
    return _resume(state, _power(state))


def _order_problem(rule: str, rest: list[str], order: tuple[str, ...]) -> list[Violation]:
    if sorted(order) != sorted(rest):
        return [Violation(rule, f"`order` must list exactly the others, {sorted(rest)}, not {list(order)}")]
    return []


def _free_market_tiles(state: GameState) -> list[str]:
    covered = {h.above for h in _power(state).hidden}
    return [s.tile for s in state.market if s.tile is not None and s.tile not in covered]


def check_hide(state: GameState, action: HideTile) -> list[Violation]:
    """power.architecture, power.end-of-turn: one drawn tile under a free market tile; none
    (every drawn tile goes back) only when no market tile can take one; `order` lists the tiles
    that go back."""
    power = _power(state)
    free = _free_market_tiles(state)
    if action.tile is None:
        if action.under is not None:
            return [Violation("power.architecture", f"`under` is {action.under}, but no tile is named "
                                                    "to hide (`tile`)")]
        if free:  # once the die is rolled, no free look at the tiles
            return [Violation("power.end-of-turn", f"name one of the drawn tiles {list(power.drawn)} "
                                                   f"(`tile`) to hide under one of the market tiles "
                                                   f"{free} (`under`): once the red die is rolled, "
                                                   "one drawn tile must be hidden")]
        return _order_problem("power.architecture", list(power.drawn), action.order)
    if action.tile not in power.drawn:
        return [Violation("power.architecture",
                          f"{action.tile} is not among the drawn tiles {list(power.drawn)}")]
    if action.under is None:
        where = f"one of {free}" if free else "but none can take a tile: name no `tile` either"
        return [Violation("power.architecture", f"`under` is missing: the market tile to hide "
                                                f"{action.tile} under, {where}")]
    if action.under not in free:
        return [Violation("power.architecture", f"{action.under} is no market tile without a tile under it "
                                                f"(those are {free})")]
    rest = list(power.drawn)
    rest.remove(action.tile)
    return _order_problem("power.architecture", rest, action.order)


def _resume(state: GameState, power: PowerState) -> GameState:
    """The power is used: the end of the turn goes on from the powers' step."""
    power = replace(power, using=None, roll=0, drawn=())
    return replace(state, power=power, turn=replace(state.turn, ending=POWERS))


def apply_hide(state: GameState, action: HideTile, ctx: Context) -> GameState:
    power = _power(state)
    state = replace(state, bag=(*action.order, *state.bag))
    if action.tile is not None and action.under is not None:
        space = next(s for s in state.market if s.tile == action.under)
        hidden = HiddenTile(tile=action.tile, above=action.under, currency=space.currency,
                            owner=action.player)
        power = replace(power, hidden=(*power.hidden, hidden))
        ctx.events.append(TileHidden(player=action.player, under=action.under))
    return _resume(state, power)


def _rounds_in_order(state: GameState, score: str | None, order: tuple[str, ...]) -> list[Violation]:
    """power.wisdom with base.turn.scoring-card: the scoring rounds are held in order (both cards
    in one refill: 1, then 2), so a drawn scoring card's round is held only once the rounds
    before it are, and drawn scoring cards go back with the earlier round's above the later."""
    waiting = sorted(({1, 2, 3} - set(state.rounds_held)) - set(state.scoring_called))
    if score is not None and waiting and CATALOGUE.scoring_round_of(score) > waiting[0]:
        return [Violation("power.wisdom", f"{score} calls round {CATALOGUE.scoring_round_of(score)}, "
                                          f"but round {waiting[0]} is not held yet: the rounds are held "
                                          "in order (resolve the earlier scoring card, or put both back)")]
    rounds = [CATALOGUE.scoring_round_of(c) for c in order if c in CATALOGUE.scoring_cards]
    if rounds != sorted(rounds):
        return [Violation("power.wisdom", f"`order` {list(order)} puts a later scoring card above an earlier "
                                          "one: the rounds are held in order, so the earlier goes first")]
    return []


def _in_round_order(cards: list[str]) -> list[str]:
    """`cards` with the scoring cards among them moved into round order (the others stay put)."""
    scoring = iter(sorted((c for c in cards if c in CATALOGUE.scoring_cards), key=CATALOGUE.scoring_round_of))
    return [next(scoring) if c in CATALOGUE.scoring_cards else c for c in cards]


def check_keep(state: GameState, action: KeepCard) -> list[Violation]:
    return _check_keep(state, action) or _rounds_in_order(state, action.score, action.order)


def _check_keep(state: GameState, action: KeepCard) -> list[Violation]:
    """power.wisdom, power.end-of-turn: keep one drawn money card, or hold the round of a drawn
    scoring card; nothing (every drawn card goes back) only when no money card was drawn (seed
    000.59: a scoring card may go back with the others); `order` lists those that go back."""
    power = _power(state)
    drawn = list(power.drawn)
    if action.score is not None:
        if action.score not in drawn or action.score not in CATALOGUE.scoring_cards:
            return [Violation("power.wisdom", f"{action.score} is no scoring card among those drawn {drawn}")]
        if action.card is not None:
            return [Violation("power.wisdom", "holding the scoring round is the one choice: no card is kept")]
        drawn.remove(action.score)
        return _order_problem("power.wisdom", drawn, action.order)
    if action.card is None:
        if _money_drawn(power):  # once the die is rolled, no free look at the cards
            scoring = " (or a drawn scoring card to resolve, `score`)" if any(
                c in CATALOGUE.scoring_cards for c in drawn) else ""
            return [Violation("power.end-of-turn", f"name one money card of the drawn cards {drawn} "
                                                   f"to keep (`card`){scoring}: once the red die is "
                                                   "rolled, one drawn card must be kept")]
        return _order_problem("power.wisdom", drawn, action.order)
    if action.card not in drawn or action.card not in CATALOGUE.money:
        return [Violation("power.wisdom", f"{action.card} is no money card among those drawn {drawn}")]
    drawn.remove(action.card)
    return _order_problem("power.wisdom", drawn, action.order)


def apply_keep(state: GameState, action: KeepCard, ctx: Context) -> GameState:
    power = _power(state)
    state = replace(state, deck=(*action.order, *state.deck))
    if action.card is not None:
        seat = state.turn.player
        state = with_player(state, seat, hand=(*state.players[seat].hand, action.card))
    state = _resume(state, power)
    if action.score is not None:
        state = hold_scoring_round(state, CATALOGUE.scoring_round_of(action.score), ctx)
    return state


def _orders(rest: list[str]) -> Iterator[tuple[str, ...]]:
    return permutations(sorted(rest))


def _without(drawn: tuple[str, ...], item: str | None) -> list[str]:
    rest = list(drawn)
    if item is not None:
        rest.remove(item)
    return rest


def candidates_use(state: GameState, seat: int) -> Iterator[UsePower]:
    using = _power(state).using
    if using is not None:
        yield UsePower(player=state.players[seat].name, tile=using)


def candidates_decline(state: GameState, seat: int) -> Iterator[DeclinePower]:
    using = _power(state).using
    if using is not None:
        yield DeclinePower(player=state.players[seat].name, tile=using)


def sample_use(state: GameState, seat: int, rng: Generator) -> UsePower | None:
    return next(candidates_use(state, seat), None)


def sample_decline(state: GameState, seat: int, rng: Generator) -> DeclinePower | None:
    """Declined now and then (random games should mostly see the powers at work): asked before
    the sampler of use-power half of the time, this one proposes one time in two."""
    return next(candidates_decline(state, seat), None) if rng.below(2) == 0 else None


def candidates_hide(state: GameState, seat: int) -> Iterator[HideTile]:
    power = _power(state)
    name = state.players[seat].name
    for tile in sorted(set(power.drawn)):
        for under in _free_market_tiles(state):
            for order in _orders(_without(power.drawn, tile)):
                yield HideTile(player=name, tile=tile, under=under, order=order)
    if not _free_market_tiles(state):  # power.end-of-turn: all back only then
        for order in _orders(list(power.drawn)):
            yield HideTile(player=name, order=order)


def sample_hide(state: GameState, seat: int, rng: Generator) -> HideTile | None:
    """A random drawn tile under a random free market tile (with none, every tile goes back);
    the others back in a random order."""
    power = _power(state)
    name = state.players[seat].name
    free = _free_market_tiles(state)
    if not free:
        return HideTile(player=name, order=rng.shuffled(power.drawn))
    tile = rng.choice(sorted(power.drawn))
    return HideTile(player=name, tile=tile, under=rng.choice(free),
                    order=rng.shuffled(_without(power.drawn, tile)))


def candidates_keep(state: GameState, seat: int) -> Iterator[KeepCard]:
    return (a for a in _every_keep(state, seat) if not _rounds_in_order(state, a.score, a.order))


def _every_keep(state: GameState, seat: int) -> Iterator[KeepCard]:
    drawn = _power(state).drawn
    name = state.players[seat].name
    for card in sorted(c for c in drawn if c in CATALOGUE.money):
        for order in _orders(_without(drawn, card)):
            yield KeepCard(player=name, card=card, order=order)
    for score in sorted(c for c in drawn if c in CATALOGUE.scoring_cards):
        for order in _orders(_without(drawn, score)):
            yield KeepCard(player=name, score=score, order=order)
    if not _money_drawn(_power(state)):  # power.end-of-turn: all back only then
        for order in _orders(list(drawn)):
            yield KeepCard(player=name, order=order)


def sample_keep(state: GameState, seat: int, rng: Generator) -> KeepCard | None:
    """A random money card kept, or a drawn scoring card's round held (one time in three); with
    no money card drawn and no round held, every card goes back. The others back in a random
    order."""
    drawn = _power(state).drawn
    name = state.players[seat].name
    money = sorted(c for c in drawn if c in CATALOGUE.money)
    scoring = sorted(c for c in drawn if c in CATALOGUE.scoring_cards)
    scoring = [c for c in scoring if not _rounds_in_order(state, c, ())]
    if scoring and rng.below(3) == 0:
        score = rng.choice(scoring)
        return KeepCard(player=name, score=score,
                        order=tuple(_in_round_order(list(rng.shuffled(_without(drawn, score))))))
    if not money:
        return KeepCard(player=name, order=tuple(_in_round_order(list(rng.shuffled(drawn)))))
    card = rng.choice(money)
    return KeepCard(player=name, card=card,
                    order=tuple(_in_round_order(list(rng.shuffled(_without(drawn, card))))))


def _first(candidates):  # type: ignore[no-untyped-def]
    """A random pick among the first candidates (each shuffled order is as good)."""
    def sample(state: GameState, seat: int, rng: Generator):  # type: ignore[no-untyped-def]
        options = []
        for action in candidates(state, seat):
            options.append(action)
            if len(options) >= 64:
                break
        return rng.choice(options) if options else None
    return sample


def _usable_white_dice(state: GameState, seat: int) -> list[str]:
    player = state.players[seat]
    used = _power(state).used_white
    return [t.tile for t in (*player.alhambra, *player.reserve)
            if t.die is not None and power_of(t.tile) == "prosperity" and t.tile not in used]


def candidates_white_die(state: GameState, seat: int) -> Iterator[BuyBuilding]:
    """Every purchase that uses a white die (each die, each distinct payment of price - 1)."""
    player = state.players[seat]
    for die in _usable_white_dice(state, seat):
        for space in state.market:
            if space.tile is None:
                continue
            price = max(0, CATALOGUE.tiles[space.tile].price - 1)
            for payment in payments(player.hand, space.currency, price):
                yield BuyBuilding(player=player.name, tile=space.tile, payment=payment, white_die=die)


def sample_white_die(state: GameState, seat: int, rng: Generator) -> BuyBuilding | None:
    dice = _usable_white_dice(state, seat)
    if not dice:
        return None
    options = []
    for action in candidates_white_die(state, seat):
        options.append(action)
        if len(options) >= 32:
            break
    return rng.choice(options) if options else None


# --- the end of the game --------------------------------------------------------------------

def leftover(state: GameState, space: MarketSpace, ctx: Context) -> GameState | None:
    """power.end-hidden: a market tile with a tile under it goes, with it, to the two richest."""
    power = _power(state)
    hidden = next((h for h in power.hidden if h.above == space.tile), None)
    if hidden is None or space.tile is None:
        return None
    power = replace(power, hidden=tuple(h for h in power.hidden if h is not hidden))
    ranked = richest(state, space.currency)
    above = market_tile(space)
    if not ranked or len(ranked[0][1]) > 1:
        removed = (above, Tile(tile=hidden.tile))
        return replace(state, removed=(*state.removed, *removed), power=power)
    chooser = ranked[0][1][0]
    second = ranked[1][1][0] if len(ranked) > 1 and len(ranked[1][1]) == 1 else -1
    choice = EndChoice(options=(space.tile, hidden.tile), chooser=chooser, second=second,
                       currency=space.currency)
    # The market tile's tokens (animals) travel with it: keep it aside among the removed until
    # the choice says where it goes.
    power = replace(power, choices=(*power.choices, choice))
    return replace(state, power=power, removed=(*state.removed, above, Tile(tile=hidden.tile)))


def check_choose(state: GameState, action: ChooseTile) -> list[Violation]:
    choice = _power(state).choices[0]
    if action.tile not in choice.options:
        return [Violation("power.end-hidden", f"choose one of {list(choice.options)}, not {action.tile}")]
    return []


def apply_choose(state: GameState, action: ChooseTile, ctx: Context) -> GameState:
    power = _power(state)
    choice, rest = power.choices[0], power.choices[1:]
    taken = [t for t in state.removed if t.tile in choice.options]
    others = tuple(t for t in state.removed if t.tile not in choice.options)
    mine = next(t for t in taken if t.tile == action.tile)
    theirs = next(t for t in taken if t.tile != action.tile)
    state = replace(state, removed=others, power=replace(power, choices=rest))
    state = with_player(state, choice.chooser, held=(*state.players[choice.chooser].held,
                                                     replace(mine, leftover=True)))
    if choice.second >= 0:
        second = state.players[choice.second]
        state = with_player(state, choice.second, held=(*second.held, replace(theirs, leftover=True)))
    else:
        state = replace(state, removed=(*state.removed, theirs))
    return state


def candidates_choose(state: GameState, seat: int) -> Iterator[ChooseTile]:
    for tile in _power(state).choices[0].options:
        yield ChooseTile(player=state.players[seat].name, tile=tile)


# --- turn start, scoring, components --------------------------------------------------------

def start_turn(state: GameState, ctx: Context) -> GameState:
    power = _power(state)
    return state if not power.used_white else replace(state, power=replace(power, used_white=()))


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    """power.strength: the longest wall as usual (the wall line) plus the best second wall
    sharing no side with it, up to the pips of all the player's black dice."""
    out: dict[str, list[Line]] = {}
    for p in position.players:
        pips = black_pips(p)
        if p.dirk or not pips:
            out[p.name] = [PowerLine(points=0, dice=pips)]
            continue
        _, second, exhaustive = best_wall_pair(layout_of(p.alhambra), pips)
        out[p.name] = [PowerLine(points=second, dice=pips, exhaustive=exhaustive)]
    return out


def black_pips(p: PositionPlayer) -> int:
    """power.strength: the pips of the black dice, on strength tiles in the Alhambra or reserve."""
    return sum(t.die or 0 for t in (*p.alhambra, *p.reserve) if power_of(t.tile) == "strength")


# --- a tally: the black dice's pips and the second wall, counted -----------------------------

def count_tally(p: PositionPlayer) -> PowerTally | None:
    """The pips, and the second wall searched up to the pips only (a longer one scores no more,
    and the search of walls is the costly part)."""
    if p.dirk:
        return None
    pips = black_pips(p)
    second = best_wall_pair(layout_of(p.alhambra), pips)[1] if pips else 0
    return PowerTally(black_pips=pips, second_wall=second)


def score_tally(position: Position, round_: int, tallies: Sequence[Tally]) -> dict[str, list[Line]]:
    """power.strength from the counts: the second wall up to the pips (8 + 5 = 13, seed 000.65)."""
    out: dict[str, list[Line]] = {}
    for p, t in zip(position.players, tallies, strict=True):
        part = t.power or PowerTally()
        out[p.name] = [PowerLine(points=min(part.second_wall, part.black_pips), dice=part.black_pips)]
    return out


def tally_of_lines(p: PositionPlayer, lines: Sequence[Line]) -> PowerTally | None:
    """The pips and the second wall as an earlier round's lines carry them. The power line holds
    the second wall only as far as it scored (up to the pips), so its points stand for it, no
    longer than the longest wall (the wall line; power.strength: the second is another wall);
    Dirk has no dice (power.dirk)."""
    if p.dirk:
        return None
    line = next(line for line in lines if isinstance(line, PowerLine))
    longest = next(line.length for line in lines if isinstance(line, WallLine))
    return PowerTally(black_pips=line.dice, second_wall=max(0, min(line.points, longest)))


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """The second wall shares no side with the longest, so it is no longer (power.strength); the
    3 black dice show at most 18 pips on the table; Dirk rolls no dice and has no wall."""
    out = []
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    for i, p, t in given(position):
        part = t.power or PowerTally()
        if p.dirk and part.black_pips:
            out.append(Violation("power.dirk", f"{field(i, 'power.black_pips')} is {part.black_pips}: "
                                               "Dirk rolls no dice"))
        if p.dirk and part.second_wall:
            out.append(Violation("dirk.scores", f"{field(i, 'power.second_wall')} is {part.second_wall}: "
                                                "Dirk scores no wall"))
        elif part.second_wall > t.wall:
            out.append(Violation("power.strength", f"{field(i, 'power.second_wall')} is {part.second_wall}, "
                                                   f"longer than {field(i, 'wall')} ({t.wall}): the second "
                                                   "wall is at most as long as the longest"))
        elif part.second_wall + t.wall > (most := most_wall(sum(counts_of(t.buildings).values()), modules)):
            out.append(Violation("power.strength", f"{field(i, 'power.second_wall')} is {part.second_wall} "
                                                   f"beside {field(i, 'wall')} ({t.wall}): the two share no "
                                                   f"side, and the fountain and buildings counted make "
                                                   f"at most {most} outer wall sides"))
    black = DATA["dice"]["black"]
    return out + over_table(position, tallies, lambda t: t.power.black_pips if t.power else 0,
                            "power.black_pips", black * FACES, "power.strength",
                            f"pips of black dice ({black} dice of at most {FACES})")


def expected(state: GameState) -> Iterator[str]:
    yield from SPECIAL
    for die, n in DATA["dice"].items():
        if die != "red":
            yield from [f"die:{die}"] * n


def withdrawn(state: GameState) -> Iterator[str]:
    yield from REPLACED


def located(state: GameState) -> Iterator[tuple[str, str]]:
    power = state.power
    if power is None:
        return
    for die in ("white", "black"):
        for _ in range(getattr(power, die)):
            yield f"die:{die}", "the dice supply"
    for _ in range(power.white_out):
        yield "die:white", "out of the game"
    for h in power.hidden:
        yield h.tile, f"hidden under {h.above} on the {h.currency} market space"
    for t in power.drawn if power.using and power_of(power.using) == "architecture" else ():
        yield t, "drawn by an architecture power"
    for c in power.drawn if power.using and power_of(power.using) == "wisdom" else ():
        yield c, "drawn by a wisdom power"
    tiles = [tile for p in state.players for tile in (*p.alhambra, *p.reserve, *p.held)]
    for tile in tiles:
        if tile.die is not None:
            yield f"die:{DIE_OF.get(power_of(tile.tile) or '', 'none')}", f"on {tile.tile}"


def places(state: GameState) -> Iterator[Place]:
    """Tiles hidden under the market; what a power drew: tiles (architecture) or cards of the
    money deck (wisdom)."""
    power = state.power
    if power is None:
        return
    yield Place("the tiles hidden under the market", tuple(h.tile for h in power.hidden), TILES,
                "it holds only building tiles")
    if power.using is not None and power_of(power.using) == "architecture":
        yield Place("what an architecture power drew", power.drawn, TILES, "it holds only building tiles")
    elif power.using is not None and power_of(power.using) == "wisdom":
        yield Place("what a wisdom power drew", power.drawn, deck_cards(),
                    "it holds only cards of the money deck")


def consistency(state: GameState) -> list[Violation]:
    power = state.power
    if power is None:
        return [Violation("power.setup", "the power module is on but the state has no `power` part")]
    out = []
    for t in (*(t for p in state.players for t in (*p.alhambra, *p.reserve, *p.held)),
              *(state.dirk.tiles if state.dirk else ())):
        if t.die is not None and power_of(t.tile) not in DIE_OF:
            out.append(Violation("power.strength", f"{t.tile} carries a die but is no strength or "
                                                   "prosperity tile"))
    if state.dirk is not None and any(t.die for t in state.dirk.tiles):
        out.append(Violation("power.dirk", "Dirk keeps no dice"))
    out += _hidden_problems(state, power)
    if power.drawn and power.using is None:
        out.append(Violation("power.end-of-turn", "cards or tiles are drawn but no power is in use"))
    return out + _use_problems(state, power)


def _hidden_problems(state: GameState, power: PowerState) -> list[Violation]:
    """power.architecture (seeds 000.53-000.55): a hidden tile lies under a market tile, at most
    one under each, at that tile's space, and belongs to a player; once its tile was bought
    (`above` absent) it waits, alone, on that emptied space to be turned up this turn."""
    rule = "power.architecture"
    spaces = {s.currency: s.tile for s in state.market}
    at = {tile: currency for currency, tile in spaces.items() if tile is not None}
    names = [p.name for p in state.players]
    out = []
    for h in power.hidden:
        where = f"{h.tile} (hidden under {h.above})" if h.above else f"{h.tile} (its market tile bought)"
        if h.owner not in names:
            out.append(Violation(rule, f"{where} belongs to {h.owner!r}, who is not at the table {names}"))
        if h.currency not in spaces:
            out.append(Violation(rule, f"{where} lies at the {h.currency} market space, but the "
                                       f"market's spaces are {list(spaces)}"))
        elif h.above is not None and h.above not in at:
            out.append(Violation(rule, f"{where}: {h.above} is not on the market"))
        elif h.above is not None and at[h.above] != h.currency:
            out.append(Violation(rule, f"{where} lies at the {h.currency} market space, but "
                                       f"{h.above} lies at the {at[h.above]} one"))
        elif h.above is None and spaces.get(h.currency, "") is not None:
            out.append(Violation(rule, f"{where} waits to be turned up at the {h.currency} market "
                                       "space, but no tile was bought from such a space"))
    keys = Counter(h.above or f"the bought tile of the {h.currency} space" for h in power.hidden)
    out += [Violation(rule, f"{n} tiles are hidden under {key}: no more than one tile may be "
                            "underneath a tile (seed 000.55)")
            for key, n in keys.items() if n > 1]
    return out


def _use_problems(state: GameState, power: PowerState) -> list[Violation]:
    """power.end-of-turn: powers due and in use are architecture or wisdom tiles, used only at
    the end of a turn; the red die is rolled once a power is used, and the draw holds at most
    that many tiles, or money and scoring cards (a card a module takes is set aside)."""
    rule = "power.end-of-turn"
    out = [Violation(rule, f"{t} is no architecture or wisdom tile: it has no power to use at the "
                           "end of the turn") for t in (*power.due, *filter(None, (power.using,)))
           if power_of(t) not in ("architecture", "wisdom")]
    if power.roll and not power.drawn:
        out.append(Violation(rule, f"the red die shows {power.roll}, but no power is drawing"))
    if len(power.drawn) > power.roll:
        out.append(Violation(rule, f"{len(power.drawn)} drawn with the red die showing {power.roll}"))
    if power.using is None:
        return out
    if state.phase != "play" or state.turn.actions or state.active.held:
        out.append(Violation(rule, f"the power of {power.using} is in use, but powers are used only "
                                   "at the end of a turn, once its buildings are placed"))
    if power_of(power.using) == "wisdom":
        out += [Violation("power.wisdom", f"{c} is among the cards a wisdom power drew, but it is no "
                                          "money or scoring card (a card a module takes as it turns "
                                          "up is set aside, the draw going on)")
                for c in power.drawn if c not in CATALOGUE.money and c not in CATALOGUE.scoring_cards]
    elif power_of(power.using) == "architecture":
        out += [Violation("power.architecture", f"{t} is among the tiles an architecture power drew, "
                                                "but it is no building tile")
                for t in power.drawn if t not in CATALOGUE.tiles]
    return out


def check_position(position: Position) -> list[Violation]:
    out = _replaced_in_position(position)
    counts: Counter[str] = Counter()
    for p in position.players:
        for t in (*p.alhambra, *p.reserve, *p.tiles):
            if t.die is None:
                continue
            kind = power_of(t.tile)
            if kind not in DIE_OF:
                out.append(Violation("power.strength", f"{p.name}: a die lies on {t.tile}, which is no "
                                                       "strength or prosperity tile"))
            else:
                counts[DIE_OF[kind]] += 1
            if p.dirk:
                out.append(Violation("power.dirk", f"Dirk rolls no dice: {t.tile} carries one"))
    for die, n in counts.items():
        if n > DATA["dice"][die]:
            out.append(Violation("power.strength", f"{n} {die} dice: there are only {DATA['dice'][die]}"))
    return out


def _replaced_in_position(position: Position) -> list[Violation]:
    """power.setup (seeds 000.45, 000.47): the base tiles the special tiles replace went back
    to the game box, so no player holds one (as `withdrawn` says of game states)."""
    return [Violation("power.setup", f"$.players[{i}].{zone}[{j}] is {t.tile}, a base tile that "
                                     f"{REPLACED[t.tile]} replaces: with power on it is in the game box")
            for i, p in enumerate(position.players)
            for zone, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles))
            for j, t in enumerate(tiles) if t.tile in REPLACED]


def seen(state: GameState, seat: int | None) -> PowerSeen:
    """power.architecture, power.wisdom: what a power drew only the player using it sees (the
    active player); a tile hidden under a market tile only its owner."""
    power = _power(state)
    viewer = None if seat is None else state.players[seat].name
    hidden = tuple(HiddenTileSeen(tile=h.tile if h.owner == viewer else None, above=h.above,
                                  currency=h.currency, owner=h.owner) for h in power.hidden)
    return PowerSeen(white=power.white, black=power.black, white_out=power.white_out, due=power.due,
                     using=power.using, roll=power.roll, drawn_size=len(power.drawn),
                     drawn=power.drawn if seat == state.turn.player and power.drawn else None,
                     hidden=hidden, used_white=power.used_white, choices=power.choices)


POWER = register(Module(
    id="power",
    name="Buildings of Power",
    rule_ids=("power.setup", "power.end-of-turn", "power.architecture", "power.wisdom",
              "power.strength", "power.prosperity", "power.end-hidden", "power.dirk"),
    actions=(
        ActionRule(action=UsePower, rule="power.end-of-turn", kind="decision", check=check_offer,
                   apply=apply_use, candidates=candidates_use, sample=sample_use),
        ActionRule(action=DeclinePower, rule="power.end-of-turn", kind="decision", check=check_offer,
                   apply=apply_decline, candidates=candidates_decline, sample=sample_decline),
        ActionRule(action=HideTile, rule="power.architecture", kind="decision", check=check_hide,
                   apply=apply_hide, candidates=candidates_hide, sample=sample_hide),
        ActionRule(action=KeepCard, rule="power.wisdom", kind="decision", check=check_keep,
                   apply=apply_keep, candidates=candidates_keep, sample=sample_keep),
        ActionRule(action=ChooseTile, rule="power.end-hidden", kind="decision", check=check_choose,
                   apply=apply_choose, candidates=candidates_choose, sample=_first(candidates_choose),
                   phases=("final-placement",)),
    ),
    checks=((BuyBuilding, check_buy),),
    variants=((BuyBuilding, candidates_white_die, sample_white_die),),
    setup=((SETUP, setup),),
    end_of_turn=((REVEAL, reveal), (POWERS, offer_powers), (TURN_START, start_turn)),
    after_action=after_action,
    pending=pending,
    price_reduction=price_reduction,
    leftover=leftover,
    scoring=score,
    components=located,
    places=places,
    expected=expected,
    withdrawn=withdrawn,
    consistency=consistency,
    check_position=check_position,
    # power.strength: its checks hold for counts read from lines (more buildings only allow
    # a longer wall; the pips are the line's).
    # power.end-hidden: a market tile handed out at the end takes the tile hidden under it along
    # (power.architecture: at most one under each).
    tally=TallyPart(type=PowerTally, of_tiles=count_tally, score=score_tally, check=check_tally,
                    check_of_lines=check_tally,
                    of_lines=tally_of_lines, more_leftovers=1),
    events=(DieRolled, PowerUsed, PowerDeclined, TileHidden, HiddenTileRevealed),
    lines=(PowerLine,),
    tokens=("die",),
    play_tokens={"die": "power.strength"},  # never on a leftover tile (base.end.leftovers)
    view=ViewPart(PowerSeen, seen),
    default_data=DATA,
))
