"""The public part of a state: every field marked `HIDDEN` set back to its default (or, for a
field without one, to its empty value: an empty list, or the `empty` its mark names).

Fields are marked where they are declared (`Annotated[T, records.HIDDEN]`): the order of the
money deck and of the bag, the cards in hands, the generator's state, and each module's hidden
parts. A field that is secret only for a while (a choice not yet revealed) is marked too: the
public part hides it always, and `view.view` shows what a given player may see at that moment.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import msgspec.inspect as mi

from .state import GameState


def conceal(state: GameState) -> GameState:
    """`state` with every hidden field emptied (its default) wherever it lies."""
    return _conceal(state)


def _conceal(value: Any) -> Any:
    plan = _plan(type(value))
    if not plan:
        return value
    changes: dict[str, Any] = {}
    for name, hidden, default in plan:
        current = getattr(value, name)
        if hidden:
            if current != default:
                changes[name] = default
        elif isinstance(current, tuple):
            inner = tuple(_conceal(v) for v in current)
            if inner != current:
                changes[name] = inner
        elif current is not None:
            inner = _conceal(current)
            if inner is not current:
                changes[name] = inner
    return msgspec.structs.replace(value, **changes) if changes else value


@cache
def _plan(struct: type) -> tuple[tuple[str, bool, Any], ...]:
    """The fields of `struct` to visit: (name, hidden, default) for each field that is hidden
    or whose type may hold a hidden field (other fields are never looked at)."""
    if not (isinstance(struct, type) and issubclass(struct, msgspec.Struct)):
        return ()
    plan = []
    for field in mi.type_info(struct).fields:  # type: ignore[union-attr]
        if _is_hidden(field.type):
            empty = field.default if field.default is not mi.NODEFAULT else _empty(field.type)
            if empty is mi.NODEFAULT:
                raise TypeError(f"{struct.__name__}.{field.name} is HIDDEN but has no default or empty value")
            plan.append((field.name, True, empty))
        elif any(_plan(t) for t in _structs_in(field.type)):
            plan.append((field.name, False, None))
    return tuple(plan)


def _is_hidden(t: mi.Type) -> bool:
    return isinstance(t, mi.Metadata) and bool((t.extra or {}).get("hidden"))


def _empty(t: mi.Type) -> Any:
    """The value a hidden field without a default is emptied to: the `empty` of its mark, or
    an empty tuple for a list."""
    while isinstance(t, mi.Metadata):
        if "empty" in (t.extra or {}):
            return t.extra["empty"]  # type: ignore[index]
        t = t.type
    return () if isinstance(t, mi.VarTupleType | mi.ListType) else mi.NODEFAULT


def _structs_in(t: mi.Type) -> list[type]:
    """The Struct classes a field of type `t` may hold directly or in a tuple."""
    if isinstance(t, mi.Metadata):
        return _structs_in(t.type)
    if isinstance(t, mi.StructType):
        return [t.cls]
    if isinstance(t, mi.UnionType):
        return [c for u in t.types for c in _structs_in(u)]
    if isinstance(t, mi.VarTupleType | mi.ListType):
        return _structs_in(t.item_type)
    if isinstance(t, mi.TupleType):
        return [c for u in t.item_types for c in _structs_in(u)]
    return []
