"""Issue 13 item 5: crafted unsealed states (any two ids swapped between any two places of real
states of every module) are refused or judged, never a 500 nor a failed check. The suite runs
a short form; `bench/swap_fuzz.py` runs 10,000 tries."""

from __future__ import annotations

from tests.api import swaps


def test_swapping_any_two_ids_of_real_states_never_fails_an_endpoint() -> None:
    pool = swaps.samples(40, seed=13)
    accepted, failures = swaps.run(600, pool, seed=13)
    assert not failures, "\n".join(f"{f.endpoint}: {f.problem}" for f in failures[:10])
    assert 50 < accepted < 600  # some swaps make a state the engine judges, most are refused
