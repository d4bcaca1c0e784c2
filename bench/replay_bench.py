"""How long a record takes to replay (issue 27: POST /v1/replay), in-process and over HTTP.

Two records, each the longest of `--seeds` games played by the suite's preference policy
(`tests/support/play.preferred_action`: it builds as soon as it can, as people do; the stand-in
for a real game):

- the longest real game: 6 players with every module (the eleven of `referee modules`);
- a 4-player base game;

and, beside them, the longest of as many 4-player base games of random legal play
(`random_action`, as `referee play --record` plays them), which run longer than people's.

Each is replayed `--repeat` times three ways: the engine alone (`service.engine.replay`, the
actions already decoded), the endpoint's handler in-process (`endpoints.handle("replay", ...)`:
the body decoded, the editions policy, the replay and the answer encoded, what `referee replay`
does), and POST /v1/replay to a live `referee serve` (one worker, as shipped, sealing off) on a
loopback port, one request at a time on one keep-alive connection. Prints the actions, the
record's bytes, the median and p95 in ms (and ms per action) and the CPU time a replay took
(the server's, over HTTP), which moves less than the elapsed time on a shared machine. Figures
only, no verdict: the bound they document is docs/performance.md's.

    python bench/replay_bench.py [--seeds 8] [--repeat 20]
    python bench/replay_bench.py --quick          # 2 seeds, 1 repetition (.ci/run)
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import httpx
import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from bench.http_bench import cpu_seconds, start_referee  # noqa: E402
from service.api.endpoints import handle  # noqa: E402
from service.engine import EDITION, MAX_RECORD_ACTIONS, Generator, apply, new_game, random_action  # noqa: E402
from service.engine.actions import Action  # noqa: E402
from service.engine.module import registered  # noqa: E402
from service.engine.replay import replay  # noqa: E402
from tests.support.play import MAX_ACTIONS, NAMES, preferred_action  # noqa: E402

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
_ENCODE = msgspec.json.Encoder().encode


@dataclass
class Played:
    name: str
    players: tuple[str, ...]
    modules: tuple[str, ...]
    seed: int
    actions: list[Action]
    body: bytes  # {"record": ...}: the POST /v1/replay body


def played(name: str, players: int, modules: tuple[str, ...], seed: int, policy: str) -> Played:
    """A complete game by the preference policy (or random legal play, as `referee play`), and
    its record as a client keeps one."""
    names = NAMES[:players]
    state = new_game(names, modules, seed=seed).state
    rnd, rng = random.Random(seed), Generator(seed)
    actions: list[Action] = []
    for _ in range(MAX_ACTIONS):
        chosen = preferred_action(state, rnd) if policy == "preferred" else random_action(state, rng)
        assert chosen is not None, f"{name}, seed {seed}: no legal action"
        action = chosen
        outcome = apply(state, action)
        actions.append(action)
        state = outcome.state
        if outcome.game_over:
            break
    else:
        raise AssertionError(f"{name}, seed {seed}: not over after {MAX_ACTIONS} actions")
    record = {"format": "alhambra-record/1", "edition": EDITION,
              "setup": {"players": names, "modules": modules, "seed": seed},
              "actions": actions, "result": state.ranking}
    return Played(name, names, modules, seed, actions, _ENCODE({"record": record}))


def longest(name: str, players: int, modules: tuple[str, ...], seeds: int,
            policy: str) -> tuple[Played, list[int]]:
    games = [played(name, players, modules, seed, policy) for seed in range(1, seeds + 1)]
    return max(games, key=lambda g: len(g.actions)), [len(g.actions) for g in games]


@dataclass
class Measured:
    wall_ms: list[float]  # each replay's elapsed time
    cpu_ms: float  # the CPU time a replay took, on average (the server's, over HTTP)


def measured(fn: Callable[[], object], repeat: int, cpu: Callable[[], float] = time.process_time) -> Measured:
    """`fn` run `repeat` times (after one run to warm up: the decoders, the modules' first calls,
    the connection): each run's elapsed time, and the CPU time `cpu` (seconds) counted meanwhile,
    a run's share. The CPU time moves less than the elapsed one on a machine others share."""
    fn()
    out = []
    started = cpu()
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - t0) / 1e6)
    return Measured(out, (cpu() - started) * 1000 / repeat)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else values[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=8, help="games played for each record; the longest kept")
    parser.add_argument("--repeat", type=int, default=20, help="replays measured each way")
    parser.add_argument("--quick", action="store_true", help="2 seeds, 1 repetition: that it runs")
    args = parser.parse_args()
    if args.quick:
        args.seeds, args.repeat = 2, 1
    console = Console(width=max(110, Console().width))
    console.print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, Python "
                  f"{platform.python_version()}, msgspec {msgspec.__version__}; {args.seeds} seeds, "
                  f"{args.repeat} repetitions")

    games = []
    for name, players, modules, policy in (("6 players, every module", 6, MODULES, "preferred"),
                                           ("4 players, base game", 4, (), "preferred"),
                                           ("4 players, base, random play", 4, (), "random")):
        game, lengths = longest(name, players, modules, args.seeds, policy)
        assert len(game.actions) <= MAX_RECORD_ACTIONS
        console.print(f"{name}: {lengths} actions over seeds 1-{args.seeds}; the longest, seed "
                      f"{game.seed}: {len(game.actions)} actions, {len(game.body)} bytes")
        games.append(game)

    rows: list[tuple[Played, str, Measured]] = []
    for game in games:
        def engine(g: Played = game) -> object:
            return replay(g.players, g.modules, g.seed, g.actions)

        def handler(g: Played = game) -> object:
            return _ENCODE(handle("replay", g.body))

        rows.append((game, "engine", measured(engine, args.repeat)))
        rows.append((game, "handler", measured(handler, args.repeat)))

    with tempfile.TemporaryDirectory() as tmp:
        server = start_referee("referee", Path(tmp) / "referee.log", "info")
        try:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                for game in games:
                    def post(g: Played = game, c: httpx.Client = client) -> object:
                        answer = c.post("/v1/replay", content=g.body,
                                        headers={"content-type": "application/json"})
                        assert answer.status_code == 200, answer.text[:500]
                        assert answer.json()["result"]["verdict"] == "agrees"
                        return answer

                    server_cpu = partial(cpu_seconds, server.proc.pid)
                    rows.append((game, "HTTP", measured(post, args.repeat, server_cpu)))
        finally:
            server.stop()

    table = Table("record", "actions", "bytes", "replayed by", "median ms", "p95 ms", "ms per action",
                  "CPU ms", title="replaying a record")
    for game, how, m in sorted(rows, key=lambda row: games.index(row[0])):
        med = statistics.median(m.wall_ms)
        table.add_row(game.name, str(len(game.actions)), str(len(game.body)), how, f"{med:.1f}",
                      f"{p95(m.wall_ms):.1f}", f"{med / len(game.actions):.3f}", f"{m.cpu_ms:.1f}")
    console.print(table)
    console.print("engine: service.engine.replay on decoded actions; handler: endpoints.handle("
                  "\"replay\", body) and the answer encoded, in-process; HTTP: POST /v1/replay to "
                  "`referee serve` (1 worker, sealing off), one keep-alive connection; ms per action: the "
                  "median's; CPU ms: a replay's CPU time (the server process's, over HTTP; in "
                  "clock ticks of 10 ms over all repetitions)", markup=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
