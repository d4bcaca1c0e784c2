"""The playground end to end: a live referee (uvicorn on a free port) and Debian's headless
Chromium driven by Playwright. A game is created, three legal actions are applied by clicking,
an edited action is refused with its rule id shown, and the history steps back. The screenshot
is kept as a CI artefact: artifacts/playground.png. Bots (issue 28): a seat's "bot move" plays
what POST /v1/suggest answers for it, at each level; a seat with nothing to decide shows the
referee's reason, a bot that waits says so, and under CALLERS=players the page sends the seat's
token.

Chromium is Debian's (`chromium` on PATH). Where there is none (a
machine with nothing but Python and the package index) the test skips and says why; `.ci/run`
installs chromium and sets REFEREE_REQUIRE_BROWSER=1, which turns a missing or broken browser
into a failure.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from service.bots import suggest
from service.engine import Generator, apply, new_game, random_action, to_act
from service.seal import new_key
from tests.playground.conftest import ARTIFACTS, BROKEN_IMAGES, PHONE, scrolls_sideways, wait_until
from tests.support.fixtures import live_server


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


def test_a_bot_moves_for_the_seat_to_act_at_each_level_and_the_game_advances(
    server: str, browser: Any
) -> None:
    """Each press of a seat's "bot move" asks /v1/suggest for that seat and applies its action:
    the history grows by the very action the referee suggests for the state before it. A seat
    the game does not wait for gets 422 nothing-to-decide, shown with its rule; nothing moves."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/")
    expect(page.locator("#modules input")).not_to_have_count(0)
    page.fill("#players", "Ana, Ben, Cyd")
    page.fill("#seed", "7")
    page.click("#new-game")
    expect(page.locator("#bot-seats li")).to_have_count(3)

    idle = next(name for name in ("Ana", "Ben", "Cyd") if name not in _to_act(server, _shown(page)))
    page.locator(f"#bot-seats li[data-player={idle}] button.bot-move").click()
    expect(page.locator("#bot-said")).to_contain_text("nothing-to-decide")
    expect(page.locator("#bot-violations .rule").first).to_have_text("base.turn.order")
    expect(page.locator("#history li")).to_have_count(1)

    page.fill("#bot-budget", "10")
    for step, level in enumerate(("random", "basic", "strong")):
        before = _shown(page)
        seat = _to_act(server, before)[0]
        expect(page.locator(f"#bot-seats li[data-player={seat}]")).to_have_class("bot-seat to-act")
        body = {"state": before, "player": seat, "level": level}
        if level == "strong":
            body["budget_ms"] = 10
        expected = _post(server, "/v1/suggest", body)["action"]
        page.locator(f"#bot-seats li[data-player={seat}] select").select_option(level)
        page.locator(f"#bot-seats li[data-player={seat}] button.bot-move").click()
        expect(page.locator("#history li")).to_have_count(step + 2)
        expect(page.locator("#status")).to_contain_text(f"{seat}'s bot ({level}) applied")
        expect(page.locator("#bot-said")).to_contain_text(f"{seat}'s bot ({level}) chose")
        played = _post(server, "/v1/apply", {"state": before, "action": expected})["state"]
        assert json.loads(page.input_value("#state-json")) == played
    assert errors == []
    page.close()


def test_a_bot_that_may_only_act_out_of_turn_and_waits_says_so(server: str, browser: Any) -> None:
    """The thieves' window: a seat beside the active player's turn whose bot suggests null
    (found with the pure core) waits; the page says so and applies nothing."""
    from playwright.sync_api import expect

    state, player, level = _a_state_where_a_bot_waits()
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{server}/")
    page.locator("#state-panel summary").click()
    page.fill("#state-json", msgspec.json.encode(state).decode())
    page.click("#load-state")
    expect(page.locator("#bot-seats li")).to_have_count(3)
    expect(page.locator(f"#turn .actor[data-player={player}]")).to_have_attribute("data-kind", "out-of-turn")
    page.locator(f"#bot-seats li[data-player={player}] select").select_option(level)
    page.locator(f"#bot-seats li[data-player={player}] button.bot-move").click()
    expect(page.locator("#bot-said")).to_contain_text(f"{player}'s bot ({level}) waits")
    expect(page.locator("#status")).to_contain_text("waits")
    expect(page.locator("#history li")).to_have_count(1)
    page.close()


@pytest.fixture(scope="module")
def players_server() -> Iterator[str]:
    """A sealing referee whose callers are players: acting for a seat needs its token."""
    with live_server(SEAL_KEYS=new_key("bots"), CALLERS="players") as url:
        yield url


def test_under_callers_players_a_bot_move_carries_the_seats_token(players_server: str, browser: Any) -> None:
    """The page keeps the new game's seat tokens and sends the seat's to /v1/suggest and the
    actor's to /v1/apply: a bot moves (without them both answer 403)."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    tokens: list[str | None] = []
    page.on("request", lambda r: tokens.append(r.headers.get("authorization"))
            if r.url.endswith("/v1/suggest") else None)
    page.goto(f"{players_server}/")
    page.fill("#players", "Ana, Ben")
    page.click("#new-game")
    expect(page.locator("#turn .actor")).not_to_have_count(0)
    for step in range(2):
        seat = _to_act(players_server, _shown(page))[0]
        expect(page.locator("#legal-actions li").first).to_contain_text(f"{seat}: ")
        page.locator(f"#bot-seats li[data-player={seat}] button.bot-move").click()
        expect(page.locator("#history li")).to_have_count(step + 2)
        expect(page.locator("#status")).to_contain_text(f"{seat}'s bot (basic) applied")
    assert len(tokens) == 2 and all(t and t.startswith("Bearer ") for t in tokens)
    page.close()


def _shown(page: Any) -> Any:
    """The state the page shows (its JSON is set before anything is asked about it)."""
    return json.loads(page.input_value("#state-json"))


def _to_act(server: str, state: Any) -> list[str]:
    """Who may act in `state`, as the referee says (a spectator's view names them)."""
    return _post(server, "/v1/view", {"state": state})["to_act"]["players"]


def _post(server: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(f"{server}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def _a_state_where_a_bot_waits() -> tuple[Any, str, str]:
    """A thieves game's state with a seat that may only act out of turn, and a level whose bot
    suggests it wait there (the pure core, as /v1/suggest answers for an unsealed state)."""
    for seed in range(1, 40):
        outcome = new_game(["Ana", "Ben", "Cyd"], ["thieves"], seed=seed)
        rng = Generator(seed)
        for _ in range(300):
            if outcome.game_over:
                break
            state = outcome.state
            for actor in to_act(state).actors[1:]:
                if actor.kind != "out-of-turn":
                    continue
                for level in ("basic", "random"):
                    if suggest(state, actor.player, level).action is None:
                        return state, actor.player, level
            action = random_action(state, rng)
            assert action is not None
            outcome = apply(state, action)
    raise AssertionError("no thieves' window where a bot waits in 40 games")


def _wait_for_picture(page: Any) -> None:
    """Until the picture has loaded. Polled from here: `wait_for_function` evaluates its string
    with `eval` inside the page, which the page's Content-Security-Policy rightly refuses."""
    for _ in range(200):
        if page.evaluate("document.querySelector('#picture').naturalWidth") > 0:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the picture did not load within 10 s")
