"""The toy's scoring category (as many points as the round's number) and its majority bonus."""

from __future__ import annotations

from service.engine.scoring import Line, Position, PositionPlayer


class ToyLine(Line, tag="toy"):
    pass


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    return {p.name: [ToyLine(points=round_)] for p in position.players if not p.dirk}


def count_bonus(p: PositionPlayer) -> dict[str, int]:
    return {} if p.dirk else {"garden": 1}
