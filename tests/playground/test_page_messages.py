"""The pages' words in the players' languages (issue 29), without a browser: every text the
pages mark (`data-i18n`, `data-i18n-attrs`) and every `t(...)`/`tn(...)` of their scripts is in
the catalogue service/playground/messages.py marks (so `python -m service.i18n` checks its
translations), and GET /playground/messages/{language} answers them worded."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_javascript
from litestar.testing import TestClient

from service.api.app import create_app
from service.i18n.catalogue import TRANSLATED
from service.playground import STATIC, messages, worded

PAGES = ("index.html", "score.html")
SCRIPTS = ("playground.js", "score.js")  # i18n.js says one word, by data-i18n: "Language"


def script_ids(name: str) -> set[str]:
    """The ids of a script's t("...") and tn("...", "...", n), as Babel's JavaScript extractor
    reads them (inside template literals too)."""
    out = set()
    with (STATIC / name).open("rb") as f:
        for _, _, message, _ in extract_javascript(f, {"t": None, "tn": (1, 2)}, [],
                                                   {"parse_template_string": True}):
            out.add(message[0] if isinstance(message, tuple) else message)
    return out


class _Marked(HTMLParser):
    """The texts of a page's elements marked data-i18n (whitespace collapsed, as i18n.js reads
    them), its title, and the attributes its data-i18n-attrs name."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[list[Any]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in (found.get("data-i18n-attrs") or "").split():
            self.ids.add(found.get(name) or "")
        if tag not in ("input", "img", "meta", "link", "br"):
            self.open.append([tag, tag == "title" or "data-i18n" in found, ""])

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            name, marked, text = self.open.pop()
            if marked:
                self.ids.add(re.sub(r"\s+", " ", text).strip())
            if self.open:
                self.open[-1][2] += text
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1][2] += data


def page_ids(name: str) -> set[str]:
    parser = _Marked()
    parser.feed((STATIC / name).read_text())
    return parser.ids


CATALOGUED = set(messages.SINGLE) | {one for one, _ in messages.PLURAL}


@pytest.mark.parametrize("name", PAGES + SCRIPTS)
def test_every_word_of_the_pages_is_catalogued(name: str) -> None:
    used = page_ids(name) if name.endswith(".html") else script_ids(name)
    assert used, f"{name} marks nothing"
    missing = sorted(used - CATALOGUED)
    assert not missing, f"add to service/playground/messages.py: {missing}"


def test_the_catalogue_holds_what_the_pages_say() -> None:
    """No id outlives its use (the words score.js says through `words` aside)."""
    used = set().union(*(page_ids(n) for n in PAGES), *(script_ids(n) for n in SCRIPTS))
    spoken = {"Language"} | set(re.findall(r'"([^"]+)"', (STATIC / "score.js").read_text()))
    assert CATALOGUED - used - spoken <= {"pavilion", "seraglio", "arcades", "chambers", "garden", "tower",
                                          "wall", "count", "place", "length", "none"}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_word_is_worded_in_every_language(language: str) -> None:
    """The route's words: every id but the few said as in English ("Bots", "API", "total"...);
    the catalogue check (python -m service.i18n) holds that each has its translation."""
    said = worded(language)
    assert set(said) <= CATALOGUED
    assert len(CATALOGUED - set(said)) <= 12, sorted(CATALOGUED - set(said))


def test_the_messages_route_answers_a_language() -> None:
    with TestClient(create_app()) as client:
        german = client.get("/playground/messages/de")
        assert german.status_code == 200
        body = german.json()
        assert body["language"] == "de"
        assert body["messages"]["Validate"] == "Prüfen"
        assert body["messages"]["{n} point"] == ["{n} Punkt", "{n} Punkte"]
        assert client.get("/playground/messages/en").json() == {"language": "en", "messages": {}}
        assert client.get("/playground/messages/it").status_code == 404


def test_the_pages_load_the_language_script_first() -> None:
    """i18n.js defines t and I18N before the page's script runs (both deferred, in order)."""
    for page, script in (("index.html", "playground.js"), ("score.html", "score.js")):
        html = (STATIC / page).read_text()
        assert html.index("/playground/i18n.js") < html.index(f"/playground/{script}")


def test_the_catalogue_is_a_domain() -> None:
    assert (Path(messages.__file__).parent / "locale").is_dir()
