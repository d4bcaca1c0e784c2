"""The quickstarts of the docs site run as printed, against a live referee (issue 25): the curl
session of docs/clients/curl.md and of the README, and the TypeScript one of
docs/clients/typescript.md (compiled with tsc, run with node). The Python one is run by
tests/api/test_client.py."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.fixtures import ROOT, live_server

TYPESCRIPT = ROOT / "examples" / "typescript"
REQUIRED = "REFEREE_REQUIRE_TYPESCRIPT"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with live_server() as url:
        yield url


def blocks(page: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", (ROOT / page).read_text("utf-8"), re.S)


def curl_session(page: str) -> str:
    (session,) = [b for b in blocks(page, "sh") if "$URL/v1/games" in b]
    return session


def test_the_readme_and_the_curl_quickstart_show_one_session() -> None:
    assert curl_session("README.md") == curl_session("docs/clients/curl.md")


@pytest.mark.parametrize("page", ["docs/clients/curl.md", "README.md"])
def test_the_curl_session_runs_as_printed(page: str, url: str, tmp_path: Path) -> None:
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not on this machine")
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", curl_session(page)], cwd=tmp_path,
                          env={**os.environ, "URL": url}, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    game = json.loads((tmp_path / "game.json").read_text())
    assert set(game) == {"state", "to_act", "game_over", "seat_tokens"} and game["to_act"]["players"]
    legal = json.loads((tmp_path / "legal.json").read_text())
    assert 1 <= len(legal["actions"]) <= 5
    applied = json.loads((tmp_path / "applied.json").read_text())
    assert applied["state"] != game["state"] and applied["game_over"] is False
    printed = done.stdout
    assert '{"valid":true,"violations":[]}' in printed
    assert '"error":"illegal-action"' in printed and '"rule":"' in printed
    assert printed.count('"round":2') >= 1 and '"ranking":' in printed
    assert '"viewer":"Ana"' in printed and '"status":"ok"' in printed and '"status":"ready"' in printed
    assert '"engine_version":' in printed and '"modules":[' in printed


def test_the_typescript_quickstart_plays_a_game(url: str, tmp_path: Path) -> None:
    """docs/clients/typescript.md: its main.ts beside examples/typescript/client.ts, compiled by its
    tsc command and run with node, plays a game to its end."""
    node = shutil.which("node")
    tsc = TYPESCRIPT / "node_modules" / ".bin" / "tsc"
    generate = TYPESCRIPT / "node_modules" / ".bin" / "openapi-typescript"
    if node is None or not tsc.exists():
        reason = ("no node on this machine" if node is None else
                  "the TypeScript check's packages are not installed (cd examples/typescript && npm install)")
        if os.environ.get(REQUIRED) == "1":
            pytest.fail(f"{reason}; {REQUIRED}=1 requires the quickstart")
        pytest.skip(reason)
    (main,) = blocks("docs/clients/typescript.md", "ts")
    commands = [b for b in blocks("docs/clients/typescript.md", "sh") if "node build/main.js" in b]
    assert len(commands) == 1 and "http://localhost:8000" in main
    shutil.copy(TYPESCRIPT / "client.ts", tmp_path / "client.ts")
    (tmp_path / "main.ts").write_text(main.replace("http://localhost:8000", url))
    subprocess.run([str(generate), str(ROOT / "openapi" / "openapi.json"), "-o", str(tmp_path / "api.d.ts")],
                   cwd=tmp_path, capture_output=True, check=True, timeout=120)
    # the page's commands, with the packages' tsc for `npx tsc`
    script = commands[0].replace("npx tsc", str(tsc))
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "phase over, 3 players ranked", done.stdout
