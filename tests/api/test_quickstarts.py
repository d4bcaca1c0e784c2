"""The quickstarts of the docs site run as printed, against a live referee (issue 25): the curl
session of docs/clients/curl.md and of the README. The Python one is run by
tests/api/test_client.py, the TypeScript one by tests/api/test_typescript_client.py."""

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
