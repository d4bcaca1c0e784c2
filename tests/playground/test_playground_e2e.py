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
from typing import Any

from tests.playground.conftest import ARTIFACTS, BROKEN_IMAGES, PHONE, scrolls_sideways, wait_until


def test_a_person_plays_three_actions_sees_a_refusal_and_steps_back(server: str, browser: object) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(server) or r.url.startswith("blob:")
            else outside.append(r.url))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/")
    expect(page.locator("#modules input")).not_to_have_count(0)
    assert page.evaluate(BROKEN_IMAGES) == [], "a broken image before a game exists"

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
    # The refusal's verdict is gone; the status and the result say which step is shown.
    shown = page.locator("#history li").nth(2).inner_text()
    expect(page.locator("#status")).to_have_text(f"step 3 of 4: {shown}")
    expect(page.locator("#violations li")).to_have_count(0)
    expect(page.locator("#events li.heading")).to_contain_text("what ")
    page.select_option("#viewer", "Ana")
    _wait_for_picture(page)

    assert outside == [], f"the page fetched from elsewhere: {outside}"
    assert errors == []
    page.close()


def test_the_page_names_who_must_act_not_the_seat_whose_turn_it_is(server: str, browser: object) -> None:
    """With vendors every player chooses inhabitants before the first turn, in seat order: Ana
    first, though Cyd (seat 2, seed 3) takes the first turn; `turn.player` names Cyd."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 1000})  # type: ignore[attr-defined]
    page.goto(f"{server}/")
    page.fill("#players", "Ana, Ben, Cyd")
    page.fill("#seed", "3")
    page.check("#modules input[value=vendors]")
    page.click("#new-game")
    expect(page.locator("#turn .actor")).to_have_count(1)
    actor = page.locator("#turn .actor").first
    expect(actor).to_have_attribute("data-player", "Ana")
    expect(actor).to_have_attribute("data-kind", "decision")
    expect(actor.locator("code")).to_have_text("vendors.setup")
    assert json.loads(page.input_value("#state-json"))["turn"]["player"] == 2
    expect(page.locator("#legal-actions li").first).to_contain_text("Ana: choose-inhabitants")
    page.close()


def test_on_a_phone_nothing_is_broken_and_nothing_scrolls_sideways(server: str, browser: Any) -> None:
    """Issue 26: at 390 x 844 the page is no wider than the screen, before a game, once one is
    created (with every module: the most there is to show) and after a few moves; and no
    broken image shows before the picture exists."""
    from playwright.sync_api import expect

    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/")
    expect(page.locator("#modules input")).not_to_have_count(0)
    assert page.evaluate(BROKEN_IMAGES) == [], "a broken image before a game exists"
    assert scrolls_sideways(page) is None, scrolls_sideways(page)

    page.fill("#players", "Ana, Ben, Cyd, Dov")
    page.fill("#seed", "7")
    for box in page.locator("#modules input").all():
        box.check()
    page.click("#new-game")
    expect(page.locator("#history li")).to_have_count(1)
    _wait_for_picture(page)
    assert page.evaluate(BROKEN_IMAGES) == []
    assert scrolls_sideways(page) is None, f"once a game exists: {scrolls_sideways(page)}"
    for step in range(4):
        drawn = page.evaluate("document.querySelector('#picture').src")
        page.locator("#legal-actions li button.apply").first.click()
        expect(page.locator("#history li")).to_have_count(step + 2)
        wait_until(page, f"document.querySelector('#picture').src != {json.dumps(drawn)}"
                   " && document.querySelector('#picture').naturalWidth > 0", "the next picture")
        assert scrolls_sideways(page) is None, f"after {step + 1} moves: {scrolls_sideways(page)}"
    assert errors == []
    context.close()


def _wait_for_picture(page: Any) -> None:
    """Until the picture has loaded. Polled from here: `wait_for_function` evaluates its string
    with `eval` inside the page, which the page's Content-Security-Policy rightly refuses."""
    for _ in range(200):
        if page.evaluate("document.querySelector('#picture').naturalWidth") > 0:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the picture did not load within 10 s")
