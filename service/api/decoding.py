"""Request bodies decoded by msgspec in one strict pass, straight from the bytes.

Litestar's default route for a Struct body decodes JSON to dicts and then converts them in lax
mode (a "1" would pass for 1); this DTO hands the raw bytes to `reading.decode` instead, so the
HTTP referee accepts exactly what the contract describes, and documents the body's real type.
`StrictBody.of(T, lazy=True)` hands the handler a `reading.Received` instead, which decodes on
first use with the app's memo of states (a repeated body is answered without decoding it).

It subclasses litestar's AbstractDTO and sets two of its private maps (`_type_backend_map`,
`_handler_backend_map`): pyproject.toml bounds litestar's version, and tests/api/test_pins.py
fails on a litestar that no longer has them.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from litestar.dto import AbstractDTO, DTOConfig, DTOFieldDefinition
from litestar.typing import FieldDefinition

from .reading import Received, decode


class StrictBody(AbstractDTO[Any]):
    """A body DTO for `body_type` (a Struct, or a union `reading.decode` knows)."""

    model_type: Any
    lazy: bool = False

    @classmethod
    def of(cls, body_type: Any, *, lazy: bool = False) -> type[StrictBody]:
        name = getattr(body_type, "__name__", "Body")
        return type(f"StrictBody[{name}]", (cls,), {
            "model_type": body_type, "lazy": lazy, "config": DTOConfig(),
            "_type_backend_map": {}, "_handler_backend_map": {},
        })

    @classmethod
    def generate_field_definitions(cls, model_type: type[Any]) -> Generator[DTOFieldDefinition, None, None]:
        yield from ()

    @classmethod
    def detect_nested_field(cls, field_definition: FieldDefinition) -> bool:
        return False

    @classmethod
    def create_for_field_definition(cls, field_definition: FieldDefinition, handler_id: str,
                                    backend_cls: Any = None) -> None:
        """No transfer models: the body is decoded into its own type."""

    @classmethod
    def create_openapi_schema(cls, field_definition: FieldDefinition, handler_id: str,
                              schema_creator: Any) -> Any:
        return schema_creator.for_field_definition(FieldDefinition.from_annotation(cls.model_type))

    def decode_bytes(self, value: bytes) -> Any:
        if self.lazy:
            return Received(self.model_type, value, self.asgi_connection.app.state.memo)
        return decode(self.model_type, value)

    def decode_builtins(self, value: dict[str, Any]) -> Any:  # pragma: no cover - not used
        raise NotImplementedError
