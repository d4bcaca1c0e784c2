"""Buildings of Power in the rest of play: setup (power.setup), the dice a purchase rolls
and turns (power.strength, power.prosperity), the tiles hidden under the market
(power.architecture), the powers offered at the end of a turn (power.end-of-turn) and
the hidden tiles handed out at the game's end (power.end-hidden)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from msgspec.structs import replace

from ...actions import Action, BuyBuilding
from ...base.buy import payments
from ...base.turn import richest
from ...catalogue import CATALOGUE
from ...events import BuildingBought
from ...flow import with_player
from ...module import Context, Pending
from ...rng import Generator
from ...state import GameState, MarketSpace, Tile, market_tile
from ...text import t
from ...violations import Violation
from .actions import (
    ChooseTile,
    DeclinePower,
    DieRolled,
    HiddenTileRevealed,
    HideTile,
    KeepCard,
    UsePower,
    _free_market_tiles,
    _money_drawn,
)
from .data import DATA, DIE_OF, FACES, POWERS, REPLACED, _power, power_of
from .model import EndChoice, PowerState

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
        return [Violation("power.prosperity", t("{tile} is no prosperity tile in {player}'s Alhambra or "
                                                "reserve", tile=action.white_die, player=player.name))]
    if tile.die is None:
        return [Violation("power.prosperity", t("{tile} carries no white die", tile=action.white_die))]
    if action.white_die in _power(state).used_white:
        return [Violation("power.prosperity", t("the die on {tile} was used this turn",
                                                tile=action.white_die))]
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
                       what=t("choose one of {options} (choose-tile)", options=tuple(choice.options)),
                       actions=(ChooseTile,))
    if power.using is None:
        return None
    seat, kind = state.turn.player, power_of(power.using)
    if _offered(power):
        offer = (t("use the architecture power of {tile} or decline it (use-power or decline-power)",
                   tile=power.using) if kind == "architecture" else
                 t("use the wisdom power of {tile} or decline it (use-power or decline-power)",
                   tile=power.using))
        return Pending(seat=seat, rule="power.end-of-turn", what=offer, actions=(UsePower, DeclinePower),
                       step=POWERS)
    # What was drawn only the player using the power sees (RULES.md §8): the others are told
    # how many.
    n = len(power.drawn)
    if kind == "architecture":
        # Which market tiles have a tile under them is public; which tiles were drawn is not.
        free = _free_market_tiles(state)
        drawn = tuple(power.drawn)
        if free:
            what = t("hide one of the {n} drawn tiles under one of the market tiles {free} (hide-tile)",
                     n=n, free=tuple(free))
            own = t("hide one of the drawn tiles {drawn} under one of the market tiles {free} (hide-tile)",
                    drawn=drawn, free=tuple(free))
        else:
            what = t("put the {n} drawn tiles back: no market tile can take one (hide-tile)", n=n)
            own = t("put the drawn tiles {drawn} back: no market tile can take one (hide-tile)", drawn=drawn)
        return Pending(seat=seat, rule="power.architecture", what=what, own_what=own, actions=(HideTile,),
                       step=POWERS)
    # Whether a money or a scoring card was drawn only the player sees.
    return Pending(seat=seat, rule="power.wisdom",
                   what=t("keep one of the {n} drawn cards (keep-card)", n=n),
                   own_what=_keep_what(power),
                   actions=(KeepCard,), step=POWERS)


def _keep_what(power: PowerState) -> str:
    drawn = tuple(power.drawn)
    scoring = tuple(c for c in drawn if c in CATALOGUE.scoring_cards)
    if _money_drawn(power):
        if scoring:
            return t("keep one money card of the drawn cards {drawn}, or hold the scoring round of {scoring} "
                     "(keep-card)", drawn=drawn, scoring=scoring)
        return t("keep one money card of the drawn cards {drawn} (keep-card)", drawn=drawn)
    if scoring:
        return t("put the drawn cards {drawn} back (no money card to keep), or hold the scoring round of "
                 "{scoring} (keep-card)", drawn=drawn, scoring=scoring)
    return t("put the drawn cards {drawn} back (no money card to keep) (keep-card)", drawn=drawn)


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


# --- turn start -----------------------------------------------------------------------------

def start_turn(state: GameState, ctx: Context) -> GameState:
    power = _power(state)
    return state if not power.used_white else replace(state, power=replace(power, used_white=()))
