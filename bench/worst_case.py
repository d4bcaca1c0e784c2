"""The worst request of each endpoint, found by random search, and what it does to the others.

A random search (hill climbing with restarts) mutates request bodies to make each endpoint
spend the most CPU: scoring positions (tiles added, moved, taken away, walls and turns and dice
put on them, `check_layout` off, more players), game states (cards hoarded in a hand, other
moments of random games of every module, bigger `limit`s), actions (other legal actions). The
pictures (`/v1/render`) are searched as four endpoints: a whole state, a player's (or a
spectator's) view, a scoring position and a score sheet; their states include the last moments
of games of 2 to 6 players and every module, where the pictures are largest. Each body is
answered by the endpoint's handler in this process, the caches emptied first, and its cost is
the handler's CPU time (thread time: the machine's other load does not count); a new worst is
measured three times and its least kept. The worst request of each endpoint is printed with
its CPU time when found and the least of ten more measures (`again`: on a shared machine a
busy moment can inflate the first), and what it is (`--save DIR` writes the bodies). Then a
live `referee serve` (one worker) answers each endpoint's worst body over and over while a
second client asks /healthz: the latency that client sees is what any request waits behind
the worst (for the pictures, also while 8 clients ask for the worst one at once).

    python bench/worst_case.py [--seconds 60] [--seed 1] [--save DIR]    # seconds per endpoint

The target (issue 13): every worst case under 50 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from service.api import render  # noqa: E402
from service.api.endpoints import handle  # noqa: E402
from service.api.refusals import RequestError  # noqa: E402
from service.engine import Generator, apply, grid, new_game, random_action  # noqa: E402
from service.engine.catalogue import CATALOGUE  # noqa: E402
from tests.support import swaps  # noqa: E402

ENCODE = msgspec.json.Encoder().encode
TILES = sorted(CATALOGUE.tiles)
MODULES = list(swaps.MODULES)


def _fresh() -> None:
    """Forget what earlier requests taught the process (checked layouts; `handle` makes a memo
    of states of its own each call)."""
    grid._layout_problems.cache_clear()
    grid._measured.cache_clear()


def cost(endpoint: str, raw: bytes) -> float:
    """The handler's CPU seconds for this body (answer encoded), caches emptied first."""
    _fresh()
    started = time.thread_time()
    try:
        if endpoint.startswith("render"):
            render.render(render.decode(raw))
        else:
            ENCODE(handle(ENDPOINTS[endpoint], raw))
    except RequestError:
        pass
    return time.thread_time() - started


ENDPOINTS = {"score-position": "score", "score-state": "score", "validate": "validate", "apply": "apply",
             "legal-actions": "legal-actions", "view": "view", "games": "games",
             "render-state": "render", "render-view": "render", "render-position": "render",
             "render-sheet": "render"}


# --- bodies and their mutations -----------------------------------------------------------------

