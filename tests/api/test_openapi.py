"""The committed contract is the generated one, and it closes litestar's gaps."""

from __future__ import annotations

import json

from litestar.testing import TestClient

from service.api import openapi
from service.api.app import create_app
from service.settings import Settings


def test_committed_contract_is_the_generated_one() -> None:
    assert openapi.CONTRACT.read_bytes() == openapi.generate(), (
        "openapi/openapi.json is out of date: run python -m service.api.openapi")


def test_served_contract_is_the_committed_one() -> None:
    with TestClient(create_app(Settings())) as client:
        assert client.get("/schema/openapi.json").content == openapi.CONTRACT.read_bytes()


def _contract() -> dict:
    return json.loads(openapi.CONTRACT.read_bytes())


def test_contract_is_openapi_3_1_with_named_operations() -> None:
    doc = _contract()
    assert doc["openapi"].startswith("3.1")
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op.get("operationId") and op.get("summary"), (method, path)


def test_every_post_documents_400_413_and_its_refusals() -> None:
    for path, ops in _contract()["paths"].items():
        if "post" in ops:
            assert {"400", "413"} <= set(ops["post"]["responses"]), path


def test_structs_that_forbid_unknown_fields_are_closed() -> None:
    schemas = _contract()["components"]["schemas"]
    for name, cls in openapi.struct_types().items():
        if cls.__struct_config__.forbid_unknown_fields:
            assert schemas[name].get("additionalProperties") is False, name


def test_tagged_unions_have_a_discriminator_with_a_mapping() -> None:
    schemas = _contract()["components"]["schemas"]
    action = schemas["Move"]["properties"]["action"]
    assert action["discriminator"]["propertyName"] == "type"
    assert action["discriminator"]["mapping"]["take-money"] == "#/components/schemas/TakeMoney"
    events = schemas["Applied"]["properties"]["events"]["items"]
    assert events["discriminator"]["propertyName"] == "type"
    lines = schemas["PlayerScore"]["properties"]["lines"]["items"]
    assert lines["discriminator"]["mapping"]["majority"] == "#/components/schemas/MajorityLine"


def test_links_drive_a_game_through_its_life() -> None:
    paths = _contract()["paths"]
    assert "ListLegalActionsOfNewGame" in paths["/v1/games"]["post"]["responses"]["201"]["links"]
    assert "ApplyLegalAction" in paths["/v1/legal-actions"]["post"]["responses"]["200"]["links"]
    assert "ListLegalActionsAfterApply" in paths["/v1/apply"]["post"]["responses"]["200"]["links"]


def test_docs_page_works_offline() -> None:
    with TestClient(create_app(Settings())) as client:
        page = client.get("/schema")
        assert page.status_code == 200
        assert "http://" not in page.text and "https://" not in page.text
        for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
            assert f"/schema/assets/{asset}" in page.text
            assert client.get(f"/schema/assets/{asset}").status_code == 200
