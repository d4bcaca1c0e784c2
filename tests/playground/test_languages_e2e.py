"""The pages in the players' languages (issue 29), end to end in Debian's headless Chromium: the
header's switch words the page in German at once, keeps the choice across a reload, and every
request then says `Accept-Language: de`, so a refused buy's violation comes back in German.

Chromium is Debian's (`chromium` on PATH); where there is none the tests skip and say why
(tests/playground/conftest.py)."""

from __future__ import annotations

import json
from typing import Any

from tests.playground.conftest import wait_until


def _wrong_currency(state: dict[str, Any]) -> dict[str, Any]:
    """A buy the referee refuses under base.buy.currency: the player to act pays a market tile
    with a card of another currency."""
    player = state["players"][state["turn"]["player"]]
    card = player["hand"][0]
    space = next(s for s in state["market"] if s["tile"] and not card.startswith(s["currency"]))
    return {"type": "buy-building", "player": player["name"], "tile": space["tile"], "payment": [card]}


def test_the_switch_words_the_page_and_the_referees_answers_in_german(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    languages: list[str | None] = []
    page.on("request", lambda r: languages.append(r.headers.get("accept-language"))
            if "/v1/" in r.url else None)
    page.goto(f"{server}/")
    expect(page.locator("#modules input")).not_to_have_count(0)
    expect(page.locator("#validate")).to_have_text("Validate")  # the browser's language: English

    page.select_option("#language", "de")
    expect(page.locator("#validate")).to_have_text("Prüfen")
    expect(page.locator("#new-game")).to_have_text("Neues Spiel")
    assert page.evaluate("document.documentElement.lang") == "de"

    page.reload()  # the choice is kept
    expect(page.locator("#validate")).to_have_text("Prüfen")
    expect(page.locator("#language")).to_have_value("de")

    languages.clear()
    page.fill("#players", "Ana, Ben, Cyd")
    page.fill("#seed", "5")
    page.click("#new-game")
    expect(page.locator("#history li")).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("neues Spiel")
    state = json.loads(page.input_value("#state-json"))
    page.fill("#action-json", json.dumps(_wrong_currency(state)))
    page.click("#validate")
    expect(page.locator("#violations .rule").first).to_have_text("base.buy.currency")
    expect(page.locator("#violations .message").first).to_contain_text("ist kein")
    expect(page.locator("#status")).to_have_text("die Aktion ist regelwidrig")
    assert languages and set(languages) == {"de"}, languages

    # Back to English: the page and the next answers in English again.
    page.select_option("#language", "en")
    expect(page.locator("#validate")).to_have_text("Validate")
    page.click("#validate")
    expect(page.locator("#violations .message").first).to_contain_text("is not")
    assert errors == []
    context.close()


def test_the_browsers_language_is_the_first_choice(server: str, browser: Any) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(locale="ca-ES")
    page = context.new_page()
    page.goto(f"{server}/score")
    expect(page.locator("#language")).to_have_value("ca")
    expect(page.locator("#start")).to_have_text("Començar la vetllada")
    wait_until(page, "document.body.classList.contains('ready')", "the scoring page was ready")
    context.close()
