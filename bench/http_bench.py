"""HTTP throughput and latency of the referee beside a bare litestar + msgspec echo.

The yardstick is what a user could run instead with the same stack: `bench/echo_app.py`, one
litestar route that decodes the body into a Struct and encodes it back, under the same server
and worker count as the referee (`--workers`, 1 by default). Started on free loopback ports,
one at a time under load:

- the bare echo (`--server`: uvicorn with uvloop and httptools, or granian);
- `referee serve` as shipped (request logs on at LOG_LEVEL info, to a file; metrics
  on), sealing off: its own /v1/echo (the same body through its middleware), validate and apply
  on cache hits and on misses (`Cache-Control: no-cache`: computed every time);
- the same with sealing on (SEAL_KEYS set, the body's state sealed): validate and apply on hits
  and misses (a miss opens the seal, checks, applies and seals the new state).

Driven by `wrk` (install: `apt-get install wrk`), a small C load generator with an event loop,
so that the generator does not compete with the one server worker as a Python one would. The
runs are interleaved in `--rounds` rounds and each figure is the median over the rounds, so a
burst of load from elsewhere on a shared machine moves one round, not one endpoint. Five rounds
by default: on the 2-core VM of docs/performance.md the CPU has slow phases of several seconds (the
requests per CPU-second of one run fell by 15 % against the others), and one of three rounds
falling into one could move a median; two of five cannot.

Targets (issue 16): hits >= 0.9x the bare echo, validate and apply misses >= 0.6x, a sealed
apply miss >= 0.6x the unsealed apply miss, apply p99 < 20 ms at 32 connections.

    python bench/http_bench.py [--seconds 5] [--rounds 5] [--connections 32] [--threads 1]
                               [--server uvicorn|granian] [--workers 1] [--only "apply miss,..."]
                               [--compare OLD_TREE]

`--compare OLD_TREE` (a checkout of other code with its own .venv, e.g. a git worktree of the
previous commit) runs that tree's `referee serve` too, unsealed and sealed, in the same rounds
(each of its runs right after this tree's), and prints each run's ratio new / old.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.engine import Generator, apply, legal_actions, new_game, random_action  # noqa: E402
from service.engine.state import GameState  # noqa: E402
from service.seal import Sealing, new_key, parse_keys  # noqa: E402

LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
{extra}
local f = io.open("{body}", "rb")
wrk.body = f:read("*all")
f:close()
"""
NO_CACHE = 'wrk.headers["Cache-Control"] = "no-cache"'


def mid_game(seed: int = 3, steps: int = 40) -> tuple[GameState, object]:
    """A 4-player game after `steps` random actions, and a legal action in it (a purchase)."""
    state = new_game(["Ana", "Ben", "Cyd", "Dov"], seed=seed).state
    rng = Generator(seed)
    for _ in range(steps):
        action = random_action(state, rng)
        if action is None:
            break
        state = apply(state, action).state
    actions, _ = legal_actions(state, 50)
    return state, next((a for a in actions if type(a).__name__ == "BuyBuilding"), actions[0])


def mid_game_body(seed: int = 3, steps: int = 40) -> bytes:
    """{state, action} of `mid_game` (bench/worst_case.py reads it too)."""
    state, action = mid_game(seed, steps)
    return msgspec.json.encode({"state": state, "action": action})


