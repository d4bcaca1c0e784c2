"""Issue 27, item 4: the playground opens a game's record and steps through it, in Debian's
headless Chromium. A complete game is recorded here (the engine and tests/support/play.py's
preferred_action: 2 players, 133 actions, three scoring rounds) and opened through the file
input and pasted; stepping forward, back, to the last and to a scoring step must show what the
referee's own /v1/replay answers for that step (the position, the picture, the action that led
there and its events, the round held, the state), and at the end the final ranking and the
result checked (agrees; a result altered: disagrees, with each difference). A record with an
action dropped shows its index and rule ids and steps up to the state before it. The page's own
game is saved as a record (a download), reopened and played on. At a phone's viewport (390 x
844) the record view is no wider than the screen and shows no broken image. Screenshots are
kept as CI artefacts: artifacts/record.png and artifacts/record-phone.png.
"""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from service.engine import EDITION, apply, new_game
from service.seal import new_key
from tests.playground.conftest import ARTIFACTS, BROKEN_IMAGES, DESKTOP, PHONE, scrolls_sideways, wait_until
from tests.support.fixtures import live_server
from tests.support.play import preferred_action

SETUP = {"players": ["Ana", "Ben"], "modules": [], "seed": 1}
DROPPED = 5  # the action left out of the illegal record


@pytest.fixture(scope="module")
def game() -> dict[str, Any]:
    """A complete game's record, played here with the engine, and the step of each scoring
    round (the number of actions after which it was held)."""
    state = new_game(SETUP["players"], SETUP["modules"], seed=SETUP["seed"]).state
    rnd = random.Random(SETUP["seed"])
    actions, rounds = [], {}
    while state.phase != "over":
        action = preferred_action(state, rnd)
        outcome = apply(state, action)
        actions.append(json.loads(msgspec.json.encode(action)))
        for breakdown in outcome.scoring:
            rounds[breakdown.round] = len(actions)
        state = outcome.state
    record = {"format": "alhambra-record/1", "edition": EDITION, "setup": SETUP, "actions": actions,
              "result": json.loads(msgspec.json.encode(state.ranking))}
    return {"record": record, "rounds": rounds}


