"""Issue 29, "messages as a catalogue, not strings in code": every message id has a translation in
every language, naming the same details; every catalogue compiles (Babel), with its language's
plural forms (CLDR's: two in English and German, three in French, Spanish and Catalan); the
code builds no refusal or description as a bare string."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo

from service.engine.text import Text, Word, english, t, tn, word
from service.i18n import catalogue, render
from service.i18n.catalogue import TRANSLATED, domains, problems, read, translations

SERVICE = Path(catalogue.__file__).resolve().parent.parent


def test_every_message_has_a_translation_in_every_language_with_the_same_details() -> None:
    found = problems()
    assert not found, f"{len(found)} problems, first: " + "\n".join(found[:30])


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalogue_compiles_with_its_languages_plural_forms(language: str) -> None:
    for domain in domains():
        catalog = read(domain, language)
        for message in catalog:
            if isinstance(message.id, tuple) and message.string:
                assert len(message.string) == catalog.num_plurals, (domain, language, message.id)
        write_mo(io.BytesIO(), catalog)  # compiles
    assert translations(language).ngettext("x", "xs", 2) == "xs"  # a missing id falls back to English


def test_a_text_is_its_english_wording_and_keeps_what_words_it_again() -> None:
    text = t("{tile} costs {price} but the payment totals {paid}", tile="tower-8-N", price=8, paid=7)
    assert text == "tower-8-N costs 8 but the payment totals 7"
    assert text.id == "{tile} costs {price} but the payment totals {paid}"
    assert dict(text.details) == {"tile": "tower-8-N", "price": 8, "paid": 7}
    counted = tn("{n} card", "{n} cards", 1)
    assert (counted, tn("{n} card", "{n} cards", 3)) == ("1 card", "3 cards")
    nested = t("{who}: {why}", who=word("garden"), why=text)
    assert nested.worded(english) == nested == "garden: tower-8-N costs 8 but the payment totals 7"
    assert t("{cards}", cards=("a", "b")) == "a, b"
    assert isinstance(word("garden"), Word)


def test_german_words_a_base_refusal_with_the_rulebooks_currency() -> None:
    text = t("{card} is not {currency}: {tile} stands on the {currency} space and is paid only in "
             "{currency}", card="blue-3-a", tile="garden-6-ESW", currency=word("yellow"))
    assert render(text, "de") == ("blue-3-a ist kein Gulden: garden-6-ESW steht auf dem Feld Gulden "
                                  "und wird nur mit Gulden bezahlt")
    assert render(text, "en") == str.__str__(text)
    assert render("a plain string", "de") == "a plain string"


# Calls whose message argument must be a Text (t/tn), never a str literal or an f-string.
_MESSAGE_ARGUMENT = {"Violation": 1}
_MESSAGE_KEYWORDS = {"what", "own_what"}


def _bare(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def test_no_refusal_or_description_is_a_bare_string() -> None:
    found = []
    for path in sorted(SERVICE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            index = _MESSAGE_ARGUMENT.get(name)
            if index is not None and len(node.args) > index and _bare(node.args[index]):
                found.append(f"{path.relative_to(SERVICE.parent)}:{node.lineno} {name}(..., bare string)")
            found += [f"{path.relative_to(SERVICE.parent)}:{node.lineno} {k.arg}= bare string"
                      for k in node.keywords if k.arg in _MESSAGE_KEYWORDS and _bare(k.value)]
    assert not found, f"{len(found)} messages built as strings:\n" + "\n".join(found[:40])


def test_a_text_pickles_as_a_text() -> None:
    import pickle

    text = tn("{n} card of {who}", "{n} cards of {who}", 2, who=t("{x}'s hand", x="Ana"))
    again = pickle.loads(pickle.dumps(text))
    assert isinstance(again, Text) and again == text and again.details == text.details
