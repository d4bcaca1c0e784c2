"""The Extensions module's constants (data/extensions.json: the board's columns and amounts, each
extension's type)."""

from __future__ import annotations

from collections import Counter

from ...catalogue import load_data

DATA = load_data("extensions")
COLUMNS: tuple[tuple[str, ...], ...] = tuple(tuple(c) for c in DATA["columns"])
AMOUNTS: tuple[int, ...] = tuple(DATA["amounts"])
TYPE_OF: dict[str, str] = {e["id"]: e["type"] for e in DATA["extensions"]}
PER_TYPE: Counter[str] = Counter(TYPE_OF.values())
