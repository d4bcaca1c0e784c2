"""The few SVG elements the pictures are made of, written as drawsvg 2.4 writes them, byte for
byte, at a fraction of its cost.

drawsvg (PyPI `drawsvg`) drew the pictures until its generic machinery (animation frames, defs
and ids for reused elements, a context per element written) took over half of a picture's CPU:
a late 6-player game of every module cost 60-140 ms, past the 50 ms any request may cost
(issue 23). The pictures use none of that machinery: each element is written once, where it
stands. These classes take drawsvg's arguments (`class_` -> `class`, `data_seat` ->
`data-seat`; None leaves an attribute out) and write the same text, so the pictures' bytes did
not change (tests/render/test_render.py holds them). Text content is escaped here (`&`, `<`,
`>`); attribute values are written as given, so `layout.attrs` escapes those.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n'
SVG_START = ('<svg xmlns="http://www.w3.org/2000/svg" '
             'xmlns:xlink="http://www.w3.org/1999/xlink"\n    ')

_NAMES: dict[str, str] = {}


def _name(key: str) -> str:
    """An SVG attribute's name from a keyword argument's (as drawsvg: `__` -> `:`, `_` -> `-`,
    a trailing `-` dropped)."""
    found = _NAMES.get(key)
    if found is None:
        found = key.replace("__", ":").replace("_", "-")
        found = _NAMES[key] = found[:-1] if found.endswith("-") else found
    return found


def _attributes(args: dict[str, Any]) -> str:
    names = _NAMES
    return "".join([f' {names.get(k) or _name(k)}="{v}"' for k, v in args.items() if v is not None])


class Element:
    """An element: its opening tag (attributes written at once), its text, its children.

    `lines`: children each on a line of their own (groups); `empty_tag`: without text or
    children it closes itself (`<rect ... />`)."""

    __slots__ = ("children", "head", "text")
    tag = ""
    lines = True
    empty_tag = False

    def __init__(self, head: str, text: str = "") -> None:
        self.head = head
        self.text = text
        self.children: list[Element] = []

    def append(self, child: Element) -> None:
        self.children.append(child)

    def write(self, out: list[str]) -> None:
        out.append(self.head)
        if self.empty_tag and not self.children:
            out.append(" />")
            return
        out.append(">")
        out.append(self.text)
        if self.children:
            if self.lines:
                out.append("\n")
            for child in self.children:
                child.write(out)
                if self.lines:
                    out.append("\n")
        out.append(f"</{self.tag}>")


class Group(Element):
    tag = "g"

    def __init__(self, **args: Any) -> None:
        super().__init__("<g" + _attributes(args) if args else "<g")


class Title(Element):
    tag = "title"

    def __init__(self, text: str) -> None:
        super().__init__("<title", escape(text))


class _TSpan(Element):
    tag = "tspan"


class Text(Element):
    """A line of text, or several (a list, or a string with line breaks) as one tspan a line."""

    tag = "text"
    lines = False

    def __init__(self, text: str | list[str] | tuple[str, ...], font_size: float, x: float,
                 y: float, **args: Any) -> None:
        many = not isinstance(text, str) or "\n" in text
        super().__init__(f'<text x="{x}" y="{y}" font-size="{font_size}"{_attributes(args)}',
                         "" if many else escape(text))  # type: ignore[arg-type]
        if many:
            lines = tuple(text.splitlines() if isinstance(text, str) else text)
            for i, line in enumerate(lines):
                self.append(_TSpan(f'<tspan x="{x}" dy="{"0em" if i == 0 else "1em"}"', escape(line)))


class _Shape(Element):
    empty_tag = True


class Rectangle(_Shape):
    tag = "rect"

    def __init__(self, x: float, y: float, width: float, height: float, **args: Any) -> None:
        super().__init__(f'<rect x="{x}" y="{y}" width="{width}" height="{height}"'
                         f"{_attributes(args)}")


class Circle(_Shape):
    tag = "circle"

    def __init__(self, cx: float, cy: float, r: float, **args: Any) -> None:
        super().__init__(f'<circle cx="{cx}" cy="{cy}" r="{r}"{_attributes(args)}')


class Lines(_Shape):
    """A path through the points (x0, y0, x1, y1, ...), closed or not."""

    tag = "path"

    def __init__(self, *points: float, close: bool = False, **args: Any) -> None:
        pairs = [f"{points[i]},{points[i + 1]}" for i in range(0, len(points), 2)]
        d = " ".join(("M" if i == 0 else "L") + p for i, p in enumerate(pairs))
        super().__init__(f'<path d="{d}{" Z" if close else ""}"{_attributes(args)}')


class Line(Lines):
    def __init__(self, x1: float, y1: float, x2: float, y2: float, **args: Any) -> None:
        super().__init__(x1, y1, x2, y2, close=False, **args)


class Drawing:
    """The document: a `width` x `height` picture, its elements one a line."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.elements: list[Element] = []

    def append(self, element: Element) -> None:
        self.elements.append(element)

    def as_svg(self) -> str:
        w, h = self.width, self.height
        out = [XML_HEADER, SVG_START, f' width="{w}" height="{h}" viewBox="0 0 {w} {h}">\n',
               "<defs>\n</defs>\n"]
        for element in self.elements:
            element.write(out)
            out.append("\n")
        out.append("</svg>")
        return "".join(out)