@pytest.fixture(scope="module")
def record_file(game: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "record.json"
    path.write_text(json.dumps(game["record"], indent=1))
    return path


def post(server: str, path: str, body: Any) -> tuple[int, Any]:
    request = urllib.request.Request(f"{server}{path}", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw, code, kind = response.read(), response.status, response.headers["content-type"]
    except urllib.error.HTTPError as e:
        raw, code, kind = e.read(), e.code, e.headers["content-type"]
    return code, json.loads(raw) if "json" in kind else raw.decode()


def replayed(server: str, record: dict[str, Any], upto: int | None = None) -> Any:
    """The referee's answer to the record's replay (up to `upto` actions)."""
    query = {"record": record} if upto is None else {"record": record, "upto": upto}
    code, answer = post(server, "/v1/replay", query)
    assert code == 200, answer
    return answer


def _text(value: Any) -> str:
    """A value as the page's summary shows it (JavaScript's String and JSON.stringify)."""
    if isinstance(value, dict | list) or value is None:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def summary(thing: dict[str, Any]) -> str:
    """An action or an event as the page shows it ("Ana: take-money · cards blue-5-a")."""
    parts = []
    for key, value in thing.items():
        if key in ("type", "player"):
            continue
        shown = ", ".join(_text(v) for v in value) if isinstance(value, list) else _text(value)
        parts.append(f"{key.replace('_', ' ')} {shown}")
    who = f"{thing['player']}: " if thing.get("player") else ""
    return f"{who}{thing['type']}{' · ' + ' · '.join(parts) if parts else ''}"


def ranking_text(entry: dict[str, Any]) -> str:
    points = "point" if entry["score"] == 1 else "points"
    return f"{entry['place']}. {entry['name']}: {entry['score']} {points}"


def svg_width(server: str, state: Any) -> int:
    code, svg = post(server, "/v1/render", {"state": state})
    assert code == 200, svg
    return round(float(re.search(r'<svg[^>]*\swidth="([\d.]+)', svg).group(1)))


def open_file(page: Any, path: Path) -> None:
    page.set_input_files("#record-file", str(path))
    wait_until(page, f"document.querySelector('#record-status').textContent.startsWith("
               f"'opened the record ({path.name})')", "the record opened")


def open_pasted(page: Any, record: dict[str, Any]) -> None:
    if not page.locator("#record-paste").evaluate("d => d.open"):
        page.click("#record-paste summary")
    page.fill("#record-json", json.dumps(record))
    page.click("#record-open")
    wait_until(page, "document.querySelector('#record-status').textContent.startsWith("
               "'opened the record (pasted)')", "the pasted record opened")


def shown_step(page: Any, k: int) -> None:
    """Until step k is shown: its details and its picture, loaded."""
    wait_until(page, f"document.querySelector('#record-step').dataset.step === '{k}'"
               " && !document.querySelector('#record-step').hasAttribute('aria-busy')", f"step {k} shown")
    wait_until(page, f"(p => p.dataset.step === '{k}' && !p.hidden && p.complete && p.naturalWidth > 0)"
               "(document.querySelector('#record-picture'))", f"the picture of step {k}")


def check_step(page: Any, server: str, record: dict[str, Any], k: int, n: int | None = None) -> Any:
    """Step k as the page shows it against the referee's replay up to k; the replay's answer."""
    n = len(record["actions"]) if n is None else n
    shown_step(page, k)
    expected = replayed(server, record, upto=k)
    assert page.inner_text("#record-position") == f"{k} / {n}"
    assert page.input_value("#record-slider") == str(k)
    action = record["actions"][k - 1] if k else None
    assert page.inner_text("#record-action") == (f"action {k} of {n}: {summary(action)}" if action
                                                 else "the setup, before any action")
    events = page.locator("#record-events li:not(.heading)").all_inner_texts()
    assert events == [summary(e) for e in expected["events"]], k
    assert json.loads(page.input_value("#record-state")) == expected["state"], k
    width = page.evaluate("document.querySelector('#record-picture').naturalWidth")
    assert width == svg_width(server, expected["state"]), k
    held = [e["round"] for e in expected["events"] if e["type"] == "scoring-round-held"]
    assert page.locator("#record-held").is_visible() == bool(held), k
    assert page.locator("#record-scoring table").count() == len(held), k
    return expected


def play_moves(page: Any, moves: int) -> None:
    """The page's first listed action applied `moves` times, each waited for."""
    for step in range(moves):
        page.locator("#legal-actions li button.apply").first.click()
        wait_until(page, f"document.querySelectorAll('#history li').length === {step + 2}"
                   " && document.querySelectorAll('#legal-actions li').length > 0", f"move {step + 1}")


def _page(browser: Any, server: str, **context: Any) -> tuple[Any, Any, list[str], list[str]]:
    """A page of the playground; the errors it raised and the addresses it fetched elsewhere."""
    ctx = browser.new_context(accept_downloads=True, **context)
    page = ctx.new_page()
    errors: list[str] = []
    outside: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: None if r.url.startswith(server) or r.url.startswith("blob:")
            else outside.append(r.url))
    page.calls = calls = []  # the replays and applications it asked for
    page.on("request", lambda r: calls.append(r.url.removeprefix(server))
            if r.url.endswith(("/v1/replay", "/v1/apply")) else None)
    page.goto(f"{server}/")
    wait_until(page, "document.querySelectorAll('#modules input').length > 0", "the modules listed")
    return ctx, page, errors, outside


def test_a_record_opened_from_a_file_and_pasted_steps_as_the_referee_replays_it(
        server: str, browser: Any, game: dict[str, Any], record_file: Path) -> None:
    record, rounds = game["record"], game["rounds"]
    n = len(record["actions"])
    context, page, errors, outside = _page(browser, server, **DESKTOP)
    assert page.locator("#record-view").is_hidden()
    assert page.evaluate(BROKEN_IMAGES) == []

    open_file(page, record_file)
    summary_ = dict(zip(page.locator("#record-summary dt").all_inner_texts(),
                        page.locator("#record-summary dd").all_inner_texts(), strict=True))
    assert summary_["players"] == "Ana, Ben" and summary_["seed"] == "1"
    assert summary_["modules"] == "none (the base game)" and summary_["actions"] == str(n)
    assert summary_["result"] == " · ".join(ranking_text(e) for e in record["result"])
    assert page.locator("#record-refusal").is_hidden()
    check_step(page, server, record, 0)
    # Upto 0, then the whole record once; step 1 fetched ahead.
    assert page.calls[:2] == ["/v1/replay", "/v1/replay"] and set(page.calls[2:]) <= {"/v1/apply"}

    # Forward: each next action applied to the state before (the next one fetched ahead); back
    # and to the last: known steps, asked again of no one.
    page.calls.clear()
    for _ in range(3):
        page.click("#record-forward")
    check_step(page, server, record, 3)
    for _ in range(2):
        page.click("#record-back")
    check_step(page, server, record, 1)
    page.click("#record-last")
    final = check_step(page, server, record, n)
    assert set(page.calls) == {"/v1/apply"} and len(page.calls) <= 4, page.calls
    assert page.inner_text("#record-held") == "scoring round 3 held at this step"
    assert page.locator("#record-ranking li").all_inner_texts() == [ranking_text(e) for e in final["ranking"]]
    assert page.get_attribute("#record-verdict", "data-verdict") == "agrees"
    assert page.inner_text("#record-verdict") == "The record's result agrees with the replay."
    assert page.locator("#record-forward").is_disabled() and page.locator("#record-last").is_disabled()

    # The slider, to the step of the first scoring round: the round is named and its table shown.
    page.calls.clear()
    page.locator("#record-slider").fill(str(rounds[1]))
    check_step(page, server, record, rounds[1])
    assert page.calls[0] == "/v1/replay" and "/v1/replay" not in page.calls[1:], page.calls
    assert page.inner_text("#record-held") == "scoring round 1 held at this step"
    assert page.locator("#record-end").is_hidden()
    page.click("#record-forward")  # from a known step: the next action applied by /v1/apply
    check_step(page, server, record, rounds[1] + 1)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "record.png"), full_page=True)

    # Pasted: the same record; then one whose result is altered, which disagrees.
    open_pasted(page, record)
    assert page.inner_text("#record-position") == f"0 / {n}"
    check_step(page, server, record, 0)
    page.click("#record-forward")
    check_step(page, server, record, 1)
    winner = record["result"][0]
    altered = {**record, "result": [{**winner, "score": winner["score"] + 1}, *record["result"][1:]]}
    open_pasted(page, altered)
    page.click("#record-last")
    check_step(page, server, altered, n)
    verdict = replayed(server, altered)["result"]
    assert verdict["verdict"] == "disagrees" and verdict["differences"]
    assert page.get_attribute("#record-verdict", "data-verdict") == "disagrees"
    assert page.locator("#record-differences li").all_inner_texts() == verdict["differences"]
    absent = {k: v for k, v in record.items() if k != "result"}
    open_pasted(page, absent)
    page.click("#record-last")
    shown_step(page, n)
    assert page.get_attribute("#record-verdict", "data-verdict") == "absent"

    # Not JSON, and a record the referee refuses whole: said, and nothing opened.
    page.fill("#record-json", "{not json")
    page.click("#record-open")
    wait_until(page, "document.querySelector('#record-status').textContent.includes('is not JSON')",
               "not JSON said")
    page.fill("#record-json", json.dumps({**record, "format": "alhambra-record/9"}))
    page.click("#record-open")
    wait_until(page, "document.querySelector('#record-status').textContent.includes('refused (bad-request)')",
               "a wrong format refused")
    assert page.locator("#record-view").is_hidden()
    assert errors == [] and outside == [], (errors, outside)
    context.close()


