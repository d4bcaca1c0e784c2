"""Issue 26: the engine and the Python client install without the server's packages, and that
install alone plays a complete sealed game with seat tokens through the client and judges a game
in-process with the engine, giving the HTTP referee's answers byte for byte.

A fresh virtual environment gets `pip install <a copy of the package's sources>` (a copy: an
in-tree build would write build/ and *.egg-info into the checkout while other tests run), as a
user's `pip install .` would; the quickstarts of docs/clients/engine.md and docs/clients/python.md
run in it as printed there, and each is at most 20 lines.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.seal import new_key
from tests.support.fixtures import ROOT, live_server

# What the install may hold: the package, msgspec, the names' two standards, httpx and what httpx
# needs, and the venv's own pip and setuptools.
ALLOWED = {"alhambra-referee", "msgspec", "precis-i18n", "pyicu-wheels", "httpx", "httpcore", "h11",
           "anyio", "idna", "certifi", "sniffio", "typing-extensions", "exceptiongroup", "pip",
           "setuptools"}
SERVER = {"litestar", "uvicorn", "redis", "cryptography", "resvg-py", "rich", "pybase64",
          "prometheus-client", "httptools", "uvloop", "babel", "werkzeug"}


def _quickstart(page: str) -> str:
    text = (ROOT / "docs" / "clients" / page).read_text("utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(code.strip().splitlines()) <= 20, f"the quickstart of {page} has more than 20 lines"
    return code


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The python of a venv holding `pip install .` and nothing else."""
    where = tmp_path_factory.mktemp("alone")
    sources = where / "src"
    sources.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, sources / name)
    shutil.copytree(ROOT / "service", sources / "service",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    subprocess.run([sys.executable, "-m", "venv", str(where / "venv")], check=True, timeout=120)
    python = where / "venv" / "bin" / "python"
    started = time.monotonic()
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                           str(sources)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    print(f"pip install . took {time.monotonic() - started:.1f} s")
    yield python


def _run(python: Path, code: str, **env: str) -> str:
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, timeout=600,
                          cwd=python.parent, env={**os.environ, **env}, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_install_holds_the_engine_and_the_client_and_none_of_the_servers_packages(alone: Path) -> None:
    pip_list = [str(alone), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"]
    listed = subprocess.run(pip_list, capture_output=True, text=True, timeout=120, check=True).stdout
    installed = {p["name"].lower().replace("_", "-") for p in json.loads(listed)}
    assert not installed & SERVER, installed & SERVER
    assert installed <= ALLOWED, installed - ALLOWED
    # Nothing the server needs is importable, and importing the engine and the client pulls none in.
    printed = _run(alone, "import sys, service.engine, service.client; "
                          "print(sorted({m.split('.')[0] for m in sys.modules} & {'litestar', 'uvicorn', "
                          "'redis', 'cryptography', 'rich', 'resvg_py'}))")
    assert printed.strip() == "[]"


def test_the_engine_quickstart_judges_a_game_in_process(alone: Path) -> None:
    """docs/clients/engine.md as printed: the refusal with its rule id, the scoring rounds, the
    final ranking."""
    printed = _run(alone, _quickstart("engine.md")).splitlines()
    assert printed[0] == "[('base.turn.order', \"it is Cyd's turn, not Ben's\")]"
    assert [line.split(":")[0] for line in printed[1:4]] == ["round 1", "round 2", "round 3"]
    ranking = eval(printed[-1])  # a list of (place, name, score) literals
    assert sorted(name for _, name, _ in ranking) == ["Ana", "Ben", "Cyd"] and ranking[0][0] == 1


def test_the_client_quickstart_plays_a_complete_sealed_game_with_seat_tokens(alone: Path) -> None:
    """docs/clients/python.md as printed, against a referee that seals its states and requires
    each seat's token (CALLERS=players): the game reaches its end."""
    with live_server(SEAL_KEYS=new_key("alone"), CALLERS="players") as url:
        printed = _run(alone, _quickstart("python.md").replace("http://localhost:8000", url))
    assert printed.count("RankEntry(") == 3, printed


SAME_ANSWERS = """
import msgspec
from service.client import Referee
from service.engine import apply, new_game, random_action, Generator

with Referee(URL) as referee:
    for modules in (("zoo",), ("craftsmen", "treasure"), ()):
        here = new_game(["Ana", "Ben", "Cyd"], modules, seed=3)
        there = referee.new_game(["Ana", "Ben", "Cyd"], modules=list(modules), seed=3)
        state, rng, steps = here.state, Generator(11), 0
        assert msgspec.json.encode(there.state) == msgspec.json.encode(state)
        while state.phase != "over" and steps < 150:
            action = random_action(state, rng)
            here, there = apply(state, action), referee.apply(state, action)
            assert msgspec.json.encode(there.state) == msgspec.json.encode(here.state), steps
            assert there.game_over == here.game_over and len(there.scoring) == len(here.scoring)
            state, steps = here.state, steps + 1
        print(modules, steps)
"""


def test_the_engine_in_process_answers_what_the_http_referee_answers(alone: Path) -> None:
    """The same engine, the same types, the same answers: a game played in-process and the same
    actions sent to an unsealed referee give the same states, byte for byte."""
    with live_server() as url:
        printed = _run(alone, SAME_ANSWERS.replace("URL", repr(url)))
    assert len(printed.splitlines()) == 3, printed
