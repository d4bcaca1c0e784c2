"""The mutation fuzz of unsealed states at full length: swap any two ids (any two string
leaves but the generator and the seal) between any two places of real states of every module
alone and all together, and ask every endpoint's handler about each; count what is not a 4xx.

    python bench/swap_fuzz.py [--tries 10000] [--states 300] [--seed 1]

The suite runs a short form (tests/api/test_swaps.py); this is the 10,000-try run of issue 13.
"""

from __future__ import annotations

import argparse
import collections
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support import swaps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=10_000)
    parser.add_argument("--states", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    pool = swaps.samples(args.states, args.seed)
    print(f"{len(pool)} states of random games ({time.perf_counter() - started:.1f} s); "
          f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    started = time.perf_counter()
    accepted, failures = swaps.run(args.tries, pool, args.seed)
    elapsed = time.perf_counter() - started
    print(f"{args.tries} swaps in {elapsed:.1f} s: {accepted} accepted by the consistency check "
          f"(judged by the engine), {args.tries - accepted} refused; {len(failures)} failures")
    for (endpoint, problem), n in collections.Counter(
            (f.endpoint, f.problem[:120]) for f in failures).most_common(20):
        print(f"  {n:5d}  {endpoint}: {problem}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