def test_an_illegal_record_shows_its_refusal_and_steps_up_to_the_state_before_it(
        server: str, browser: Any, game: dict[str, Any]) -> None:
    record = game["record"]
    actions = record["actions"]
    broken = {**record, "actions": actions[:DROPPED] + actions[DROPPED + 1:]}
    n = len(broken["actions"])
    code, refusal = post(server, "/v1/replay", {"record": broken})
    assert code == 422 and refusal["error"] == "illegal-action", refusal
    index, rules = refusal["index"], [v["rule"] for v in refusal["violations"]]
    assert index == DROPPED and rules

    context, page, errors, _ = _page(browser, server, **DESKTOP)
    open_pasted(page, broken)
    assert page.locator("#record-refusal").is_visible()
    text = page.inner_text("#record-refusal-text")
    assert f"index {index} " in text and summary(broken["actions"][index]) in text
    assert page.locator("#record-refusal-rules .rule").all_inner_texts() == rules
    assert page.inner_text("#record-refusal-message") == f"The referee: {refusal['message']}"
    assert page.locator("#record-status").get_attribute("class") == "error"
    check_step(page, server, broken, 0, n)
    page.click("#record-last")
    check_step(page, server, broken, index, n)
    assert json.loads(page.input_value("#record-state")) == refusal["state"]
    assert page.locator("#record-forward").is_disabled()
    assert page.locator("#record-next-rules .rule").all_inner_texts() == rules
    assert page.get_attribute("#record-slider", "max") == str(index)
    assert page.locator("#record-end").is_hidden()
    assert errors == []
    context.close()


