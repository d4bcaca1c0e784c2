"""A mutation run: do the tests catch what a real bug would do? (issue 30)

A small driver over a seeded sample of mutants of the code that decides verdicts and scores, of
sealing and of views (`TARGETS`): each mutant changes one operator or constant of one function
(a comparison made strict or loose, equal made unequal, `and` made `or`, a `not` dropped, `+`
made `-`, a constant moved by one, `min` made `max`), as an off-by-one, a wrong constant or a
dropped condition would. Every mutant meets the tests nearest its file first (stopping at the
first failure); then the suite of the tests that judge verdicts, scores, views and seals
(`SUITE`) runs for the mutants they let live. A mutant is killed
when a test fails (or the run hangs past its timeout). The kill rate leaves out the mutants
named in `bench/mutation_equivalent.toml`, each with the reason it cannot change a verdict.

Why a driver of its own rather than mutmut or cosmic-ray: both mutate every line of a package
(tens of thousands of mutants here, each needing a run of the tests) and keep their own copy or
database of the project; a listed sample with the nearest tests first gives the figure in
minutes, and the sample is the same every run (seeded), so two runs compare.

Each mutant is written into a scratch copy of the repository (its tracked files as they are in
the working tree), never into the working tree.

    python bench/mutation.py                      # 120 mutants, seed 30
    python bench/mutation.py --sample 40 --seed 1 # another, shorter sample
    python bench/mutation.py --list               # the sample, without running it
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENT = ROOT / "bench" / "mutation_equivalent.toml"

# The code that decides verdicts and scores, sealing and views, with the tests nearest to each.
TARGETS: dict[str, tuple[str, ...]] = {
    "service/engine/scoring/round.py": ("tests/engine/test_scoring.py", "tests/engine/test_tally.py",
                                        "tests/engine/test_end.py", "tests/engine/test_dirk.py"),
    "service/engine/grid.py": ("tests/engine/test_placement.py", "tests/engine/test_wall_search.py",
                               "tests/engine/test_scoring.py", "tests/engine/test_turn.py"),
    "service/engine/scoring/tally_checks.py": ("tests/engine/test_tally.py",),
    "service/engine/scoring/sheet.py": ("tests/engine/test_sheet.py",),
    "service/engine/base/buy.py": ("tests/engine/test_turn.py", "tests/engine/test_placement.py"),
    "service/engine/base/money.py": ("tests/engine/test_turn.py",),
    "service/engine/base/placement.py": ("tests/engine/test_placement.py", "tests/engine/test_turn.py"),
    "service/engine/base/redesign.py": ("tests/engine/test_turn.py", "tests/engine/test_placement.py"),
    "service/engine/base/turn.py": ("tests/engine/test_turn.py", "tests/engine/test_end.py"),
    "service/engine/base/components.py": ("tests/engine/test_hostile_states.py", "tests/engine/test_turn.py"),
    "service/engine/modules/treasure/actions.py": ("tests/modules/test_treasure.py",),
    "service/engine/modules/treasure/play.py": ("tests/modules/test_treasure.py",),
    "service/engine/modules/treasure/scoring.py": ("tests/modules/test_treasure.py",),
    "service/engine/modules/treasure/census.py": ("tests/modules/test_treasure.py",),
    "service/engine/modules/zoo/actions.py": ("tests/modules/test_zoo.py",),
    "service/engine/modules/zoo/play.py": ("tests/modules/test_zoo.py",),
    "service/engine/modules/zoo/scoring.py": ("tests/modules/test_zoo.py",),
    "service/engine/modules/zoo/census.py": ("tests/modules/test_zoo.py",),
    "service/engine/modules/walls/actions.py": ("tests/modules/test_walls.py",),
    "service/engine/modules/walls/play.py": ("tests/modules/test_walls.py",),
    "service/engine/modules/walls/scoring.py": ("tests/modules/test_walls.py",),
    "service/engine/modules/walls/census.py": ("tests/modules/test_walls.py",),
    "service/engine/modules/vendors/actions.py": ("tests/modules/test_vendors.py",),
    "service/engine/modules/vendors/play.py": ("tests/modules/test_vendors.py",),
    "service/engine/modules/vendors/scoring.py": ("tests/modules/test_vendors.py",),
    "service/engine/modules/vendors/census.py": ("tests/modules/test_vendors.py",),
    "service/engine/view.py": ("tests/engine/test_view.py", "tests/modules/test_views.py"),
    "service/engine/secrecy.py": ("tests/engine/test_secrecy.py", "tests/modules/test_views.py"),
    "service/seal.py": ("tests/service/test_sealing.py",),
}
# The suite for the mutants the nearest tests let live: every test that judges a verdict, a
# score or a view (the engine's, the modules', the pictures'), the contract's examples (real
# answers: a mutant that changes one is caught there), sealing and trust. Left out: the HTTP
# layer's and the service's infrastructure tests and the browser tests, which judge none and
# would make each surviving mutant cost some ten minutes.
SUITE = ("tests/engine", "tests/modules", "tests/render", "tests/api/test_openapi.py",
         "tests/api/test_contract_examples.py", "tests/api/test_trust.py", "tests/service/test_sealing.py")

SWAPS: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.And: ast.Or, ast.Or: ast.And, ast.Add: ast.Sub, ast.Sub: ast.Add,
}


@dataclass(frozen=True)
class Mutant:
    """One change at one node. `id` names it by its file, function and change (and which of
    the function's equal changes it is), not by line: it stays while other code moves."""

    file: str
    function: str
    line: int
    col: int
    kind: str
    before: str
    after: str
    nth: int = 0

    @property
    def id(self) -> str:
        nth = f"#{self.nth}" if self.nth else ""
        return f"{self.file}::{self.function}: {self.before} -> {self.after}{nth}"


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, node


def _points(tree: ast.Module) -> Iterator[tuple[str, ast.AST, str]]:
    """(function, node, kind) of every place a mutant can change, in the functions' bodies."""
    for name, fn in _functions(tree):
        for node in ast.walk(fn):
            if isinstance(node, ast.Compare):
                for i, op in enumerate(node.ops):
                    if type(op) in SWAPS:
                        yield name, node, f"compare{i}"
            elif isinstance(node, ast.BoolOp | ast.BinOp) and type(node.op) in SWAPS:
                yield name, node, "operator"
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                yield name, node, "drop-not"
            elif (isinstance(node, ast.Constant) and type(node.value) is int
                  and not isinstance(getattr(node, "parent", None), ast.Subscript)):
                yield name, node, "constant+1"
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("min", "max")):
                yield name, node, "min-max"


