"""The base game's end of a turn and of the game: refills, scoring rounds, the next player,
the leftover market tiles and the final scoring (RULES.md §3, §6, §7)."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from ..catalogue import CATALOGUE
from ..events import (
    DeckReshuffled,
    DisplayRefilled,
    GameEnded,
    LeftoverAwarded,
    LeftoverRemoved,
    MarketRefilled,
    ScoringCardDrawn,
    ScoringRoundHeld,
    TurnEnded,
    TurnStarted,
)
from ..flow import hand_total, next_turn, with_player
from ..module import Context, modules_of, pending_decision, plan_of
from ..scoring import position_of, score_position
from ..state import GameState, MarketSpace, Turn, emptied, market_tile
from ..text import t, tn
from ..violations import Violation

# End-of-turn positions of RULES.md §H (the held buildings are placed before the turn ends).
REFILL, SCORING = 30, 40


def draw_money(state: GameState, ctx: Context) -> tuple[GameState, str | None]:
    """Draw the top money card; an empty deck is first rebuilt from the discard pile.

    base.turn.deck-empty: the paid cards are shuffled into a new deck when a card must be
    drawn and the deck is empty. Returns None when both are empty.
    """
    if not state.deck:
        if not state.discard:
            return state, None
        ctx.events.append(DeckReshuffled(cards=len(state.discard)))
        state = replace(state, deck=ctx.rng.shuffled(state.discard), discard=())
    return replace(state, deck=state.deck[1:]), state.deck[0]


def draw_card(state: GameState, ctx: Context) -> tuple[GameState, str | None]:
    """Draw the top card of the deck as `draw_money` does, but a card that a module takes as it
    turns up (`take_drawn`, e.g. a wall card set aside, walls.reveal) is taken and the draw goes
    on: the card returned is a money or scoring card, or None once deck and discard are empty.
    Every draw from the deck during play goes through here (the display's refill, a power's)."""
    takers = plan_of(state).hooks["take_drawn"]
    while True:
        state, card = draw_money(state, ctx)
        if card is None or not takers:
            return state, card
        taken = _taken(takers, state, card, ctx)
        if taken is None:
            return state, card
        state = taken


def refill_display(state: GameState, ctx: Context, size: int) -> GameState:
    """base.turn.refill and base.turn.scoring-card: top the display up to `size` cards."""
    drawn: list[str] = []
    while len(state.display) < size:
        state, card = draw_card(state, ctx)
        if card is None:
            break
        if card in CATALOGUE.scoring_cards:
            round_ = CATALOGUE.scoring_round_of(card)
            ctx.events.append(ScoringCardDrawn(card=card, round=round_))
            state = replace(state, scoring_called=(*state.scoring_called, round_))
            continue
        drawn.append(card)
        state = replace(state, display=(*state.display, card))
    if drawn:
        ctx.events.append(DisplayRefilled(cards=tuple(drawn)))
    return state


def _taken(takers: tuple[Callable[[GameState, str, Context], GameState | None], ...],
           state: GameState, card: str, ctx: Context) -> GameState | None:
    for take in takers:
        taken = take(state, card, ctx)
        if taken is not None:
            return taken
    return None


def short_display(state: GameState) -> list[Violation]:
    """base.turn.refill: the display is refilled to 4 cards at the end of every turn, from the
    deck and, once it is empty, from the discard pile shuffled (base.turn.deck-empty); a theft
    is refilled at once (thieves.steal). So at the start of a turn, and once this turn's refill
    has run, the display is short only while the deck and the discard pile are both empty.
    (Within a turn, before its refill, takes and purchases leave it short.)"""
    size, turn = CATALOGUE.display_size, state.turn
    if len(state.display) >= size or state.phase != "play" or (turn.acted and turn.ending <= REFILL):
        return []
    if not state.deck and not state.discard:
        return []
    holds = (tn("the money display holds {n} card at the start of a turn",
                "the money display holds {n} cards at the start of a turn", len(state.display))
             if not turn.acted else
             tn("the money display holds {n} card after this turn's refill",
                "the money display holds {n} cards after this turn's refill", len(state.display)))
    return [Violation("base.turn.refill", t(
        "{holds}, while the deck holds {deck} and the discard pile {discard}: the display is refilled "
        "to {size} at the end of every turn and is short only once both are empty", holds=holds,
        deck=len(state.deck), discard=len(state.discard), size=size))]



def refill_market(state: GameState, ctx: Context) -> GameState:
    """base.turn.refill / base.end.trigger: every empty space takes a tile from the bag; a space
    left empty (the bag ran out) ends the game when the turn passes."""
    for space in state.market:
        if space.tile is None:
            break
    else:  # no space to refill
        return state
    spaces = list(state.market)
    bag = state.bag
    for i, space in enumerate(spaces):
        if space.tile is not None or not bag:
            continue
        spaces[i] = replace(space, tile=bag[0])
        ctx.events.append(MarketRefilled(currency=space.currency, tile=bag[0]))
        bag = bag[1:]
    return replace(state, market=tuple(spaces), bag=bag)


def refill_step(state: GameState, ctx: Context) -> GameState:
    state = refill_display(state, ctx, CATALOGUE.display_size)
    return refill_market(state, ctx)


def hold_scoring_round(state: GameState, round_: int, ctx: Context) -> GameState:
    """base.score.rounds: score every participant, add the points, then the modules' follow-ups."""
    breakdown = score_position(position_of(state, round_))
    totals = {s.name: s.total for s in breakdown.players}
    players = tuple(replace(p, score=p.score + totals[p.name]) for p in state.players)
    state = replace(state, players=players, rounds_held=(*state.rounds_held, round_))
    if state.dirk is not None:
        state = replace(state, dirk=replace(state.dirk,
                                            score=state.dirk.score + totals[state.dirk.name]))
    ctx.events.append(ScoringRoundHeld(round=round_))
    ctx.scoring.append(breakdown)
    for m in modules_of(state):
        if m.after_scoring_round is not None:
            state = m.after_scoring_round(state, round_, ctx)
    return state


