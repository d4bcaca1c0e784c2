"""Engine speed beside the unavoidable cost of a request: msgspec decode + encode of the state.

Prints, for mid-game 4-player states, the median time of validate, apply and legal_actions and
of a complete random 4-player game, each beside the decode+encode time of the same states.
Targets (issue 2): apply and validate <= 1.0x decode+encode; legal_actions <= 10x; a complete
random 4-player game < 1 s.

    python bench/engine_bench.py [--states 40] [--repeat 200] [--modules zoo,...]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

import msgspec

from service.engine import GameState, Generator, apply, legal_actions, new_game, random_action, validate
from service.engine.actions import Action


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--modules", default="")
    args = parser.parse_args()
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
        state = new_game(["Ana", "Ben", "Cy", "Di"], modules, seed=seed).state
        rng = Generator(seed)
        while True:
            action = random_action(state, rng)
            assert action is not None
            outcome = apply(state, action)
            state = outcome.state
            if outcome.game_over:
                break
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
          f"(target < 1000 ms) {'ok' if med_game < 1 else 'MISSED'}")


if __name__ == "__main__":
    main()