def test_the_pages_game_is_saved_as_a_record_reopened_and_played_on(
        server: str, browser: Any, game: dict[str, Any], tmp_path: Path) -> None:
    context, page, errors, _ = _page(browser, server, **DESKTOP)
    assert page.locator("#save-record").is_disabled()
    page.fill("#players", "Ana, Ben")
    page.fill("#seed", "3")
    page.click("#new-game")
    wait_until(page, "document.querySelectorAll('#legal-actions li').length > 0", "the legal actions")
    play_moves(page, 5)
    board = json.loads(page.input_value("#state-json"))

    with page.expect_download() as download:
        page.click("#save-record")
    saved_path = tmp_path / download.value.suggested_filename
    download.value.save_as(saved_path)
    assert saved_path.name == "alhambra-record-seed3-5.json"
    saved = json.loads(saved_path.read_text())
    assert list(saved) == ["format", "edition", "setup", "actions"]  # no result: the game goes on
    assert saved["format"] == "alhambra-record/1" and saved["edition"] == board["edition"] == EDITION
    assert saved["setup"] == {"players": ["Ana", "Ben"], "modules": [], "seed": 3}
    assert len(saved["actions"]) == 5
    assert replayed(server, saved)["state"] == board  # the record gives the page's game again

    open_file(page, saved_path)
    page.click("#record-last")
    check_step(page, server, saved, 5)
    assert json.loads(page.input_value("#record-state")) == board
    # The game's record opened without a file.
    page.click("#view-record")
    wait_until(page, "document.querySelector('#record-status').textContent.startsWith("
               "'opened the record (the game above)')", "the game's record opened")
    check_step(page, server, saved, 0)

    # Played on from step 2: the record saved then holds its first two actions and the new one.
    page.click("#record-forward")
    page.click("#record-forward")
    shown_step(page, 2)
    page.click("#record-play")
    wait_until(page, "document.querySelectorAll('#history li').length === 1"
               " && document.querySelectorAll('#legal-actions li').length > 0", "the game from step 2")
    assert json.loads(page.input_value("#state-json")) == replayed(server, saved, upto=2)["state"]
    page.locator("#legal-actions li button.apply").first.click()
    wait_until(page, "document.querySelectorAll('#history li').length === 2", "a move on")
    with page.expect_download() as download:
        page.click("#save-record")
    again = json.loads(Path(download.value.path()).read_text())
    assert again["actions"][:2] == saved["actions"][:2] and len(again["actions"]) == 3
    assert replayed(server, again)["state"] == json.loads(page.input_value("#state-json"))

    # A whole game played on from its last step: its record again, result and all.
    record = game["record"]
    open_pasted(page, record)
    page.click("#record-last")
    shown_step(page, len(record["actions"]))
    page.click("#record-play")
    wait_until(page, "document.querySelector('#turn').textContent === 'the game is over'", "the game over")
    with page.expect_download() as download:
        page.click("#save-record")
    assert json.loads(Path(download.value.path()).read_text()) == record

    # A state loaded as JSON has no setup: no record of it.
    page.click("#state-panel summary")
    page.click("#load-state")
    wait_until(page, "document.querySelector('#status').textContent === 'state loaded'", "the state loaded")
    assert page.locator("#save-record").is_disabled()
    assert errors == []
    context.close()


