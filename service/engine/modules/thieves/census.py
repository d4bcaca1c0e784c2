"""What The Thieves owns and where (the thief cards: in hand, played, out of the game), the
consistency of its state, and what a seat sees of it (all of it: the thieves are
public)."""

from __future__ import annotations

from collections.abc import Iterator

from ...module import ViewPart
from ...places import Place
from ...state import GameState
from ...violations import Violation
from .data import CARDS, DEAL, THIEF_CARDS
from .model import ThievesState


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


VIEW = ViewPart(ThievesState, seen)
