"""The playground page at `/`: create a game, see it drawn, play it through the JSON endpoints,
save it as a record and open a record to step through it (POST /v1/replay); and the scoring page
at `/score`: a real table's evening, counted round by round.

Static HTML, JS and CSS shipped in this package (`static/`), served by the referee itself with
no external asset; a Content-Security-Policy keeps the page to its own origin. The page is no
part of the JSON contract, so it is left out of the OpenAPI document.

The pages speak English, German, French, Spanish and Catalan (issue 29): their words
(messages.py, the catalogue service/playground/locale) are served worded in a language at
GET /playground/messages/{language}; static/i18n.js puts them in and says the language in every
request's Accept-Language.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
from litestar import Controller, Response, get
from litestar.exceptions import NotFoundException
from litestar.static_files import create_static_files_router

from service.engine.text import t
from service.i18n.catalogue import LANGUAGES, translations

from .messages import PLURAL, SINGLE

STATIC = Path(str(resources.files(__name__).joinpath("static")))
ASSETS = "/playground"
# Its own scripts, styles and API; pictures arrive as blob: URLs made from /v1/render answers.
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
          "img-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


_PAGES: dict[str, bytes] = {}


def _page(name: str) -> Response[bytes]:
    """A page's HTML (read once), with the policy."""
    if name not in _PAGES:
        _PAGES[name] = (STATIC / name).read_bytes()
    # The HTML's own words are English; the page words itself in the reader's language (i18n.js).
    return Response(_PAGES[name], media_type="text/html",
                    headers={"content-security-policy": POLICY, "content-language": "en"})


_WORDED: dict[str, bytes] = {}


def worded(language: str) -> dict[str, Any]:
    """The pages' words in `language`: each id's translation, and for a counted wording its
    singular and plural forms (the page picks one by the count); an id with no translation is
    left out (the page says it in English)."""
    catalogue = translations(language)
    out: dict[str, Any] = {}
    for message in SINGLE:
        said = catalogue.gettext(message)
        if said != message:
            out[message] = said
    for one, many in PLURAL:
        forms = [catalogue.ngettext(one, many, 1), catalogue.ngettext(one, many, 2)]
        if forms != [one, many]:
            out[one] = forms
    return out


class PlaygroundController(Controller):
    path = "/"
    include_in_schema = False

    @get("/", include_in_schema=False, media_type="text/html")
    async def page(self) -> Response[bytes]:
        """The playground: play a game through the referee."""
        return _page("index.html")

    @get("/score", include_in_schema=False, media_type="text/html")
    async def scoring(self) -> Response[bytes]:
        """The scoring page: a real table's evening, counted round by round (issue 15)."""
        return _page("score.html")

    @get("/playground/messages/{language:str}", include_in_schema=False)
    async def messages(self, language: str) -> Response[bytes]:
        """The pages' words in one of the referee's languages (English: none, the ids are)."""
        if language not in LANGUAGES:
            raise NotFoundException(detail=t("no language {language}: one of {languages}",
                                             language=repr(language), languages=LANGUAGES))
        if language not in _WORDED:
            body = {"language": language, "messages": {} if language == "en" else worded(language)}
            _WORDED[language] = msgspec.json.encode(body)
        return Response(_WORDED[language], media_type="application/json",  # in the path's language
                        headers={"cache-control": "public, max-age=3600", "content-language": language})


def routes() -> list[Any]:
    """The pages and their assets (/playground/playground.js, /playground/score.js, ...)."""
    return [PlaygroundController, create_static_files_router(
        path=ASSETS, directories=[STATIC], include_in_schema=False, name="playground-assets")]
