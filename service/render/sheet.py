"""A table's score sheet drawn: each round's totals and running totals, and a chart of the
running totals by round (one line per player), as the scoring page and `referee render` show it.

The chart carries what it shows as attributes (`data-rounds`, and per player `data-player` and
`data-points`), so a test or a script can read it from the SVG.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import msgspec

from service.engine.records import PerType, counts_of
from service.engine.scoring.tally import Tally
from service.engine.text import t, word

from . import palette
from . import svg as draw
from .layout import Box, attrs, framed, label, row, say, stack

ROUNDS = (1, 2, 3)
WIDTH, HEIGHT = 360, 180  # the plotting area, in pixels
LEFT, BOTTOM = 44, 26  # room for the axis labels


@dataclass(frozen=True)
class Line:
    """One player on the sheet: name, points scored in each round known, running total after it."""

    name: str
    points: dict[int, int]
    running: dict[int, int]


def sheet_lines(names: Sequence[str], rounds: Sequence[tuple[int, Sequence[int]]],
                before: Mapping[int, Sequence[int]] | None = None) -> list[Line]:
    """Per player, from the rounds' totals `(round, totals in seat order)` in order; `before`
    gives running totals known without their rounds (a round's points before it)."""
    out = []
    for i, name in enumerate(names):
        points: dict[int, int] = {}
        running: dict[int, int] = {}
        for r, known in (before or {}).items():
            running[r] = known[i]
        total = 0
        for r, totals in rounds:
            total = running.get(r - 1, total) + totals[i]
            points[r] = totals[i]
            running[r] = total
        out.append(Line(name=name, points=points, running=running))
    return out


def table_box(lines: Sequence[Line]) -> Box:
    """Rounds as rows, players as columns: `points (running total)`."""
    known = sorted({r for line in lines for r in line.points})
    rows = [["", *(line.name for line in lines)]]
    for r in known:
        rows.append([say(t("round {round}", round=r)),
                     *(f"{line.points[r]} ({line.running[r]})" if r in line.points else ""
                       for line in lines)])
    widths = [max(len(cells[c]) for cells in rows) * 7 + 14 for c in range(len(rows[0]))]
    group = draw.Group(**attrs(class_="sheet"))
    for y, cells in enumerate(rows):
        x = 0
        for c, text in enumerate(cells):
            group.append(draw.Text(text, 12, x + (widths[c] - 8 if c else 0), 16 * y + 12,
                                   fill=palette.INK, text_anchor="end" if c else "start",
                                   font_weight="bold" if y == 0 else None))
            x += widths[c]
    return Box(group, sum(widths), 16 * len(rows))


def chart_box(lines: Sequence[Line]) -> Box:
    """The running totals by round, one line and colour per player."""
    lines = [Line(line.name, line.points, {r: v for r, v in line.running.items() if r in ROUNDS})
             for line in lines]
    values = [v for line in lines for v in line.running.values()]
    top = max([10, *values])
    low = min([0, *values])
    span = top - low

    def at(r: int, v: int) -> tuple[float, float]:
        x = LEFT + (r - ROUNDS[0]) * WIDTH / (len(ROUNDS) - 1)
        y = HEIGHT - (v - low) * HEIGHT / span
        return round(x, 1), round(y, 1)

    shown = sorted({r for line in lines for r in line.running})
    group = draw.Group(**attrs(class_="chart", data_rounds=" ".join(map(str, shown))))
    group.append(draw.Rectangle(LEFT, 0, WIDTH, HEIGHT, fill="#ffffff", stroke=palette.FRAME))
    for v in sorted({low, 0, top}):
        _, y = at(1, v)
        group.append(draw.Line(LEFT, y, LEFT + WIDTH, y, stroke=palette.NEUTRAL))
        group.append(draw.Text(str(v), 11, LEFT - 6, y + 4, fill=palette.MUTED, text_anchor="end"))
    for r in ROUNDS:
        x, _ = at(r, low)
        group.append(draw.Text(say(t("round {round}", round=r)), 11, x, HEIGHT + 16, fill=palette.MUTED,
                               text_anchor="middle", **attrs(class_="round", data_round=r)))
    legend = []
    for i, line in enumerate(lines):
        colour = palette.PLAYERS[i % len(palette.PLAYERS)]
        points = [at(r, line.running[r]) for r in sorted(line.running)]
        flat = [c for p in points for c in p]
        data = " ".join(str(line.running[r]) for r in sorted(line.running))
        player = draw.Group(**attrs(class_="running", data_player=line.name, data_points=data))
        if len(points) > 1:
            player.append(draw.Lines(*flat, close=False, fill="none", stroke=colour, stroke_width=3))
        for x, y in points:
            player.append(draw.Circle(x, y, 4, fill=colour))
        group.append(player)
        last = line.running[max(line.running)] if line.running else 0
        swatch = Box(draw.Rectangle(0, 3, 14, 10, fill=colour), 14, 14)
        legend.append(row([swatch, label(f"{line.name} {last}", 12)], 4, middle=True))
    plot = Box(group, LEFT + WIDTH + 8, HEIGHT + BOTTOM)
    return stack([plot, row(legend, 14)], gap=6)


def sheet_panel(lines: Sequence[Line]) -> Box:
    return framed(stack([table_box(lines), chart_box(lines)], gap=12),
                  label(t("Score sheet: running totals by round"), 13, bold=True), class_="score-sheet")


def _counts(value: object) -> str:
    """A part of a tally in words: `garden 2, tower 1`, `animals 3`; `none` when all are 0 (the
    building types and the parts' names as words: translated where a catalogue has them)."""
    if isinstance(value, PerType):
        shown = [f"{say(word(kind))} {n}" for kind, n in counts_of(value).items() if n]
    elif isinstance(value, msgspec.Struct):
        shown = [f"{say(word(name.replace('_', ' ')))} {_counts(getattr(value, name))}"
                 for name in value.__struct_fields__
                 if getattr(value, name) not in (0, PerType())]
    else:
        return str(value)
    return ", ".join(shown) or say(t("none"))


def tally_box(tally: Tally) -> Box:
    """What was counted of a player: the base game's counts, then each module's part on."""
    lines = [label(f"{say(word(name.replace('_', ' ')))}: {_counts(getattr(tally, name))}", 12)
             for name in tally.__struct_fields__ if getattr(tally, name) is not None]
    return stack(lines, gap=3)
