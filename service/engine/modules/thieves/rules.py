"""The Thieves (RULES.md §T, seed 003): twelve thief cards, 3 per currency, are dealt at setup
(4 each with 2 or 3 players, 3 with 4, 2 with 5 or 6; the rest leave the game; Dirk gets none).
After a turn is complete (refills and scoring done) a thieves' window opens: players other
than the one whose turn comes next may each discard a thief to take one money card of its
currency from the display, in turn order starting with the second player to the left of the
one whose turn ended; the display is refilled after each theft and a scoring card drawn then
is scored at once. The window closes when the next player takes an action.

`steal` is taken out of turn (action kind "out-of-turn"): its own check says who may steal.
Thief cards are held face up: everything of this module is public.
"""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...actions import Action
from ...base.turn import refill_display, scoring_step
from ...catalogue import CATALOGUE, load_data
from ...events import Event
from ...flow import NEXT_TURN, with_player
from ...module import ActionRule, Context, Module, ViewPart, register
from ...places import Place
from ...records import Text
from ...rng import Generator
from ...state import GameState
from ...violations import Violation
from .model import ThievesState

DATA = load_data("thieves")
CURRENCY: dict[str, str] = {c["id"]: c["currency"] for c in DATA["cards"]}  # thief -> currency
CARDS: tuple[str, ...] = tuple(CURRENCY)
THIEF_CARDS = frozenset(CARDS)
DEAL: dict[int, int] = {int(n): k for n, k in DATA["deal"].items()}


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


# --- setup and the window --------------------------------------------------------------------

def setup(state: GameState, ctx: Context) -> GameState:
    """thieves.setup: shuffle, deal to each player (not to Dirk); the rest leave the game."""
    cards = ctx.rng.shuffled(CARDS)
    n = len(state.players)
    each = DEAL[n]
    hands = tuple(tuple(sorted(cards[i * each:(i + 1) * each])) for i in range(n))
    return replace(state, thieves=ThievesState(hands=hands, out=tuple(sorted(cards[n * each:]))))


def open_window(state: GameState, ctx: Context) -> GameState:
    """thieves.steal: after a complete turn (RULES.md §H step 8) the window opens."""
    if state.phase != "play" or state.thieves is None:
        return state
    ended = (state.turn.player - 1) % len(state.players)
    return replace(state, thieves=replace(state.thieves, window=True, ended=ended, last=None))


def close_window(state: GameState, action: Action, ctx: Context) -> GameState:
    """thieves.order: the window closes when the next player takes an action (any but a theft)."""
    thieves = state.thieves
    if thieves is None or not thieves.window or isinstance(action, Steal):
        return state
    return replace(state, thieves=replace(thieves, window=False, ended=None, last=None))


def order_of(state: GameState, seat: int) -> int:
    """thieves.order: a seat's place in the window's order (0 is the second player to the left
    of the one whose turn ended; the last is that player)."""
    ended = _thieves(state).ended
    assert ended is not None
    return (seat - ended - 2) % len(state.players)


# --- the action ------------------------------------------------------------------------------

def problems(state: GameState, seat: int, thief: str, card: str) -> list[Violation]:
    thieves = _thieves(state)
    player = state.players[seat]
    if not thieves.window or thieves.ended is None:
        return [Violation("thieves.steal", "thieves steal only after a complete turn, until the next "
                                           "player takes an action: no thieves' window is open")]
    if seat == state.turn.player:
        return [Violation("thieves.not-next", f"{player.name} is the player whose turn comes next and "
                                              "may not steal in this window")]
    if thieves.last is not None and order_of(state, seat) < order_of(state, thieves.last):
        last = state.players[thieves.last].name
        return [Violation("thieves.order", f"{last} has already stolen in this window, and "
                                           f"{player.name} comes before {last} in its order")]
    if thief not in thieves.hands[seat]:
        return [Violation("thieves.steal", f"{player.name} holds no thief card {thief!r} "
                                           f"(holds: {list(thieves.hands[seat])})")]
    money = CATALOGUE.money.get(card)
    if money is None:
        return [Violation("thieves.money-only", f"{card} is no money card: thieves take only money "
                                                "cards")]
    if card not in state.display:
        return [Violation("thieves.steal", f"{card} is not in the money display")]
    if money.currency != CURRENCY[thief]:  # seed 003.13: "a visible card of that currency"
        return [Violation("thieves.steal", f"{thief} takes only a money card of "
                                           f"{CURRENCY[thief]}, not {card} ({money.currency})")]
    return []


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
                if not problems(state, seat, thief, card):
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


# --- components and consistency ---------------------------------------------------------------

def expected(state: GameState) -> Iterator[str]:
    yield from CARDS


def places(state: GameState) -> Iterator[Place]:
    thieves = state.thieves
    if thieves is None:
        return
    for seat, hand in enumerate(thieves.hands):
        name = state.players[seat].name if seat < len(state.players) else f"seat {seat}"
        yield Place(f"{name}'s thieves", hand, THIEF_CARDS, "it holds only thief cards")
    yield Place("the thieves played", thieves.played, THIEF_CARDS, "it holds only thief cards")
    yield Place("the thieves out of the game", thieves.out, THIEF_CARDS, "it holds only thief cards")


