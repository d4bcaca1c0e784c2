"""States as the referee wrote them before edition 2: fields holding their default left out.

Since edition 2 every field of the game state, of its players, its turn and Dirk is written and
required (the contract marks them required, so generated clients read one shape). A state of
edition 1 (no `edition` field) written then may lack them; `completed` fills them in with the
defaults of that time, so such a state is read as it was meant (and then judged by
`editions.admitted` like any state of edition 1). A state that names an edition must be whole.
"""

from __future__ import annotations

from typing import Any

import msgspec

from .state import Dirk, GameState, Player, Turn

# The defaults edition 1 left out, by struct.
DEFAULTS: dict[type, dict[str, Any]] = {
    GameState: {"modules": (), "phase": "play", "display": (), "deck": (), "discard": (), "bag": (),
                "dirk": None, "scoring_called": (), "rounds_held": (), "removed": (), "ranking": (),
                "rng": "0000000000000000", "zoo": None, "grounds": None, "power": None,
                "extensions": None, "staff": None, "craftsmen": None, "walls": None,
                "treasure": None, "thieves": None, "vendors": None, "change": None},
    Player: {"hand": (), "alhambra": (), "reserve": (), "held": (), "score": 0},
    Turn: {"actions": 1, "acted": False, "ending": 0},
    Dirk: {"name": "Dirk", "tiles": (), "score": 0},
}


def _lenient(cls: Any, replaced: dict[type, type]) -> type:
    """A twin of `cls` whose fields of DEFAULTS may be left out (and `replaced` types inside)."""
    import typing

    hints = typing.get_type_hints(cls, include_extras=True)
    defaults = {**DEFAULTS[cls], **{f: d for f, d in zip(
        cls.__struct_fields__[len(cls.__struct_fields__) - len(cls.__struct_defaults__):],
        cls.__struct_defaults__, strict=True)}}
    fields = []
    for name in cls.__struct_fields__:
        kind = hints[name]
        for strict, twin in replaced.items():
            kind = _swap(kind, strict, twin)
        fields.append((name, kind, defaults[name]) if name in defaults else (name, kind))
    return msgspec.defstruct(f"Edition1{cls.__name__}", fields, kw_only=True, forbid_unknown_fields=True,
                             omit_defaults=False, module=__name__)


def _swap(kind: Any, strict: type, twin: type) -> Any:
    """`kind` with the type `strict` replaced by `twin` wherever it appears."""
    import typing

    if kind is strict:
        return twin
    args = typing.get_args(kind)
    if not args:
        return kind
    origin = typing.get_origin(kind)
    swapped = tuple(_swap(a, strict, twin) if not isinstance(a, msgspec.Meta) else a for a in args)
    if origin is typing.Annotated:
        return typing.Annotated[(swapped[0], *swapped[1:])]  # type: ignore[valid-type]
    if origin in (typing.Union, __import__("types").UnionType):
        return typing.Union[swapped]  # type: ignore[valid-type]  # noqa: UP007
    return origin[swapped] if origin is not tuple else tuple[swapped]  # type: ignore[index,valid-type]


_PLAYER = _lenient(Player, {})
_TURN = _lenient(Turn, {})
_DIRK = _lenient(Dirk, {})
_STATE = _lenient(GameState, {Player: _PLAYER, Turn: _TURN, Dirk: _DIRK})
_READ: msgspec.json.Decoder[Any] = msgspec.json.Decoder(_STATE)
_WRITE = msgspec.json.Encoder()


def completed(raw_state: bytes) -> bytes | None:
    """The state's JSON with every field edition 1 left out written, if it is a state of
    edition 1 that decodes so; else None (the strict decoder's refusal stands)."""
    try:
        state = _READ.decode(raw_state)
    except msgspec.DecodeError:
        return None
    if state.edition != 1:
        return None
    return _WRITE.encode(state)
