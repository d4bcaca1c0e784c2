"""The Thieves' own action: steal a money card from the display with a thief, out of turn
in the thieves' window (thieves.steal, thieves.order); its event."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...actions import Action
from ...base.turn import refill_display, scoring_step
from ...catalogue import CATALOGUE
from ...events import Event
from ...flow import with_player
from ...module import ActionRule, Context
from ...records import Text
from ...rng import Generator
from ...state import GameState
from ...text import t, word
from ...violations import Violation
from .data import CURRENCY
from .model import ThievesState


class Steal(Action, tag="steal"):
    """thieves.steal: discard the thief card `thief` to take the money card `card` (of the
    thief's currency) from the display, in the thieves' window after a turn."""

    thief: Text
    card: Text


class ThiefPlayed(Event, tag="thief-played"):
    player: str
    thief: str
    card: str


def _thieves(state: GameState) -> ThievesState:
    assert state.thieves is not None
    return state.thieves


def order_of(state: GameState, seat: int) -> int:
    """thieves.order: a seat's place in the window's order (0 is the second player to the left
    of the one whose turn ended; the last is that player)."""
    ended = _thieves(state).ended
    assert ended is not None
    return (seat - ended - 2) % len(state.players)


def refused(state: GameState, seat: int, thief: str, card: str) -> str | None:
    """The first check a theft fails (None when it is legal), with no message made: `problems`
    words it, the listing of thefts only asks."""
    thieves = _thieves(state)
    if not thieves.window or thieves.ended is None:
        return "window"
    if seat == state.turn.player:
        return "next"
    if thieves.last is not None and order_of(state, seat) < order_of(state, thieves.last):
        return "order"
    if thief not in thieves.hands[seat]:
        return "thief"
    money = CATALOGUE.money.get(card)
    if money is None:
        return "money"
    if card not in state.display:
        return "display"
    if money.currency != CURRENCY[thief]:  # seed 003.13: "a visible card of that currency"
        return "currency"
    return None


def problems(state: GameState, seat: int, thief: str, card: str) -> list[Violation]:
    why = refused(state, seat, thief, card)
    if why is None:
        return []
    thieves = _thieves(state)
    name = state.players[seat].name
    if why == "window":
        return [Violation("thieves.steal", t("thieves steal only after a complete turn, until the next "
                                             "player takes an action: no thieves' window is open"))]
    if why == "next":
        return [Violation("thieves.not-next", t("{player} is the player whose turn comes next and may "
                                                "not steal in this window", player=name))]
    if why == "order":
        assert thieves.last is not None
        last = state.players[thieves.last].name
        return [Violation("thieves.order", t("{last} has already stolen in this window, and {player} "
                                             "comes before {last} in its order", last=last, player=name))]
    if why == "thief":
        return [Violation("thieves.steal", t("{player} holds no thief card {thief} (holds: {thieves})",
                                             player=name, thief=repr(thief),
                                             thieves=tuple(thieves.hands[seat])))]
    if why == "money":
        return [Violation("thieves.money-only", t("{card} is no money card: thieves take only money cards",
                                                  card=card))]
    if why == "display":
        return [Violation("thieves.steal", t("{card} is not in the money display", card=card))]
    return [Violation("thieves.steal", t("{thief} takes only a money card of {currency}, not {card} "
                                         "({other})", thief=thief, currency=word(CURRENCY[thief]),
                                         card=card, other=word(CATALOGUE.money[card].currency)))]


def check_steal(state: GameState, action: Steal) -> list[Violation]:
    return problems(state, state.seat_of(action.player), action.thief, action.card)


def apply_steal(state: GameState, action: Steal, ctx: Context) -> GameState:
    seat = state.seat_of(action.player)
    thieves = _thieves(state)
    hands = list(thieves.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != action.thief)
    thieves = replace(thieves, hands=tuple(hands), played=(*thieves.played, action.thief), last=seat)
    display = list(state.display)
    display.remove(action.card)
    state = replace(state, thieves=thieves, display=tuple(display))
    state = with_player(state, seat, hand=(*state.players[seat].hand, action.card))
    ctx.events.append(ThiefPlayed(player=action.player, thief=action.thief, card=action.card))
    state = refill_display(state, ctx, CATALOGUE.display_size)
    return scoring_step(state, ctx)


def _steals(state: GameState) -> Iterator[Steal]:
    thieves = state.thieves
    if thieves is None or not thieves.window:
        return
    for seat, player in enumerate(state.players):
        for thief in sorted(set(thieves.hands[seat])):
            for card in sorted(set(state.display)):
                if refused(state, seat, thief, card) is None:
                    yield Steal(player=player.name, thief=thief, card=card)


def candidates_steal(state: GameState, seat: int) -> Iterator[Steal]:
    """Every legal theft of every player (thefts are out of turn: `seat` does not matter)."""
    yield from _steals(state)


def sample_steal(state: GameState, seat: int, rng: Generator) -> Steal | None:
    """Now and then (one time in three) a random legal theft of any player."""
    thieves = state.thieves
    if thieves is None or not thieves.window or rng.below(3) != 0:
        return None
    steals = list(_steals(state))
    return rng.choice(steals) if steals else None


ACTIONS: tuple[ActionRule, ...] = (
    ActionRule(action=Steal, rule="thieves.steal", kind="out-of-turn", check=check_steal,
               apply=apply_steal, candidates=candidates_steal, sample=sample_steal,
               what=t("steal a money card of a thief's currency from the display (steal)")),
)
