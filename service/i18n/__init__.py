"""The players' languages (issue 29): which one a request prefers, and the engine's messages
(`service.engine.text.Text`) worded in it through the gettext catalogues (catalogue.py).

    negotiate(accept_language) -> "en" | "de" | "fr" | "es" | "ca"
    render(text, language) -> str
    LANGUAGE                     the language of the request being answered (a context variable,
                                 set by the HTTP edge for each request; English elsewhere)
    encode(value) -> bytes       JSON, every Text and Word in it worded in LANGUAGE
    hook(value)                  that wording, as an `enc_hook` (msgspec hands str subclasses
                                 to it) or a litestar type encoder

English is the message ids themselves; a message a catalogue lacks, or whose translation does
not format, is said in English (logged), never a failed answer.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from functools import cache, lru_cache
from typing import Any

import msgspec
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from service.engine.text import Speaker, Text, Word, english

from .catalogue import LANGUAGES, translations

log = logging.getLogger("service.i18n")

DEFAULT = "en"

LANGUAGE: ContextVar[str] = ContextVar("language", default=DEFAULT)

__all__ = ["DEFAULT", "LANGUAGE", "LANGUAGES", "encode", "hook", "negotiate", "render", "speaker"]


@lru_cache(maxsize=512)  # a few spellings per client; parsed once each
def negotiate(accept_language: str | None) -> str:
    """The language an `Accept-Language` header prefers among LANGUAGES, else English: its
    ranges parsed and ordered by quality (RFC 9110, werkzeug's parser), the first whose primary
    subtag is one of ours wins (RFC 4647 lookup: `fr-CH` falls back to `fr` before a range of
    lower quality is tried; werkzeug's own best_match would take a lower exact match first).
    `*` and a quality of 0 name no language of ours."""
    if not accept_language:
        return DEFAULT
    if len(accept_language) > 1024:  # no header needs more: cut at a range's end, not inside one
        accept_language = accept_language[:1024].rpartition(",")[0]
    accepted = parse_accept_header(accept_language, LanguageAccept)
    for value, quality in accepted:  # highest quality first, the header's order among equals
        primary = value.split("-", 1)[0].split("_", 1)[0].lower()
        if quality > 0 and primary in LANGUAGES:
            return primary
    return DEFAULT


class Catalogued(Speaker):
    """A language's wording: its compiled catalogue (Babel's Translations)."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.catalogue = translations(language)

    def single(self, message: str) -> str:
        return self.catalogue.gettext(message)

    def plural(self, singular: str, plural: str, n: int) -> str:
        return self.catalogue.ngettext(singular, plural, n)

    def word(self, word: str) -> str:
        return self.catalogue.gettext(word)


@cache
def speaker(language: str) -> Speaker:
    return english if language == DEFAULT else Catalogued(language)


def render(value: str, language: str) -> str:
    """A message in `language`: a Text or Word worded there, any other str as it is."""
    if language == DEFAULT or not isinstance(value, Text | Word):
        return str.__str__(value)
    say = speaker(language)
    try:
        return value.worded(say) if isinstance(value, Text) else say.word(value)
    except (KeyError, IndexError, ValueError) as e:  # a translation that does not format
        log.error("the %s wording of %r does not format: %s", language, getattr(value, "id", value), e)
        return str.__str__(value)


def hook(value: Any) -> Any:
    """A Text or Word worded in the request's language (LANGUAGE); refuses any other type, as
    msgspec would."""
    if isinstance(value, str):
        return render(value, LANGUAGE.get())
    raise NotImplementedError(f"cannot encode {type(value).__name__}")


encode = msgspec.json.Encoder(enc_hook=hook).encode