def _mutated(node: ast.AST, kind: str) -> ast.AST:
    new = copy.deepcopy(node)
    if kind.startswith("compare"):
        i = int(kind[len("compare"):])
        new.ops[i] = SWAPS[type(new.ops[i])]()  # type: ignore[attr-defined]
    elif kind == "operator":
        new.op = SWAPS[type(new.op)]()  # type: ignore[attr-defined]
    elif kind == "drop-not":
        return new.operand  # type: ignore[attr-defined,no-any-return]
    elif kind == "constant+1":
        new.value += 1  # type: ignore[attr-defined]
    elif kind == "min-max":
        new.func.id = "max" if new.func.id == "min" else "min"  # type: ignore[attr-defined]
    return new


def _parsed(source: str) -> ast.Module:
    """The module's tree, every node knowing its parent (a constant that indexes is left alone:
    moving an index mostly breaks the code outright, which says nothing of the tests)."""
    tree = ast.parse(source)
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            child.parent = parent  # type: ignore[attr-defined]
    return tree


def _mutants_of(file: str, tree: ast.Module) -> Iterator[tuple[Mutant, ast.AST]]:
    seen: dict[tuple[str, str, str], int] = {}
    for function, node, kind in _points(tree):
        before = ast.unparse(node)
        after = ast.unparse(_mutated(node, kind))
        if before != after:
            nth = seen.get((function, before, after), 0)
            seen[function, before, after] = nth + 1
            yield Mutant(file, function, node.lineno, node.col_offset, kind,  # type: ignore[attr-defined]
                         before, after, nth), node