def sealed_body(key: str, seed: int = 3, steps: int = 40) -> bytes:
    """The same move with the state sealed under `key`, as a sealed referee hands states out."""
    state, action = mid_game(seed, steps)
    sealing = Sealing(parse_keys(key))
    return msgspec.json.encode({"state": sealing.seal(state, None, sealing.new_game()), "action": action})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    name: str
    port: int
    proc: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _started(name: str, command: list[str], env: dict[str, str], port: int, log: Path,
             tree: Path = ROOT) -> Server:
    with log.open("ab") as out:
        proc = subprocess.Popen(command, cwd=tree, env=env, stdout=out, stderr=out)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{name} exited at start:\n{log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return Server(name, port, proc)
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{name} did not start")


def start_bare(server: str, log: Path, workers: int = 1) -> Server:
    """The bare echo under `server` with `workers` processes, no access log."""
    port = free_port()
    bindir = Path(sys.executable).parent
    if server == "granian":
        command = [str(bindir / "granian"), "--interface", "asgi", "--factory", "--host", "127.0.0.1",
                   "--port", str(port), "--workers", str(workers), "--loop", "uvloop", "--log-level",
                   "warning", "--no-ws", "bench.echo_app:create_app"]
    else:
        command = [str(bindir / "uvicorn"), "--factory", "bench.echo_app:create_app", "--host", "127.0.0.1",
                   "--port", str(port), "--workers", str(workers), "--loop", "uvloop", "--http", "httptools",
                   "--log-level", "warning", "--no-access-log"]
    return _started("bare echo", command, dict(os.environ), port, log)


def start_referee(name: str, log: Path, log_level: str, seal_keys: str | None = None,
                  workers: int = 1, tree: Path | None = None) -> Server:
    """`referee serve` with `workers` processes, in-process cache only (no Redis), as it ships;
    `tree`: another checkout's, run with its own .venv (None: this one's)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "SEAL_KEYS", "SEAL_KEYS_FILE")}
    env.update(LOG_LEVEL=log_level, WORKERS=str(workers), PORT=str(port), HOST="127.0.0.1")
    if seal_keys:
        env["SEAL_KEYS"] = seal_keys
    if tree is None:
        return _started(name, [str(Path(sys.executable).with_name("referee")), "serve"], env, port, log)
    env.pop("VIRTUAL_ENV", None)
    return _started(name, [str(tree / ".venv" / "bin" / "referee"), "serve"], env, port, log, tree)


def cpu_seconds(root: int) -> float:
    """CPU time (user + system) used so far by the process `root` and all its descendants (the
    workers of a server), from /proc."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(server: Server, path: str, script: Path, seconds: int, connections: int,
            threads: int) -> dict[str, float]:
    """One wrk run: requests/s, p50 and p99 (ms), and the server's requests per CPU-second."""
    url = server.url + path
    cpu = cpu_seconds(server.proc.pid)
    out = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s",
                          "--latency", "-s", str(script), url], capture_output=True, text=True,
                         check=True, timeout=seconds + 30).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"{url}: {errors.group(1)} error answers\n{out}")
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    used = cpu_seconds(server.proc.pid) - cpu
    return {"rps": rps, "p50": p50, "p99": p99, "per_cpu": requests / used if used > 0 else 0.0}


