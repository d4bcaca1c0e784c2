"""base.money.take: take one card of any value, or several whose values total at most 5."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from itertools import combinations

from msgspec.structs import replace

from ..actions import TakeMoney
from ..catalogue import CATALOGUE
from ..events import MoneyTaken
from ..flow import spend_action, with_player
from ..module import ActionRule, Context, plan_of
from ..rng import Generator
from ..state import GameState
from ..text import t
from ..violations import Violation

RULE = "base.money.take"


def duplicates(cards: tuple[str, ...]) -> list[str]:
    if len(set(cards)) == len(cards):
        return []
    seen: set[str] = set()
    return sorted({c for c in cards if c in seen or seen.add(c)})  # type: ignore[func-returns-value]


def check(state: GameState, action: TakeMoney) -> list[Violation]:
    if not action.cards:
        return [Violation(RULE, t("take-money must name at least one card of the display"))]
    out = [Violation(RULE, t("{card} is named twice", card=c)) for c in duplicates(action.cards)]
    out += [Violation(RULE, t("{card} is not in the money display ({display})", card=c,
                              display=tuple(state.display)))
            for c in action.cards if c not in state.display]
    if out or len(action.cards) == 1:
        return out
    total = sum(CATALOGUE.money[c].value for c in action.cards)
    limit = take_limit(state, action)
    if total > limit:
        out.append(Violation(RULE, t("several cards may total at most {limit}; {cards} total {total}",
                                     limit=limit, cards=tuple(action.cards), total=total)))

    return out


def take_limit(state: GameState, action: TakeMoney) -> int:
    """The most several cards may total: 5, or more where a module raises it (goldsmith)."""
    raised = (fn(state, action) for fn in plan_of(state).hooks["take_limit"])
    return max([CATALOGUE.take_money_total_at_most, *raised])


def apply(state: GameState, action: TakeMoney, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    display = tuple([c for c in state.display if c not in action.cards])
    state = replace(state, display=display)
    state = with_player(state, seat, hand=(*player.hand, *action.cards))
    ctx.events.append(MoneyTaken(player=player.name, cards=action.cards))
    return spend_action(state, another=False)


def _card_key(card: str) -> tuple[str, int]:
    money = CATALOGUE.money[card]
    return money.currency, money.value


# The (currency, value) of every money card, read once.
_KIND = {card: (money.currency, money.value) for card, money in CATALOGUE.money.items()}


def _kinds(display: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """The (currency, value) of each card of a display."""
    try:
        return tuple(map(_KIND.__getitem__, display))
    except KeyError:  # not a money card of the catalogue: as _card_key says
        return tuple(map(_card_key, display))


def takes(display: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every distinct take from a display: one card, or several totalling at most 5; cards that
    differ only in their copy letter are listed once (by size, then display order)."""
    return tuple(tuple(display[i] for i in take) for take in _takes(_kinds(display)))


@cache
def _subsets(n: int) -> tuple[tuple[int, ...], ...]:
    """Every non-empty subset of range(n), by size, then in `combinations` order."""
    return tuple(take for size in range(1, n + 1) for take in combinations(range(n), size))


@cache
def _multis(n: int, among: int) -> tuple[tuple[int, ...], ...]:
    """The subsets of `_subsets(n)` of two positions or more, all of them in the bit mask
    `among`, in that order."""
    return tuple(take for take in _subsets(n) if len(take) > 1 and all(among >> i & 1 for i in take))


@lru_cache(maxsize=4096)
def _takes(kinds: tuple[tuple[str, int], ...]) -> tuple[tuple[int, ...], ...]:
    """`takes` as positions in a display holding cards of these (currency, value)s: the
    positions of `_subsets` in order, a single card unless one of its kind came before, several
    only if they total at most the limit and no take of the same kinds came before."""
    out: list[tuple[int, ...]] = []
    seen: set[object] = set()
    for i, kind in enumerate(kinds):
        if kind not in seen:
            seen.add(kind)
            out.append((i,))
    if len(kinds) < 2:
        return tuple(out)
    limit = CATALOGUE.take_money_total_at_most
    values = [value for _, value in kinds]
    least = min(values)
    among = 0  # the cards that may be one of several: with the least other card, within the limit
    for i, value in enumerate(values):
        if value + least <= limit:
            among |= 1 << i
    for take in _multis(len(kinds), among):
        total = 0
        for i in take:
            total += values[i]
        if total > limit:
            continue
        key = tuple(sorted([kinds[i] for i in take]))
        if key not in seen:
            seen.add(key)
            out.append(take)
    return tuple(out)


def candidates(state: GameState, seat: int) -> Iterator[TakeMoney]:
    name = state.players[seat].name
    for cards in takes(state.display):
        yield TakeMoney(player=name, cards=cards)


def sample(state: GameState, seat: int, rng: Generator) -> TakeMoney | None:
    display = state.display
    options = _takes(_kinds(display))
    if not options:
        return None
    take = rng.choice(options)
    return TakeMoney(player=state.players[seat].name, cards=tuple(display[i] for i in take))


RULE_TAKE = ActionRule(action=TakeMoney, rule=RULE, kind="action", check=check, apply=apply,
                       candidates=candidates, sample=sample,
                       exact_sample=True)
