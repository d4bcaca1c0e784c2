"""Where every base component is (for the consistency check), and the base game's own checks
of a state that cannot occur in play."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from msgspec.structs import replace

from ..catalogue import CATALOGUE, FOUNTAIN, base_tiles
from ..census import CENSUS
from ..flow import NEXT_TURN, with_player
from ..grid import check_layout
from ..module import Unseen, pending_decision, plan_of, registered
from ..names import clash, stored_problem, table_problems
from ..places import Place
from ..state import GameState
from ..text import Text, t, tn, word
from ..violations import INCONSISTENT, Violation
from .turn import short_display


def expected(state: GameState) -> Iterator[str]:
    yield from base_tiles(CATALOGUE)
    yield from CATALOGUE.money
    yield from CATALOGUE.scoring_cards
    for _ in state.players:
        yield FOUNTAIN


def census(state: GameState) -> list[str]:
    """The ids `located` yields, without their places (the consistency check's fast count)."""
    held = state.rounds_held + state.scoring_called
    ids = [*state.deck, *state.discard, *state.display, *state.bag,
           *(c for c in CATALOGUE.scoring_cards if CATALOGUE.scoring_round_of(c) in held),
           *(s.tile for s in state.market if s.tile is not None), *(t.tile for t in state.removed)]
    for p in state.players:
        ids += p.hand
        ids += [t.tile for t in p.alhambra]
        ids += [t.tile for t in p.reserve]
        ids += [t.tile for t in p.held]
    return ids


def located(state: GameState) -> Iterator[tuple[str, str]]:
    deck, discard, display = t("the deck"), t("the discard pile"), t("the money display")
    for card in state.deck:
        yield card, deck
    for card in state.discard:
        yield card, discard
    for card in state.display:
        yield card, display
    for card in CATALOGUE.scoring_cards:
        if CATALOGUE.scoring_round_of(card) in (*state.rounds_held, *state.scoring_called):
            yield card, t("set aside (its scoring round was called)")
    bag = t("the bag")
    for tile in state.bag:
        yield tile, bag
    for space in state.market:
        if space.tile is not None:
            yield space.tile, market_space(space.currency)
    for r in state.removed:
        yield r.tile, t("out of the game")
    for p in state.players:
        hand = t("{player}'s hand", player=p.name)
        for card in p.hand:
            yield card, hand
        for placed in p.alhambra:
            yield placed.tile, t("{player}'s Alhambra at {pos}", player=p.name, pos=str((placed.x, placed.y)))
        for r in p.reserve:
            yield r.tile, t("{player}'s reserve", player=p.name)
        for h in p.held:
            yield h.tile, t("{player}'s held buildings", player=p.name)


def market_space(currency: str) -> Text:
    """The market space of a currency, as a place."""
    return t("the {currency} market space", currency=word(currency))


TILES = frozenset(CATALOGUE.tiles)  # every building tile: the base game's and the modules'
MONEY = frozenset(CATALOGUE.money)
BUILT = TILES | {FOUNTAIN}


@cache
def deck_cards() -> frozenset[str]:
    """What the money deck may hold: money and scoring cards, and the cards that modules
    shuffle into the money piles (those of a module with a `pile_cards` hook)."""
    shufflers = {m.id for m in registered() if m.pile_cards is not None}
    return frozenset({*CATALOGUE.money, *CATALOGUE.scoring_cards,
                      *(card for card, owner in CATALOGUE.cards.items() if owner in shufflers)})


def places(state: GameState) -> Iterator[Place]:
    """The base game's places and the kind of component each holds (a money card on the
    market, a tile in a hand, the deck and the bag swapped: refused)."""
    cards, tiles = _CARDS, _TILES
    yield Place(_DECK, state.deck, deck_cards(), _DECK_HOLDS)
    yield Place(_DISCARD, state.discard, MONEY, cards)
    yield Place(_DISPLAY, state.display, MONEY, cards)
    yield Place(_BAG, state.bag, TILES, tiles)
    yield Place(_MARKET, tuple(s.tile for s in state.market if s.tile is not None), TILES, tiles)
    yield Place(_REMOVED, tuple(r.tile for r in state.removed), TILES, tiles)
    for p in state.players:
        yield Place(t("{player}'s hand", player=p.name), p.hand, MONEY, cards)
        yield Place(t("{player}'s Alhambra", player=p.name), tuple(a.tile for a in p.alhambra), BUILT,
                    _BUILT_HOLDS)
        yield Place(t("{player}'s reserve", player=p.name), tuple(r.tile for r in p.reserve), TILES, tiles)
        yield Place(t("{player}'s held buildings", player=p.name), tuple(h.tile for h in p.held), TILES,
                    tiles)


# The base game's places and what they hold, worded once.
_CARDS, _TILES = t("it holds only money cards"), t("it holds only building tiles")
_DECK, _DECK_HOLDS = t("the deck"), t("it holds only money and scoring cards")
_DISCARD, _DISPLAY, _BAG = t("the discard pile"), t("the money display"), t("the bag")
_MARKET, _REMOVED = t("the market"), t("the tiles out of the game")
_BUILT_HOLDS = t("it holds only building tiles and the fountain")


def unseen(state: GameState, seat: int | None) -> Iterator[Unseen]:
    """RULES.md §8: what a seat may not see of the base game: the others' hands and the money
    cards of the deck (one pool: a card may be in either), where the deck's other cards lie
    (scoring cards, a module's pile cards), the bag, and the generator's state."""
    for i, p in enumerate(state.players):
        if i != seat:
            yield Unseen("money", p.hand, lambda s, cards, _, i=i: with_player(s, i, hand=cards))
    yield Unseen("money", tuple(c for c in state.deck if c in MONEY), _deck)
    yield Unseen("tiles", state.bag, lambda s, tiles, _: replace(s, bag=tiles))
    yield Unseen("", (), lambda s, _, dealer: replace(s, rng=dealer.generator()))


def _deck(state: GameState, cards: tuple[str, ...], dealer: Any) -> GameState:
    """The deck with `cards` as its money cards; its other cards (scoring cards first, in the
    order they are drawn) where `dealer` puts them."""
    others = sorted((c for c in state.deck if c not in MONEY), key=_drawn_order)
    at = dealer.positions(len(state.deck), len(others))
    deck, money, rest = [], iter(cards), iter(others)
    marked = set(at)
    for i in range(len(state.deck)):
        deck.append(next(rest) if i in marked else next(money))
    return replace(state, deck=tuple(deck))


def _drawn_order(card: str) -> tuple[int, str]:
    """base.setup.scoring-cards: the scoring cards in the order of their piles, then the rest."""
    return (CATALOGUE.scoring_round_of(card), card) if card in CATALOGUE.scoring_cards else (99, card)


def check(state: GameState) -> list[Violation]:
    out = _players(state) + _turn(state) + _market(state) + short_display(state)
    for p in state.players:
        out += [Violation(v.rule, t("{player}'s Alhambra: {why}", player=p.name, why=v.message))
                for v in check_layout(p.alhambra)]
    return out


def _players(state: GameState) -> list[Violation]:
    out = []
    n = len(state.players)
    if not CENSUS.players_at_least <= n <= CENSUS.players:
        out.append(Violation("base.setup.players", t("a game has {fewest} to {most} players, not {n}",
                                                     fewest=CENSUS.players_at_least, most=CENSUS.players,
                                                     n=n)))
    names = [p.name for p in state.players]
    out += [Violation(INCONSISTENT, problem) for problem in map(stored_problem, names) if problem]
    out += [Violation(INCONSISTENT, problem) for problem in table_problems(names)]
    if (n == 2) != (state.dirk is not None):
        out.append(Violation("dirk.setup", t("Dirk plays exactly when there are two players")))
    if state.dirk is not None:
        out += [Violation(INCONSISTENT, t("a player has Dirk's name: {why}", why=problem))
                for problem in filter(None, (clash(state.dirk.name, n) for n in names))]
    for p in state.players:
        if p.score < 0:
            out.append(Violation(INCONSISTENT, t("{player}'s score {score} is negative", player=p.name,
                                                 score=p.score)))
    return out + _scores_before_rounds(state)


def _scores_before_rounds(state: GameState) -> list[Violation]:
    """base.score.rounds: points come only from scoring rounds (no module gives any between
    them), so before round 1 is held every score, Dirk's too, is 0."""
    if state.rounds_held:
        return []
    scores = [(p.name, p.score) for p in state.players]
    if state.dirk is not None:
        scores.append((state.dirk.name, state.dirk.score))
    return [Violation("base.score.rounds", t("{player}'s score is {score}, but no scoring round has been "
                                             "held: points come only from scoring rounds", player=name,
                                             score=score))
            for name, score in scores if score]


def _turn(state: GameState) -> list[Violation]:
    """The turn's counters against the phase and the holdings, then the scoring rounds held
    and called; nothing more is judged of a turn whose player is no seat."""
    turn = state.turn
    if not 0 <= turn.player < len(state.players):
        return [Violation(INCONSISTENT, t("turn.player {seat} is not a seat of this game", seat=turn.player))]
    waiting = pending_decision(state) is not None
    return (_turn_under_way(state, waiting) + _ending_problems(state) + _action_left(state, waiting)
            + _rounds(state) + _round_order(state))


def _turn_under_way(state: GameState, waiting: bool) -> list[Violation]:
    """One action a turn; only the active player holds buildings in play; a turn whose actions
    are over and whose buildings are placed has passed, unless a decision is awaited (the only
    reason for the end of a turn to wait)."""
    out = []
    turn = state.turn
    if turn.actions not in (0, 1):
        out.append(Violation(INCONSISTENT, t("turn.actions must be 0 or 1, not {actions}",
                                             actions=turn.actions)))
    for seat, p in enumerate(state.players):
        # At the end of the game several players may hold leftover tiles at once.
        if p.held and seat != turn.player and state.phase == "play":
            out.append(Violation(INCONSISTENT,
                                 t("{player} holds buildings but it is not {player}'s turn", player=p.name)))
    if state.phase == "play" and turn.actions == 0 and not state.active.held and not waiting:
        out.append(Violation(INCONSISTENT, t("the active player's turn is over but has not passed")))
    if turn.ending and not waiting:
        out.append(Violation(INCONSISTENT, t("the end of the turn waits for no decision")))
    return out


def _action_left(state: GameState, waiting: bool) -> list[Violation]:
    """The action left against the phase: kept until the player acts in play, none while the
    leftover tiles are placed, and the final placement is by a player who holds some."""
    out = []
    turn = state.turn
    if state.phase == "play" and not turn.acted and turn.actions != 1:
        out.append(Violation(INCONSISTENT, t("a player who has not acted still has their action")))
    if state.phase == "final-placement" and not state.active.held and not waiting:
        out.append(Violation(INCONSISTENT, t("final placement by a player who holds nothing")))
    if state.phase == "final-placement" and turn.actions != 0:
        out.append(Violation(INCONSISTENT, t("no action is taken while placing leftover tiles")))
    return out


def _rounds(state: GameState) -> list[Violation]:
    """The scoring rounds held (each once, in order; round 3 ends the game, which then has a
    ranking) and called (rounds 1 and 2, not yet held, only while the game is played)."""
    out = []
    rounds = state.rounds_held
    if list(rounds) != sorted(set(rounds)) or any(r not in (1, 2, 3) for r in rounds):
        out.append(Violation(INCONSISTENT, t("rounds_held ({held}) is not a sorted set of 1-3",
                                             held=tuple(rounds))))
    if (3 in rounds) != (state.phase == "over"):
        out.append(Violation(INCONSISTENT, t("round 3 is held exactly when the game is over")))
    if (state.phase == "over") != bool(state.ranking):
        out.append(Violation(INCONSISTENT, t("a finished game, and only one, has a ranking")))
    if state.scoring_called and state.phase != "play":
        out.append(Violation(INCONSISTENT, t("a scoring round is called but the game has ended")))
    if any(r not in (1, 2) or r in rounds for r in state.scoring_called):
        out.append(Violation(INCONSISTENT, t("scoring_called ({called}) is wrong",
                                             called=tuple(state.scoring_called))))
    return out


def _round_order(state: GameState) -> list[Violation]:
    """base.setup.scoring-cards, base.turn.scoring-card: scoring-1 lies in pile 2, above all of
    pile 3, and scoring-2 in pile 4. A refill or the blacksmith draws scoring-1 before anything
    below it; only a wisdom draw (power.wisdom: at most the red die's 6 cards, one kept) passes
    it, and it spans both only once fewer than 5 cards lie between them, more than the 3
    wisdom tiles' keeps can take out of pile 3. So scoring-2 is called only after scoring-1
    and round 2 is held only after round 1 (both in one refill: 1 then 2)."""
    called, held = state.scoring_called, state.rounds_held
    upper, lower = sorted(CATALOGUE.scoring_cards, key=CATALOGUE.scoring_cards.__getitem__)
    first, second = CATALOGUE.scoring_round_of(upper), CATALOGUE.scoring_round_of(lower)
    why = t("{upper} lies in an earlier pile than {lower} and comes up first", upper=upper, lower=lower)
    out = []
    if second in held and first not in held:
        out.append(Violation("base.turn.scoring-card", t(
            "round {second} was held (rounds_held ({held})) but round {first} was not: {why}",
            second=second, held=tuple(held), first=first, why=why)))
    elif second in called and first not in (*held, *called):
        out.append(Violation("base.turn.scoring-card", t(
            "round {second} is called (scoring_called ({called})) but round {first} is neither held nor "
            "called: {why}", second=second, called=tuple(called), first=first, why=why)))
    order = (first, second)
    if set(called) <= set(order) and list(called) != sorted(set(called), key=order.index):
        out.append(Violation("base.turn.scoring-card", t(
            "scoring_called ({called}) is not in the order the scoring cards come up: {why}",
            called=tuple(called), why=why)))
    return out


def _market(state: GameState) -> list[Violation]:
    out = []
    currencies = tuple(s.currency for s in state.market)
    if currencies != CATALOGUE.currencies:
        out.append(Violation(INCONSISTENT, t("the market spaces must be {wanted} in that order, not {found}",
                                             wanted=tuple(CATALOGUE.currencies), found=currencies)))
    if state.phase == "play" and not state.turn.acted:
        for s in state.market:
            if s.tile is None:
                out.append(Violation(INCONSISTENT, t("{space} is empty at the start of a turn",
                                                     space=market_space(s.currency))))
    if state.phase != "play" and any(s.tile for s in state.market):
        out.append(Violation(INCONSISTENT, t("the market keeps no tiles once the game has ended")))
    out += _held_beyond_market(state)
    # A module may let the display hold more (craftsmen.blacksmith).
    limit = max([CATALOGUE.display_size, *(fn(state) for fn in plan_of(state).hooks["display_limit"])])
    if len(state.display) > limit:
        out.append(Violation(INCONSISTENT, tn("the money display holds {n} card, more than {limit}",
                                              "the money display holds {n} cards, more than {limit}",
                                              len(state.display), limit=limit)))
    for p in (state.display, state.discard, *(p.hand for p in state.players)):
        for card in CATALOGUE.scoring_cards.keys() & set(p):
            out.append(Violation(INCONSISTENT, t("{card} is only ever in the deck or set aside", card=card)))
    return out


def _held_beyond_market(state: GameState) -> list[Violation]:
    """base.buy.hold, base.buy.exact-bonus ("The market is not refilled during the turn"): in
    play, a held building was bought from the market this turn and left its space empty until
    the end-of-turn refill, which comes after the placement; so no more are held than spaces
    are empty. (Leftover tiles are held only in the final placement.)"""
    held = tuple(h.tile for p in state.players for h in p.held)
    empty = sum(1 for s in state.market if s.tile is None)
    if state.phase != "play" or len(held) <= empty:
        return []
    return [Violation(INCONSISTENT, tn(
        "{n} building is held ({held}) but only {empty} market spaces are empty: each was bought this "
        "turn from the market, which is not refilled during the turn (base.buy.hold)",
        "{n} buildings are held ({held}) but only {empty} market spaces are empty: each was bought this "
        "turn from the market, which is not refilled during the turn (base.buy.hold)",
        len(held), held=held, empty=empty))]


def _ending_problems(state: GameState) -> list[Violation]:
    """RULES.md §H: `turn.ending` is 0 while the turn is played and once the game has ended,
    else the position of an end-of-turn step to resume at (a decision stops the steps before the
    next turn starts); the end of the turn begins only once the actions are over and the held
    buildings placed."""
    turn = state.turn
    if turn.ending == 0:
        return []
    if not 0 < turn.ending <= NEXT_TURN or state.phase != "play":
        return [Violation(INCONSISTENT, t("turn.ending {ending} is no position of the end-of-turn steps: 0 "
                                          "while the turn is played and once the game has ended, else 1 "
                                          "to {last}", ending=turn.ending, last=NEXT_TURN))]
    if turn.actions or state.active.held:
        return [Violation(INCONSISTENT, t("turn.ending is {ending}, but the end of the turn begins only "
                                          "once the actions are over and the held buildings placed",
                                          ending=turn.ending))]
    waiting = pending_decision(state)
    if waiting is not None and waiting.step and turn.ending > waiting.step + 1:
        return [Violation(INCONSISTENT, t("turn.ending is {ending}, past the step {step} of the decision "
                                          "that waits ({rule})", ending=turn.ending, step=waiting.step,
                                          rule=waiting.rule))]

    return []
