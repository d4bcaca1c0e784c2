"""Many complete games with a hoarding player (issue 22; tests/support/hoarding.py): every module
alone and all eleven together, 2 to 6 players (Dirk with 2), one seat piling up one hoard per
game (its module's, and the base game's hand, reserve and longest wall, in turn) while the others
play at random. Every state handed out is decoded under the contract and checked for
consistency, every scored position is sent to /v1/score as tiles, tallies and a score sheet.

Prints games/s, the states and positions checked, the largest hoards reached per kind (what the
contract's bounds must hold) and every distinct failure with a reproducer; exits 1 on a failure.

    python bench/hoarding.py [--games 240] [--seed 0] [--workers 2]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from tests.support.hoarding import CONFIGS, FIGURES, FINAL_FIGURES, Failure, Record, focuses, label, play


def jobs(games: int, seed: int) -> list[tuple[tuple[str, ...], int, int, str]]:
    """(modules, players, seed, focus) of each game: the configurations in turn, player counts
    and each configuration's hoards cycling under them."""
    out = []
    for n in range(games):
        config = CONFIGS[n % len(CONFIGS)]
        lap = n // len(CONFIGS)
        kinds = focuses(config)
        out.append((config, 2 + (lap + n) % 5, seed + n, kinds[lap % len(kinds)]))
    return out


def one_game(modules: tuple[str, ...], players: int, seed: int, focus: str) -> Record:
    record = Record()
    play(modules, players, seed, focus, record)
    return record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    todo = jobs(args.games, args.seed)
    console = Console()
    console.print(f"{len(todo)} games with a hoarding seat: {len(CONFIGS)} configurations, 2 to 6 players, "
                  f"seeds from {args.seed}; {platform.processor() or platform.machine()}, "
                  f"{args.workers} workers")
    total = Record()
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool, Progress(console=console, transient=True) as progress:
        task = progress.add_task("games", total=len(todo))
        for record in pool.map(one_game, *zip(*todo, strict=True)):
            total.merge(record)
            progress.advance(task)
    elapsed = time.perf_counter() - started
    console.print(f"{total.games} of {len(todo)} games ended in {elapsed:.0f} s "
                  f"({total.games / elapsed:.2f} games/s, {args.workers} workers): {total.actions} actions, "
                  f"{total.states} states and {total.positions} scored positions checked")
    table = Table("hoard", "largest", "reached in", title="the largest hoards reached (one seat)")
    for kind in (*FIGURES, *FINAL_FIGURES):
        value, where = total.largest.get(kind, (0, "-"))
        table.add_row(kind, str(value), where)
    console.print(table)
    return failures(console, total.failures)


def failures(console: Console, found: list[Failure]) -> int:
    """Each distinct failure once (the check and the message, numbers aside), with how many
    games and steps showed it and the reproducer of the first."""
    distinct: dict[tuple, list[Failure]] = {}
    for failure in found:
        distinct.setdefault(failure.key, []).append(failure)
    console.print(f"{len(found)} failures, {len(distinct)} distinct")
    for same in distinct.values():
        first = same[0]
        games = len({(f.modules, f.players, f.seed, f.focus) for f in same})
        console.print(f"\n[bold]{label(first.modules)}[/bold]: {first.check} "
                      f"({len(same)} times in {games} games)")
        console.print(first.script(), markup=False)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
