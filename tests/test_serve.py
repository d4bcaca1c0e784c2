"""`referee serve` as a container runs it: a wrong setting stops it with one line naming the
variable, `referee healthcheck` tells whether it answers, and SIGTERM lets a request that is in
flight finish before the workers stop."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, BinaryIO

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFEREE = str(Path(sys.executable).with_name("referee"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    return {**env, "LOG_LEVEL": "warning", **extra}


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server stopped while starting"
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not answer /healthz in time")


@pytest.fixture
def server() -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    port = _free_port()
    proc = subprocess.Popen([REFEREE, "serve"], cwd=ROOT, env=_env(PORT=str(port), WORKERS="2"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_healthy(port, proc)
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


@pytest.mark.parametrize(("env", "named"), [
    ({"PORT": "70000"}, "PORT=70000: must be between 1 and 65535"),
    ({"WORKERS": "many"}, "WORKERS='many': expected an integer"),
    ({"REDIS_URL": "redis://u:pw@h:x"}, "REDIS_URL='redis://u:***@h:x'"),
])
def test_a_wrong_setting_stops_serve_with_one_line_naming_it(env: dict[str, str], named: str) -> None:
    run = subprocess.run([REFEREE, "serve"], env=_env(**env), capture_output=True, text=True, timeout=30)
    assert run.returncode == 2
    assert run.stderr.startswith(f"referee: {named}") and run.stderr.count("\n") == 1
    assert "Traceback" not in run.stderr


def test_healthcheck_fails_when_nothing_answers() -> None:
    run = subprocess.run([REFEREE, "healthcheck"], env=_env(PORT=str(_free_port())), capture_output=True,
                         timeout=30)
    assert run.returncode == 1


def test_healthcheck_and_graceful_shutdown(server: tuple[int, subprocess.Popen[bytes]]) -> None:
    port, proc = server
    assert subprocess.run([REFEREE, "healthcheck"], env=_env(PORT=str(port)), timeout=30).returncode == 0
    body = json.dumps({"players": ["Ana", "Ben"], "seed": 1}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
        # A request in flight: headers and half the body sent when SIGTERM arrives.
        conn.sendall(b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                     b"content-length: %d\r\n\r\n" % len(body) + body[:10])
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        conn.sendall(body[10:])
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 201 ")
    assert proc.wait(30) == 0
    # Stopped: nothing listens any more.
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)


def _read_all(conn: socket.socket) -> bytes:
    answer = b""
    while chunk := conn.recv(65536):
        answer += chunk
    return answer


def test_slow_clients_are_answered_408_and_closed_while_others_are_served(tmp_path: Path) -> None:
    """Issue 13 item 7: half-sent requests held their connections for ever (1,100 of them made
    normal requests fail for 16 s). A request's headers and its body must arrive in time."""
    port = _free_port()
    log = tmp_path / "serve.log"
    proc = subprocess.Popen([REFEREE, "serve"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
                            env=_env(PORT=str(port), HEADER_TIMEOUT_SECONDS="1", BODY_TIMEOUT_SECONDS="1"))
    slow: list[socket.socket] = []
    try:
        _wait_healthy(port, proc)
        for i in range(300):
            conn = socket.create_connection(("127.0.0.1", port), timeout=20)
            if i % 3 == 0:
                conn.sendall(b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-type: applic")  # half a header
            elif i % 3 == 1:
                conn.sendall(b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{\"pl")
            slow.append(conn)  # the third sends nothing at all
        started = time.monotonic()
        body = json.dumps({"players": ["Ana", "Ben"], "seed": 1}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/games", data=body,
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 201  # served while the slow ones wait
        for i, conn in enumerate(slow):
            try:
                answer = _read_all(conn)  # the server closes it: recv returns b"" (no 20 s timeout)
            except TimeoutError:
                raise AssertionError(f"connection {i} was left open") from None
            assert answer.startswith(b"HTTP/1.1 408 "), (i, answer[:80])
            what = b"headers" if i % 3 != 1 else b"body"
            assert b"request-timeout" in answer and what in answer
        assert time.monotonic() - started < 15
        assert "error" not in log.read_text()  # a timed-out request is no bug of the referee
    finally:
        for conn in slow:
            conn.close()
        proc.kill()
        proc.wait(10)


def test_a_kept_alive_connections_next_request_has_its_own_deadlines(tmp_path: Path) -> None:
    """The deadlines run from each request's own first byte and from the end of its own headers,
    not from the connection's opening: on a connection whose first request was answered, a
    second one whose body stalls is answered 408 `body` once BODY_TIMEOUT_SECONDS (2 s) have
    passed since its headers, not at the header deadline (1 s) of the connection's opening;
    another connection's second request that stalls in its headers gets 408 `headers` after 1 s
    (the 408 is written although the connection's last answer was: none is under way)."""
    port = _free_port()
    log = tmp_path / "serve.log"
    proc = subprocess.Popen([REFEREE, "serve"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
                            env=_env(PORT=str(port), HEADER_TIMEOUT_SECONDS="1", BODY_TIMEOUT_SECONDS="2"))
    body = json.dumps({"players": ["Ana", "Ben"], "seed": 1}).encode()
    first = (b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
             b"content-length: %d\r\n\r\n%s" % (len(body), body))
    try:
        _wait_healthy(port, proc)
        stalls = ((b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{", b"body", 2.0),
                  (b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-le", b"headers", 1.0))
        for stalled, what, seconds in stalls:
            with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
                conn.sendall(first)
                answered = b""
                while b"\r\n\r\n" not in answered or not answered.endswith(b"}"):
                    answered += conn.recv(65536)
                assert answered.startswith(b"HTTP/1.1 201 "), answered[:80]
                time.sleep(0.3)
                sent = time.monotonic()
                conn.sendall(stalled)
                answer = _read_all(conn)
                waited = time.monotonic() - sent
            assert answer.startswith(b"HTTP/1.1 408 ") and what in answer, answer[:200]
            assert seconds - 0.1 < waited < seconds + 1.5, (what, waited)
        assert "error" not in log.read_text()
    finally:
        proc.kill()
        proc.wait(10)


@contextmanager
def _serving(tmp_path: Path, **env: str) -> Iterator[tuple[int, subprocess.Popen[bytes], Path]]:
    """`referee serve` (one worker: the process itself serves) on a free port, its log in a file."""
    port = _free_port()
    log = tmp_path / "serve.log"
    proc = subprocess.Popen([REFEREE, "serve"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
                            env=_env(PORT=str(port), **env))
    try:
        _wait_healthy(port, proc)
        yield port, proc, log
    finally:
        proc.kill()
        proc.wait(10)


def _head(size: int, path: bytes = b"/healthz") -> bytes:
    """A GET's head (request line, headers, the blank line) of exactly `size` bytes."""
    start = b"GET %s HTTP/1.1\r\nhost: x\r\nx-pad: " % path
    return start + b"a" * (size - len(start) - 4) + b"\r\n\r\n"


def _answer(answers: BinaryIO) -> bytes:
    """The next answer (it has a content-length) from a connection's reader, the rest left."""
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        line = answers.readline()
        assert line, head
        head += line
    length = int(re.search(rb"content-length: (\d+)", head, re.IGNORECASE)[1])  # type: ignore[index]
    return head + answers.read(length)


def test_a_request_head_past_16_kib_is_refused_431_before_it_is_buffered(tmp_path: Path) -> None:
    """Issue 23 item 4: a 50 MB header was read and answered. A head (request line, headers and
    the blank line) of 16 KiB is answered; one byte more is 431 and the connection closed,
    whether it is the connection's first request or a later one, and a client sending megabytes
    of header is cut off after the first 16 KiB, not read to its end. HEADER_TIMEOUT_SECONDS is
    long, so that today's server, which waits for the rest, fails by the client's timeout."""
    with _serving(tmp_path, HEADER_TIMEOUT_SECONDS="60") as (port, _, log):
        with socket.create_connection(("127.0.0.1", port), timeout=20) as conn, \
                conn.makefile("rb") as answers:
            conn.sendall(_head(16 * 1024))
            assert _answer(answers).startswith(b"HTTP/1.1 200 ")  # the bound itself is allowed
            conn.sendall(_head(16 * 1024 + 1))  # the connection's second request
            answer = answers.read()
        assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]
        assert b'"error":"request-header-fields-too-large"' in answer and b"16384" in answer
        with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
            conn.sendall(_head(16 * 1024 + 1))
            assert _read_all(conn).startswith(b"HTTP/1.1 431 ")
        # 64 MB of one header, sent until the server stops taking it: it stops long before.
        sent = 0
        with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
            conn.sendall(b"GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ")
            try:
                while sent < 64 * 1024 * 1024:
                    sent += conn.send(b"a" * 65536)
            except OSError:  # reset: the server closed it, unread bytes behind
                pass
        assert sent < 16 * 1024 * 1024, sent
        assert "Traceback" not in log.read_text()


def _metric(port: int, name: str, **labels: str) -> float:
    """The sum of a metric's series whose labels include `labels`, from /metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            total += float(line.rsplit(" ", 1)[1])
    return total


def _request_lines(log: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    return [line for line in lines if line.get("message") == "request"]


def test_408s_and_431s_are_counted_and_logged_as_such(tmp_path: Path) -> None:
    """Issue 23 item 9: clients got 408s, `referee_requests_total` counted none, and the log said
    `"status": 400, "latency_ms": 19999.9`. Each answer the server writes itself is counted
    with its status and logged with it: a request whose headers are late, one whose body is late
    (the app saw the client go and answered 400 to no one), one whose head is too large."""
    with _serving(tmp_path, HEADER_TIMEOUT_SECONDS="1", BODY_TIMEOUT_SECONDS="1",
                  LOG_LEVEL="info") as (port, _, log):
        for sent, status in ((b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-le", b"408"),
                             (b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-length: 9\r\n\r\n{", b"408"),
                             (_head(20_000), b"431")):
            with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
                conn.sendall(sent)
                assert _read_all(conn).startswith(b"HTTP/1.1 " + status)
        assert _metric(port, "referee_requests_total", status="408") == 2
        assert _metric(port, "referee_requests_total", status="431") == 1
        assert _metric(port, "referee_requests_total", status="400") == 0
        deadline = time.monotonic() + 10  # request lines are written at most 0.1 s late
        while len(_request_lines(log)) < 4 and time.monotonic() < deadline:
            time.sleep(0.1)
        statuses = sorted(line["status"] for line in _request_lines(log)
                          if line["endpoint"] not in ("/metrics", "/healthz"))
        assert statuses == [408, 408, 431], statuses
        body_late = next(line for line in _request_lines(log) if line["endpoint"] == "/v1/games")
        assert body_late["status"] == 408 and body_late["method"] == "POST"
        assert 900 < body_late["latency_ms"] < 10_000


def _rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status)[1])  # type: ignore[index]


def _until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _sockets(pid: int) -> int:
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with suppress(OSError):  # closed meanwhile
            count += os.readlink(fd).startswith("socket:")
    return count


def test_clients_that_never_read_are_closed_after_the_write_deadline(tmp_path: Path) -> None:
    """Issue 23 item 5: 40 connections that sent requests and never read their answers grew the
    worker from 94 to 179 MB, stayed open past every deadline, and 45 tracebacks went to the log
    when they closed. Now the server stops reading such a connection, closes it once its answers
    have waited WRITE_TIMEOUT_SECONDS (2 s here) unread, and logs each as one line."""
    connections = 40
    with _serving(tmp_path, WRITE_TIMEOUT_SECONDS="2", KEEP_ALIVE_SECONDS="1",
                  LOG_LEVEL="info") as (port, proc, log):
        sockets, rss = _sockets(proc.pid), _rss_kib(proc.pid)
        request = b"GET /v1/modules HTTP/1.1\r\nhost: x\r\n\r\n" * 64
        clients: list[socket.socket] = []
        sent = 0
        try:
            for _ in range(connections):
                conn = socket.socket()
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # fills at once
                conn.connect(("127.0.0.1", port))
                conn.setblocking(False)
                clients.append(conn)
                with suppress(BlockingIOError):  # sent until the server reads no more
                    while sent < (len(clients)) * 8 * 1024 * 1024:
                        sent += conn.send(request)
            peak = [rss]

            def closed() -> bool:  # the worker's memory sampled meanwhile
                peak.append(_rss_kib(proc.pid))
                return _sockets(proc.pid) <= sockets and len(_cut_off(log)) == connections

            assert _until(closed, 60), ("left open past the write deadline", len(_cut_off(log)))
        finally:
            for conn in clients:
                conn.close()
        assert max(peak) - rss < 40 * 1024, (rss, max(peak))  # under 1 MiB a connection
        time.sleep(0.5)  # the last lines out
        text = log.read_text()
        assert "Traceback" not in text and "exception" not in text, text[-2000:]
        for line in _cut_off(log):  # one line each, after the deadline
            assert line["level"] == "warning" and line["seconds"] == 2 and line["unread_bytes"] > 0, line


def test_pipelined_requests_are_answered_in_order_one_parsed_at_a_time(tmp_path: Path) -> None:
    """Issue 23 item 5's other side: the server parses one request ahead of its answer (it held
    some 6,000 pipelined requests of one read), but a client that pipelines and reads gets
    every answer, in order, with bodies and heads split anywhere across its reads."""
    body = json.dumps({"players": ["Ana", "Ben"], "seed": 1}).encode()
    create = (b"POST /v1/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
              b"content-length: %d\r\n\r\n%s" % (len(body), body))
    requests = [_head(300), create, _head(16 * 1024, b"/v1/modules")] * 30
    with _serving(tmp_path) as (port, _, _log), \
            socket.create_connection(("127.0.0.1", port), timeout=20) as conn, conn.makefile("rb") as reader:
        conn.sendall(b"".join(requests))
        answers = [_answer(reader) for _ in requests]
    for request, answer in zip(requests, answers, strict=True):
        expected = b"HTTP/1.1 201 " if request is create else b"HTTP/1.1 200 "
        assert answer.startswith(expected), answer[:80]
    assert all(b'"id":"' in answer for answer in answers[2::3])  # the modules, not /healthz's


def _cut_off(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines() if '"reason":"write-timeout"' in line]