def check_answers(runs: list[tuple[str, Server, str, Path, Path]]) -> None:
    """Each run's request answers 200 as intended before it is timed (a hit's x-cache a hit: the
    request is sent a few times first, storing the answer in every worker's LRU)."""
    for label, server, path, body, script in runs:
        request = urllib.request.Request(server.url + path, data=body.read_bytes(), method="POST",
                                         headers={"Content-Type": "application/json"})
        if NO_CACHE in script.read_text():
            request.add_header("Cache-Control", "no-cache")
        for _ in range(16):
            with urllib.request.urlopen(request, timeout=10) as answer:
                outcome = answer.headers.get("x-cache")
        expected = "miss" if "miss" in label else "hit-memory" if "hit" in label else None
        if expected and outcome != expected:
            raise SystemExit(f"{label}: x-cache {outcome!r}, expected {expected!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1,
                        help="wrk threads (1: one core for wrk, the other for the one server worker)")
    parser.add_argument("--server", choices=("uvicorn", "granian"), default="uvicorn",
                        help="the bare echo's server (the referee runs under `referee serve`'s)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes of each server")
    parser.add_argument("--log-level", default="info", help="the referee's LOG_LEVEL (info: request logs on)")
    parser.add_argument("--only", default="", help="comma-separated labels to run (default: all)")
    parser.add_argument("--compare", type=Path, default=None,
                        help="another checkout (with its .venv) whose referee runs in the same rounds")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk); it is the load generator of this benchmark")
        return 2

    key = new_key("bench")
    servers: list[Server] = []
    rounds: dict[str, list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        plain, sealed = tmp / "plain.json", tmp / "sealed.json"
        plain.write_bytes(mid_game_body())
        sealed.write_bytes(sealed_body(key))
        scripts: dict[tuple[Path, bool], Path] = {}
        for body in (plain, sealed):
            for no_cache in (False, True):
                script = scripts[body, no_cache] = tmp / f"{body.stem}-{'miss' if no_cache else 'hit'}.lua"
                script.write_text(LUA.format(extra=NO_CACHE if no_cache else "", body=body))
        try:
            log = tmp / "servers.log"
            bare = start_bare(args.server, log, args.workers)
            referee = start_referee("referee", log, args.log_level, workers=args.workers)
            sealing = start_referee("referee, sealed", log, args.log_level, key, args.workers)
            servers += [bare, referee, sealing]
            runs = [("bare echo", bare, "/echo", plain, scripts[plain, False]),
                    ("referee echo", referee, "/v1/echo", plain, scripts[plain, False]),
                    ("validate hit", referee, "/v1/validate", plain, scripts[plain, False]),
                    ("apply hit", referee, "/v1/apply", plain, scripts[plain, False]),
                    ("validate miss", referee, "/v1/validate", plain, scripts[plain, True]),
                    ("apply miss", referee, "/v1/apply", plain, scripts[plain, True]),
                    ("sealed validate hit", sealing, "/v1/validate", sealed, scripts[sealed, False]),
                    ("sealed apply hit", sealing, "/v1/apply", sealed, scripts[sealed, False]),
                    ("sealed validate miss", sealing, "/v1/validate", sealed, scripts[sealed, True]),
                    ("sealed apply miss", sealing, "/v1/apply", sealed, scripts[sealed, True])]
            if args.only:
                wanted = {w.strip() for w in args.only.split(",")} | {"bare echo"}
                runs = [r for r in runs if r[0] in wanted]
            if args.compare is not None:
                old = {id(referee): start_referee("old referee", log, args.log_level, workers=args.workers,
                                                  tree=args.compare.resolve()),
                       id(sealing): start_referee("old referee, sealed", log, args.log_level, key,
                                                  args.workers, tree=args.compare.resolve())}
                servers += old.values()
                runs = [r for run in runs for r in
                        ([run] if run[1] is bare else [run, (f"old {run[0]}", old[id(run[1])], *run[2:])])]
            check_answers(runs)
            for _label, server, path, _body, script in runs:  # warm up
                run_wrk(server, path, script, 1, args.connections, args.threads)
            for _ in range(args.rounds):
                for label, server, path, _body, script in runs:
                    rounds.setdefault(label, []).append(
                        run_wrk(server, path, script, args.seconds, args.connections, args.threads))
        finally:
            for server in servers:
                server.stop()
        sizes = (len(plain.read_bytes()), len(sealed.read_bytes()))

    results = {label: {k: statistics.median(r[k] for r in runs_) for k in ("rps", "p50", "p99", "per_cpu")}
               for label, runs_ in rounds.items()}
    echo = results["bare echo"]["rps"]
    print(f"HTTP, {args.workers} worker(s) each: the bare echo under {args.server}, `referee serve` "
          f"(LOG_LEVEL "
          f"{args.log_level}); wrk -t{args.threads} -c{args.connections} -d{args.seconds}s, median of "
          f"{args.rounds} interleaved rounds; bodies {sizes[0]} bytes (mid-game, 4 players), sealed "
          f"{sizes[1]}; {os.cpu_count()} CPUs")
    print(f"{'run':<22}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'x bare':>10}{'req/CPU-s':>12}")
    for label, r in results.items():
        print(f"{label:<22}{r['rps']:>10.0f}{r['p50']:>10.2f}{r['p99']:>10.2f}{r['rps'] / echo:>10.2f}"
              f"{r['per_cpu']:>12.0f}")
    print("req/CPU-s: requests answered per CPU-second of the server's processes (its workers "
          "share nothing but Redis, so N workers on N free cores answer about N times that)")

    if args.compare is not None:
        print(f"new / old (old: {args.compare}), requests/s and requests per CPU-second:")
        for label, r in results.items():
            old_r = results.get(f"old {label}")
            if old_r:
                print(f"  {label:<22}{r['rps'] / old_r['rps']:>8.3f}{r['per_cpu'] / old_r['per_cpu']:>8.3f}")

    def ratio(label: str, to: float = echo) -> float | None:
        return results[label]["rps"] / to if label in results else None

    checks: list[tuple[str, float | None, float]] = [
        ("validate hit", ratio("validate hit"), 0.9),
        ("apply hit", ratio("apply hit"), 0.9),
        ("validate miss", ratio("validate miss"), 0.6),
        ("apply miss", ratio("apply miss"), 0.6),
    ]
    if "apply miss" in results and "sealed apply miss" in results:
        unsealed = results["apply miss"]["rps"]
        checks.append(("sealed apply miss / apply miss", ratio("sealed apply miss", unsealed), 0.6))
    for label, value, target in checks:
        if value is not None:
            print(f"{'PASS' if value >= target else 'MISS'}  {label}: {value:.2f} (target >= {target})")
    p99 = max((results[k]["p99"] for k in ("apply hit", "apply miss") if k in results), default=None)
    if p99 is not None:
        print(f"{'PASS' if p99 < 20 else 'MISS'}  apply p99 at {args.connections} connections: "
              f"{p99:.2f} ms (target < 20 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
