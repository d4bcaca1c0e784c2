"""Engine speed beside the unavoidable cost of a request: msgspec decode + encode of the state.

Prints, for mid-game 4-player states, the median time of validate, apply and legal_actions and
of a complete random 4-player game, each beside the decode+encode time of the same states.
Targets (issue 2): apply and validate <= 1.0x decode+encode; legal_actions <= 10x; a complete
random 4-player game < 1 s.

    python bench/engine_bench.py [--states 40] [--repeat 200] [--games 20] [--modules zoo,...]
                                 [--compare OLD_TREE] [--rounds 5] [--configs base,zoo,...,all]

`--compare OLD_TREE` (another checkout, e.g. a git worktree of an older commit; it needs no
venv of its own) measures random complete 4-player games per second (new_game, then
random_action + advance to the end, seeds 1..--games; apply in a tree without advance) of this
tree and of that one, each in a fresh subprocess (PYTHONPATH naming the tree; this
interpreter), the two alternating in `--rounds` rounds so that a slow phase of a noisy machine
hits both: the median games per second of each and the ratio new / old (issue 28: >= 3 for the
base game), for every config of `--configs` (`base`, a module's id, `all`: every module at
once; default: --modules, or the base game).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if "--child" not in sys.argv:  # a child imports the tree its PYTHONPATH names
    sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from service.engine import (  # noqa: E402
    GameState,
    Generator,
    apply,
    legal_actions,
    new_game,
    random_action,
    validate,
)
from service.engine.actions import Action  # noqa: E402

MODULES = ("craftsmen", "zoo", "power", "extensions", "staff", "grounds", "walls", "treasure",
           "thieves", "vendors", "change")


def mid_game_states(count: int, modules: tuple[str, ...]) -> list[tuple[GameState, Action]]:
    """(state, legal action) pairs taken from random 4-player games, a third of the way in."""
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        state = new_game(["Ana", "Ben", "Cy", "Di"], modules, seed=seed).state
        rng = Generator(seed)
        for step in range(400):
            action = random_action(state, rng)
            if action is None:
                break
            if step >= 120 and step % 20 == 0:
                out.append((state, action))
            outcome = apply(state, action)
            if outcome.game_over:
                break
            state = outcome.state
    return out[:count]


def median_us(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times) / 1000


# A search plays the engine's own actions with `advance` (apply without validating them again,
# random_action did); a tree older than it (--compare) plays them with `apply`.
try:
    from service.engine import advance as play_own
except ImportError:  # pragma: no cover - an older tree
    play_own = apply


def random_game(seed: int, modules: tuple[str, ...]) -> int:
    """A complete random 4-player game (new_game, random_action + advance, or apply in a tree
    without advance, to the end); its steps."""
    state = new_game(["Ana", "Ben", "Cy", "Di"], modules, seed=seed).state
    rng = Generator(seed)
    steps = 0
    while True:
        action = random_action(state, rng)
        assert action is not None
        outcome = play_own(state, action)
        state = outcome.state
        steps += 1
        if outcome.game_over:
            return steps


def config_modules(config: str) -> tuple[str, ...]:
    return () if config == "base" else MODULES if config == "all" else tuple(config.split("+"))


def timed_games(config: str, games: int) -> dict[str, float]:
    """Seconds (process CPU time and wall time) and steps of games with seeds 1..games."""
    modules = config_modules(config)
    t0, c0 = time.perf_counter(), time.process_time()
    steps = sum(random_game(seed, modules) for seed in range(1, games + 1))
    return {"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "steps": steps}


def child_games(tree: Path, config: str, games: int) -> dict[str, float]:
    """`timed_games` in a fresh process importing the engine of `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, __file__, "--child", "--configs", config,
                           "--games", str(games)], env=env, cwd=tree, capture_output=True,
                          check=True, text=True)
    return json.loads(proc.stdout)


def compare(old: Path, configs: list[str], games: int, rounds: int) -> None:
    """Games per second of this tree and of `old`, alternating, in `rounds` rounds."""
    trees = {"new": ROOT, "old": old.resolve()}
    runs: dict[tuple[str, str], list[dict[str, float]]] = {}
    for r in range(rounds):
        for config in configs:
            for label in (("new", "old") if r % 2 == 0 else ("old", "new")):
                runs.setdefault((config, label), []).append(child_games(trees[label], config, games))
    print(f"random complete 4-player games per second, {games} games (seeds 1..{games}) per run, "
          f"each run a fresh process, {rounds} rounds alternating new and old (old: {trees['old']}); "
          f"by CPU time. 'median': each tree's median rate; 'paired': the median of the rounds' "
          f"ratios (a round's two runs side by side, so a slow phase of a noisy machine hits both)")
    print(f"{'config':<12}{'old games/s':>13}{'new games/s':>13}{'median':>9}{'paired':>9}"
          f"{'steps/game old':>16}{'new':>6}{'steps/s new/old':>17}")
    for config in configs:
        old_runs, new_runs = runs[config, "old"], runs[config, "new"]
        rate = {label: statistics.median(games / run["cpu"] for run in runs[config, label])
                for label in trees}
        paired = statistics.median((o["cpu"] / n["cpu"]) for o, n in zip(old_runs, new_runs, strict=True))
        steps = {label: runs[config, label][0]["steps"] / games for label in trees}
        per_step = statistics.median((n["steps"] / n["cpu"]) / (o["steps"] / o["cpu"])
                                     for o, n in zip(old_runs, new_runs, strict=True))
        print(f"{config:<12}{rate['old']:>13.2f}{rate['new']:>13.2f}{rate['new'] / rate['old']:>9.2f}"
              f"{paired:>9.2f}{steps['old']:>16.0f}{steps['new']:>6.0f}{per_step:>17.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--modules", default="")
    parser.add_argument("--compare", type=Path, default=None,
                        help="another checkout whose engine plays the same games in the same rounds")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--configs", default="",
                        help="for --compare: base, a module id (or several joined by +), all")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(timed_games(args.configs, args.games)))
        return
    modules = tuple(m for m in args.modules.split(",") if m)

    pairs = mid_game_states(args.states, modules)
    encoder = msgspec.json.Encoder()
    decoder = msgspec.json.Decoder(GameState)
    rows: dict[str, list[float]] = {"decode+encode": [], "validate": [], "apply": [],
                                    "legal_actions": []}
    sizes = []
    for state, action in pairs:
        raw = encoder.encode(state)
        sizes.append(len(raw))
        rows["decode+encode"].append(
            median_us(lambda raw=raw: encoder.encode(decoder.decode(raw)), args.repeat))
        rows["validate"].append(median_us(lambda s=state, a=action: validate(s, a), args.repeat))
        rows["apply"].append(median_us(lambda s=state, a=action: apply(s, a), args.repeat))
        rows["legal_actions"].append(
            median_us(lambda s=state: legal_actions(s, 1000), max(args.repeat // 10, 5)))

    game_times = []
    for seed in range(1, args.games + 1):
        t0 = time.perf_counter()
        random_game(seed, modules)
        game_times.append(time.perf_counter() - t0)

    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
          f"Python {platform.python_version()}, msgspec {msgspec.__version__}")
    print(f"modules: {list(modules) or 'base game'}; {len(pairs)} mid-game 4-player states, "
          f"median state size {statistics.median(sizes):.0f} bytes")
    base = statistics.median(rows["decode+encode"])
    targets = {"decode+encode": None, "validate": 1.0, "apply": 1.0, "legal_actions": 10.0}
    print(f"{'operation':<16}{'median µs':>12}{'x decode+encode':>18}{'target':>10}")
    for name, values in rows.items():
        med = statistics.median(values)
        target = targets[name]
        verdict = "" if target is None else ("ok" if med / base <= target else "MISSED")
        shown = "" if target is None else f"<= {target:g}x"
        print(f"{name:<16}{med:>12.1f}{med / base:>18.2f}{shown:>10} {verdict}")
    med_game = statistics.median(game_times)
    print(f"complete random 4-player game: median {med_game * 1000:.0f} ms over {args.games} games "
          f"({med_game * 1e6 / base:.0f}x decode+encode; target < 1000 ms) "
          f"{'ok' if med_game < 1 else 'MISSED'}")
    if args.compare is not None:
        configs = [c for c in args.configs.split(",") if c] or ["+".join(modules) or "base"]
        compare(args.compare, configs, args.games, args.rounds)


if __name__ == "__main__":
    main()
