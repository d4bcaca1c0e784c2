"""The game's random generator, whose whole state is one integer kept in the game state.

SplitMix64: tiny, fast in pure Python, and fully described by a 64-bit counter, so a state
carries its own future and `apply(state, action)` stays a pure function (RULES.md §2).
A `Generator` is a short-lived local object: read from a state, advanced, written back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
T = TypeVar("T")
U = TypeVar("U")


def seed_state(seed: int) -> int:
    """The generator state for a game seed (any integer; reduced to 64 bits)."""
    return (seed * 0xD1B54A32D192ED03 + 0x632BE59BD9B4E019) & MASK64


def _limits(size: int) -> tuple[int, ...]:
    """The rejection bound of a draw below n = i + 1, at index i (`below`), for i < size."""
    return tuple(MASK64 - (MASK64 + 1) % (i + 1) for i in range(size))


# Up to 256: a shuffle of the deck or the bag reads its bounds here instead of computing them
# at every new game (a fifth of new_game's time).
_LIMITS = _limits(256)
_BELOW_LIMITS = min(_LIMITS)  # a draw at most this passes every bound of the table
_TABLE = len(_LIMITS)


class Generator:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    @classmethod
    def from_text(cls, text: str) -> Generator:
        return cls(int(text, 16))

    def text(self) -> str:
        """The state as kept in a game state: 16 hex digits."""
        return f"{self.state:016x}"

    def next64(self) -> int:
        self.state = (self.state + _GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * _MIX1) & MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n); rejection keeps it unbiased.

        `next64` written out: a search draws here at every step of every game it plays. The
        rejection bound is computed only for a draw above the least bound of n <= 256 (or for
        a larger n): below it, every such bound passes."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        state = (self.state + _GAMMA) & MASK64
        z = ((state ^ (state >> 30)) * _MIX1) & MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & MASK64
        z ^= z >> 31
        if z > _BELOW_LIMITS or n > _TABLE:
            limit = MASK64 - (MASK64 + 1) % n
            while z > limit:  # once in 2^64 / n draws or less: drawn again
                state = (state + _GAMMA) & MASK64
                z = ((state ^ (state >> 30)) * _MIX1) & MASK64
                z = ((z ^ (z >> 27)) * _MIX2) & MASK64
                z ^= z >> 31
        self.state = state
        return z % n

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """A Fisher-Yates shuffle of `items` as a new tuple (`below` written out, its rejection
        bounds read from a table, and only for a draw above the least of them)."""
        out = list(items)
        n = len(out)
        if n < 2:
            return tuple(out)
        state = self.state
        limits = _LIMITS if n <= _TABLE else _limits(n)
        safe = _BELOW_LIMITS if n <= _TABLE else min(limits)
        for i in range(n - 1, 0, -1):
            state = (state + _GAMMA) & MASK64
            z = ((state ^ (state >> 30)) * _MIX1) & MASK64
            z = ((z ^ (z >> 27)) * _MIX2) & MASK64
            z ^= z >> 31
            if z > safe:
                while z > limits[i]:  # once in 2^64 / n draws or less: drawn again
                    state = (state + _GAMMA) & MASK64
                    z = ((state ^ (state >> 30)) * _MIX1) & MASK64
                    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
                    z ^= z >> 31
            j = z % (i + 1)
            out[i], out[j] = out[j], out[i]
        self.state = state
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def drawn(self, items: Sequence[T]) -> Iterator[T]:
        """`items` in a uniformly random order, each drawn only when it is asked for (a
        Fisher-Yates shuffle from the front, cut short where the caller stops)."""
        out = list(items)
        n = len(out)
        for i in range(n):
            j = i + self.below(n - i) if n - i > 1 else i
            out[i], out[j] = out[j], out[i]
            yield out[i]

    def pick_among(self, items: Sequence[T], options_of: Callable[[T], Sequence[U]]) -> tuple[T, U] | None:
        """(item, one of its options), or None when no item has any: the items are tried in turn
        from a random one on, and the first with options gives a random one of them. Not
        uniform over all (item, option) pairs, but only the items tried are asked (a sampler's
        pick of a reserve tile and where it goes, without every tile's places)."""
        n = len(items)
        first = self.below(n) if n > 1 else 0
        for i in range(n):
            item = items[(first + i) % n]
            options = options_of(item)
            if options:
                return item, options[self.below(len(options))] if len(options) > 1 else options[0]
        return None
