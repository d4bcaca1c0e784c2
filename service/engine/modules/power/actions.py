"""Buildings of Power's own actions: use or decline a power bought this turn
(power.end-of-turn), hide a drawn tile (power.architecture), keep a drawn card
(power.wisdom), choose a tile handed out at the end (power.end-hidden); its events."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations

from msgspec.structs import replace

from ...actions import Action
from ...base.turn import draw_card, hold_scoring_round
from ...catalogue import CATALOGUE
from ...events import Event
from ...flow import with_player
from ...module import ActionRule, Context
from ...records import Text
from ...rng import Generator
from ...state import GameState
from ...text import t
from ...violations import Violation
from .data import FACES, POWERS, _power, power_of
from .model import Drawn, HiddenTile, PowerState


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


# --- architecture and wisdom at the end of the turn -----------------------------------------

def _money_drawn(power: PowerState) -> bool:
    """power.end-of-turn: a money card was drawn, so one must be kept (or a scoring card resolved)."""
    return any(c in CATALOGUE.money for c in power.drawn)


def check_offer(state: GameState, action: UsePower | DeclinePower) -> list[Violation]:
    using = _power(state).using
    if action.tile != using:
        return [Violation("power.end-of-turn", t("the power offered now is that of {using}, not {tile}",
                                                 using=str(using), tile=action.tile))]
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
        return [Violation(rule, t("`order` must list exactly the others, {rest}, not {order}",
                                  rest=tuple(sorted(rest)), order=tuple(order)))]
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
            return [Violation("power.architecture", t("`under` is {under}, but no tile is named to hide "
                                                      "(`tile`)", under=action.under))]
        if free:  # once the die is rolled, no free look at the tiles
            return [Violation("power.end-of-turn", t("name one of the drawn tiles {drawn} (`tile`) to hide "
                                                     "under one of the market tiles {free} (`under`): once "
                                                     "the red die is rolled, one drawn tile must be hidden",
                                                     drawn=tuple(power.drawn), free=tuple(free)))]
        return _order_problem("power.architecture", list(power.drawn), action.order)
    if action.tile not in power.drawn:
        return [Violation("power.architecture", t("{tile} is not among the drawn tiles {drawn}",
                                                  tile=action.tile, drawn=tuple(power.drawn)))]
    if action.under is None:
        return [Violation("power.architecture", t("`under` is missing: the market tile to hide {tile} under, "
                                                  "one of {free}", tile=action.tile, free=tuple(free))
                          if free else
                          t("`under` is missing: the market tile to hide {tile} under, but none can take a "
                            "tile: name no `tile` either", tile=action.tile))]
    if action.under not in free:
        return [Violation("power.architecture", t("{under} is no market tile without a tile under it (those "
                                                  "are {free})", under=action.under, free=tuple(free)))]
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
        return [Violation("power.wisdom", t("{score} calls round {round}, but round {waiting} is not held "
                                            "yet: the rounds are held in order (resolve the earlier scoring "
                                            "card, or put both back)", score=score,
                                            round=CATALOGUE.scoring_round_of(score), waiting=waiting[0]))]
    rounds = [CATALOGUE.scoring_round_of(c) for c in order if c in CATALOGUE.scoring_cards]
    if rounds != sorted(rounds):
        return [Violation("power.wisdom", t("`order` {order} puts a later scoring card above an earlier one: "
                                            "the rounds are held in order, so the earlier goes first",
                                            order=tuple(order)))]
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
            return [Violation("power.wisdom", t("{score} is no scoring card among those drawn {drawn}",
                                                score=action.score, drawn=tuple(drawn)))]
        if action.card is not None:
            return [Violation("power.wisdom", t("holding the scoring round is the one choice: no card is "
                                                "kept"))]
        drawn.remove(action.score)
        return _order_problem("power.wisdom", drawn, action.order)
    if action.card is None:
        if _money_drawn(power):  # once the die is rolled, no free look at the cards
            if any(c in CATALOGUE.scoring_cards for c in drawn):
                why = t("name one money card of the drawn cards {drawn} to keep (`card`) (or a drawn scoring "
                        "card to resolve, `score`): once the red die is rolled, one drawn card must be kept",
                        drawn=tuple(drawn))
            else:
                why = t("name one money card of the drawn cards {drawn} to keep (`card`): once the red die "
                        "is rolled, one drawn card must be kept", drawn=tuple(drawn))
            return [Violation("power.end-of-turn", why)]
        return _order_problem("power.wisdom", drawn, action.order)
    if action.card not in drawn or action.card not in CATALOGUE.money:
        return [Violation("power.wisdom", t("{card} is no money card among those drawn {drawn}",
                                            card=action.card, drawn=tuple(drawn)))]
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


# --- the end of the game --------------------------------------------------------------------

def check_choose(state: GameState, action: ChooseTile) -> list[Violation]:
    choice = _power(state).choices[0]
    if action.tile not in choice.options:
        return [Violation("power.end-hidden", t("choose one of {options}, not {tile}",
                                                options=tuple(choice.options), tile=action.tile))]
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


ACTIONS: tuple[ActionRule, ...] = (
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
)
