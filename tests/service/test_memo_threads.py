"""Issue 23 item 8: the app's memo of states (service/api/memo.py: states by the digest of their
bytes, seals by the seal; it replaced KNOWN, DECODED and a Sealing's seals) is reached from the
event loop and from the render threads at once. No interleaving of its operations may raise (a
500) or give one key's entry for another's.

A thread switch every microsecond and a memo of a few entries make the windows between one
operation's steps wide; each test hammers the memo from 8 threads with keys from a small pool."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator

import pytest

from service.api.handlers import Judge, opened
from service.api.memo import Seen, States
from service.engine import new_game
from service.seal import Sealing

THREADS, ROUNDS = 8, 4_000


@pytest.fixture(autouse=True)
def _switch_often() -> Iterator[None]:
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def _hammer(work: Callable[[int, int], None]) -> list[BaseException]:
    """`work(thread, round)` from THREADS threads started together; what any of them raised."""
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(n: int) -> None:
        start.wait()
        try:
            for i in range(ROUNDS):
                work(n, i)
        except BaseException as e:  # reported by the test
            errors.append(e)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_known_states_survive_lookups_and_evictions_from_many_threads() -> None:
    """A lookup of a digest that another thread evicts meanwhile is a miss, never a KeyError
    (`__contains__` tested, then moved the entry to the end: an eviction between the two raised)."""
    memo = States(size=2)
    keys = [bytes([k]) * 32 for k in range(5)]

    def work(n: int, i: int) -> None:
        key = keys[(n + i) % len(keys)]
        if memo.get(key) is None:
            memo.put(key, Seen(None, checked=True))

    assert _hammer(work) == []
    assert len(memo._entries) <= memo.size


class _EvictedMeanwhile(OrderedDict[bytes | str, Seen]):
    """The memo's dict, where another thread adds two digests (so evicts one) right after any
    lookup: the interleaving the race needs, made certain."""

    def __init__(self, memo: States) -> None:
        super().__init__()
        self.memo = memo
        self.fresh = (bytes([n]) * 32 for n in range(100, 256))
        self.others: list[threading.Thread] = []

    def get(self, key: bytes | str, default: object = None) -> object:  # type: ignore[override]
        found = super().get(key, default)
        other = threading.Thread(target=lambda: [self.memo.put(next(self.fresh), Seen(None))
                                                 for _ in range(2)])
        other.start()
        self.others.append(other)
        other.join(0.5)  # blocked by a lock the lookup holds: it adds once the lookup is over
        return found


def test_known_states_lookup_is_a_miss_when_evicted_between_its_steps() -> None:
    """The eviction between a lookup's test and its `move_to_end` (KeyError, a 500)."""
    memo = States(size=2)
    memo._entries = _EvictedMeanwhile(memo)
    key = bytes(32)
    memo.put(key, Seen(None))
    assert (memo.get(key) is not None) in (True, False)  # either, as long as it answers
    for other in memo._entries.others:  # type: ignore[attr-defined]
        other.join()
    assert len(memo._entries) == memo.size


def test_decoded_states_give_only_their_own_entries_from_many_threads() -> None:
    """A state looked up by its digest is the one put under it, and a state's digest is its own,
    while other threads fill and empty the memo."""
    memo = States(size=3)
    states = [new_game(["Ana", "Ben"], (), seed=k).state for k in range(6)]
    digests = [bytes([k]) * 32 for k in range(len(states))]

    def work(n: int, i: int) -> None:
        k = (n * 7 + i) % len(states)
        memo.put(digests[k], Seen(states[k], digest=digests[k]))
        found = memo.get(digests[k])
        assert found is None or found.state is states[k]
        assert found is None or found.digest == digests[k]

    assert _hammer(work) == []


def test_a_sealing_opens_its_seals_from_many_threads() -> None:
    """Seals made and opened by many threads at once, with the memo of seals filling and
    emptying: each opens to its own state."""
    sealing = Sealing((("k1", bytes(range(64))),))
    states = [new_game(["Ana", "Ben"], (), seed=k).state for k in range(4)]
    sealed = [sealing.seal(s) for s in states]
    memo = States(size=3)
    judge = Judge(sealing, memo=memo)

    def work(n: int, i: int) -> None:
        k = (n + i) % len(states)
        if i % 50 == 0:
            memo.clear()
        assert opened(sealed[k], judge).state == states[k]

    assert _hammer(work) == []
