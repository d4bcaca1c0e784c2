"""A table's score sheet (issue 15): a scoring round scored after the earlier rounds of the
same evening, so the running totals and, after round 3, the final ranking come out.

The earlier rounds are the breakdowns the referee gave for them (`previous`, in order), sent
back as they came. Points accumulate (`base.score.rounds`): each player's points before this
round are the sum of their earlier totals, which also sets the Palace Staff floor. The referee
cannot recount earlier rounds (it has only their breakdowns), so it checks the sheet's
arithmetic and that it is this table's: rounds 1 to this one's, the same players in the same
order, every total the sum of its lines, every ranking the running totals ranked, the same
categories (so the same modules) as this round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from .scoring import Breakdown, Position, rank, score_position
from .violations import InconsistentState, Violation

RULE = "base.score.rounds"


def running_totals(previous: Sequence[Any]) -> dict[str, int]:
    """Each player's points after the earlier rounds."""
    totals: dict[str, int] = {}
    for past in previous:
        for p in past.players:
            totals[p.name] = totals.get(p.name, 0) + p.total
    return totals


def sheet_problems(position: Position, previous: Sequence[Any]) -> list[Violation]:
    """Why the earlier rounds cannot be this table's sheet before `position` (empty when they
    can). Categories are compared once the round is scored (`category_problems`)."""
    out: list[Violation] = []
    wanted = list(range(1, position.round))
    if [p.round for p in previous] != wanted:
        rounds = ", ".join(str(p.round) for p in previous)
        return [Violation(RULE, f"$.previous holds the rounds {rounds}; before round {position.round} "
                                f"a sheet holds the rounds {', '.join(map(str, wanted)) or 'none'}, "
                                "in order")]
    names = [p.name for p in position.players]
    for i, p in enumerate(position.players):
        if p.score:
            out.append(Violation(RULE, f"$.players[{i}].score is {p.score}: with `previous` the points "
                                       "before this round are the earlier rounds' totals; give one of them"))
    running: dict[str, int] = {}
    for k, past in enumerate(previous):
        at = f"$.previous[{k}]"
        if [p.name for p in past.players] != names:
            out.append(Violation(RULE, f"{at}.players are {', '.join(p.name for p in past.players)}, but "
                                       f"this round's players are {', '.join(names)} (in that order)"))
            continue
        for j, p in enumerate(past.players):
            added = sum(line.points for line in p.lines)
            if p.total != added:
                out.append(Violation(RULE, f"{at}.players[{j}].total is {p.total}, but its lines add "
                                           f"up to {added}"))
            running[p.name] = running.get(p.name, 0) + p.total
        expected = rank((name, running[name]) for name in names)
        if sorted(past.ranking, key=_key) != sorted(expected, key=_key):
            shown = "; ".join(f"{r.place}. {r.name} {r.score}" for r in expected)
            out.append(Violation(RULE, f"{at}.ranking does not rank the running totals after round "
                                       f"{past.round}: {shown}"))
    return out


def _key(entry: Any) -> tuple[str, int, int]:
    return (entry.name, entry.place, entry.score)


def _categories(lines: Sequence[Any]) -> list[tuple[str, str | None]]:
    return [(line.__struct_config__.tag, getattr(line, "building", None)) for line in lines]


def category_problems(breakdown: Breakdown, previous: Sequence[Any]) -> list[Violation]:
    """The earlier rounds' lines must be this round's categories: the same modules were on."""
    out = []
    for k, past in enumerate(previous):
        for j, (p, now) in enumerate(zip(past.players, breakdown.players, strict=True)):
            if _categories(p.lines) != _categories(now.lines):
                tags = ", ".join(tag for tag, _ in _categories(now.lines))
                out.append(Violation(RULE, f"$.previous[{k}].players[{j}].lines are not this round's "
                                           f"categories ({tags}): were other modules on?"))
                break
    return out


def score_sheet(position: Position, previous: Sequence[Any]) -> Breakdown:
    """This round's breakdown after the earlier ones: the ranking holds the running totals
    (after round 3, the final ranking). Raises InconsistentState for a sheet that is not
    this table's. `position` must be checked already (`game.position_problems`)."""
    if not previous:
        return score_position(position)
    problems = sheet_problems(position, previous)
    if problems:
        raise InconsistentState(problems)
    before = running_totals(previous)
    players = tuple(replace(p, score=before[p.name]) for p in position.players)
    breakdown = score_position(replace(position, players=players))
    problems = category_problems(breakdown, previous)
    if problems:
        raise InconsistentState(problems)
    return breakdown
