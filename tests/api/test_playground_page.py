"""The playground page at `/`: served by the referee with its assets, nothing from elsewhere,
and no part of the JSON contract."""

from __future__ import annotations

import json
import re

from litestar.testing import TestClient

from service.api import openapi


def test_page_and_its_assets_are_served_with_no_external_address(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assets = re.findall(r'(?:src|href)="(/[^"]+)"', page.text)
    assert {"/playground/playground.js", "/playground/playground.css"} <= set(assets)
    for text in [page.text, *(client.get(a).text for a in assets if a.startswith("/playground/"))]:
        text = text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # a name, not an address
        assert "http://" not in text and "https://" not in text and "//cdn" not in text
    for asset in assets:
        if asset.startswith("/playground/"):
            assert client.get(asset).status_code == 200, asset


def test_the_page_calls_only_the_documented_endpoints() -> None:
    script = (openapi.ROOT / "service" / "playground" / "static" / "playground.js").read_text("utf-8")
    called = set(re.findall(r'"(/v1/[a-z-]+)"', script))
    paths = set(json.loads(openapi.CONTRACT.read_bytes())["paths"])
    assert called and called <= paths
    assert "/" not in paths and not any(p.startswith("/playground") for p in paths)
