"""Issue 13 item 5: crafted unsealed states (any two ids swapped between any two places of real
states of every module) are refused or judged, never a 500 nor a failed check. The suite runs
a short form; `bench/swap_fuzz.py` runs 10,000 tries."""

from __future__ import annotations

import random

from service.api import endpoints
from service.api.memo import States
from service.api.refusals import RequestError
from service.i18n import encode
from tests.support import swaps


def test_swapping_any_two_ids_of_real_states_never_fails_an_endpoint() -> None:
    pool = swaps.samples(40, seed=13)
    accepted, failures = swaps.run(600, pool, seed=13)
    assert not failures, "\n".join(f"{f.endpoint}: {f.problem}" for f in failures[:10])
    assert 50 < accepted < 600  # some swaps make a state the engine judges, most are refused


def _answer(endpoint: str, raw: bytes, memo: States | None = None) -> tuple[int, bytes]:
    """The handler's answer to `raw` as status and bytes (a refusal's body included), with the
    memo of states `memo` (a fresh one by default)."""
    try:
        return 200, encode(endpoints.handle(endpoint, raw, memo=memo))
    except RequestError as e:
        return e.status, encode(e.body())


def test_bodies_with_a_key_twice_get_the_same_answers_with_and_without_the_memo() -> None:
    """Issue 23 item 7: equal bytes, equal answers, whatever the memo of decoded states holds.
    The fuzz's bodies (real and swapped states) with one key written twice: the answer with the
    memo emptied (the cold path), then with the bytes of every `state` value in it, decoded as a
    client's earlier request would have (the memo's path), must be the same."""
    rnd = random.Random(23)
    pool = swaps.samples(12, seed=23)
    differences, cases = [], 0
    for _ in range(160):
        sample, other = rnd.choice(pool), rnd.choice(pool)
        state = swaps.swapped(sample, rnd) if rnd.random() < 0.3 else sample.state
        endpoint, raw, states = swaps.duplicated(state or sample.state, sample, other.state, rnd)
        memo = States()
        cold = _answer(endpoint, raw, memo)
        for value in states:  # as a validate of that state would have put it
            _answer("validate", b'{"state":%s,"action":{"type":"end-turn","player":"x"}}' % value, memo)
        warm = _answer(endpoint, raw, memo)
        cases += 1
        if cold != warm:
            differences.append((endpoint, cold[0], warm[0], raw[:120]))
    assert not differences, differences[:5]
    assert cases == 160
