"""The committed contract, openapi/openapi.json: litestar's OpenAPI 3.1 document, completed.

Litestar writes the paths, operations and responses from the controllers. Its schemas of
msgspec Structs miss what the decoder enforces: unknown fields are refused (every struct with
`forbid_unknown_fields` needs `additionalProperties: false`), tagged unions (actions, events,
scoring lines) have a discriminator, and bounded variadic tuples come out as `oneOf [item, {}]`.
So the component schemas are taken from msgspec's own JSON Schema of the same types (the names
are the same), then every object and union is checked to carry both, and the OpenAPI links of
a game's life (create -> legal actions -> apply -> legal actions ...) are added.

    python -m service.api.openapi            write openapi/openapi.json
    python -m service.api.openapi --check    exit 1 if the committed file is not up to date
"""

from __future__ import annotations

import copy
import functools
import sys
from pathlib import Path
from typing import Any

import msgspec

from service.cache import CacheStats

from . import bodies

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "openapi" / "openapi.json"

# Every type a request body or an answer is made of; their schemas become the components.
ROOT_TYPES: tuple[Any, ...] = (
    bodies.NewGame, bodies.GameAnswer, bodies.Move, bodies.Validity, bodies.Applied,
    bodies.LegalActionsQuery, bodies.LegalActions, bodies.Position, bodies.StateRound,
    bodies.Breakdown, bodies.ViewQuery, bodies.View, bodies.Modules, bodies.Health,
    bodies.Readiness, bodies.ErrorBody, CacheStats, bodies.RenderState, bodies.RenderPosition,
)

REF = "#/components/schemas/{name}"


def msgspec_components() -> dict[str, Any]:
    return msgspec.json.schema_components(ROOT_TYPES, ref_template=REF)[1]


@functools.cache
def struct_types() -> dict[str, Any]:
    """Every Struct reachable from the root types, by the name its schema has."""
    out: dict[str, Any] = {}

    def walk(info: Any) -> None:
        if isinstance(info, msgspec.inspect.StructType):
            if out.get(info.cls.__name__) is info.cls:
                return
            out[info.cls.__name__] = info.cls
            for f in info.fields:
                walk(f.type)
        for attr in ("item_type", "key_type", "value_type"):
            if hasattr(info, attr):
                walk(getattr(info, attr))
        for attr in ("types", "item_types"):
            for sub in getattr(info, attr, ()) or ():
                walk(sub)

    for info in msgspec.inspect.multi_type_info(ROOT_TYPES):
        walk(info)
    return out


def close_objects(components: dict[str, Any]) -> None:
    """`additionalProperties: false` on the schema of every struct that forbids unknown fields."""
    for name, cls in struct_types().items():
        schema = components.get(name)
        if schema is not None and cls.__struct_config__.forbid_unknown_fields:
            schema["additionalProperties"] = False


def add_discriminators(node: Any, components: dict[str, Any]) -> None:
    """A discriminator (property name and mapping) on every union of tagged structs."""
    structs = struct_types()
    if isinstance(node, dict):
        for key in ("oneOf", "anyOf"):
            members = node.get(key)
            if isinstance(members, list) and members and "discriminator" not in node:
                refs = [m.get("$ref", "") for m in members if isinstance(m, dict)]
                classes = [structs.get(r.rsplit("/", 1)[-1]) for r in refs]
                if len(refs) == len(members) and all(c is not None for c in classes):
                    configs = [c.__struct_config__ for c in classes]  # type: ignore[union-attr]
                    fields = {c.tag_field for c in configs}
                    if len(fields) == 1 and None not in fields:
                        node["discriminator"] = {"propertyName": fields.pop(), "mapping": {
                            c.tag: r for c, r in zip(configs, refs, strict=True)}}
        for value in node.values():
            add_discriminators(value, components)
    elif isinstance(node, list):
        for value in node:
            add_discriminators(value, components)


LINKS: dict[tuple[str, str], dict[str, Any]] = {
    ("/v1/games", "201"): {
        "ListLegalActionsOfNewGame": {
            "operationId": "listLegalActions", "requestBody": {"state": "$response.body#/state"},
            "description": "The legal first actions of the new game."},
        "ViewNewGame": {
            "operationId": "viewState", "requestBody": {"state": "$response.body#/state"},
            "description": "The new game as a player or a spectator sees it."},
        "RenderNewGame": {
            "operationId": "renderPicture", "requestBody": {"state": "$response.body#/state"},
            "description": "A picture of the new game."},
        "ScoreNewGame": {
            "operationId": "scorePosition", "requestBody": {"state": "$response.body#/state", "round": 1},
            "description": "The new game scored as if round 1 were held now."},
    },
    ("/v1/legal-actions", "200"): {
        "ApplyLegalAction": {
            "operationId": "applyAction",
            "requestBody": {"state": "$request.body#/state", "action": "$response.body#/actions/0"},
            "description": "Apply the first legal action to the state it was listed for."},
        "ValidateLegalAction": {
            "operationId": "validateAction",
            "requestBody": {"state": "$request.body#/state", "action": "$response.body#/actions/0"},
            "description": "Every listed action passes validation."},
    },
    ("/v1/apply", "200"): {
        "ListLegalActionsAfterApply": {
            "operationId": "listLegalActions", "requestBody": {"state": "$response.body#/state"},
            "description": "The legal actions of the state after the action."},
        "ViewAfterApply": {
            "operationId": "viewState", "requestBody": {"state": "$response.body#/state"},
            "description": "The state after the action as a player or a spectator sees it."},
    },
}


def complete(document: dict[str, Any]) -> dict[str, Any]:
    """Litestar's document with the components, closures, discriminators and links added."""
    doc = copy.deepcopy(document)
    components = doc.setdefault("components", {}).setdefault("schemas", {})
    components.update(msgspec_components())
    close_objects(components)
    add_discriminators(doc, components)
    for (path, status), links in LINKS.items():
        doc["paths"][path]["post"]["responses"][status]["links"] = links
    doc["components"]["schemas"] = dict(sorted(components.items()))
    return doc


def contract_bytes(document: dict[str, Any]) -> bytes:
    """The completed document as the committed file holds it (indented, ending in a newline)."""
    from litestar.serialization import encode_json

    plain = msgspec.json.decode(encode_json(document))
    return msgspec.json.format(msgspec.json.encode(complete(plain)), indent=2) + b"\n"


def generate() -> bytes:
    from service.settings import Settings

    from .app import create_app

    app = create_app(Settings())
    return contract_bytes(app.openapi_schema.to_schema())


def main(argv: list[str]) -> int:
    text = generate()
    if "--check" in argv:
        if not CONTRACT.exists() or CONTRACT.read_bytes() != text:
            print(f"{CONTRACT} is out of date: run python -m service.api.openapi", file=sys.stderr)
            return 1
        return 0
    CONTRACT.parent.mkdir(parents=True, exist_ok=True)
    CONTRACT.write_bytes(text)
    print(f"wrote {CONTRACT.relative_to(ROOT)} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
