"""Boxes: drawn pieces that know their size, and the few ways to arrange them.

Every piece is drawn with its top-left corner at its own origin; arranging boxes wraps each in
a translated group. Sizes are whole pixels so the SVG text is short and identical run to run.
Text width is estimated (0.6 em a character for a sans font): the layout leaves room for it.
Pieces that must hold their text (a tile and its badges) measure it instead (`metrics`).
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from service import i18n

from . import palette
from . import svg as draw

CHAR = 0.6  # average advance of a character, in em, for DejaVu Sans and its like


def attrs(**values: Any) -> dict[str, str]:
    """Attributes with their values escaped: drawsvg writes attribute values as given (it
    escapes text content only), and ids may come from a client."""
    return {k: v if type(v) is int else html.escape(str(v), quote=True)
            for k, v in values.items() if v is not None}


def say(text: str) -> str:
    """A text as the picture shows it: a Text or a Word worded in the language the picture is
    drawn in (i18n.LANGUAGE: the request's, or the one `speaking` set); any other str as it is."""
    return i18n.render(text, i18n.LANGUAGE.get())


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """The pictures drawn within worded in `language` (None: the current i18n.LANGUAGE)."""
    if language is None:
        yield
        return
    told = i18n.LANGUAGE.set(language)
    try:
        yield
    finally:
        i18n.LANGUAGE.reset(told)


@dataclass(frozen=True)
class Box:
    element: Any  # a drawsvg element
    width: int
    height: int


def placed(box: Box, x: int, y: int) -> Any:
    if x == 0 and y == 0:
        return box.element
    group = draw.Group(transform=f"translate({x},{y})")
    group.append(box.element)
    return group


def text_width(text: str, size: int, bold: bool = False) -> int:
    return int(len(text) * size * (CHAR + (0.05 if bold else 0))) + 1


def label(text: str, size: int = 12, *, bold: bool = False, colour: str = palette.INK,
          **extra: Any) -> Box:
    """One line of text (worded: `say`), its box as high as the font size plus room for
    descenders and as wide as the worded text."""
    text = say(text)
    height = int(size * 1.3)
    element = draw.Text(text, size, 0, size, fill=colour,
                        font_weight="bold" if bold else None, **attrs(**extra))
    return Box(element, text_width(text, size, bold), height)


def stack(boxes: Iterable[Box | None], gap: int = 6) -> Box:
    """Boxes one under the other, left-aligned."""
    group = draw.Group()
    y = width = 0
    for box in boxes:
        if box is None:
            continue
        if y:
            y += gap
        group.append(placed(box, 0, y))
        y += box.height
        width = max(width, box.width)
    return Box(group, width, y)


def row(boxes: Iterable[Box | None], gap: int = 6, *, middle: bool = False) -> Box:
    """Boxes side by side, top-aligned (or centred on one line)."""
    items = [b for b in boxes if b is not None]
    height = max((b.height for b in items), default=0)
    group = draw.Group()
    x = 0
    for i, box in enumerate(items):
        if i:
            x += gap
        group.append(placed(box, x, (height - box.height) // 2 if middle else 0))
        x += box.width
    return Box(group, x, height)


def flow_lines(widths: Sequence[int], width: int, gap: int = 6) -> list[int]:
    """How many of the widths each line holds when they are laid left to right, wrapping
    before `width` (a piece wider than `width` has a line of its own)."""
    lines: list[int] = []
    used = 0
    for w in widths:
        if not lines or used + gap + w > width:
            lines.append(0)
            used = 0
        used += (gap if lines[-1] else 0) + w
        lines[-1] += 1
    return lines


def flow(boxes: Sequence[Box], width: int, gap: int = 6) -> Box:
    """Boxes left to right, wrapping before `width`."""
    rows, start = [], 0
    for count in flow_lines([b.width for b in boxes], width, gap):
        rows.append(row(boxes[start:start + count], gap))
        start += count
    return stack(rows, gap)


def framed(content: Box, title: Box | None = None, *, pad: int = 10, fill: str = palette.PAPER,
           stroke: str = palette.FRAME, stroke_width: int = 1, min_width: int = 0,
           **extra: Any) -> Box:
    """A rounded panel around `content`, with a title line on top."""
    inner = stack([title, content], gap=8) if title else content
    width = max(inner.width, min_width) + 2 * pad
    height = inner.height + 2 * pad
    group = draw.Group(**attrs(**extra))
    group.append(draw.Rectangle(0, 0, width, height, rx=6, fill=fill, stroke=stroke,
                                stroke_width=stroke_width))
    group.append(placed(inner, pad, pad))
    return Box(group, width, height)


def titled(text: str, content: Box | None, size: int = 11, gap: int = 3) -> Box | None:
    """A small caption over `content` (nothing when there is no content)."""
    if content is None:
        return None
    return stack([label(text, size, colour=palette.MUTED), content], gap=gap)
