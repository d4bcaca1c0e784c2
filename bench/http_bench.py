"""HTTP throughput and latency of the referee against a live server with one worker.

Starts `uvicorn --factory service.api.app:create_app` (1 worker, in-process cache, no Redis) on
a free loopback port, and drives it with `wrk` (install: `apt-get install wrk`): for a mid-game
4-player state and a legal action, /v1/echo (decode + encode, no engine: the baseline), then
/v1/validate and /v1/apply on cache misses (`Cache-Control: no-cache`: computed every time) and
on hits. Prints requests/s, p50 and p99 of each, and the ratios to echo.

Targets: misses >= 0.6x echo throughput, hits >= 0.9x echo, apply p99 < 20 ms at 32 connections.

    python bench/http_bench.py [--seconds 5] [--rounds 3] [--connections 32] [--threads 2]

The five runs are interleaved in `--rounds` rounds and each figure is the median over the rounds,
so a burst of load from elsewhere on a shared machine moves one round, not one endpoint.

wrk is used because a Python load generator in the same machine would compete with the single
server worker for the CPU and measure itself; wrk is a small C program with an event loop.
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
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.engine import Generator, apply, legal_actions, new_game, random_action  # noqa: E402

LUA = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
{extra}
local f = io.open("{body}", "rb")
wrk.body = f:read("*all")
f:close()
"""


def mid_game_body(seed: int = 3, steps: int = 40) -> bytes:
    """{state, action}: a 4-player game after `steps` random actions and a legal action in it."""
    state = new_game(["Ana", "Ben", "Cyd", "Dov"], seed=seed).state
    rng = Generator(seed)
    for _ in range(steps):
        action = random_action(state, rng)
        if action is None:
            break
        state = apply(state, action).state
    actions, _ = legal_actions(state, 50)
    action = next((a for a in actions if type(a).__name__ == "BuyBuilding"), actions[0])
    return msgspec.json.encode({"state": state, "action": action})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["LOG_LEVEL"] = "warning"
    uvicorn = Path(sys.executable).with_name("uvicorn")
    proc = subprocess.Popen([str(uvicorn), "--factory", "service.api.app:create_app", "--host", "127.0.0.1",
                             "--port", str(port), "--workers", "1", "--log-level", "warning",
                             "--no-access-log"], cwd=ROOT, env=env)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(url: str, script: Path, seconds: int, connections: int, threads: int) -> dict[str, float]:
    out = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s",
                          "--latency", "-s", str(script), url], capture_output=True, text=True,
                         check=True, timeout=seconds + 30).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"{url}: {errors.group(1)} error answers\n{out}")
    return {"rps": rps, "p50": p50, "p99": p99}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (apt-get install wrk); it is the load generator of this benchmark")
        return 2

    body = mid_game_body()
    port = free_port()
    server = start_server(port)
    rounds: dict[str, list[dict[str, float]]] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            body_path = Path(tmp) / "body.json"
            body_path.write_bytes(body)
            scripts = {}
            for name, extra in (("plain", ""), ("no-cache", 'wrk.headers["Cache-Control"] = "no-cache"')):
                scripts[name] = Path(tmp) / f"{name}.lua"
                scripts[name].write_text(LUA.format(extra=extra, body=body_path))
            base = f"http://127.0.0.1:{port}"
            runs = [("echo", "/v1/echo", "plain"),
                    ("validate miss", "/v1/validate", "no-cache"), ("validate hit", "/v1/validate", "plain"),
                    ("apply miss", "/v1/apply", "no-cache"), ("apply hit", "/v1/apply", "plain")]
            for _label, path, script in runs:
                run_wrk(base + path, scripts[script], 1, args.connections, args.threads)  # warm up
            for _ in range(args.rounds):
                for label, path, script in runs:
                    rounds.setdefault(label, []).append(
                        run_wrk(base + path, scripts[script], args.seconds, args.connections, args.threads))
    finally:
        server.terminate()
        server.wait(timeout=10)

    results = {label: {k: statistics.median(r[k] for r in runs_) for k in ("rps", "p50", "p99")}
               for label, runs_ in rounds.items()}
    echo = results["echo"]["rps"]
    print(f"HTTP referee, 1 uvicorn worker, wrk -t{args.threads} -c{args.connections} -d{args.seconds}s, "
          f"median of {args.rounds} interleaved rounds, body {len(body)} bytes (mid-game, 4 players), "
          f"{os.cpu_count()} CPUs")
    print(f"{'endpoint':<16}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'x echo':>10}")
    for label, r in results.items():
        print(f"{label:<16}{r['rps']:>10.0f}{r['p50']:>10.2f}{r['p99']:>10.2f}{r['rps'] / echo:>10.2f}")
    checks = [
        ("validate miss >= 0.6x echo", results["validate miss"]["rps"] / echo >= 0.6),
        ("apply miss >= 0.6x echo", results["apply miss"]["rps"] / echo >= 0.6),
        ("validate hit >= 0.9x echo", results["validate hit"]["rps"] / echo >= 0.9),
        ("apply hit >= 0.9x echo", results["apply hit"]["rps"] / echo >= 0.9),
        (f"apply p99 < 20 ms at {args.connections} connections",
         max(results["apply miss"]["p99"], results["apply hit"]["p99"]) < 20),
    ]
    for name, ok in checks:
        print(f"{'PASS' if ok else 'MISS'}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