def _hoard(state: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """Cards of the deck moved into one hand (the state stays one a game could hold)."""
    state = json.loads(json.dumps(state))
    deck = state.get("deck", [])
    take = [c for c in deck if c in CATALOGUE.money][:rnd.randint(1, 110)]
    if take:
        seat = rnd.randrange(len(state["players"]))
        state["deck"] = [c for c in deck if c not in take]
        state["players"][seat]["hand"] = [*state["players"][seat].get("hand", []), *take]
    return state


class StateBodies:
    """Bodies of the endpoints that take a game state."""

    def __init__(self, pool: list[swaps.Sample], endpoint: str) -> None:
        self.pool = pool
        self.endpoint = endpoint

    def new(self, rnd: random.Random) -> dict[str, Any]:
        sample = rnd.choice(self.pool)
        body: dict[str, Any] = {"state": sample.state}
        return self._complete(body, sample, rnd)

    def _complete(self, body: dict[str, Any], sample: swaps.Sample, rnd: random.Random) -> dict[str, Any]:
        names = [p["name"] for p in body["state"]["players"]]
        if self.endpoint in ("validate", "apply"):
            body["action"] = rnd.choice(sample.actions) if sample.actions else {"type": "end-turn",
                                                                                "player": names[0]}
        elif self.endpoint == "legal-actions":
            body["limit"] = rnd.choice((1000, 5000, 10_000))
        elif self.endpoint == "score-state":
            body["round"] = rnd.randint(1, 3)
        elif self.endpoint in ("view", "render-view"):
            body["player"] = rnd.choice([None, *names])
        return body

    def mutate(self, body: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
        choice = rnd.random()
        if choice < 0.3:
            return self.new(rnd)
        if choice < 0.7:
            return {**body, "state": _hoard(body["state"], rnd)}
        if self.endpoint == "legal-actions":
            return {**body, "limit": 10_000}
        return body


class PositionBodies:
    """Scoring positions (of /v1/score and /v1/render)."""

    def new(self, rnd: random.Random) -> dict[str, Any]:
        if rnd.random() < 0.5:
            return self._dense(rnd)
        players = [{"name": f"P{i}", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]}
                   for i in range(rnd.randint(2, 6))]
        body = {"round": rnd.randint(1, 3), "players": players,
                "modules": rnd.sample(MODULES, rnd.randint(0, 4)), "check_layout": rnd.random() < 0.3}
        for _ in range(rnd.randint(5, 40)):
            body = self._add(body, rnd)
        return body

    def _dense(self, rnd: random.Random) -> dict[str, Any]:
        """One player's drawing (`check_layout: false`): up to 64 tiles packed in a small box,
        turned and walled at random (craftsmen, walls), as a branching outer wall needs."""
        body: dict[str, Any] = {"round": rnd.randint(1, 3), "modules": ["craftsmen", "walls"],
                                "check_layout": False, "players": [
                                    {"name": "Ana", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},
                                    {"name": "Ben", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]},
                                    {"name": "Cyd", "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]}]}
        side = rnd.randint(4, 9)
        cells = rnd.sample([(x, y) for x in range(1, side + 1) for y in range(side)],
                           min(side * side, rnd.randint(8, 60)))
        for (x, y), tile in zip(cells, rnd.sample([t for t in TILES if CATALOGUE.tiles[t].module == "base"],
                                                  min(len(cells), 54)), strict=False):
            placed: dict[str, Any] = {"x": x, "y": y, "tile": tile}
            self._decorate(placed, body, rnd)
            body["players"][0]["alhambra"].append(placed)
        return body

    def _used(self, body: dict[str, Any]) -> set[str]:
        return {t["tile"] for p in body["players"] for t in p["alhambra"]}

    def _add(self, body: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
        body = json.loads(json.dumps(body))
        on = ("base", *body["modules"])
        free = [t for t in TILES if t not in self._used(body) and CATALOGUE.tiles[t].module in on]
        if not free:
            return body
        player = rnd.choice(body["players"])
        if len(player["alhambra"]) >= 64:
            return body
        taken = {(t["x"], t["y"]) for t in player["alhambra"]}
        x, y = rnd.choice(sorted(taken))
        dx, dy = rnd.choice(((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)))
        if (x + dx, y + dy) in taken or abs(x + dx) > 64 or abs(y + dy) > 64:
            return body
        tile: dict[str, Any] = {"x": x + dx, "y": y + dy, "tile": rnd.choice(free)}
        self._decorate(tile, body, rnd)
        player["alhambra"].append(tile)
        return body

    def _decorate(self, tile: dict[str, Any], body: dict[str, Any], rnd: random.Random) -> None:
        tile.pop("added_walls", None)
        walls = sum(b for b in (1, 2, 4, 8) if "walls" in body["modules"] and rnd.random() < 0.2)
        walls &= ~CATALOGUE.tiles[tile["tile"]].walls if tile["tile"] in CATALOGUE.tiles else 0
        added = sum(len(t.get("added_walls", "")) for p in body["players"] for t in p["alhambra"])
        if walls and added + bin(walls).count("1") <= 12:  # the wall cards' 12 pieces, not on printed walls
            tile["added_walls"] = "".join(side for side, bit in zip("NESW", (1, 2, 4, 8), strict=True)
                                          if walls & bit)
        if "craftsmen" in body["modules"] and rnd.random() < 0.5:
            tile["rotation"] = rnd.choice((90, 180, 270))
        if "power" in body["modules"] and "strength" in tile["tile"]:
            tile["die"] = rnd.randint(1, 6)

    def mutate(self, body: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
        choice = rnd.random()
        if choice < 0.05:
            return self.new(rnd)
        body = json.loads(json.dumps(body))
        if choice < 0.45:
            return self._add(body, rnd)
        player = rnd.choice(body["players"])
        tiles = player["alhambra"][1:]
        if choice < 0.6 and tiles:
            player["alhambra"].remove(rnd.choice(tiles))
        elif choice < 0.8 and tiles:
            self._decorate(rnd.choice(tiles), body, rnd)
        elif choice < 0.85:
            body["check_layout"] = not body["check_layout"]
        elif choice < 0.9:
            body["modules"] = sorted(set(body["modules"]) | {rnd.choice(MODULES)})
        elif choice < 0.95 and len(body["players"]) < 7:
            body["players"].append({"name": f"Q{len(body['players'])}",
                                    "alhambra": [{"x": 0, "y": 0, "tile": "fountain"}]})
        else:
            body["round"] = rnd.randint(1, 3)
        return body


class SheetBodies(PositionBodies):
    """Scoring positions drawn as a score sheet alone (`"draw": "sheet"`)."""

    def new(self, rnd: random.Random) -> dict[str, Any]:
        return {**super().new(rnd), "draw": "sheet"}

    def mutate(self, body: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
        return {**super().mutate(body, rnd), "draw": "sheet"}


def late_samples(count: int, seed: int) -> list[swaps.Sample]:
    """States of the last moments of random games (2 to 6 players, every module, or none, or
    one): the largest Alhambras, reserves and module parts, so the largest pictures."""
    rnd = random.Random(seed)
    out = []
    for i in range(count):
        players = rnd.choice((6, 6, 5, 4, 3, 2))
        modules = MODULES if i % 3 else rnd.sample(MODULES, rnd.randint(0, 1))
        state = new_game(swaps.NAMES[:players], modules, seed=rnd.getrandbits(32)).state
        rng = Generator(rnd.getrandbits(32))
        states = [state]
        while (action := random_action(state, rng)) is not None:
            state = apply(state, action).state
            states.append(state)
        picked = states[-1 - rnd.randrange(min(len(states), 150))]
        out.append(swaps.Sample(json.loads(msgspec.json.encode(picked)), []))
    return out


def describe(endpoint: str, raw: bytes) -> str:
    """What the worst body is, in a few words."""
    body = json.loads(raw) if raw else {}
    if "state" in body:
        state = body["state"]
        hands = [len(p.get("hand", [])) for p in state["players"]]
        text = (f"{len(state['players'])} players, {len(state.get('modules', []))} modules, "
                f"{state.get('phase', 'play')}, {sum(len(p.get('alhambra', [])) for p in state['players'])} "
                f"tiles placed, hands {'+'.join(map(str, hands))}")
        if endpoint in ("view", "render-view"):
            text += f", {body.get('player') or 'a spectator'}'s view"
        return text
    if "players" in body and endpoint != "games":
        tiles = sum(len(p.get("alhambra", p.get("tiles", []))) for p in body["players"])
        return f"{len(body['players'])} players, {tiles} tiles, {len(body.get('modules', []))} modules"
    return f"{len(body.get('players', []))} players, {len(body.get('modules', []))} modules"


class GameBodies:
    def new(self, rnd: random.Random) -> dict[str, Any]:
        return {"players": [f"Player {i}" for i in range(rnd.randint(2, 6))],
                "modules": rnd.sample(MODULES, rnd.randint(0, len(MODULES))), "seed": rnd.getrandbits(62)}

    def mutate(self, body: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
        return self.new(rnd) if rnd.random() < 0.5 else {**body, "modules": MODULES}


# --- the search ----------------------------------------------------------------------------------

def search(endpoint: str, bodies: Any, seconds: float, rnd: random.Random) -> tuple[float, bytes]:
    best_cost, best = 0.0, b""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        body = bodies.new(rnd)  # a restart
        current = cost(endpoint, ENCODE(body))
        for _ in range(60):
            if time.monotonic() - started >= seconds:
                break
            candidate = bodies.mutate(body, rnd)
            raw = ENCODE(candidate)
            found = cost(endpoint, raw)
            if found >= current:
                body, current = candidate, found
                if found > best_cost:
                    found = min(found, *(cost(endpoint, raw) for _ in range(2)))  # not a hiccup
                    if found > best_cost:
                        best_cost, best = found, raw
    return best_cost, best


def answer_of(endpoint: str, raw: bytes) -> str:
    try:
        if endpoint.startswith("render"):
            render.render(render.decode(raw))
        else:
            handle(ENDPOINTS[endpoint], raw)
        return "200"
    except RequestError as e:
        return f"{e.status} {e.error}"


# --- a live server: what others wait while the worst bodies are answered ------------------------

def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


CLIENTS = 8  # clients asking for the worst picture at once (issue 23: /healthz while 8 renders run)
PATHS = {"score-position": "score", "score-state": "score", **{e: "render" for e in ENDPOINTS
                                                               if e.startswith("render")}}


# The load's clients, in a process of their own: sharing this process, they shared its
# interpreter lock and its collector (a full collection of the search's samples stalled the
# /healthz client for up to a second) with the client that measures. One byte out per answer.
_LOADER = """
import http.client, sys, threading
port, path, clients, body = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.stdin.buffer.read()
lock = threading.Lock()
def load():
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while True:
        conn.request("POST", path, body=body, headers={"content-type": "application/json",
                                                      "cache-control": "no-cache"})
        conn.getresponse().read()
        with lock:
            sys.stdout.write(".")
            sys.stdout.flush()
threads = [threading.Thread(target=load, daemon=True) for _ in range(clients)]
for t in threads:
    t.start()
threads[0].join()
"""


def _loader(port: int, path: str, raw: bytes, clients: int) -> subprocess.Popen[bytes]:
    """`clients` clients sending `raw` to `path` again and again, until killed; started when
    each has had an answer."""
    loader = subprocess.Popen([sys.executable, "-c", _LOADER, str(port), path, str(clients)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert loader.stdin is not None and loader.stdout is not None
    loader.stdin.write(raw)
    loader.stdin.close()
    loader.stdout.read(clients)
    return loader


def concurrent_latency(worst: dict[str, bytes], seconds: float) -> list[tuple[str, list[float], int]]:
    port = _free_port()
    env = {**os.environ, "PORT": str(port), "WORKERS": "1", "LOG_LEVEL": "warning", "CACHE_ENTRIES": "0"}
    env.pop("REDIS_URL", None)
    referee = str(Path(sys.executable).with_name("referee"))
    server = subprocess.Popen([referee, "serve"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                probe.request("GET", "/healthz")
                probe.getresponse().read()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        out = []
        loads = [("(no load)", b"", 0), *((e, raw, 1) for e, raw in worst.items()),
                 *((f"{e} x{CLIENTS}", worst[e], CLIENTS) for e in ("render-state", "render-view"))]
        for name, raw, clients in loads:
            path = "/v1/" + PATHS.get(name.split()[0], name.split()[0])
            loader = _loader(port, path, raw, clients) if clients else None
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            latencies = []
            until = time.monotonic() + seconds
            while time.monotonic() < until:
                started = time.perf_counter()
                probe.request("GET", "/healthz")
                probe.getresponse().read()
                latencies.append(time.perf_counter() - started)
                time.sleep(0.005)
            served = 0
            if loader is not None:
                loader.kill()
                loader.wait(35)
                served = clients + len(loader.stdout.read())  # type: ignore[union-attr]
            out.append((name, latencies, served))
        return out
    finally:
        server.terminate()
        server.wait(30)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="search time per endpoint")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--states", type=int, default=120)
    parser.add_argument("--latency-seconds", type=float, default=5.0)
    parser.add_argument("--late-states", type=int, default=40, help="late games for the pictures")
    parser.add_argument("--save", help="a directory to write each endpoint's worst body in")
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    load = os.getloadavg()[0]
    print(f"{platform.processor() or platform.machine()} ({os.cpu_count()} cores, load {load:.1f}), "
          f"Python {platform.python_version()}")
    pool = swaps.samples(args.states, args.seed)
    pictures = pool + late_samples(args.late_states, args.seed)
    makers: dict[str, Callable[[], Any]] = {
        "score-position": PositionBodies, "render-position": PositionBodies,
        "render-sheet": SheetBodies, "games": GameBodies,
        **{e: (lambda e=e: StateBodies(pool, e))
           for e in ("score-state", "validate", "apply", "legal-actions", "view")},
        **{e: (lambda e=e: StateBodies(pictures, e)) for e in ("render-state", "render-view")},
    }
    worst: dict[str, bytes] = {}
    print(f"\n{'endpoint':16} {'worst CPU':>10} {'again':>9}  {'body':>9}  answer  the request")
    failed = False
    for endpoint, make in makers.items():
        found, raw = search(endpoint, make(), args.seconds, rnd)
        worst[endpoint] = raw
        again = min(cost(endpoint, raw) for _ in range(10))  # the search's figure, less a busy moment
        failed |= again >= 0.050
        print(f"{endpoint:16} {_ms(found):>10} {_ms(again):>9}  {len(raw):>7} B  {answer_of(endpoint, raw)}  "
              f"{describe(endpoint, raw)}", flush=True)
        if args.save:
            Path(args.save).mkdir(parents=True, exist_ok=True)
            (Path(args.save) / f"{endpoint}.json").write_bytes(raw)
    print(f"\n/healthz latency while one client (or {CLIENTS}: x{CLIENTS}) sends an endpoint's worst "
          f"body again and again (one worker, {args.latency_seconds:g} s each):")
    print(f"{'load':16} {'p50':>8} {'p99':>8} {'max':>8}  worst bodies answered")
    for endpoint, latencies, served in concurrent_latency(worst, args.latency_seconds):
        q = statistics.quantiles(latencies, n=100)
        print(f"{endpoint:16} {_ms(q[49]):>8} {_ms(q[98]):>8} {_ms(max(latencies)):>8}  {served}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
