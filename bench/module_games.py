"""Complete random games of every module alone and all eleven together, 2 to 6 players, with the
consistency check and the component totals after every step (issue 12: the rule fixes must keep
every game a game).

Uses the suite's own player (`tests/support/play.play_random_game`, which also validates every
random action before applying it), so this is the suite's check, only on more games than the
suite can afford. Prints, per configuration, the games, the actions, the time and any failure;
exits 1 on a failure.

    python bench/module_games.py [--seeds 4] [--workers 2]     # 12 configs x 5 counts x seeds
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from service.engine.module import registered
from tests.support.play import play_random_game

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
CONFIGS = [*((m,) for m in MODULES), MODULES]


def one_game(config: tuple[str, ...], players: int, seed: int) -> tuple[tuple[str, ...], int, float, str]:
    """(config, actions, seconds, failure or "") of one complete game."""
    started = time.perf_counter()
    try:
        game = play_random_game(seed, players, config)
        assert game.states[-1].phase == "over" and game.rounds[-1] == 3
        return config, len(game.actions), time.perf_counter() - started, ""
    except Exception:  # a failure is reported, the run goes on
        return config, 0, time.perf_counter() - started, (
            f"{'+'.join(config)} players={players} seed={seed}: {traceback.format_exc(limit=3)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=4, help="games per configuration and player count")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    jobs = [(c, n, 1000 * n + s) for c in CONFIGS for n in range(2, 7) for s in range(args.seeds)]
    console = Console()
    console.print(f"{len(jobs)} games: {len(CONFIGS)} configurations x 5 player counts x {args.seeds} seeds; "
                  f"{platform.processor() or platform.machine()}, {args.workers} workers")
    totals: dict[tuple[str, ...], list[float]] = {c: [0, 0, 0.0] for c in CONFIGS}
    failures: list[str] = []
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool, Progress(console=console, transient=True) as progress:
        task = progress.add_task("games", total=len(jobs))
        for config, actions, seconds, failure in pool.map(one_game, *zip(*jobs, strict=True)):
            row = totals[config]
            row[0] += 1
            row[1] += actions
            row[2] += seconds
            if failure:
                failures.append(failure)
            progress.advance(task)
    table = Table("modules", "games", "actions", "s per game", title="complete random games")
    for config, (games, actions, seconds) in totals.items():
        name = "all eleven" if config == MODULES else config[0]
        table.add_row(name, f"{games:.0f}", f"{actions:.0f}", f"{seconds / games:.2f}")
    console.print(table)
    console.print(f"{len(jobs)} games in {time.perf_counter() - started:.0f} s, {len(failures)} failed")
    for failure in failures:
        console.print(failure, markup=False)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
