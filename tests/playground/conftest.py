"""The browser tests' fixtures: a live referee (uvicorn on a free port) and Debian's headless
Chromium driven by Playwright, shared by the playground's and the scoring page's tests.

Chromium is Debian's (`chromium` on PATH). Where there is none (a machine with nothing but
Python and the package index) the tests skip and say why; `.ci/run` installs chromium and sets
REFEREE_REQUIRE_BROWSER=1, which turns a missing or broken browser into a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.fixtures import live_server

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = shutil.which("chromium")
REQUIRED = "REFEREE_REQUIRE_BROWSER"
# A phone (issue 26: 390 px wide) and a desktop, as the pages' tests open them.
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
# Every image the page shows that is not a loaded picture (no src, an empty one, one that
# failed): what a browser draws as a broken image.
BROKEN_IMAGES = ("[...document.images].filter(i => i.checkVisibility()"
                 " && !(i.getAttribute('src') && i.complete && i.naturalWidth > 0))"
                 ".map(i => i.id || i.outerHTML)")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A referee with one worker on a free loopback port, stopped after the module's tests."""
    with live_server() as url:
        yield url


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


def wait_until(page: Any, expression: str, what: str, seconds: float = 10) -> None:
    """Until `expression` (evaluated in the page) is true. Polled from here: `wait_for_function`
    evaluates its string with `eval` inside the page, which the page's Content-Security-Policy
    rightly refuses."""
    for _ in range(int(seconds * 20)):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{what} within {seconds} s")


def scrolls_sideways(page: Any) -> str | None:
    """What is wider than the viewport the page was opened with, if anything. A phone's browser
    (`is_mobile`) widens its layout viewport to a page too wide for it, so `window.innerWidth`
    grows with the fault; the viewport's own width does not."""
    width = page.viewport_size["width"]
    wider = page.evaluate("document.documentElement.scrollWidth")
    if wider <= width:
        return None
    culprits = page.evaluate(f"""[...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > {width} + 0.5).slice(0, 8)
        .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''))""")
    return f"{wider} px wide in a {width} px viewport: {', '.join(culprits)}"


def off_screen(page: Any, selector: str) -> list[str]:
    """The elements of `selector` not wholly on the screen (their boxes and the viewport's)."""
    size = page.viewport_size
    out = []
    for element in page.locator(selector).all():
        box = element.bounding_box()
        if box is None or not (box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
                               and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]):
            out.append(f"{selector} at {box} in {size}")
    return out