@pytest.fixture(scope="module")
def sealing_server() -> Iterator[str]:
    with live_server(SEAL_KEYS=new_key("playground")) as url:
        yield url


def test_a_sealed_game_is_saved_with_its_first_seal_and_replays_to_its_own_states(
        sealing_server: str, browser: Any, tmp_path: Path) -> None:
    """With sealing on, the page's states are sealed: the record carries the first state's seal,
    so its replay and the page's steps (each next action applied to the sealed state before)
    are the game's own states, byte for byte."""
    server = sealing_server
    context, page, errors, _ = _page(browser, server, **DESKTOP)
    page.fill("#players", "Ana, Ben, Cyd")
    page.fill("#seed", "4")
    page.click("#new-game")
    wait_until(page, "document.querySelectorAll('#legal-actions li').length > 0", "the legal actions")
    first = json.loads(page.input_value("#state-json"))
    assert first["seal"]
    play_moves(page, 3)
    board = json.loads(page.input_value("#state-json"))
    with page.expect_download() as download:
        page.click("#save-record")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    saved = json.loads(path.read_text())
    assert list(saved) == ["format", "edition", "setup", "seal", "actions"]
    assert saved["seal"] == first["seal"]
    assert replayed(server, saved)["state"] == board
    open_file(page, path)
    for k in (1, 2, 3):
        page.click("#record-forward")
        check_step(page, server, saved, k)
    assert json.loads(page.input_value("#record-state")) == board
    assert errors == []
    context.close()


def test_on_a_phone_the_record_view_does_not_scroll_sideways(
        server: str, browser: Any, game: dict[str, Any], record_file: Path) -> None:
    record = game["record"]
    n = len(record["actions"])
    context, page, errors, _ = _page(browser, server, **PHONE)
    assert scrolls_sideways(page) is None, scrolls_sideways(page)
    open_file(page, record_file)
    shown_step(page, 0)
    assert page.evaluate(BROKEN_IMAGES) == []
    assert scrolls_sideways(page) is None, f"a record opened: {scrolls_sideways(page)}"
    page.click("#record-paste summary")
    assert scrolls_sideways(page) is None, f"the paste box open: {scrolls_sideways(page)}"
    page.click("#record-forward")
    check_step(page, server, record, 1)
    page.click("#record-last")
    check_step(page, server, record, n)
    page.click("#record-state-panel summary")
    assert page.evaluate(BROKEN_IMAGES) == []
    assert scrolls_sideways(page) is None, f"at the end: {scrolls_sideways(page)}"
    page.evaluate("window.scrollTo(0, 0)")  # the steps' sticky bar where it sits, in a full-page shot
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "record-phone.png"), full_page=True)

    broken = {**record, "actions": record["actions"][:DROPPED] + record["actions"][DROPPED + 1:]}
    open_pasted(page, broken)
    page.click("#record-last")
    shown_step(page, DROPPED)
    assert page.locator("#record-refusal-rules .rule").count() > 0
    assert scrolls_sideways(page) is None, f"an illegal record: {scrolls_sideways(page)}"
    assert page.evaluate(BROKEN_IMAGES) == []
    assert errors == []
    context.close()
