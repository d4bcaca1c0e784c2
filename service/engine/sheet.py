"""A table's score sheet (issue 15): a scoring round scored after the earlier rounds of the
same evening, so the running totals and, after round 3, the final ranking come out.

The earlier rounds are the breakdowns the referee gave for them (`previous`, in order), sent
back as they came. Points accumulate (`base.score.rounds`): each player's points before this
round are the sum of their earlier totals, which also sets the Palace Staff floor. The referee
checks that the sheet is this table's: rounds 1 to this one's, the same players in the same
order, every total the sum of its lines, every ranking the running totals ranked, the same
categories (so the same modules) as this round; and that every line is what its own counts
score in its round (`line_problems`).

Every line carries the counts it was scored from, so an earlier round is scored again as a
position of tallies read from its lines: the buildings of each type and the wall here, each
module's counts by its own hook (`TallyPart.of_lines`), and the round scored by the code that
scores any tally, with the round's table and the running scores before it. The majorities (and
the treasure's ranking) come out of all players' counts of the round, which the lines carry.
What a line does not carry cannot be checked: power's second wall beyond the pips (its line
holds the wall only as far as it scored), the colours of chests and inhabitants (only their
number and the sets' sizes score), and whether counts that score the same could stand on one
table (the tally checks' bounds per player and per table are not applied to an earlier round:
they read colours the lines do not carry, and buildings without the modules' additions). Each
module's count and the wall are held to the bounds of their tally fields; a majority count only
to 0 and above, as it includes the buildings modules add (extensions), which the tally's bound
of buildings does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from .records import per_type
from .rules import Module, modules_of_ids
from .scoring import Breakdown, Line, MajorityLine, Position, PositionPlayer, WallLine, rank, score_position
from .tally import Tally
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


def line_problems(position: Position, previous: Sequence[Any]) -> list[Violation]:
    """Each line of an earlier round that its counts do not score in that round, named with the
    rule of its category. The rounds must be this table's, their categories this round's."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    before = dict.fromkeys((p.name for p in position.players), 0)
    out: list[Violation] = []
    for k, past in enumerate(previous):
        players, wrong = [], []
        for j, (p, mine) in enumerate(zip(position.players, past.players, strict=True)):
            tally, unread = _read(p, mine.lines, modules, f"$.previous[{k}].players[{j}].lines")
            wrong += unread
            players.append(PositionPlayer(name=p.name, dirk=p.dirk, score=before[p.name], tally=tally))
        # A count out of bounds is refused as such; the round is not scored again without it.
        out += wrong or _differences(k, past, Position(round=past.round, players=tuple(players),
                                                       modules=position.modules, check_layout=False))
        for mine in past.players:
            before[mine.name] += mine.total
    return out


def _differences(k: int, past: Any, again: Position) -> list[Violation]:
    """The lines of the earlier round `past` (at `$.previous[k]`) that differ from the round
    scored again from their counts (`again`)."""
    out = []
    scored = score_position(again)
    for j, (mine, theirs) in enumerate(zip(past.players, scored.players, strict=True)):
        for i, (line, expected) in enumerate(zip(mine.lines, theirs.lines, strict=True)):
            if line != expected:
                out.append(Violation(line.rule, f"$.previous[{k}].players[{j}].lines[{i}] is {_json(line)}, "
                                                f"but its counts score {_json(expected)} in round "
                                                f"{past.round}"))
    return out


def _read(p: PositionPlayer, lines: Sequence[Line], modules: Sequence[Module],
          at: str) -> tuple[Tally, list[Violation]]:
    """The tally a player's lines of a round were scored from, and the lines whose counts no
    tally can hold (each count within its field's bounds in the contract). The majority lines'
    counts include the buildings modules add (extensions), so no module's bonus is read again."""
    counts: dict[str, int] = {}
    wrong: list[Violation] = []
    for i, line in enumerate(lines):
        if isinstance(line, MajorityLine):
            counts[line.building] = line.count
            if line.count < 0:
                wrong.append(Violation(line.rule, f"{at}[{i}] counts {line.count} buildings: a count "
                                                  "is never negative"))
    # dirk.scores: Dirk scores no wall, whatever his wall line says.
    wall = 0 if p.dirk else next(line.length for line in lines if isinstance(line, WallLine))
    parts: dict[str, Any] = {"wall": wall}
    parts.update({m.id: m.tally.of_lines(p, lines) for m in modules  # type: ignore[union-attr]
                  if m.tally is not None and m.tally.of_lines is not None})
    for name, part in parts.items():
        try:
            msgspec.convert({name: msgspec.to_builtins(part)}, Tally)
        except msgspec.ValidationError as e:
            kinds = _line_types(name, modules)
            wrong += [Violation(line.rule, f"{at}[{i}] carries a count no tally can hold: {e}")
                      for i, line in enumerate(lines) if isinstance(line, kinds)]
    return Tally(buildings=per_type(counts), **parts), wrong


def _line_types(name: str, modules: Sequence[Module]) -> tuple[type[Line], ...]:
    """The lines a tally field is read from: the wall line, or a module's lines."""
    if name == "wall":
        return (WallLine,)
    return next(m.lines for m in modules if m.id == name)


_ENCODE = msgspec.json.Encoder().encode


def _json(line: Line) -> str:
    return _ENCODE(line).decode()


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
    problems = category_problems(breakdown, previous) or line_problems(position, previous)
    if problems:
        raise InconsistentState(problems)
    return breakdown
