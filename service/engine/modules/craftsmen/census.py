"""The Travelling Craftsmen's cards and where they lie (`expected`, `located`), the consistency
of a state's craftsmen part, and what a seat may see of it (`VIEW`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from msgspec.structs import replace

from ...module import Unseen, ViewPart
from ...state import GameState
from ...text import t, tn
from ...violations import Violation
from .data import DATA, KIND, MARK, craftsmen_of
from .model import CraftsmenSeen, CraftsmenState

# --- consistency and components -------------------------------------------------------------

def expected(state: GameState) -> Iterator[str]:
    for card in KIND:
        yield f"craftsman:{card}"


def located(state: GameState) -> Iterator[tuple[str, str]]:
    cs = state.craftsmen
    if cs is None:
        return
    for seat, cards in enumerate(cs.face_up):
        where = (t("{player}'s face-up craftsmen", player=state.players[seat].name)
                 if seat < len(state.players) else t("seat {seat}'s face-up craftsmen", seat=seat))
        for card in cards:
            yield f"craftsman:{card}", where
    for seat, down in enumerate(cs.face_down):
        if down is not None:
            yield f"craftsman:{down}", t("face down before seat {seat}", seat=seat)
    for card in cs.out:
        yield f"craftsman:{card}", t("out of the game")


def consistency(state: GameState) -> list[Violation]:
    """A craftsmen part dealt to the players' seats only (craftsmen.setup, craftsmen.dirk), of
    known cards, as many as were dealt, each once; flips, the use and the pass as a turn leaves
    them. Nothing more is judged of cards of the wrong seats, nor of unknown cards."""
    cs = state.craftsmen
    if cs is None:
        return [Violation("craftsmen.setup", t("the craftsmen module is on but the state has no "
                                               "`craftsmen` part"))]
    seats = _seat_problems(state, cs)
    if seats:
        return seats
    if not 0 <= state.turn.player < len(state.players):
        return []  # the base game refuses the state
    unknown = [c for c in (*(c for cards in cs.face_up for c in cards), *cs.out) if c not in KIND]
    unknown += [c for c in cs.face_down if c is not None and c not in KIND]
    if unknown:
        return [Violation("craftsmen.setup", t("{cards} are no craftsman cards", cards=tuple(unknown)))]
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
    return [Violation(rule, t("craftsmen are held by the {n} players only (Dirk never gets any), not "
                              "face up by {up} seats and face down by {down}", n=n,
                              up=len(cs.face_up), down=len(cs.face_down)))]


def _dealt_problems(in_play: list[str], n: int) -> list[Violation]:
    """craftsmen.setup: as many craftsmen in play as are dealt for `n` players, each of a mark
    used with `n` players."""
    out = []
    marks = DATA["marks_in_play"].get(str(n), [])
    if len(in_play) != DATA["dealt_face_up"] * n + 1:
        out.append(Violation("craftsmen.setup", t("{count} craftsmen are in play; with {n} players there "
                                                  "are {dealt}", count=len(in_play), n=n,
                                                  dealt=DATA["dealt_face_up"] * n + 1)))
    out += [Violation("craftsmen.setup", t("{card} (marked {mark}) is not used with {n} players",
                                           card=c, mark=MARK[c], n=n))
            for c in in_play if MARK[c] not in marks]
    return out


def _use_and_pass_problems(state: GameState, cs: CraftsmenState) -> list[Violation]:
    """craftsmen.use-one: the used craftsman is one of the active player's face-up ones;
    craftsmen.pass: a craftsman is passed during play, once the turn's actions are over."""
    out = []
    if cs.used is not None and cs.used not in cs.face_up[state.turn.player]:
        out.append(Violation("craftsmen.use-one", t("the used {card} is not among {player}'s face-up "
                                                    "craftsmen", card=cs.used, player=state.active.name)))
    if cs.passing and state.phase != "play":
        out.append(Violation("craftsmen.pass", t("a craftsman is passed only during play")))
    if cs.passing and state.turn.actions:
        out.append(Violation("craftsmen.pass", t("a craftsman is passed once the turn's actions are over")))
    return out


def _twice(in_play: list[str], cs: CraftsmenState) -> list[Violation]:
    """craftsmen.setup: each craftsman card exists once, in play or out."""
    counts = Counter(in_play + list(cs.out))
    return [Violation("craftsmen.setup", t("{card} appears {count} times", card=c, count=k))
            for c, k in sorted(counts.items()) if k > 1]


def flip_problems(state: GameState, cs: CraftsmenState) -> list[Violation]:
    """craftsmen.flip: one card lies face down, from setup to the end of the game; during play
    the active player holds it (dealt at setup, or received before their turn; it is turned up
    right after they pass); every player holds two face up."""
    per = DATA["dealt_face_up"]
    out = [Violation("craftsmen.flip", tn("{player} holds {n} face-up craftsman; every player holds {per}",
                                          "{player} holds {n} face-up craftsmen; every player holds {per}",
                                          len(cards), player=state.players[seat].name, per=per))
           for seat, cards in enumerate(cs.face_up) if len(cards) != per]
    down = [seat for seat, c in enumerate(cs.face_down) if c is not None]
    if len(down) != 1:
        out.append(Violation("craftsmen.flip", t("{count} craftsmen lie face down; exactly one does",
                                                 count=len(down))))
    elif state.phase == "play" and down != [state.turn.player]:
        holder = state.players[down[0]].name
        out.append(Violation("craftsmen.flip", t("{holder} holds a face-down craftsman during {player}'s "
                                                 "turn: it is turned up right after its holder passes, "
                                                 "at the end of their turn", holder=holder,
                                                 player=state.active.name)))
    return out


def seen(state: GameState, seat: int | None) -> CraftsmenSeen:
    """craftsmen.pass: a face-down craftsman only its holder sees; the cards out of the game
    nobody (a count)."""
    cs = craftsmen_of(state)
    return CraftsmenSeen(face_up=cs.face_up, face_down=tuple(c is not None for c in cs.face_down),
                         own_face_down=None if seat is None else cs.face_down[seat],
                         out_size=len(cs.out), used=cs.used, passing=cs.passing)


VIEW = ViewPart(CraftsmenSeen, seen)


def unseen(state: GameState, seat: int | None) -> Iterator[Unseen]:
    """craftsmen.pass: the others' face-down craftsmen and the cards out of the game, one pool
    of the cards of the marks in play (those of the other marks are out in every game)."""
    cs = state.craftsmen
    if cs is None:
        return
    marks = DATA["marks_in_play"][str(len(state.players))]
    for i, card in enumerate(cs.face_down):
        if card is not None and i != seat:
            yield Unseen("craftsmen", (card,), lambda s, c, _, i=i: _face_down(s, i, c[0]))
    never = tuple(sorted(c for c in cs.out if MARK[c] not in marks))
    yield Unseen("craftsmen", tuple(c for c in cs.out if MARK[c] in marks),
                 lambda s, cards, _: replace(s, craftsmen=replace(s.craftsmen, out=never + cards)))


def _face_down(state: GameState, seat: int, card: str) -> GameState:
    cs = craftsmen_of(state)
    face_down = list(cs.face_down)
    face_down[seat] = card
    return replace(state, craftsmen=replace(cs, face_down=tuple(face_down)))