def candidates(file: str) -> list[Mutant]:
    return [m for m, _ in _mutants_of(file, _parsed((ROOT / file).read_text("utf-8")))]


def sample(count: int, seed: int) -> list[Mutant]:
    """`count` mutants drawn over every target file, each file in proportion to its mutants
    (at least one each), the same for the same seed and the same code."""
    rnd = random.Random(seed)
    pools = {file: candidates(file) for file in TARGETS}
    total = sum(len(p) for p in pools.values())
    out: list[Mutant] = []
    for pool in pools.values():
        share = max(1, round(count * len(pool) / total))
        out += rnd.sample(pool, min(share, len(pool)))
    rnd.shuffle(out)
    return sorted(out[:count], key=lambda m: (m.file, m.line, m.col, m.kind))


def apply_mutant(source: str, mutant: Mutant) -> str:
    """The file's text with the mutant's node changed (the module unparsed: formatting and
    comments are lost, meaning is kept)."""
    tree = _parsed(source)
    target = next((node for m, node in _mutants_of(mutant.file, tree) if m.id == mutant.id), None)
    if target is None:
        raise ValueError(f"mutant {mutant.id} is not in {mutant.file} any more")

    class Swap(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> ast.AST:
            if node is target:
                return _mutated(node, mutant.kind)
            return super().visit(node)

    return ast.unparse(ast.fix_missing_locations(Swap().visit(tree))) + "\n"


def scratch_copy() -> Path:
    """The repository's tracked files, as the working tree holds them, in a temporary folder."""
    target = Path(tempfile.mkdtemp(prefix="referee-mutation-"))
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in files.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


def run_tests(where: Path, tests: tuple[str, ...], timeout: float, workers: int = 0) -> str:
    """'killed' (a test failed, or the run hung past `timeout`) or 'survived'."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               *(["-n", str(workers)] if workers else ["-p", "no:xdist"]), *tests]
    env = {**os.environ, "PYTHONPATH": str(where), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run(command, cwd=where, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "killed"
    if done.returncode == 0:
        return "survived"
    if done.returncode == 1:
        return "killed"
    # 2-5: the run itself failed (a collection error: the mutant broke an import) or found no
    # test; an import broken by the mutant is a kill, anything else is the driver's problem.
    tail = done.stdout.decode(errors="replace")[-2000:]
    if done.returncode == 2 and ("Error" in tail or "error" in tail or " failed" in tail):
        return "killed"  # xdist's -x ends a failing run "interrupted" (2)
    raise RuntimeError(f"pytest exited {done.returncode} on {tests}:\n{tail}")


def equivalent() -> dict[str, str]:
    if not EQUIVALENT.exists():
        return {}
    data = tomllib.loads(EQUIVALENT.read_text("utf-8"))
    return {entry["id"]: entry["reason"] for entry in data.get("mutant", [])}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=120)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--list", action="store_true", help="print the sample and stop")
    parser.add_argument("--no-suite", action="store_true", help="only the nearest tests")
    parser.add_argument("--workers", type=int, default=2, help="pytest -n for the suite's runs")
    parser.add_argument("--record", type=Path, help="a JSON-lines file of the verdicts: read (a "
                        "mutant judged there is not run again) and appended to")
    args = parser.parse_args(argv)
    console = Console(width=200)  # a log keeps each mutant on one line
    mutants = sample(args.sample, args.seed)
    known = equivalent()
    if args.list:
        for m in mutants:
            console.print(f"{m.file}:{m.line}  {m.id}", markup=False, highlight=False)
        return 0

    where = scratch_copy()
    started = time.monotonic()
    results: dict[str, tuple[Mutant, str, str]] = {}

    recorded: dict[tuple[str, str], str] = {}
    if args.record and args.record.exists():
        for text in args.record.read_text("utf-8").splitlines():
            entry = json.loads(text)
            recorded[entry["id"], entry["by"]] = entry["verdict"]

    def record(m: Mutant, verdict: str, by: str) -> None:
        if args.record and (m.id, by) not in recorded:
            with args.record.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"id": m.id, "by": by, "verdict": verdict}) + "\n")

    def log(m: Mutant, verdict: str, by: str) -> None:
        record(m, verdict, by)
        if not console.is_terminal:  # a log: one line a mutant
            console.print(f"{len(results)}/{len(mutants)} {verdict} ({by}) {m.file}:{m.line} {m.id}",
                          markup=False, highlight=False)

    def judged(m: Mutant, tests: tuple[str, ...], timeout: float, workers: int = 0) -> str:
        known_verdict = recorded.get((m.id, "suite" if tests == SUITE else "nearest"))
        if known_verdict is not None:
            return known_verdict
        path = where / m.file
        original = path.read_text("utf-8")
        path.write_text(apply_mutant(original, m), "utf-8")
        try:
            return run_tests(where, tests, timeout, workers)
        finally:
            path.write_text(original, "utf-8")

    try:
        # The nearest tests pass on the code as it is (else every mutant would look killed).
        for tests in sorted(set(TARGETS.values())):
            if run_tests(where, tests, timeout=900) != "survived":
                console.print(f"[red]the tests {tests} fail without a mutant[/red]")
                return 2
        # First every mutant against its nearest tests; then the suite for those left alive.
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("mutants (nearest tests)", total=len(mutants))
            for m in mutants:
                results[m.id] = (m, judged(m, TARGETS[m.file], timeout=600), "nearest")
                log(m, *results[m.id][1:])
                progress.advance(task)
        alive = [m for m, verdict, _ in results.values() if verdict == "survived"]
        if alive and not args.no_suite:
            if run_tests(where, SUITE, timeout=1800, workers=args.workers) != "survived":
                console.print("[red]the suite fails without a mutant[/red]")
                return 2
            for m in alive:
                results[m.id] = (m, judged(m, SUITE, timeout=1800, workers=args.workers), "suite")
                log(m, *results[m.id][1:])
    finally:
        shutil.rmtree(where, ignore_errors=True)

    table = Table(title=f"Mutation run: {len(mutants)} mutants, seed {args.seed}")
    columns = ("file", "mutants", "killed by the nearest tests", "by the suite", "survived", "equivalent")
    for column in columns:
        table.add_column(column)
    for file in TARGETS:
        rows = [r for r in results.values() if r[0].file == file]
        table.add_row(file, str(len(rows)),
                      str(sum(1 for _, v, b in rows if v == "killed" and b == "nearest")),
                      str(sum(1 for _, v, b in rows if v == "killed" and b == "suite")),
                      str(sum(1 for m, v, _ in rows if v == "survived" and m.id not in known)),
                      str(sum(1 for m, v, _ in rows if v == "survived" and m.id in known)))
    console.print(table)
    survivors = [m for m, v, _ in results.values() if v == "survived" and m.id not in known]
    same = [m for m, v, _ in results.values() if v == "survived" and m.id in known]
    killed = sum(1 for _, v, _ in results.values() if v == "killed")
    counted = len(results) - len(same)
    rate = killed / counted if counted else 1.0
    console.print(f"killed {killed} of {counted} non-equivalent mutants: {rate:.1%} "
                  f"({len(same)} equivalent left out; {time.monotonic() - started:.0f} s)")
    for m in same:
        console.print(f"  equivalent {m.file}:{m.line} {m.id}: {known[m.id]}", markup=False, highlight=False)
    for m in survivors:
        console.print(f"  SURVIVED {m.file}:{m.line} {m.id}", markup=False, highlight=False)
    return 0 if rate >= 0.95 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
