"""The playground end to end: a live referee (uvicorn on a free port) and Debian's headless
Chromium driven by Playwright. A game is created, three legal actions are applied by clicking,
an edited action is refused with its rule id shown, and the history steps back. The screenshot
is kept as a CI artefact: artifacts/playground.png.

Chromium is Debian's (`chromium` on PATH). Where there is none (a
machine with nothing but Python and the package index) the test skips and says why; `.ci/run`
installs chromium and sets REFEREE_REQUIRE_BROWSER=1, which turns a missing or broken browser
into a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = shutil.which("chromium")
REQUIRED = "REFEREE_REQUIRE_BROWSER"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A referee with one worker on a free loopback port, stopped after the module's tests."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "service.api.app:create_app",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/healthz", timeout=1)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("the referee did not start")
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import Error, sync_playwright

    required = os.environ.get(REQUIRED) == "1"
    if CHROMIUM is None:
        missing = "no chromium on this machine (apt-get install chromium to run the browser test)"
        if required:
            pytest.fail(f"{missing}; {REQUIRED}=1 requires it")
        pytest.skip(missing)
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        except Error as e:
            (pytest.fail if required else pytest.skip)(f"{CHROMIUM} does not start: {e}")
        yield chromium
        chromium.close()


def test_a_person_plays_three_actions_sees_a_refusal_and_steps_back(server: str, browser: object) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(server) or r.url.startswith("blob:")
            else outside.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/")

    page.fill("#players", "Ana, Ben, Cyd")
    page.fill("#seed", "7")
    page.check("#modules input[value=zoo]")
    page.click("#new-game")
    expect(page.locator("#history li")).to_have_count(1)
    _wait_for_picture(page)

    for step in range(3):
        first = page.locator("#legal-actions li").first
        expected = first.locator("code").inner_text()
        first.locator("button.apply").click()
        expect(page.locator("#history li")).to_have_count(step + 2)
        expect(page.locator("#history li.current")).to_have_text(expected)
        expect(page.locator("#status")).to_contain_text("applied")
    state = json.loads(page.input_value("#state-json"))
    assert len(state["players"][0]["hand"]) + len(state["players"][1]["hand"]) > 0

    # A legal action, edited so that a player who is not to act takes it: refused, rule shown.
    page.locator("#legal-actions button.edit").first.click()
    action = json.loads(page.input_value("#action-json"))
    seat = state["turn"]["player"]
    action["player"] = state["players"][(seat + 1) % 3]["name"]
    page.fill("#action-json", json.dumps(action))
    page.click("#apply")
    expect(page.locator("#violations .rule").first).to_have_text("base.turn.order")
    expect(page.locator("#status")).to_contain_text("illegal-action")
    expect(page.locator("#history li")).to_have_count(4)  # nothing applied

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "playground.png"), full_page=True)

    page.click("#back")
    expect(page.locator("#history li.current")).to_have_count(1)
    expect(page.locator("#history li").nth(2)).to_have_class("current")
    assert json.loads(page.input_value("#state-json")) != state
    page.select_option("#viewer", "Ana")
    _wait_for_picture(page)

    assert outside == [], f"the page fetched from elsewhere: {outside}"
    assert errors == []
    page.close()


def _wait_for_picture(page: Any) -> None:
    """Until the picture has loaded. Polled from here: `wait_for_function` evaluates its string
    with `eval` inside the page, which the page's Content-Security-Policy rightly refuses."""
    for _ in range(200):
        if page.evaluate("document.querySelector('#picture').naturalWidth") > 0:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the picture did not load within 10 s")