def located(state: GameState) -> Iterator[tuple[str, str]]:
    thieves = state.thieves
    if thieves is None:
        return
    for seat, hand in enumerate(thieves.hands):
        name = state.players[seat].name if seat < len(state.players) else f"seat {seat}"
        for card in hand:
            yield card, f"{name}'s thieves"
    for card in thieves.played:
        yield card, "played (discarded)"
    for card in thieves.out:
        yield card, "out of the game"


def consistency(state: GameState) -> list[Violation]:
    thieves = state.thieves
    if thieves is None:
        return [Violation("thieves.setup", "the thieves module is on but the state has no `thieves` part")]
    n = len(state.players)
    out = [Violation("thieves.order", f"seat {seat} does not exist")
           for seat in (thieves.ended, thieves.last) if seat is not None and seat >= n]
    if len(thieves.hands) != n:
        out.append(Violation("thieves.setup", f"{len(thieves.hands)} thief hands for {n} players"))
    if out:  # the seats below are read from the players and their hands
        return out
    out += _deal_problems(state, thieves)
    if thieves.window and (thieves.ended is None or state.phase != "play"):
        out.append(Violation("thieves.steal", "a thieves' window is open outside play or without the "
                                              "seat whose turn ended"))
    if not thieves.window:
        return out + _closed_problems(state, thieves)
    return out + _window_problems(state, thieves)


def _name(state: GameState, seat: int) -> str:
    return f"seat {seat} ({state.players[seat].name})"


def _closed_problems(state: GameState, thieves: ThievesState) -> list[Violation]:
    """thieves.steal: a closed window names no seat (they are cleared as it closes)."""
    return [Violation("thieves.steal", f"a closed thieves' window names {_name(state, seat)} as `{key}`: "
                                       "only an open window names seats")
            for key, seat in (("ended", thieves.ended), ("last", thieves.last)) if seat is not None]


def _window_problems(state: GameState, thieves: ThievesState) -> list[Violation]:
    """thieves.order, thieves.not-next: an open window's seats are those of the turn that
    ended, and its last thief is a player other than the next one who played a thief."""
    out = []
    n = len(state.players)
    ended = (state.turn.player - 1) % n
    if thieves.ended is not None and thieves.ended != ended:
        out.append(Violation("thieves.order", f"the window names {_name(state, thieves.ended)} as the "
                                              f"seat whose turn ended, but {state.active.name} plays "
                                              f"next: the turn that ended is {_name(state, ended)}'s"))
    last = thieves.last
    if last is not None and last == state.turn.player:
        out.append(Violation("thieves.not-next", f"the window names {_name(state, last)}, the player "
                                                 "whose turn comes next, as its last thief: they may "
                                                 "not steal in it"))
    elif last is not None and (not thieves.played or len(thieves.hands[last]) >= DEAL[n]):
        out.append(Violation("thieves.order", f"the window names {_name(state, last)} as its last "
                                              f"thief, but {state.players[last].name} played no thief "
                                              f"(holds {len(thieves.hands[last])} of the {DEAL[n]} dealt, "
                                              f"{len(thieves.played)} played in all)"))
    if _under_way(state):
        out.append(Violation("thieves.order", f"the thieves' window is open, but {state.active.name}, "
                                              "the next player, has already acted: it closed then"))
    return out


def _deal_problems(state: GameState, thieves: ThievesState) -> list[Violation]:
    """thieves.setup: each player was dealt DEAL[n] thieves and never gains one, so no hand
    holds more; the rest of the deal left the game."""
    n = len(state.players)
    out = [Violation("thieves.setup", f"{state.players[seat].name} holds {len(hand)} thief cards: with "
                                      f"{n} players each is dealt {DEAL[n]} and never gains one")
           for seat, hand in enumerate(thieves.hands) if len(hand) > DEAL[n]]
    if len(thieves.out) != len(CARDS) - n * DEAL[n]:
        out.append(Violation("thieves.setup", f"{len(thieves.out)} thief cards out of the game; with {n} "
                                              f"players {len(CARDS) - n * DEAL[n]} leave the game"))
    return out


def _under_way(state: GameState) -> bool:
    """thieves.order: whether the next player has taken an action (an action of the turn, a
    placement, a decision waiting in the end of their turn): the window closes then."""
    turn = state.turn
    return turn.acted or turn.actions == 0 or turn.ending != 0 or bool(state.active.held)


def seen(state: GameState, seat: int | None) -> ThievesState:
    """thieves.setup: the thieves are dealt face up, and those out of the game are the rest
    of the 12, so everyone sees all of it."""
    thieves = state.thieves
    assert thieves is not None
    return thieves


THIEVES_MODULE = register(Module(
    id="thieves",
    name="The Thieves",
    rule_ids=("thieves.setup", "thieves.steal", "thieves.not-next", "thieves.order",
              "thieves.money-only"),
    actions=(ActionRule(action=Steal, rule="thieves.steal", kind="out-of-turn", check=check_steal,
                        apply=apply_steal, candidates=candidates_steal, sample=sample_steal,
                        what="steal a money card of a thief's currency from the display (steal)"),),
    setup=((58, setup),),
    end_of_turn=((NEXT_TURN + 1, open_window),),
    after_action=close_window,
    components=located,
    places=places,
    expected=expected,
    consistency=consistency,
    events=(ThiefPlayed,),
    view=ViewPart(ThievesState, seen),
    default_data=DATA,
))
