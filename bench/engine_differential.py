"""Does this tree's engine play exactly as another's? A differential check over seeded games.

Plays seeded random games (the base game, each module alone and all of them together, 2 to 6
players; at every step one of `legal_actions(state, 50)` picked by a `random.Random` seeded from
the game's seed, then `apply`) and digests, at every step, the
state's msgspec JSON bytes, `legal_actions(state, 50)`, `to_act(state)`, the action picked, the
events, scoring breakdowns and `game_over` of applying it, and what `validate` says of the
actions that were legal one step before (mostly refusals: the rule ids of their violations).
One SHA-256 per game. Behaviour, not wording: the violations' messages and who-must-act's
`what` are left out (issue 29 words them in five languages, and their English may be
rephrased); the engine's messages are tested where they are made (tests/i18n, test_messages).
The actions are picked outside the engine, not drawn by `random_action`: how random_action
draws (which numbers, how many) is free to change for speed (issue 28 item 4), and is held by
tests/engine/test_samplers.py and test_advance.py (its actions legal, every sampler's too).

    python bench/engine_differential.py [--seeds 2] [--steps 400] [--compare OLD_TREE]
    python bench/engine_differential.py --tree OLD_TREE --write tests/engine/data/differential.json

`--compare OLD_TREE` (a checkout of other code, e.g. a git worktree of an older commit) plays
the same games there, in a subprocess importing that tree's engine with this interpreter, and
prints every game whose digest differs, with the first step that differs. `--tree TREE` plays
with that tree's engine instead of this one's; `--write FILE` keeps the digests as a golden
file (`tests/engine/test_differential.py` replays some of its games against it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import replace

ROOT = Path(__file__).resolve().parent.parent
# The engine of `--tree` (default: this checkout) is the one imported.
TREE = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve() if "--tree" in sys.argv else ROOT
sys.path.insert(0, str(TREE))

from service.engine import (  # noqa: E402
    apply,
    legal_actions,
    new_game,
    to_act,
    validate,
)

MODULES = ("craftsmen", "zoo", "power", "extensions", "staff", "grounds", "walls", "treasure",
           "thieves", "vendors", "change")
NAMES = ("Ana", "Ben", "Cy", "Di", "Ed", "Fay")
def _english(value: Any) -> str:
    """A message (service.engine.text.Text, a str) in an event: its English wording."""
    if isinstance(value, str):
        return str.__str__(value)
    raise TypeError(f"cannot encode {type(value).__name__}")


encode = msgspec.json.Encoder(enc_hook=_english).encode


def _acting(state: Any) -> bytes:
    """Who acts, and how, without the words saying so."""
    told = to_act(state)
    return encode([told.players, [replace(a, what="") for a in told.actors]])


def configs() -> list[tuple[str, ...]]:
    """The base game, each module alone, all together."""
    return [(), *((m,) for m in MODULES), MODULES]


def game_parts(modules: tuple[str, ...], players: int, seed: int, steps: int) -> list[bytes]:
    """What one game shows at each step, as bytes: [setup, step 1, step 2, ...]."""
    outcome = new_game(NAMES[:players], modules, seed=seed)
    state = outcome.state
    pick = random.Random(seed * 7919 + players)  # not the engine's: any tree picks alike
    parts = [encode(state) + encode(outcome.events)]
    before: list[Any] = []
    for _ in range(steps):
        actions, truncated = legal_actions(state, 50)
        part = [encode(state), encode(actions), encode(truncated), _acting(state),
                encode([[v.rule for v in validate(state, a)] for a in before])]
        action = actions[pick.randrange(len(actions))] if actions else None
        part.append(encode(action))
        if action is None:
            parts.append(b"|".join(part))
            break
        outcome = apply(state, action)
        part += [encode(outcome.events), encode(outcome.scoring), encode(outcome.game_over)]
        parts.append(b"|".join(part))
        before = actions
        state = outcome.state
        if outcome.game_over:
            parts.append(encode(state))
            break
    return parts


def game_key(modules: tuple[str, ...], players: int, seed: int) -> str:
    return f"{'+'.join(modules) or 'base'}/{players}p/seed{seed}"


def games(seeds: int) -> list[tuple[tuple[str, ...], int, int]]:
    return [(m, p, s) for m in configs() for p in range(2, 7) for s in range(1, seeds + 1)]


def digest(parts: list[bytes]) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()


def step_digests(parts: list[bytes]) -> list[str]:
    return [hashlib.sha256(p).hexdigest()[:16] for p in parts]


def play_all(seeds: int, steps: int, detail: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for modules, players, seed in games(seeds):
        parts = game_parts(modules, players, seed, steps)
        out[game_key(modules, players, seed)] = step_digests(parts) if detail else digest(parts)
    return out


def run_child(tree: Path, seeds: int, steps: int) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, __file__, "--child", "--tree", str(tree), "--seeds",
                           str(seeds), "--steps", str(steps)], cwd=tree, capture_output=True,
                          check=True)
    return json.loads(proc.stdout)


def first_difference(modules: tuple[str, ...], players: int, seed: int, steps: int,
                     old: list[str]) -> str:
    new_parts = game_parts(modules, players, seed, steps)
    new = step_digests(new_parts)
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            fields = new_parts[i].split(b"|")
            return f"step {i} differs ({len(fields)} parts; action {fields[5][:200]!r})" \
                if len(fields) > 5 else f"step {i} differs"
    return f"one game is longer: {len(old)} steps against {len(new)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--compare", type=Path, default=None)
    parser.add_argument("--write", type=Path, default=None)
    parser.add_argument("--tree", type=Path, default=ROOT, help="whose engine plays (read at import)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(play_all(args.seeds, args.steps, detail=True)))
        return
    t0 = time.perf_counter()
    mine = play_all(args.seeds, args.steps, detail=args.compare is not None)
    print(f"{len(mine)} games, {args.steps} steps at most each, in {time.perf_counter() - t0:.0f} s "
          f"(engine of {TREE})")
    if args.write is not None:
        golden = {"steps": args.steps, "seeds": args.seeds, "games": mine}
        args.write.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
        print(f"written to {args.write}")
    if args.compare is None:
        return
    theirs = run_child(args.compare.resolve(), args.seeds, args.steps)
    differ = [k for k in mine if mine[k] != theirs.get(k)]
    steps = sum(len(v) for v in mine.values())
    print(f"against {args.compare}: {len(mine) - len(differ)} of {len(mine)} games identical "
          f"({steps} steps compared)")
    for modules, players, seed in games(args.seeds):
        key = game_key(modules, players, seed)
        if key in differ:
            print(f"  DIFFERS {key}: "
                  f"{first_difference(modules, players, seed, args.steps, theirs[key])}")
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
