"""The generator's fast paths (rng.below and rng.shuffled: SplitMix64 written out, rejection
bounds read from a table and computed only above the least of them) draw exactly what the
plain definition draws: next64, and a draw above MASK64 - 2^64 mod n drawn again. Every game's
shuffles and draws come from here (RULES.md §2: the state carries its own future), so a change
of speed must not change one number."""

from __future__ import annotations

import pytest

from service.engine.rng import MASK64, Generator


def _plain_below(g: Generator, n: int) -> int:
    limit = MASK64 - (MASK64 + 1) % n
    while True:
        z = g.next64()
        if z <= limit:
            return z % n


def _plain_shuffled(g: Generator, items: list[int]) -> tuple[int, ...]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _plain_below(g, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


@pytest.mark.parametrize("seed", [0, 1, 7, 2**63 + 5, MASK64])
def test_below_draws_what_next64_with_rejection_draws(seed: int) -> None:
    fast, plain = Generator(seed), Generator(seed)
    for n in [*range(1, 300), 1000, 2**32 + 1, 2**63 + 1, 2**64 - 1]:
        assert fast.below(n) == _plain_below(plain, n)
        assert fast.state == plain.state


@pytest.mark.parametrize("size", [0, 1, 2, 3, 54, 64, 65, 108, 255, 256, 257, 400])
def test_shuffled_draws_what_fisher_yates_over_below_draws(size: int) -> None:
    for seed in (3, 11, 2**40):
        fast, plain = Generator(seed), Generator(seed)
        assert fast.shuffled(list(range(size))) == _plain_shuffled(plain, list(range(size)))
        assert fast.state == plain.state


def test_a_rejected_draw_is_drawn_again() -> None:
    """Near 2^64 the rejection zone is most of the range: the fast path must reject there too."""
    n = 2**63 + 1  # the limit is n - 1: about half of all draws are rejected
    fast, plain = Generator(5), Generator(5)
    for _ in range(200):
        assert fast.below(n) == _plain_below(plain, n)
    assert fast.state == plain.state


def test_pick_among_tries_items_from_a_random_one_on() -> None:
    """Generator.pick_among: one draw picks where to start, the first item with options gives
    one of them by a second draw; items without options are passed over; none gives None."""
    g = Generator(9)
    assert g.pick_among([1, 2, 3], lambda item: []) is None
    picks = {Generator(s).pick_among(["a", "b", "c"], lambda item: [item + "1", item + "2"])
             for s in range(200)}
    assert picks == {("a", "a1"), ("a", "a2"), ("b", "b1"), ("b", "b2"), ("c", "c1"), ("c", "c2")}
    only_c = {Generator(s).pick_among(["a", "b", "c"], lambda item: ["x"] if item == "c" else [])
              for s in range(50)}
    assert only_c == {("c", "x")}


_GAMMA = 0x9E3779B97F4A7C15
_MIX1, _MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def _unshift(y: int, shift: int) -> int:
    x = y
    for _ in range(64 // shift + 1):
        x = y ^ (x >> shift)
    return x


def _state_before(output: int) -> int:
    """The generator state whose next draw (next64) is `output`: SplitMix64's mix undone."""
    z = _unshift(output, 31)
    z = (z * pow(_MIX2, -1, 2**64)) & MASK64
    z = _unshift(z, 27)
    z = (z * pow(_MIX1, -1, 2**64)) & MASK64
    z = _unshift(z, 30)
    return (z - _GAMMA) & MASK64


@pytest.mark.parametrize("n", [3, 5, 6, 7, 54, 63, 64, 65, 100, 108, 255, 256, 257, 1000])
def test_a_draw_in_the_rejection_zone_is_drawn_again(n: int) -> None:
    """The top 2^64 mod n outputs would favour the low results: they are drawn again, by the
    table's bounds (n <= 256) as by a bound computed, in below and in shuffled alike."""
    limit = MASK64 - (MASK64 + 1) % n  # the highest draw kept
    for top in sorted({MASK64, min(MASK64, limit + 1), limit}):
        state = _state_before(top)
        assert Generator(state).next64() == top
        fast, plain = Generator(state), Generator(state)
        assert fast.below(n) == _plain_below(plain, n) and fast.state == plain.state
        fast, plain = Generator(state), Generator(state)
        # the first draw of a shuffle of n items is below(n)
        assert fast.shuffled(list(range(n))) == _plain_shuffled(plain, list(range(n)))
        assert fast.state == plain.state
    rejected = Generator(_state_before(MASK64))
    if (MASK64 + 1) % n:  # not a power of two: the top output is rejected
        rejected.below(n)
        assert rejected.state != (_state_before(MASK64) + _GAMMA) & MASK64
