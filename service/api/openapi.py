"""The committed contract, openapi/openapi.json: litestar's OpenAPI 3.1 document, completed.

Litestar writes the paths, operations and responses from the controllers. Its schemas of
msgspec Structs miss what the decoder enforces: unknown fields are refused (every struct with
`forbid_unknown_fields` needs `additionalProperties: false`), tagged unions (actions, events,
scoring lines) have a discriminator, and bounded variadic tuples come out as `oneOf [item, {}]`.
So the component schemas are taken from msgspec's own JSON Schema of the same types (the names
are the same), then every object and union is checked to carry both, the OpenAPI links of a
game's life (create -> legal actions -> apply -> legal actions ...) are added, and every
operation's examples: real requests and the referee's answers to them (service.api.examples).

Then it is made plain for the common client generators (openapi-python-client,
datamodel-code-generator, openapi-typescript), without changing what it accepts:
- a field that every answer writes is `required` (a struct without `omit_defaults`, or a field
  without a default), so generated types have no "unset" there;
- `default` is kept out of properties (openapi-typescript makes a property with a default
  required, so `{type, player, cards}` would not type-check as a take-money); an optional
  field says in its description what leaving it out means;
- a tag is a `const` with itself as default (generated models fill it in: no one-value enum to
  name); every one-value enum is a `const`;
- a tuple of equal items is an array of that item with its length (`prefixItems` with
  `items: false` stops openapi-python-client); other tuples keep `prefixItems` without it;
- a field that still reads an older shape (PlaceBuilding's `displaced`: `"reserve"` or `[x, y]`
  before the tagged `{"to": ...}`) shows only the current one, the older in its description;
- the unions have a name of their own: `Action`, `Event`, `Line`, and the bodies `ScoreQuery`
  and `RenderQuery`.

Every operation documents the languages of its messages (issue 29): the `Accept-Language`
request header (any value accepted: one naming none of the five languages is answered in
English) and the `Content-Language` header of every answer (app.Referee sets both ways).

    python -m service.api.openapi            write openapi/openapi.json
    python -m service.api.openapi --check    exit 1 if the committed file is not up to date
"""

from __future__ import annotations

import copy
import functools
import sys
import typing
from pathlib import Path
from typing import Any

import msgspec

from service.cache import CacheStats
from service.engine import actions
from service.i18n import DEFAULT, LANGUAGES

from . import bodies, render

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "openapi" / "openapi.json"

