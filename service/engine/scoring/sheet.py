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
number and the sets' sizes score). Each module's count and the wall are held to the bounds of
their tally fields; a majority count only to 0 and above, as it includes the buildings modules
add (extensions), which the tally's bound of buildings does not.

Whether the counts read could stand on one table is checked by those of the tally checks per
player and per table that no real sheet fails (`tally_checks.read_problems`, `_unreal`): a
majority count is the buildings or more (extensions' `bonus`), so every bound it sets from above
holds: the wall within the outline of the buildings (base.score.wall), the unserved buildings
at most the buildings (staff.score), the zoo's animals at most 3 a garden and 22 on the table,
power's second wall and 18 black pips on the table, the chests at most the buildings and 42 on
the table, the inhabitants no more colours with n or more than types counting n or more and 42
on the table, the counts beyond the other tiles of their types and what extensions add at
most the 8 building sites (grounds) (each module's `TallyPart.check_of_lines`).
The bounds of the buildings themselves (the buildings of a type on the table, the servants each
colour supplies: staff.setup) hold only when no module adds to the majority counts
(`tally_checks.exact_buildings`); with extensions on, the counts of a type on the table are at
most its buildings and its extensions (extensions.score). The checks that read colours (chests
and inhabitants per colour: treasure, vendors) do not apply: the lines carry none (treasure
checks the chests' number, vendors the numbers of the colours instead). Each refusal names the
line a count was read from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from ..module import Module, modules_of_ids
from ..records import per_type
from ..text import Text, Word, t
from ..violations import InconsistentState, Violation
from .round import Breakdown, Line, MajorityLine, Position, PositionPlayer, WallLine, rank, score_position
from .tally import Tally
from .tally_checks import read_problems

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
        rounds = tuple(p.round for p in previous)
        return [Violation(RULE, t("$.previous holds the rounds {rounds}; before round {round} a sheet holds "
                                  "the rounds {wanted}, in order", rounds=rounds, round=position.round,
                                  wanted=tuple(wanted) or t("none")))]
    names = [p.name for p in position.players]
    for i, p in enumerate(position.players):
        if p.score:
            out.append(Violation(RULE, t("$.players[{i}].score is {score}: with `previous` the points before "
                                         "this round are the earlier rounds' totals; give one of them",
                                         i=i, score=p.score)))
    running: dict[str, int] = {}
    for k, past in enumerate(previous):
        at = f"$.previous[{k}]"
        if [p.name for p in past.players] != names:
            out.append(Violation(RULE, t("{at}.players are {players}, but this round's players are {names} "
                                         "(in that order)", at=at,
                                         players=tuple(p.name for p in past.players),
                                         names=tuple(names))))
            continue
        for j, p in enumerate(past.players):
            added = sum(line.points for line in p.lines)
            if p.total != added:
                out.append(Violation(RULE, t("{at}.players[{j}].total is {total}, but its lines add up to "
                                             "{added}", at=at, j=j, total=p.total, added=added)))
            running[p.name] = running.get(p.name, 0) + p.total
        expected = rank((name, running[name]) for name in names)
        if sorted(past.ranking, key=_key) != sorted(expected, key=_key):
            shown = "; ".join(f"{r.place}. {r.name} {r.score}" for r in expected)
            out.append(Violation(RULE, t("{at}.ranking does not rank the running totals after round {round}: "
                                         "{ranking}", at=at, round=past.round, ranking=shown)))
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
                tags = tuple(tag for tag, _ in _categories(now.lines))
                out.append(Violation(RULE, t("$.previous[{k}].players[{j}].lines are not this round's "
                                             "categories ({tags}): were other modules on?", k=k, j=j,
                                             tags=tags)))
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
        again = Position(round=past.round, players=tuple(players), modules=position.modules,
                         check_layout=False)
        # A count out of bounds, or counts that cannot stand together, are refused as such; the
        # round is not scored again from them.
        out += wrong or _unreal(k, past, again, modules) or _differences(k, past, again)
        for mine in past.players:
            before[mine.name] += mine.total
    return out


def _unreal(k: int, past: Any, again: Position, modules: Sequence[Module]) -> list[Violation]:
    """The tally checks that hold for counts read from lines (`tally_checks.read_problems`) on
    the earlier round `past` (at `$.previous[k]`), each field named by the line it was read from."""
    lines = [p.lines for p in past.players]
    return [Violation(v.rule, t("{why} (round {round}'s counts, as its lines carry them)",
                                why=_relocated(v.message, lambda m: _line_of(k, lines, modules, m)),
                                round=past.round))
            for v in read_problems(again, modules)]


_TALLY_FIELD = re.compile(r"\$\.players\[(\d+)\]\.tally\.(\w+)((?:\.\w+)*)")


def _relocated(message: str, line_of: Callable[[re.Match[str]], str]) -> str:
    """`message` with each tally field it names (`$.players[j].tally...`) replaced by the line
    it was read from (`line_of`). A Text keeps its wording: the fields are in its details (a
    detail that is a field alone becomes the line's own wording); a message that names a field
    in its wording itself is rewritten as English."""
    if isinstance(message, Text):
        moved = Text(message.id, tuple((k, _relocated_detail(v, line_of)) for k, v in message.details),
                     message.plural)
        if not _TALLY_FIELD.search(moved):
            return moved
    return _TALLY_FIELD.sub(line_of, message)


def _relocated_detail(value: Any, line_of: Callable[[re.Match[str]], str]) -> Any:
    if isinstance(value, Text):
        return _relocated(value, line_of)
    if isinstance(value, tuple | list):
        return tuple(_relocated_detail(v, line_of) for v in value)
    if isinstance(value, str) and not isinstance(value, Word):
        whole = _TALLY_FIELD.fullmatch(value)
        return line_of(whole) if whole else _TALLY_FIELD.sub(line_of, value)
    return value


def _line_of(k: int, lines: Sequence[Sequence[Line]], modules: Sequence[Module], field: re.Match[str]) -> str:
    """The line of `$.previous[k]` a tally field (`$.players[j].tally.<name>...`) was read from:
    a type's majority line, the wall line, a module's line; the fields of buildings in all are
    the majority lines."""
    j, name, rest = int(field[1]), field[2], field[3]
    at = f"$.previous[{k}].players[{j}]"
    if name == "buildings" and not rest:
        return t("{at}'s majority lines (buildings)", at=at)
    kinds = (MajorityLine,) if name == "buildings" else _line_types(name, modules)
    i = next(i for i, line in enumerate(lines[j]) if isinstance(line, kinds)
             and (name != "buildings" or line.building == rest[1:]))  # type: ignore[attr-defined]
    return f"{at}.lines[{i}] ({name}{rest})"


def _differences(k: int, past: Any, again: Position) -> list[Violation]:
    """The lines of the earlier round `past` (at `$.previous[k]`) that differ from the round
    scored again from their counts (`again`)."""
    out = []
    scored = score_position(again)
    for j, (mine, theirs) in enumerate(zip(past.players, scored.players, strict=True)):
        for i, (line, expected) in enumerate(zip(mine.lines, theirs.lines, strict=True)):
            if line != expected:
                out.append(Violation(line.rule, t("$.previous[{k}].players[{j}].lines[{i}] is {line}, but "
                                                  "its counts score {expected} in round {round}", k=k, j=j,
                                                  i=i,
                                                  line=_json(line), expected=_json(expected),
                                                  round=past.round)))
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
                wrong.append(Violation(line.rule, t("{at}[{i}] counts {count} buildings: a count is never "
                                                    "negative", at=at, i=i, count=line.count)))
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
            wrong += [Violation(line.rule, t("{at}[{i}] carries a count no tally can hold: {error}", at=at,
                                             i=i, error=str(e)))

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
