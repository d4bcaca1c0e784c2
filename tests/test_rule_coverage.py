"""Every rule id of the base game and of Dirk has a test that allows and one that refuses,
and the engine's modules declare exactly the rule ids of the rulebook."""

from __future__ import annotations

from service.engine.rules import registered
from tests.rule_coverage import ROOT, RULES, coverage, rule_ids


def test_every_base_and_dirk_rule_has_an_allowing_and_a_refusing_test() -> None:
    assert len(rule_ids(("base", "dirk"))) > 30
    missing = {rule: (len(a), len(r)) for rule, (a, r) in coverage(("base", "dirk")).items()
               if not a or not r}
    assert not missing, f"rule ids without both an allowing and a refusing test: {missing}"


def test_modules_declare_the_rule_ids_of_the_rulebook() -> None:
    for module in registered():
        assert sorted(module.rule_ids) == rule_ids((module.id,)), module.id


def test_the_rulebook_copy_is_current() -> None:
    shared = ROOT.parent / "shared" / "RULES.md"
    if shared.exists():  # beside a checkout (developers, CI); a lone clone has only the copy
        assert RULES.read_text("utf-8") == shared.read_text("utf-8"), "copy ../shared/RULES.md to seeds/"


def test_every_extensions_rule_has_an_allowing_and_a_refusing_test() -> None:
    assert len(rule_ids(("extensions",))) == 6
    missing = {rule: (len(a), len(r)) for rule, (a, r) in coverage(("extensions",)).items()
               if not a or not r}
    assert not missing, f"extensions rule ids without both an allowing and a refusing test: {missing}"


def test_every_staff_rule_has_an_allowing_and_a_refusing_test() -> None:
    assert len(rule_ids(("staff",))) == 6
    missing = {rule: (len(a), len(r)) for rule, (a, r) in coverage(("staff",)).items()
               if not a or not r}
    assert not missing, f"staff rule ids without both an allowing and a refusing test: {missing}"


def test_every_grounds_rule_has_an_allowing_and_a_refusing_test() -> None:
    assert len(rule_ids(("grounds",))) == 4
    missing = {rule: (len(a), len(r)) for rule, (a, r) in coverage(("grounds",)).items()
               if not a or not r}
    assert not missing, f"grounds rule ids without both an allowing and a refusing test: {missing}"


def test_every_craftsmen_rule_has_an_allowing_and_a_refusing_test() -> None:
    assert len(rule_ids(("craftsmen",))) == 14
    missing = {rule: (len(a), len(r)) for rule, (a, r) in coverage(("craftsmen",)).items()
               if not a or not r}
    assert not missing, f"craftsmen rule ids without both an allowing and a refusing test: {missing}"
