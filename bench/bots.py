"""How strong the bots are (issue 28): 4-player games, one seat of the level under test against
three of the level below it, the seat rotated game by game; the win rate with its 95 % interval
(Wilson), beside the rate of an even table (25 %).

Targets: `basic` wins at least 90 % of games against three `random` seats; `strong` at its
default budget at least 40 % against three `basic` seats. A shared first place counts as a
share of a win. The budget is work, not time (service/bots/strong.py), so the rates do not
depend on the machine or its load; the time per suggestion does, and is printed beside them.

    python bench/bots.py [--games 200] [--jobs 2] [--pairs basic:random,strong:basic]
                         [--modules zoo,...] [--budget-ms 200]
    python bench/bots.py --calibrate     # the work per millisecond of this machine
    python bench/bots.py --quick         # CI: one short game per pair, that every level runs
    python bench/bots.py --log runs.jsonl  # each game's result kept; a run stopped and started
                                           # again plays only the games the log lacks
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.bots import BUDGET_MS, suggest
from service.engine import apply, new_game, to_act

NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eli", "Fay")
LONGEST_GAME = 3000


def play(levels: tuple[str, ...], modules: tuple[str, ...], seed: int,
         budget_ms: int) -> tuple[list[int], dict[str, list[float]]]:
    """One game, seat i played by levels[i]: the final scores and the seconds per suggestion
    of each level."""
    state = new_game(NAMES[:len(levels)], modules, seed=seed).state
    times: dict[str, list[float]] = {level: [] for level in levels}
    for _ in range(LONGEST_GAME):
        if state.phase == "over":
            break
        actors = to_act(state).actors
        moved = False
        for actor in actors:
            level = levels[actor.seat]
            t0 = time.perf_counter()
            suggestion = suggest(state, actor.player, level, budget_ms)  # type: ignore[arg-type]
            times[level].append(time.perf_counter() - t0)
            if suggestion.action is not None:
                state = apply(state, suggestion.action).state
                moved = True
                break
        if not moved:
            raise RuntimeError(f"game {seed}: every seat that may act waits ({[a.player for a in actors]})")
    else:
        raise RuntimeError(f"game {seed} did not end in {LONGEST_GAME} actions")
    return [p.score for p in state.players], times


def one(args: tuple[str, str, int, tuple[str, ...], int, int]) -> tuple[float, dict[str, list[float]]]:
    """Game `g` of a pair: the tested level in seat g % players; its share of the win."""
    tested, below, g, modules, budget_ms, players = args
    seat = g % players
    levels = tuple(tested if i == seat else below for i in range(players))
    scores, times = play(levels, modules, 10_000 + g, budget_ms)
    best = max(scores)
    share = 1 / scores.count(best) if scores[seat] == best else 0.0
    return share, times


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % with z = 1.96)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def calibrate(budget_ms: int) -> None:
    """Time strong suggestions on mid-game states and print the work per millisecond that would
    make them take `budget_ms` on this machine."""
    from service.bots import strong
    from service.bots.seat import generator, options, seen_by

    rows = []
    for seed in range(6):
        state = new_game(NAMES[:4], (), seed=seed).state
        for step in range(200):
            if state.phase == "over":
                break
            actor = to_act(state).actors[0]
            if step % 25 == 10:
                seen = seen_by(state, actor.seat)
                choices = options(seen, actor.seat)
                if len(choices) > 1:
                    t0 = time.process_time()  # CPU time: the machine may be shared
                    rng = generator(seen, actor.seat, "strong", budget_ms)
                    out = strong.suggest(seen, actor.seat, choices, rng, budget_ms)
                    rows.append((time.process_time() - t0, out.simulated))
            state = apply(state, suggest(state, actor.player, "basic").action).state  # type: ignore[arg-type]
    ms = statistics.median(t for t, _ in rows) * 1000
    per_ms = statistics.median(w / (t * 1000) for t, w in rows)
    print(f"{len(rows)} strong suggestions at {budget_ms} ms of budget ({strong.WORK_PER_MS} work/ms): "
          f"median {ms:.0f} ms of CPU; this machine does {per_ms:.1f} units of work a CPU millisecond")


def logged(path: Path | None, run: dict[str, object]) -> dict[int, tuple[float, dict[str, list[float]]]]:
    """The games of this run (same levels, modules, budget, players) already in the log."""
    if path is None or not path.exists():
        return {}
    games = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if all(row.get(k) == v for k, v in run.items()):
            games[row["game"]] = (row["share"], row["times"])
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--pairs", default="basic:random,strong:basic")
    parser.add_argument("--modules", default="")
    parser.add_argument("--budget-ms", type=int, default=BUDGET_MS)
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--progress", type=int, default=0, help="print the running tally every N games")
    parser.add_argument("--log", type=Path, help="a JSON-lines file of finished games, read and appended to")
    parser.add_argument("--quick", action="store_true",
                        help="one game per pair, strong on 20 ms: that they run (CI), no verdict on strength")
    args = parser.parse_args()
    if args.quick:
        args.games, args.budget_ms, args.jobs = 1, 20, 1
    if args.calibrate:
        calibrate(args.budget_ms)
        return
    modules = tuple(m for m in args.modules.split(",") if m)
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
          f"Python {platform.python_version()}; {args.players} players, "
          f"modules {list(modules) or 'base game'}, strong budget {args.budget_ms} ms")
    targets = {"basic": 0.90, "strong": 0.40}
    for pair in args.pairs.split(","):
        tested, below = pair.split(":")
        run = {"tested": tested, "below": below, "modules": list(modules), "budget_ms": args.budget_ms,
               "players": args.players}
        done = logged(args.log, run)
        jobs = [(tested, below, g, modules, args.budget_ms, args.players)
                for g in range(args.games) if g not in done]
        t0 = time.perf_counter()
        results = [done[g] for g in range(args.games) if g in done]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for job, result in zip(jobs, pool.map(one, jobs), strict=True):
                results.append(result)
                if args.log:
                    with args.log.open("a") as log:
                        row = {**run, "game": job[2], "share": result[0], "times": result[1]}
                        log.write(json.dumps(row) + "\n")
                if args.progress and len(results) % args.progress == 0:
                    won = sum(share for share, _ in results)
                    print(f"  {tested}: {won:g} of {len(results)}", file=sys.stderr, flush=True)
        wins = sum(share for share, _ in results)
        low, high = wilson(wins, len(results))
        per_move = [t for _, times in results for t in times.get(tested, [])]
        target = targets.get(tested)
        met = target is not None and wins / len(results) >= target
        verdict = ("" if target is None or args.quick
                   else f" target >= {target:.0%}: {'met' if met else 'MISSED'}")
        print(f"{tested} vs 3x {below}: won {wins:g} of {len(results)} = {wins / len(results):.1%} "
              f"(95 % {low:.1%} to {high:.1%}; even {1 / args.players:.0%}){verdict}; "
              f"{tested} median {statistics.median(per_move) * 1000:.1f} ms a suggestion, "
              f"{time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
