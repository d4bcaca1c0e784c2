"""Human text as data: a message id (its English wording, with `{named}` details) and the details,
never a finished string, so that the edge can word it in the player's language (issue 29).

The engine stays pure: it only builds `Text` values. `str(text)` is the English wording (the
message id itself, the details filled in); `service.i18n.render(text, language)` words it in
another language through the gettext catalogues (Babel). Message ids are extracted from the
calls `t("...")` and `tn("...", "...", n)` (the keywords of `service/i18n/catalogue.py`); game
words passed as details are marked with `word("...")` and looked up in the same catalogues.

A detail is an int, a str (an id, a name: never translated), a `Word`, a nested `Text`, or a
tuple of those (joined with ", "; an empty one is the word "none"). Messages are built only
where a refusal or a description is made, never in a search's inner loop: the English wording
is made at once.
"""

from __future__ import annotations

from typing import Any


class Word(str):
    """A word of the game (a building type, a currency, a colour...) as a detail: translated as
    a word, with the vocabulary of the published rulebooks (the catalogues' entries marked `w`)."""

    __slots__ = ()


class Text(str):
    """A message: the English wording (the str itself), with what it takes to word it again in
    another language: `id`, the wording with `{named}` details (the gettext msgid), `plural`, the
    plural wording when the message counts something (the count is the detail `n`), and
    `details`, the named details in order.

    A str, so that the engine's messages stay strings (the contract's `message: string`) and
    read, join and compare as before; the edge encodes one in the request's language (msgspec
    hands a str subclass to the encoder's `enc_hook`, service/i18n). A message built with an
    f-string from a Text is plain English again: nest Texts as details instead."""

    id: str
    plural: str
    details: tuple[tuple[str, Any], ...]

    def __new__(cls, id: str, details: tuple[tuple[str, Any], ...] = (), plural: str = "") -> Text:
        # English is the id itself, its details as they are (a Text or Word is its own English
        # wording): no lookup, so that a message costs about what an f-string did.
        values = {name: _english_list(v) if type(v) is tuple or type(v) is list else v for name, v in details}
        pattern = plural if plural and values["n"] != 1 else id
        self = super().__new__(cls, pattern.format_map(values))
        self.id, self.details, self.plural = id, details, plural
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (a bench's worker processes) as a Text
        return (Text, (self.id, self.details, self.plural))

    def worded(self, say: Speaker) -> str:
        """The message worded by `say` (one language's lookups)."""
        return _worded(say, self.id, self.details, self.plural)


def _english_list(values: Any) -> str:
    if not values:
        return NONE
    return ", ".join(_english_list(v) if type(v) is tuple or type(v) is list else str(v) for v in values)


def _worded(say: Speaker, id: str, details: tuple[tuple[str, Any], ...], plural: str) -> str:
    values = {name: say.detail(value) for name, value in details}
    pattern = say.plural(id, plural, dict(details)["n"]) if plural else say.single(id)
    return pattern.format(**values)


Detail = int | str | Word | Text | tuple[Any, ...]


class Speaker:
    """How one language words things; English is the message ids themselves."""

    def single(self, message: str) -> str:
        return message

    def plural(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def word(self, word: str) -> str:
        return word

    def detail(self, value: Any) -> str:
        if isinstance(value, Text):
            return value.worded(self)
        if isinstance(value, Word):
            return self.word(value)
        if isinstance(value, tuple | list):
            return ", ".join(self.detail(v) for v in value) if value else self.word(NONE)
        return str(value)


english = Speaker()
NONE = "none"  # an empty list as a detail (base/words.py gives it to the catalogues)


def t(message: str, /, **details: Detail) -> Text:
    """A message with its named details: `t("{tile} is not in the display", tile=tile)`."""
    return Text(message, tuple(details.items()))


def tn(singular: str, plural: str, n: int, /, **details: Detail) -> Text:
    """A message that counts: `tn("{n} card", "{n} cards", len(cards))`; the count is `n`."""
    return Text(singular, (("n", n), *details.items()), plural)


def word(text: str) -> Word:
    """A game word as a detail, translated with the rulebooks' vocabulary."""
    return Word(text)


def w(text: str) -> str:
    """Marks a game word for the catalogues (a domain's `words.py` lists its words this way)."""
    return text
