"""The README's two commands are the ones users and CI run: keep them in step."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text("utf-8")
    return re.findall(r"```sh\n(python3 -m venv .venv[^\n]*)\n```", text)


def test_readme_has_the_serve_and_the_test_command() -> None:
    serve, test = _commands()
    assert serve.endswith("referee serve")
    assert "pytest" in test and "'.[test]'" in test


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    _, test = _commands()
    ci = (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    assert test in ci
