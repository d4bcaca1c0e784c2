"""The playground page at `/` and the scoring page at `/score`: served by the referee with their
assets, nothing from elsewhere, and no part of the JSON contract."""

from __future__ import annotations

import json
import re

import pytest
from litestar.testing import TestClient

from service.api import openapi


@pytest.mark.parametrize(("path", "own"), [("/", ("playground.js", "playground.css")),
                                           ("/score", ("score.js", "score.css", "playground.css"))])
def test_page_and_its_assets_are_served_with_no_external_address(client: TestClient, path: str,
                                                                 own: tuple[str, ...]) -> None:
    page = client.get(path)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assets = re.findall(r'(?:src|href)="(/[^"]+)"', page.text)
    assert {f"/playground/{name}" for name in own} <= set(assets)
    for text in [page.text, *(client.get(a).text for a in assets if a.startswith("/playground/"))]:
        text = text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # a name, not an address
        assert "http://" not in text and "https://" not in text and "//cdn" not in text
    for asset in assets:
        if asset.startswith("/playground/"):
            assert client.get(asset).status_code == 200, asset


@pytest.mark.parametrize("script", ["playground.js", "score.js"])
def test_the_page_calls_only_the_documented_endpoints(script: str) -> None:
    text = (openapi.ROOT / "service" / "playground" / "static" / script).read_text("utf-8")
    called = set(re.findall(r'"(/v1/[a-z-]+)"', text))
    paths = set(json.loads(openapi.CONTRACT.read_bytes())["paths"])
    assert called and called <= paths
    assert "/" not in paths and not any(p.startswith("/playground") for p in paths)
