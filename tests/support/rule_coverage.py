"""List, per rule id of RULES.md, the tests that prove it allowing and refusing.

A test names its rule with `@pytest.mark.rule("<id>")`; its name says which side it shows:
`..._allows_...` or `..._refuses_...`.

    python -m tests.support.rule_coverage [prefix ...]     # e.g. base dirk
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "seeds" / "RULES.md"  # a copy of ../shared/RULES.md, the rulebook
_MARKED = re.compile(r'@pytest\.mark\.rule\("([a-z0-9.-]+)"\)\s*(?:@[^\n]*\n\s*)*def (test_\w+)')


def rule_ids(prefixes: tuple[str, ...]) -> list[str]:
    text = RULES.read_text("utf-8")
    ids = set(re.findall(r"`([a-z]+\.[a-z0-9.-]+[a-z0-9])`", text))
    return sorted(i for i in ids if i.split(".")[0] in prefixes)


def marked_tests() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        for rule, name in _MARKED.findall(path.read_text("utf-8")):
            out.setdefault(rule, []).append(name)
    return out


def coverage(prefixes: tuple[str, ...]) -> dict[str, tuple[list[str], list[str]]]:
    tests = marked_tests()
    table = {}
    for rule in rule_ids(prefixes):
        names = tests.get(rule, [])
        table[rule] = ([n for n in names if "_allows" in n], [n for n in names if "_refuses" in n])
    return table


def main() -> None:
    prefixes = tuple(sys.argv[1:]) or ("base", "dirk")
    for rule, (allows, refuses) in coverage(prefixes).items():
        mark = "ok " if allows and refuses else "-- "
        print(f"{mark}{rule:<32} allows: {len(allows):>2}  refuses: {len(refuses):>2}")


if __name__ == "__main__":
    main()