# Every type a request body or an answer is made of; their schemas become the components.
ROOT_TYPES: tuple[Any, ...] = (
    bodies.NewGame, bodies.GameAnswer, bodies.Move, bodies.Validity, bodies.Applied,
    bodies.LegalActionsQuery, bodies.LegalActions, bodies.Position, bodies.StateRound,
    bodies.Breakdown, bodies.ViewQuery, bodies.View, bodies.Modules, bodies.Health,
    bodies.Readiness, bodies.ErrorBody, CacheStats, bodies.RenderState, bodies.RenderPosition,
    bodies.ReplayQuery, bodies.Replayed, bodies.RecordRefusal, bodies.SuggestQuery, bodies.Suggested,
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


def settle_required_and_defaults(components: dict[str, Any]) -> None:
    """Every field a struct always writes is required; no property keeps a `default` but a tag's
    (an optional field's description says what leaving it out means)."""
    for name, cls in struct_types().items():
        schema = components.get(name)
        if schema is None:
            continue
        config = cls.__struct_config__
        properties: dict[str, Any] = schema.get("properties", {})
        if not config.omit_defaults:
            schema["required"] = list(properties)
        for field, prop in properties.items():
            if field == config.tag_field:
                prop.pop("enum", None)
                prop.update({"type": "string", "const": config.tag, "default": config.tag})
            elif "default" in prop:
                value = prop.pop("default")
                if field not in schema.get("required", ()):
                    left_out = f"Default (when left out): {msgspec.json.encode(value).decode()}."
                    prop["description"] = " ".join(filter(None, (prop.get("description"), left_out)))


def drop_legacy_forms(components: dict[str, Any]) -> None:
    """A field that still accepts an older shape (an action's `legacy_forms`) shows only its
    current one, with the older in its description: the older shape is what generators could not
    read (`displaced`: a constant beside an array)."""
    for name, cls in struct_types().items():
        schema = components.get(name)
        for field, note in getattr(cls, "legacy_forms", {}).items():
            prop = schema["properties"][field] if schema is not None else None
            if prop is None:
                continue
            kept = [m for m in prop["anyOf"] if {"$ref", "anyOf", "oneOf"} & set(m) or m == {"type": "null"}]
            prop["anyOf"] = kept
            prop["description"] = " ".join(filter(None, (prop.get("description"), note)))


def plain_shapes(node: Any) -> None:
    """Tuples without `items: false` (of equal items: an array of that item), one-value enums
    as `const`."""
    if isinstance(node, dict):
        prefix = node.pop("prefixItems", None)
        if prefix is not None:
            if node.get("items") is False:
                del node["items"]
            if all(item == prefix[0] for item in prefix):
                node["items"] = prefix[0]
            else:
                node["prefixItems"] = prefix
        enum = node.get("enum")
        if isinstance(enum, list) and len(enum) == 1:
            node["const"] = node.pop("enum")[0]
        for value in node.values():
            plain_shapes(value)
    elif isinstance(node, list):
        for value in node:
            plain_shapes(value)


UNIONS: dict[str, tuple[Any, str]] = {
    "Action": (bodies.AnyAction, "Every action of every module: a union tagged by `type`; each "
                                 "names its `player`."),
    "Event": (bodies.AnyEvent, "What happened: a union of past-tense events tagged by `type`."),
    "Displaced": (actions.Displaced, "craftsmen.brickmaker: where the building a placement displaces "
                                     "goes, a union tagged by `to`: the reserve or a space."),
    "Line": (bodies.AnyLine, "A line of a scoring breakdown: a union tagged by `category`."),
    "ReplayRefused": (bodies.ReplayRefused, "POST /v1/replay refused (422): a record's first "
                                            "illegal action, or another refusal."),
    "ScoreQuery": (bodies.ScoreQuery, "POST /v1/score: a scoring position of a real table, or a "
                                      "game state and the round to score it as if held now."),
    "RenderQuery": (render.RenderQuery, "POST /v1/render: a game state (and the player whose view "
                                        "to draw), or a scoring position."),
}


def name_unions(document: dict[str, Any], components: dict[str, Any]) -> None:
    """Each union of UNIONS written inline becomes a `$ref` to a component of its own name."""
    wanted = {frozenset(REF.format(name=t.__name__) for t in typing.get_args(union)): name
              for name, (union, _) in UNIONS.items()}

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            for key, value in node.items():
                node[key] = walk(value)
            for key in ("anyOf", "oneOf"):
                members = node.get(key)
                if not isinstance(members, list):
                    continue
                refs = [str(m.get("$ref")) for m in members if isinstance(m, dict)]
                name = wanted.get(frozenset(refs)) if refs and len(refs) == len(members) else None
                if name is not None:
                    if name not in components:
                        union = {"description": UNIONS[name][1], "oneOf": node[key]}
                        if "discriminator" in node:
                            union["discriminator"] = node["discriminator"]
                        components[name] = union
                    rest = {k: v for k, v in node.items() if k not in (key, "discriminator")}
                    return {"$ref": REF.format(name=name), **rest}
        elif isinstance(node, list):
            return [walk(value) for value in node]
        return node

    for path in document.get("paths", {}).values():
        walk(path)
    for name in list(components):
        if name not in UNIONS:  # a union's own members stay as they are
            components[name] = walk(components[name])


LINKS: dict[tuple[str, str], dict[str, Any]] = {
    ("/v1/games", "201"): {
        "ValidateInNewGame": {
            "operationId": "validateAction", "requestBody": {"state": "$response.body#/state"},
            "description": "Validate an action in the new game (the body's `action` is the caller's)."},
        "ApplyInNewGame": {
            "operationId": "applyAction", "requestBody": {"state": "$response.body#/state"},
            "description": "Apply an action to the new game (the body's `action` is the caller's)."},
        "ListLegalActionsOfNewGame": {
            "operationId": "listLegalActions", "requestBody": {"state": "$response.body#/state"},
            "description": "The legal first actions of the new game."},
        "ViewNewGame": {
            "operationId": "viewState", "requestBody": {"state": "$response.body#/state"},
            "description": "The new game as a player or a spectator sees it."},
        "RenderNewGame": {
            "operationId": "renderPicture", "requestBody": {"state": "$response.body#/state"},
            "description": "A picture of the new game."},
        "SuggestInNewGame": {
            "operationId": "suggestAction",
            "requestBody": {"state": "$response.body#/state", "player": "$response.body#/to_act/players/0"},
            "description": "A bot's first move for the player the new game waits for."},
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


_NAMES = "English (`en`), German (`de`), French (`fr`), Spanish (`es`) and Catalan (`ca`)"
ACCEPT_LANGUAGE: dict[str, Any] = {
    "name": "Accept-Language", "in": "header", "required": False,
    "description": f"The language of the answer's messages, among {_NAMES} (RFC 9110: quality values "
                   "honoured, a region falls back to its language, `*` is English). Any value is "
                   "accepted; one that names none of them, or none, is answered in English. Rule ids, "
                   "error codes and field names never change: only the human text does.",
    "schema": {"type": "string"},
    "examples": {language: {"value": language} for language in LANGUAGES}
    | {"weighted": {"summary": "quality values", "value": "fr-CH, fr;q=0.9, de;q=0.8, *;q=0.5"}},
}
CONTENT_LANGUAGE: dict[str, Any] = {
    "description": f"The language the answer's messages are worded in ({_NAMES}), negotiated from "
                   f"`Accept-Language` (`{DEFAULT}` when it names none); every answer says it, with "
                   "`Vary: accept-language`.",
    "required": True,
    "schema": {"type": "string", "enum": list(LANGUAGES)},
}


def add_languages(doc: dict[str, Any]) -> None:
    """Every operation takes `Accept-Language` and every answer says its `Content-Language`."""
    for operations in doc["paths"].values():
        for operation in operations.values():
            operation.setdefault("parameters", []).append(copy.deepcopy(ACCEPT_LANGUAGE))
            for response in operation["responses"].values():
                response.setdefault("headers", {})["Content-Language"] = copy.deepcopy(CONTENT_LANGUAGE)


def add_examples(doc: dict[str, Any]) -> None:
    """The referee's own examples (service.api.examples) on every operation's request body and
    answers."""
    from .examples import collect

    for path, parts in collect().items():
        operation = next(iter(doc["paths"][path].values()))
        for part, named in parts.items():
            if part == "request":
                target = operation["requestBody"]["content"]["application/json"]
            else:
                target = next(iter(operation["responses"][part]["content"].values()))
            target["examples"] = named


def complete(document: dict[str, Any]) -> dict[str, Any]:
    """Litestar's document with the components, closures, discriminators and links added."""
    doc = copy.deepcopy(document)
    components = doc.setdefault("components", {}).setdefault("schemas", {})
    components.update(msgspec_components())
    close_objects(components)
    settle_required_and_defaults(components)
    drop_legacy_forms(components)
    plain_shapes(doc)
    add_discriminators(doc, components)
    name_unions(doc, components)
    for (path, status), links in LINKS.items():
        doc["paths"][path]["post"]["responses"][status]["links"] = links
    add_examples(doc)
    add_languages(doc)
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
