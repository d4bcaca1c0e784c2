"""The interactive documentation at /schema: Swagger UI served from the installed package
`swagger-ui-bundle-v2`, so the page works with no internet (no CDN address in it).

The page and /schema/openapi.json show the contract as committed: litestar's document after
`openapi.contract` has completed it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Request, Router
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.static_files import create_static_files_router

ASSETS = "/schema/assets"


def _assets_dir() -> Path:
    from swagger_ui_bundle import swagger_ui_path

    return Path(swagger_ui_path)


class _Contract:
    """Render the completed contract instead of litestar's raw document (computed once)."""

    _rendered: bytes | None = None

    def render_json(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        if self._rendered is None:
            from .openapi import contract_bytes

            self._rendered = contract_bytes(openapi_schema)
        return self._rendered


class ContractJson(_Contract, JsonRenderPlugin):
    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return self.render_json(request, openapi_schema)


class OfflineSwagger(_Contract, SwaggerRenderPlugin):
    pass


def render_plugins() -> list[Any]:
    return [
        OfflineSwagger(
            path="/",
            js_url=f"{ASSETS}/swagger-ui-bundle.js",
            css_url=f"{ASSETS}/swagger-ui.css",
            standalone_preset_js_url=f"{ASSETS}/swagger-ui-standalone-preset.js",
            favicon=f"<link rel='icon' type='image/png' href='{ASSETS}/favicon-32x32.png'>",
        ),
        ContractJson(path="/openapi.json"),
    ]


def assets_router() -> Router:
    return create_static_files_router(path=ASSETS, directories=[_assets_dir()], include_in_schema=False,
                                      name="swagger-assets")
