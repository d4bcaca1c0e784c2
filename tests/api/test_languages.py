"""Issue 29 at the HTTP edge: every answer says its language (`Content-Language`, negotiated from
`Accept-Language` among en, de, fr, es, ca; English for anything else, never a refusal), the
cache keeps one answer per language, and a refusal's messages are worded in the language asked
for, the rule ids and error codes unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.engine import GameState, new_game
from service.engine.actions import BuyBuilding
from service.i18n import LANGUAGES, negotiate
from tests.support.fixtures import referee

JUNK = ["", "*", "xx", "klingon", "en-GB", "zh-Hant-TW, ja;q=0.5", "de;q=abc", ";;;,,,", "q=0.5",
        "x" * 2000, "DE", "fr-CA", "es-419", "ca-ES-valencia"]
# What the junk and the regional spellings are answered in.
EXPECTED = {"": "en", "*": "en", "xx": "en", "klingon": "en", "en-GB": "en", "zh-Hant-TW, ja;q=0.5": "en",
            "q=0.5": "en", ";;;,,,": "en", "x" * 2000: "en", "DE": "de", "fr-CA": "fr", "es-419": "es",
            "ca-ES-valencia": "ca"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with referee(cache_entries=512) as c:
        yield c


def _first_game() -> Any:
    state = new_game(["Ana", "Ben"], (), seed=3).state
    return msgspec.json.decode(msgspec.json.encode(state)), state


def _unpaid_buy() -> dict[str, Any]:
    """An /v1/apply body buying a building of the market with no cards (base.buy.amount)."""
    body, state = _first_game()
    player = state.players[state.turn.player].name
    tile = next(s.tile for s in state.market if s.tile)
    return {"state": body, "action": {"type": "buy-building", "player": player, "tile": tile, "payment": []}}


def _requests() -> dict[str, tuple[str, str, Any]]:
    """A request of every cached endpoint and of two litestar-routed ones."""
    body, state = _first_game()
    return {
        "validate": ("POST", "/v1/validate", _unpaid_buy()),
        "apply": ("POST", "/v1/apply", _unpaid_buy()),
        "legal-actions": ("POST", "/v1/legal-actions", {"state": body, "limit": 3}),
        "score": ("POST", "/v1/score", {"state": body, "round": 1}),
        "games": ("POST", "/v1/games", {"players": ["Ana", "Ben"], "seed": 1}),
        "suggest": ("POST", "/v1/suggest", {"state": body, "player": state.players[state.turn.player].name,
                                            "level": "random"}),
        "modules": ("GET", "/v1/modules", None),
        "not-found": ("GET", "/v1/nothing-here", None),
    }


def _ask(client: TestClient, request: tuple[str, str, Any], accept: str | None, **headers: str) -> Any:
    method, path, body = request
    if accept is not None:
        headers["accept-language"] = accept
    return client.request(method, path, json=body, headers=headers)


@pytest.mark.parametrize("name", list(_requests()))
def test_every_answer_says_the_language_asked_for(client: TestClient, name: str) -> None:
    request = _requests()[name]
    for language in LANGUAGES:
        answer = _ask(client, request, language)
        assert answer.status_code < 500, (name, language, answer.text)
        assert answer.headers["content-language"] == language, (name, language)
        assert "accept-language" in answer.headers["vary"].lower()
    assert _ask(client, request, None).headers["content-language"] == "en"


@pytest.mark.parametrize("name", ["validate", "apply", "games", "not-found"])
def test_junk_is_answered_in_english_never_refused(client: TestClient, name: str) -> None:
    request = _requests()[name]
    english = _ask(client, request, "en")
    for junk in JUNK:
        answer = _ask(client, request, junk)
        assert answer.status_code == english.status_code, (name, junk, answer.text)
        said = answer.headers["content-language"]
        assert said == EXPECTED[junk] if junk in EXPECTED else said in LANGUAGES, (name, junk, said)


def test_quality_values_are_honoured(client: TestClient) -> None:
    request = _requests()["apply"]
    told = {
        "fr;q=0.4, de;q=0.9, en;q=0.1": "de",
        "en;q=0.1, es": "es",
        "de;q=0, ca;q=0.2": "ca",
        "xx, fr-CH, fr;q=0.8, en;q=0.7": "fr",
        "xx, fr-CH;q=0.8, en;q=0.7": "fr",  # RFC 4647 lookup: fr-CH falls back to fr before en
        "xx, es-MX;q=0.8": "es",
        "de-AT, de;q=0.9": "de",
        "*;q=0.5, ca": "ca",
    }
    for accept, language in told.items():
        assert _ask(client, request, accept).headers["content-language"] == language, accept


def test_the_cache_keeps_one_answer_per_language(client: TestClient) -> None:
    request = _requests()["apply"]
    nocache = _ask(client, request, "de", **{"cache-control": "no-cache"})  # stored afresh
    german = _ask(client, request, "de")
    french = _ask(client, request, "fr")
    assert german.status_code == french.status_code == 422
    assert german.content != french.content  # the refusal's summary is worded in each language
    assert german.content == nocache.content
    assert german.headers["x-cache"].startswith("hit")
    for language, first in (("de", german), ("fr", french)):
        again = _ask(client, request, language)
        assert again.content == first.content, language
        assert again.headers["x-cache"].startswith("hit"), language
    english = _ask(client, request, "en").json()
    assert german.json()["error"] == french.json()["error"] == english["error"] == "illegal-action"
    rules = [[v["rule"] for v in a["violations"]] for a in (german.json(), french.json(), english)]
    assert rules[0] == rules[1] == rules[2]


def test_a_refusal_is_worded_in_german(client: TestClient) -> None:
    request = _requests()["apply"]
    tile = request[2]["action"]["tile"]
    english = _ask(client, request, "en").json()
    german = _ask(client, request, "de").json()
    violation = next(v for v in german["violations"] if v["rule"] == "base.buy.amount")
    assert tile in violation["message"]
    assert violation["message"].startswith(f"für {tile}, das ")
    assert "wird keine Karte bezahlt" in violation["message"]
    assert german["message"].startswith("die Aktion ist regelwidrig: ")
    assert english["message"].startswith("the action is illegal: no cards are paid for ")
    validity = _ask(client, _requests()["validate"], "de").json()
    assert validity["valid"] is False
    assert any("wird keine Karte bezahlt" in v["message"] for v in validity["violations"])


def test_a_body_that_does_not_decode_is_refused_in_the_language_asked_for(client: TestClient) -> None:
    wrong = ("POST", "/v1/games", {"players": ["Ana", "Ben"], "seed": "x"})
    answers = {language: _ask(client, wrong, language).json() for language in LANGUAGES}
    assert answers["en"]["message"] == "invalid request body: Expected `int`, got `str` - at `$.seed`"
    assert answers["de"]["message"] == ("ungültiger Request-Body: `int` erwartet, `str` erhalten - bei "
                                        "`$.seed`")
    assert answers["fr"]["message"] == "corps de requête invalide : `int` attendu, `str` reçu - à `$.seed`"
    assert len({a["message"] for a in answers.values()}) == len(LANGUAGES)
    assert {a["error"] for a in answers.values()} == {"bad-request"}
    empty = client.post("/v1/validate", content=b"", headers={"accept-language": "es"})
    assert empty.status_code == 400 and empty.headers["content-language"] == "es"
    assert empty.json()["message"] == ("cuerpo de la petición no válido: el cuerpo está vacío; se espera un "
                                       "objeto JSON")
    large = client.post("/v1/validate", content=b"[" * 300_000, headers={"accept-language": "ca"})
    assert large.status_code == 413 and large.json()["message"].startswith("el cos de la petició supera")
    assert client.post("/v1/validate", content=b"", headers={"accept-language": "en"}).json()["message"] == (
        "invalid request body: the body is empty; a JSON object is expected")


def test_unknown_forms_of_msgspec_errors_are_said_as_msgspec_says_them() -> None:
    from service.api.wording import decoding, litestar
    from service.i18n import render

    assert render(decoding("Expected `array` of length >= 2 - at `$.players`"), "de") == (
        "`array` der Länge >= 2 erwartet - bei `$.players`")
    assert render(decoding("JSON is malformed: trailing characters (byte 12)"), "fr") == (
        "JSON mal formé : caractères en trop à la fin (octet 12)")
    assert render(decoding("JSON is malformed: expected ',' or '}' (byte 3)"), "es") == (
        "JSON mal formado: se esperaba ',' o '}' (byte 3)")
    malformed = "JSON is malformed: expected ',' or '}' (byte 3)"
    assert decoding(malformed) == malformed
    assert render(decoding("Something msgspec never said"), "de") == "Something msgspec never said"
    assert render(litestar("Method Not Allowed"), "ca") == "Mètode no permès"
    assert render(litestar("I'm a teapot"), "ca") == "I'm a teapot"


def test_the_python_client_asks_for_its_language(client: TestClient) -> None:
    from service.client import Referee, RefereeError

    request = _requests()["apply"][2]
    body, _ = _first_game()
    state = msgspec.json.decode(msgspec.json.encode(body), type=GameState)
    action = msgspec.json.decode(msgspec.json.encode(request["action"]), type=BuyBuilding)
    referee = Referee(client=client, language="de")  # not closed: the module's client
    with pytest.raises(RefereeError) as refused:
        referee.apply(state, action)
    assert refused.value.message.startswith("die Aktion ist regelwidrig: ")
    assert referee.last is not None and referee.last.status == 422


def test_repeated_accept_language_fields_are_one_list_and_a_long_one_is_cut_between_ranges(
        client: TestClient) -> None:
    """RFC 9110 5.3: repeated fields are one comma-joined list; a header past 1,024 characters is
    read up to its last whole range (not cut inside `;q=0.5`, which would read as q=1)."""
    answer = client.get("/v1/modules", headers=[("accept-language", "xx"), ("accept-language", "de")])
    assert answer.headers["content-language"] == "de"
    long = "xx;q=0.9, " * 101 + "fr;q=0.5, de;q=0.9"  # de's range spans the 1,024th character
    assert long.index("de;q") < 1024 < len(long) and negotiate(long) == "fr"
    cut = "xx, " * 255 + "de;q=0.1"  # "de;q" alone would read as q=1
    assert cut.index("de;q") < 1024 < len(cut) and negotiate(cut) == "en"


def test_an_answer_in_a_language_of_its_own_says_that_one(client: TestClient) -> None:
    """The pages' HTML is English (the page words itself, i18n.js); the pages' words of a language
    are in that language, whatever Accept-Language asks; a missing one is refused in the language
    asked for."""
    page = client.get("/", headers={"accept-language": "de"})
    assert page.status_code == 200 and page.headers["content-language"] == "en"
    words = client.get("/playground/messages/fr", headers={"accept-language": "de"})
    assert words.headers["content-language"] == "fr" and words.json()["language"] == "fr"
    missing = client.get("/playground/messages/xx", headers={"accept-language": "de"})
    assert missing.status_code == 404 and missing.headers["content-language"] == "de"
    assert missing.json()["message"].startswith("keine Sprache 'xx'")
