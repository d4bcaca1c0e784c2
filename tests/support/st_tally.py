"""The share of Schemathesis' requests that reached a rule verdict, per operation (issue 24).

A rule verdict: an answer of 2xx, or a 422 citing a rule id (an illegal action, a setup the
rules refuse, an unknown player, a count a table cannot have, ...). A 400 (the body breaks the
contract), an `inconsistent-state` (a state no game reaches), an `outdated-state` or a refused
seal (`bad-seal`, `unsealed-state`) stops before the rules.

Read from the JSON lines `st_hooks.after_call` writes, and printed three ways: over every
request (the coverage phase's thousands of probes of the schema's edges are nearly all refused
400 by design), over the requests the fuzzing and stateful phases generate (the hooks give them
real states and actions; some are made invalid on purpose, negative cases), and over those of
them that are schema-valid (Schemathesis' positive cases: the ones its "mostly rejected
generated data" warning counts, and the ones the hooks fill). Exit 1 when validate, apply,
legal-actions or suggest reach half or less of those. The share over all the fuzzing and stateful phases'
requests is printed too, but is no target: how many negative cases (malformed JSON, wrong types,
refused 400 by design) Schemathesis mixes in varies from run to run (a quarter to a half, more
in short runs), so a target on it would fail one run in a few for no fault of the referee.

    python -m tests.support.st_tally FILE
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

TARGETED = ("POST /v1/validate", "POST /v1/apply", "POST /v1/legal-actions", "POST /v1/suggest")
TARGET = 0.5
GENERATED = ("fuzzing", "stateful")
GROUPS = ("all", "generated", "valid")


# 422s that stop before the rules: a state no game reaches, one of an older edition, a seal the
# referee cannot trust (or none where one is needed).
BEFORE_THE_RULES = frozenset({"inconsistent-state", "outdated-state", "bad-seal", "unsealed-state"})


def verdict(line: dict[str, Any]) -> bool:
    status = line["status"]
    if 200 <= status < 300:
        return True
    return status == 422 and line["error"] not in BEFORE_THE_RULES and bool(line["rules"])


def groups(line: dict[str, Any]) -> list[str]:
    generated = line["phase"] in GENERATED
    valid = generated and line["mode"] == "positive"
    return ["all"] + ["generated"] * generated + ["valid"] * valid


def shares(lines: list[dict[str, Any]]) -> dict[str, dict[str, tuple[int, int]]]:
    """operation -> group -> (rule verdicts, requests)."""
    hits: Counter[tuple[str, str]] = Counter()
    totals: Counter[tuple[str, str]] = Counter()
    for line in lines:
        for group in groups(line):
            totals[line["operation"], group] += 1
            hits[line["operation"], group] += verdict(line)
    ops = sorted({op for op, _ in totals})
    return {op: {g: (hits[op, g], totals[op, g]) for g in GROUPS} for op in ops}


def _cell(hit: int, total: int) -> str:
    share = f"{hit / total:.0%}" if total else "-"
    return f"{hit:>5}/{total:<5} {share:>4}"


def report(lines: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """The table, and the targeted operations that missed the target."""
    table = shares(lines)
    rows = [f"{'operation':<24} {'all requests':>16} {'fuzzing+stateful':>16} {'of them valid':>16}"]
    for op, cells in table.items():
        rows.append(f"{op:<24} " + " ".join(f"{_cell(*cells[g]):>16}" for g in GROUPS))
    missed = []
    for op in TARGETED:
        hit, total = table.get(op, {}).get("valid", (0, 0))
        if not total or hit / total <= TARGET:
            missed.append(op)
    statuses = Counter(str(line["status"]) for line in lines)
    rows.append("statuses: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))
    return "\n".join(rows), missed


def main(argv: list[str]) -> int:
    lines = [json.loads(text) for text in Path(argv[0]).read_text("utf-8").splitlines() if text]
    text, missed = report(lines)
    languages = Counter(str(line.get("language")) for line in lines)  # issue 29: Content-Language
    print("Answers by Content-Language: " + ", ".join(f"{k} {v}" for k, v in sorted(languages.items())))
    print("Requests that reached a rule verdict (2xx, or 422 citing a rule, not inconsistent-state):")
    print(text)
    if missed:
        print(f"below the target (more than {TARGET:.0%} of the fuzzing and stateful phases' "
              "schema-valid requests): " + ", ".join(missed))
        return 1
    print(f"target met: more than {TARGET:.0%} of the fuzzing and stateful phases' schema-valid "
          "requests for " + ", ".join(TARGETED))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
