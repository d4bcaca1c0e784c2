"""Every rule id of every module the engine registers (the base game and Dirk included) has a
test that allows and one that refuses, and the modules declare exactly the rulebook's ids."""

from __future__ import annotations

import pytest

from service.engine.module import registered
from tests.support.rule_coverage import coverage, rule_ids

MODULES = [m.id for m in registered()]


@pytest.mark.parametrize("module", MODULES)
def test_every_rule_of_the_module_has_an_allowing_and_a_refusing_test(module: str) -> None:
    assert rule_ids((module,)), f"RULES.md has no rule ids for {module}"
    missing = {rule: (len(a), len(r)) for rule, (a, r) in coverage((module,)).items() if not a or not r}
    assert not missing, f"{module} rule ids without both an allowing and a refusing test: {missing}"


def test_the_base_game_has_its_rules() -> None:
    assert len(rule_ids(("base", "dirk"))) > 30


@pytest.mark.parametrize("module", MODULES)
def test_modules_declare_the_rule_ids_of_the_rulebook(module: str) -> None:
    declared = next(m for m in registered() if m.id == module).rule_ids
    assert sorted(declared) == rule_ids((module,))
