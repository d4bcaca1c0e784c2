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


def test_tagged_unions_have_a_name_a_discriminator_and_a_mapping() -> None:
    schemas = _contract()["components"]["schemas"]
    named = {"$ref": "#/components/schemas/Action"}
    assert schemas["Move"]["properties"]["action"] == named
    assert schemas["LegalActions"]["properties"]["actions"]["items"] == named
    action = schemas["Action"]
    assert action["discriminator"]["propertyName"] == "type"
    assert action["discriminator"]["mapping"]["take-money"] == "#/components/schemas/TakeMoney"
    assert len(action["oneOf"]) == len(action["discriminator"]["mapping"]) > 20
    assert schemas["Applied"]["properties"]["events"]["items"] == {"$ref": "#/components/schemas/Event"}
    assert schemas["Event"]["discriminator"]["propertyName"] == "type"
    assert schemas["PlayerScore"]["properties"]["lines"]["items"] == {"$ref": "#/components/schemas/Line"}
    assert schemas["Line"]["discriminator"]["mapping"]["majority"] == "#/components/schemas/MajorityLine"


def _nodes(node: object) -> list[dict]:
    out = []
    if isinstance(node, dict):
        out.append(node)
        for value in node.values():
            out += _nodes(value)
    elif isinstance(node, list):
        for value in node:
            out += _nodes(value)
    return out


def test_generators_read_tuples_and_tags_plainly() -> None:
    """No `items: false` (openapi-python-client refuses it), no one-value enum (generated as an
    enum type every constructor must name): tags are `const`, defaulting to themselves."""
    doc = _contract()
    nodes = _nodes(doc)
    assert not [n for n in nodes if n.get("items") is False]
    assert not [n for n in nodes if isinstance(n.get("enum"), list) and len(n["enum"]) == 1]
    take = doc["components"]["schemas"]["TakeMoney"]["properties"]["type"]
    assert take == {"type": "string", "const": "take-money", "default": "take-money"}
    options = doc["components"]["schemas"]["EndChoice"]["properties"]["options"]  # a pair of strings
    assert options["items"]["type"] == "string" and options["minItems"] == options["maxItems"] == 2


def test_displaced_is_a_tagged_union_and_its_older_shape_is_told_not_shown() -> None:
    """Issue 26: `displaced` was `anyOf [const "reserve", array, null]`, which
    openapi-python-client read as an unguarded const check that refused every [x, y]. Its schema
    is now the named union `Displaced` tagged by `to` (or null); the older shape, still accepted,
    is only in the description."""
    schemas = _contract()["components"]["schemas"]
    displaced = schemas["PlaceBuilding"]["properties"]["displaced"]
    assert displaced["anyOf"] == [{"$ref": "#/components/schemas/Displaced"}, {"type": "null"}]
    assert '"reserve"' in displaced["description"] and "[x, y]" in displaced["description"]
    assert schemas["Displaced"]["discriminator"] == {"propertyName": "to", "mapping": {
        "reserve": "#/components/schemas/ToReserve", "alhambra": "#/components/schemas/ToAlhambra"}}
    assert schemas["ToAlhambra"]["required"] == ["to", "x", "y"]


def test_the_seat_token_is_optional_for_the_whole_document_not_per_operation() -> None:
    """Issue 26: an operation's own `security: [{}, {"seatToken": []}]` made
    openapi-python-client ask for an AuthenticatedClient there; declared once for the document,
    a plain client may call every operation, with or without the token."""
    doc = _contract()
    assert doc["security"] == [{}, {"seatToken": []}]
    assert not [(path, method) for path, item in doc["paths"].items() for method, op in item.items()
                if "security" in op]


def test_fields_every_answer_writes_are_required_and_no_field_has_a_default_to_force_it() -> None:
    """openapi-typescript makes a property with a `default` required (a plain take-money did not
    type-check) and generators make a field that is not required "unset" (the state's `ranking`
    came back Unset): so every field a state or an answer always holds is required, and the
    optional ones (actions' module fields, tile tokens) have no default."""
    schemas = _contract()["components"]["schemas"]
    for name in ("GameState", "Player", "Turn", "GameAnswer", "Applied", "View", "PlayerSeen", "ToAct",
                 "Actor", "ErrorBody", "Breakdown"):
        optional = {"seal"}  # present when sealed
        assert set(schemas[name]["required"]) == set(schemas[name]["properties"]) - optional, name
    for name, schema in schemas.items():
        for field, prop in schema.get("properties", {}).items():
            assert "default" not in prop or "const" in prop, (name, field)
    assert "goldsmith" not in schemas["TakeMoney"]["required"]
    assert "1000" in schemas["LegalActionsQuery"]["properties"]["limit"]["description"]


def test_every_answer_has_a_named_schema() -> None:
    for path, ops in _contract()["paths"].items():
        for method, op in ops.items():
            for status, response in op["responses"].items():
                for media, content in response.get("content", {}).items():
                    if media == "application/json":
                        assert set(content["schema"]) == {"$ref"}, (method, path, status)


def test_links_drive_a_game_through_its_life() -> None:
    paths = _contract()["paths"]
    assert "ListLegalActionsOfNewGame" in paths["/v1/games"]["post"]["responses"]["201"]["links"]
    assert "ApplyLegalAction" in paths["/v1/legal-actions"]["post"]["responses"]["200"]["links"]
    assert "ListLegalActionsAfterApply" in paths["/v1/apply"]["post"]["responses"]["200"]["links"]


def test_docs_page_works_offline() -> None:
    with TestClient(create_app(Settings())) as client:
        page = client.get("/schema")
        assert page.status_code == 200
        # Nothing is fetched from elsewhere; the only addresses are the XML namespaces of the
        # picture in /v1/render's example, which name and fetch nothing.
        text = page.text.replace("http://www.w3.org/2000/svg", "").replace("http://www.w3.org/1999/xlink", "")
        assert "http://" not in text and "https://" not in text
        for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "swagger-ui-standalone-preset.js"):
            assert f"/schema/assets/{asset}" in page.text
            assert client.get(f"/schema/assets/{asset}").status_code == 200


def test_every_field_of_the_turn_is_documented() -> None:
    """`Turn.ending` was in the contract without a word on what it means."""
    turn = _contract()["components"]["schemas"]["Turn"]
    assert all(f"`{field}`" in turn["description"] for field in turn["properties"]), turn["description"]
