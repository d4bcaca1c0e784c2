"""What a seat may know of a state, as a whole state (RULES.md §8): for bots, which must decide
from what their seat sees and nothing more.

`as_seen(state, seat)` is the state with every place the seat may not see (each module's
`unseen` hook: the deck, the bag, the others' hands, face-down things, secret choices, the
generator) dealt again in one fixed arrangement: the same components in sorted order, each
pool's places filled in the order the modules name them. What lay there before is forgotten,
so the result is a function of what the seat sees alone (tests/bots/test_no_peeking.py holds
every module to it: perturb what the seat may not see, get the same bytes), while the seat's
own view of it is unchanged and it is a state that can occur (`check_consistency`).

`sampled(seen, seat, rng)` deals the same places at random instead: one world consistent with
what the seat saw, for a search over the seat's information (a determinization).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from .module import Unseen, plan_of
from .rng import Generator
from .state import GameState

T = TypeVar("T")

# The generator's state in a state as seen: a fixed one (the real one is hidden).
SEEN_RNG = "0000000000000000"


class Dealer:
    """How the places are filled: in sorted order (`rng` None) or shuffled by `rng`."""

    __slots__ = ("rng",)

    def __init__(self, rng: Generator | None) -> None:
        self.rng = rng

    def arrange(self, items: Sequence[T]) -> list[T]:
        """`items` in a fixed order (sorted by their JSON-like text), then shuffled if random:
        never in the order they were given, which may tell where they lay."""
        out = sorted(items, key=_key)
        return out if self.rng is None else list(self.rng.shuffled(out))

    def choose(self, options: Sequence[T]) -> T:
        """The first of `options`, or one at random."""
        return options[0] if self.rng is None else self.rng.choice(options)

    def positions(self, size: int, count: int) -> list[int]:
        """`count` positions among `size`, ascending: the last ones, or random ones."""
        if self.rng is None:
            return list(range(size - count, size))
        free = list(range(size))
        chosen = []
        for _ in range(count):
            chosen.append(free.pop(self.rng.below(len(free))))
        return sorted(chosen)

    def generator(self) -> str:
        """A generator's state for the world dealt: fixed, or drawn from `rng`."""
        return SEEN_RNG if self.rng is None else f"{self.rng.next64():016x}"


def _key(item: Any) -> str:
    return item if isinstance(item, str) else repr(item)


def unseen_places(state: GameState, seat: int | None) -> list[Unseen]:
    """Every place of `state` holding what `seat` may not see, in the modules' order."""
    return [u for fn in plan_of(state).hooks["unseen"] for u in fn(state, seat)]


def dealt(state: GameState, seat: int | None, dealer: Dealer) -> GameState:
    """`state` with every place `seat` may not see filled anew by `dealer`."""
    places = unseen_places(state, seat)
    pools: dict[str, list[Any]] = {}
    for place in places:
        if place.pool:
            pools.setdefault(place.pool, []).extend(place.items)
    deals = {pool: iter(dealer.arrange(items)) for pool, items in pools.items()}
    for place in places:
        if place.pool:
            deal = deals[place.pool]
            state = place.put(state, tuple(next(deal) for _ in place.items), dealer)
        else:
            state = place.put(state, (), dealer)
    return state


def as_seen(state: GameState, seat: int | None) -> GameState:
    """What `seat` (None: a spectator) may know of `state`: every place it may not see dealt in
    one fixed arrangement, so that two states it cannot tell apart give the same state."""
    return dealt(state, seat, Dealer(None))


def sampled(state: GameState, seat: int | None, rng: Generator) -> GameState:
    """One world `seat` cannot tell from `state`: every place it may not see dealt at random
    (the same components, each kept to its pool)."""
    return dealt(state, seat, Dealer(rng))
