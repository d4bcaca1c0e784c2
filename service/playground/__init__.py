"""The playground page at `/`: create a game, see it drawn, play it through the JSON endpoints.

Static HTML, JS and CSS shipped in this package (`static/`), served by the referee itself with
no external asset; a Content-Security-Policy keeps the page to its own origin. The page is no
part of the JSON contract, so it is left out of the OpenAPI document.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from litestar import Controller, Response, get
from litestar.static_files import create_static_files_router

STATIC = Path(str(resources.files(__name__).joinpath("static")))
ASSETS = "/playground"
# Its own scripts, styles and API; pictures arrive as blob: URLs made from /v1/render answers.
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
          "img-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class PlaygroundController(Controller):
    path = "/"
    include_in_schema = False

    _page: bytes | None = None

    @get("/", include_in_schema=False, media_type="text/html")
    async def page(self) -> Response[bytes]:
        """The playground's HTML (read once)."""
        if PlaygroundController._page is None:
            PlaygroundController._page = (STATIC / "index.html").read_bytes()
        return Response(PlaygroundController._page, media_type="text/html",
                        headers={"content-security-policy": POLICY})


def routes() -> list[Any]:
    """The page and its assets (/playground/playground.js, /playground/playground.css)."""
    return [PlaygroundController, create_static_files_router(
        path=ASSETS, directories=[STATIC], include_in_schema=False, name="playground-assets")]