def scoring_step(state: GameState, ctx: Context) -> GameState:
    """base.turn.scoring-card: the rounds called during the refill, 1 before 2."""
    for round_ in sorted(state.scoring_called):
        state = replace(state, scoring_called=tuple(r for r in state.scoring_called if r != round_))
        state = hold_scoring_round(state, round_, ctx)
    return state


def next_turn_step(state: GameState, ctx: Context) -> GameState:
    """The turn passes to the left, or the game ends (base.turn.order, base.end.trigger)."""
    ctx.events.append(TurnEnded(player=state.active.name))
    # base.end.trigger: after the refills only an empty bag leaves a market space empty. Read
    # from the state, so it holds when the end of the turn resumed after a decision.
    for space in state.market:
        if space.tile is None:
            return end_game(state, ctx)
    state = replace(state, turn=next_turn(state))
    ctx.events.append(TurnStarted(player=state.active.name))
    return state


def end_game(state: GameState, ctx: Context) -> GameState:
    """base.end.leftovers: each market tile goes to the richest holder of its currency (a
    module may hand out a space itself, e.g. one with a tile hidden under it)."""
    spaces = state.market
    for space in spaces:
        if space.tile is None:
            continue
        for hand_out in plan_of(state).hooks["leftover"]:
            handled = hand_out(state, space, ctx)
            if handled is not None:
                state = handled
                break
        else:
            state = hand_out_leftover(state, space, ctx)
    # The end of this turn is over and the game's has begun: no turn's decision is due now.
    turn = replace(state.turn, ending=0)
    state = replace(state, market=tuple(emptied(s) for s in spaces), turn=turn, phase="final-placement")
    return next_recipient(state, ctx, start=state.turn.player + 1)


def richest(state: GameState, currency: str) -> list[tuple[int, list[int]]]:
    """(total, seats) from the most money of `currency` down; those holding none are left out."""
    held = plan_of(state).hooks["money_held"]
    totals = [hand_total(p, currency) + sum(fn(state, seat, currency) for fn in held)
              for seat, p in enumerate(state.players)]
    return [(t, [seat for seat, v in enumerate(totals) if v == t])
            for t in sorted({t for t in totals if t > 0}, reverse=True)]


def hand_out_leftover(state: GameState, space: MarketSpace, ctx: Context) -> GameState:
    assert space.tile is not None
    ranked = richest(state, space.currency)
    if not ranked or len(ranked[0][1]) > 1:
        reason = "tie for the most" if ranked else "nobody holds that currency"
        ctx.events.append(LeftoverRemoved(tile=space.tile, currency=space.currency, reason=reason))
        return replace(state, removed=(*state.removed, market_tile(space)))
    seat = ranked[0][1][0]
    leftover = replace(market_tile(space), leftover=True)
    ctx.events.append(LeftoverAwarded(tile=space.tile, currency=space.currency,
                                      player=state.players[seat].name))
    return with_player(state, seat, held=(*state.players[seat].held, leftover))


def next_recipient(state: GameState, ctx: Context, start: int) -> GameState:
    """The next player (in seat order from `start`) with leftovers to place, or the end.

    A decision still pending (a module's choice of leftovers) is taken first."""
    pending = pending_decision(state)
    if pending is not None:
        return replace(state, phase="final-placement", turn=Turn.start(pending.seat, actions=0))
    n = len(state.players)
    for k in range(n):
        seat = (start + k) % n
        if state.players[seat].held:
            return replace(state, phase="final-placement", turn=Turn.start(seat, actions=0))
    return final_scoring(state, ctx)


def final_scoring(state: GameState, ctx: Context) -> GameState:
    """base.end.final-scoring: the third round, then the ranking is the result."""
    state = hold_scoring_round(state, 3, ctx)
    ranking = ctx.scoring[-1].ranking
    winners = tuple(r.name for r in ranking if r.place == 1)
    ctx.events.append(GameEnded(winners=winners))
    return replace(state, phase="over", ranking=ranking)


def after_final_placement(state: GameState, ctx: Context) -> GameState:
    if state.active.held or pending_decision(state) is not None:
        return state
    return next_recipient(state, ctx, start=state.turn.player + 1)


def empty_market() -> tuple[MarketSpace, ...]:
    return tuple(MarketSpace(currency=c) for c in CATALOGUE.currencies)
