"""What The Thieves owns and where (the thief cards: in hand, played, out of the game), the
consistency of its state, and what a seat sees of it (all of it: the thieves are
public)."""

from __future__ import annotations

from collections.abc import Iterator

from ...module import ViewPart
from ...places import Place
from ...state import GameState
from ...text import Text, t
from ...violations import Violation
from .data import CARDS, DEAL, THIEF_CARDS
from .model import ThievesState


def expected(state: GameState) -> Iterator[str]:
    yield from CARDS


_ONLY_THIEVES = t("it holds only thief cards")
_PLAYED = t("the thieves played")
_OUT = t("the thieves out of the game")


def _hand(state: GameState, seat: int) -> Text:
    if seat < len(state.players):
        return t("{player}'s thieves", player=state.players[seat].name)
    return t("seat {seat}'s thieves", seat=seat)


def places(state: GameState) -> Iterator[Place]:
    thieves = state.thieves
    if thieves is None:
        return
    for seat, hand in enumerate(thieves.hands):
        yield Place(_hand(state, seat), hand, THIEF_CARDS, _ONLY_THIEVES)
    yield Place(_PLAYED, thieves.played, THIEF_CARDS, _ONLY_THIEVES)
    yield Place(_OUT, thieves.out, THIEF_CARDS, _ONLY_THIEVES)


def located(state: GameState) -> Iterator[tuple[str, str]]:
    thieves = state.thieves
    if thieves is None:
        return
    for seat, hand in enumerate(thieves.hands):
        where = _hand(state, seat)
        for card in hand:
            yield card, where
    for card in thieves.played:
        yield card, t("played (discarded)")
    for card in thieves.out:
        yield card, t("out of the game")


def consistency(state: GameState) -> list[Violation]:
    thieves = state.thieves
    if thieves is None:
        return [Violation("thieves.setup", t("the thieves module is on but the state has no `thieves` part"))]
    n = len(state.players)
    out = [Violation("thieves.order", t("seat {seat} does not exist", seat=seat))
           for seat in (thieves.ended, thieves.last) if seat is not None and seat >= n]
    if len(thieves.hands) != n:
        out.append(Violation("thieves.setup", t("{hands} thief hands for {n} players",
                                                hands=len(thieves.hands), n=n)))
    if out:  # the seats below are read from the players and their hands
        return out
    out += _deal_problems(state, thieves)
    if thieves.window and (thieves.ended is None or state.phase != "play"):
        out.append(Violation("thieves.steal", t("a thieves' window is open outside play or without the "
                                                "seat whose turn ended")))
    if not thieves.window:
        return out + _closed_problems(state, thieves)
    return out + _window_problems(state, thieves)


def _name(state: GameState, seat: int) -> Text:
    return t("seat {seat} ({player})", seat=seat, player=state.players[seat].name)


def _closed_problems(state: GameState, thieves: ThievesState) -> list[Violation]:
    """thieves.steal: a closed window names no seat (they are cleared as it closes)."""
    return [Violation("thieves.steal", t("a closed thieves' window names {seat} as `{key}`: only an open "
                                         "window names seats", seat=_name(state, seat), key=key))
            for key, seat in (("ended", thieves.ended), ("last", thieves.last)) if seat is not None]


def _window_problems(state: GameState, thieves: ThievesState) -> list[Violation]:
    """thieves.order, thieves.not-next: an open window's seats are those of the turn that
    ended, and its last thief is a player other than the next one who played a thief."""
    out = []
    n = len(state.players)
    ended = (state.turn.player - 1) % n
    if thieves.ended is not None and thieves.ended != ended:
        out.append(Violation("thieves.order", t("the window names {seat} as the seat whose turn ended, but "
                                                "{player} plays next: the turn that ended is {ended}'s",
                                                seat=_name(state, thieves.ended), player=state.active.name,
                                                ended=_name(state, ended))))
    last = thieves.last
    if last is not None and last == state.turn.player:
        out.append(Violation("thieves.not-next", t("the window names {seat}, the player whose turn comes "
                                                   "next, as its last thief: they may not steal in it",
                                                   seat=_name(state, last))))
    elif last is not None and (not thieves.played or len(thieves.hands[last]) >= DEAL[n]):
        out.append(Violation("thieves.order", t("the window names {seat} as its last thief, but {player} "
                                                "played no thief (holds {held} of the {dealt} dealt, "
                                                "{played} played in all)", seat=_name(state, last),
                                                player=state.players[last].name,
                                                held=len(thieves.hands[last]), dealt=DEAL[n],
                                                played=len(thieves.played))))
    if _under_way(state):
        out.append(Violation("thieves.order", t("the thieves' window is open, but {player}, the next "
                                                "player, has already acted: it closed then",
                                                player=state.active.name)))
    return out


def _deal_problems(state: GameState, thieves: ThievesState) -> list[Violation]:
    """thieves.setup: each player was dealt DEAL[n] thieves and never gains one, so no hand
    holds more; the rest of the deal left the game."""
    n = len(state.players)
    out = [Violation("thieves.setup", t("{player} holds {count} thief cards: with {n} players each is "
                                        "dealt {dealt} and never gains one", player=state.players[seat].name,
                                        count=len(hand), n=n, dealt=DEAL[n]))
           for seat, hand in enumerate(thieves.hands) if len(hand) > DEAL[n]]
    if len(thieves.out) != len(CARDS) - n * DEAL[n]:
        out.append(Violation("thieves.setup", t("{count} thief cards out of the game; with {n} players "
                                                "{left} leave the game", count=len(thieves.out), n=n,
                                                left=len(CARDS) - n * DEAL[n])))
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
