"""A whole picture: the header, the market and the money display, the module parts, one panel
per player (Alhambra, hand, reserve, held tiles, what a module keeps per seat) and the scores.

States, views and scoring positions are first read into `Seat`s and parts, so the three are
drawn by the same code. Module parts are drawn field by field from their structs: a module
added to the engine is drawn without a change here (`palette` says which fields are per seat).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from service.engine.catalogue import NEIGHBOURS
from service.engine.flow import ToAct
from service.engine.module import registered
from service.engine.state import Dirk, MarketSpace, PlacedTile, RankEntry, Tile, market_tile
from service.engine.text import t, tn, word

from . import palette
from . import svg as draw
from .layout import Box, attrs, flow, framed, label, placed, row, say, stack, titled
from .pieces import card_back, card_box, chip, empty_space, marker, size_for, tile_box

ALHAMBRA_SIZES = (72, 88, 104)  # pixels a side, the first at which every tile's tokens fit
SMALL_SIZES = (60, 76, 92)
SMALL_TILE = SMALL_SIZES[0]
PAGE_WIDTH = 1240
TEXT_WIDTH = 520  # where long lines of a module's part wrap


@dataclass(frozen=True)
class Marker:
    x: int
    y: int
    letter: str
    module: str
    tooltip: str


@dataclass(frozen=True)
class Seat:
    """One player as drawn: what every kind of input (state, view, position) says of them."""

    index: int
    name: str
    score: int
    alhambra: tuple[PlacedTile, ...]
    reserve: tuple[Tile, ...] = ()
    held: tuple[Tile, ...] = ()
    hand: tuple[str, ...] | None = None  # None: hidden (only its size shows)
    hand_size: int = 0
    show_hand: bool = True
    active: bool = False
    extras: tuple[tuple[str, Any], ...] = ()  # (caption, value) of modules' per-seat parts
    markers: tuple[Marker, ...] = ()
    before_round: bool = False  # the score is the points before a scoring round


# --- module parts -------------------------------------------------------------------------------


def module_parts(obj: Any) -> list[tuple[str, str, Any]]:
    """(module id, module name, part) for every module part `obj` (a state or a view) holds:
    a module's part is the field named after it."""
    out = []
    for m in registered():
        part = getattr(obj, m.id, None)
        if isinstance(part, msgspec.Struct) and m.id not in palette.OWN_PANEL:
            out.append((m.id, m.name, part))
    return out


def per_seat(parts: Sequence[tuple[str, str, Any]], seats: int
             ) -> tuple[list[list[tuple[str, Any]]], list[list[Marker]]]:
    """The per-seat fields of the module parts (palette.PER_SEAT), by seat, and the markers
    among them that stand on a space of the seat's Alhambra."""
    extras: list[list[tuple[str, Any]]] = [[] for _ in range(seats)]
    markers: list[list[Marker]] = [[] for _ in range(seats)]
    for module_id, _, part in parts:
        for field, caption in palette.PER_SEAT.get(module_id, {}).items():
            values = getattr(part, field, ())
            for seat, value in enumerate(values[:seats]):
                if value is None:
                    continue
                extras[seat].append((word(caption), value))
                found = palette.MARKERS.get((module_id, field))
                if found is not None and isinstance(value, msgspec.Struct):
                    letter, when = found
                    if when is None or getattr(value, when, False):
                        at = t("{what} at {x},{y}", what=word(caption), x=value.x, y=value.y)  # type: ignore[attr-defined]
                        markers[seat].append(Marker(value.x, value.y, letter, module_id, at))  # type: ignore[attr-defined]
    return extras, markers


def _is_empty(value: Any) -> bool:
    return value is None or value is False or value == () or value == ""


def _inline(value: Any) -> str:
    if isinstance(value, tuple):
        return " ".join("\u2014" if v is None else _inline(v) for v in value)
    if isinstance(value, msgspec.Struct):
        return ", ".join(f"{_caption(k)} {_inline(v)}" if v is not True else _caption(k)
                         for k in value.__struct_fields__ if not _is_empty(v := getattr(value, k)))
    return str(value)


def _caption(field: str) -> str:
    """A module part's field as the picture names it: its words, translated where a catalogue
    has them (a module's words.py may mark its fields' names)."""
    return say(word(field.replace("_", " ")))


def _wrapped(text: str, size: int = 11) -> Box:
    """Text broken at spaces into lines of at most TEXT_WIDTH."""
    per_line = max(20, int(TEXT_WIDTH / (size * 0.6)))
    lines: list[str] = [""]
    for piece in text.split(" "):
        if lines[-1] and len(lines[-1]) + 1 + len(piece) > per_line:
            lines.append("")
        lines[-1] = f"{lines[-1]} {piece}" if lines[-1] else piece
    return stack([label(line, size) for line in lines], gap=1)


def value_box(value: Any, width: int = TEXT_WIDTH) -> Box | None:
    """A value of a module's part: ids as coloured chips, structs field by field, lists of
    lists one row each, anything else as text."""
    if _is_empty(value):
        return None
    if value is True:  # a flag held per seat (a craftsman face down): said, not `True`
        return label(t("yes"), 11)
    if isinstance(value, msgspec.Struct):
        return fields_box(value, width)
    if isinstance(value, tuple):
        if all(v is None or isinstance(v, str) for v in value):
            return flow([chip("\u2014" if v is None else v) for v in value], width, gap=3)
        if all(isinstance(v, tuple) for v in value):
            rows = [row([label(f"{i + 1}", 11, colour=palette.MUTED),
                         value_box(v, width - 20) or label(t("(empty)"), 11, colour=palette.MUTED)],
                        gap=6, middle=True) for i, v in enumerate(value)]
            return stack(rows, gap=3)
        return stack([_wrapped(_inline(v)) for v in value], gap=2)
    if isinstance(value, str):
        return chip(value)
    return label(str(value), 11)


def fields_box(part: msgspec.Struct, width: int = TEXT_WIDTH, skip: Iterable[str] = ()) -> Box | None:
    """Every field of a struct that holds something, each under its name."""
    skipped = set(skip)
    boxes: list[Box] = []
    scalars: list[str] = []  # flags and numbers share one line
    for name in part.__struct_fields__:
        value = getattr(part, name)
        if name in skipped or _is_empty(value):
            continue
        caption = _caption(name)
        if value is True:
            scalars.append(caption)
        elif isinstance(value, int | float):
            scalars.append(f"{caption}: {value}")
        else:
            boxes.append(titled(caption, value_box(value, width)))  # type: ignore[arg-type]
    if scalars:
        boxes.append(_wrapped(" \u00b7 ".join(scalars)))
    return stack(boxes, gap=5) if boxes else None


def module_panel(module_id: str, name: str, part: msgspec.Struct) -> Box | None:
    content = fields_box(part, skip=palette.PER_SEAT.get(module_id, {}))
    if content is None:
        return None
    return framed(content, label(name, 13, bold=True), class_="module", data_module=module_id)


# --- players -------------------------------------------------------------------------------------


def alhambra_box(alhambra: Sequence[PlacedTile], markers: Sequence[Marker] = ()) -> Box:
    """The Alhambra on its grid, with the free spaces around it (where tiles may go); tiles
    grow when one of them carries more tokens than a tile of the usual size can show."""
    size = size_for(alhambra, ALHAMBRA_SIZES)
    taken = {(t.x, t.y) for t in alhambra}
    free = {(x + dx, y + dy) for x, y in taken for dx, dy, _, _ in NEIGHBOURS} - taken
    free |= {(m.x, m.y) for m in markers} - taken
    cells = taken | free or {(0, 0)}
    left = min(x for x, _ in cells)
    top = min(y for _, y in cells)
    width = (max(x for x, _ in cells) - left + 1) * size
    height = (max(y for _, y in cells) - top + 1) * size
    group = draw.Group(**attrs(class_="alhambra"))
    for x, y in sorted(free, key=lambda p: (p[1], p[0])):
        group.append(placed(empty_space(size, x, y), (x - left) * size, (y - top) * size))
    for tile in sorted(alhambra, key=lambda t: (t.y, t.x)):
        group.append(placed(tile_box(tile, size), (tile.x - left) * size, (tile.y - top) * size))
    for m in markers:
        box = marker(m.letter, size, m.module, m.tooltip)
        group.append(placed(box, (m.x - left + 1) * size - box.width - 3,
                            (m.y - top) * size + size // 2 - box.height // 2))
    return Box(group, width, height)


def tiles_row(tiles: Sequence[Tile], width: int) -> Box | None:
    if not tiles:
        return None
    size = size_for(tiles, SMALL_SIZES)
    return flow([tile_box(t, size) for t in tiles], width, gap=4)


def hand_box(seat: Seat, width: int) -> Box | None:
    if not seat.show_hand:
        return None
    if seat.hand is None:
        backs = [card_back(22) for _ in range(min(seat.hand_size, 12))]
        text = label(tn("{n} card (hidden)", "{n} cards (hidden)", seat.hand_size), 11,
                     colour=palette.MUTED)
        return titled(t("hand"), row([*backs, text], 3, middle=True))
    if not seat.hand:
        return titled(t("hand"), label(t("no cards"), 11, colour=palette.MUTED))
    return titled(t("hand"), flow([card_box(c, 26) for c in seat.hand], width, gap=3))


def player_panel(seat: Seat) -> Box:
    grid = alhambra_box(seat.alhambra, seat.markers)
    width = max(grid.width, 300)
    extras = [titled(caption, value_box(value, width)) for caption, value in seat.extras]
    content = stack([
        grid,
        hand_box(seat, width),
        *extras,
        titled(t("reserve"), tiles_row(seat.reserve, width)),
        titled(t("to place"), tiles_row(seat.held, width)),
    ], gap=8)
    mark = "\u25b6 " if seat.active else ""
    score = (tn("{player} \u00b7 {n} point before this round", "{player} \u00b7 {n} points before this round",
                seat.score, player=seat.name) if seat.before_round
             else tn("{player} \u00b7 {n} point", "{player} \u00b7 {n} points", seat.score, player=seat.name))
    return framed(content, label(mark + say(score), 15, bold=True), min_width=width,
                  stroke=palette.ACTIVE if seat.active else palette.FRAME,
                  stroke_width=3 if seat.active else 1, class_="player", data_seat=seat.index)


def dirk_panel(dirk: Dirk) -> Box:
    content = tiles_row(dirk.tiles, 6 * (SMALL_TILE + 4)) or label(t("no tiles"), 11)
    title = tn("{player} \u00b7 {n} point", "{player} \u00b7 {n} points", dirk.score, player=dirk.name)
    return framed(content, label(title, 15, bold=True),
                  class_="player dirk")


# --- the common parts ------------------------------------------------------------------------------


def market_panel(market: Sequence[MarketSpace]) -> Box:
    spaces = []
    size = size_for([market_tile(s) for s in market if s.tile is not None], SMALL_SIZES)
    for space in market:
        colour = palette.CURRENCIES.get(space.currency, palette.NEUTRAL)
        name = palette.CURRENCY_NAMES.get(space.currency, space.currency)
        inner = (tile_box(market_tile(space), size) if space.tile is not None
                 else label(t("empty"), 11, colour=palette.MUTED))
        caption = t("{colour} ({currency})", colour=space.currency, currency=word(name))
        box = framed(inner, label(caption, 11, bold=True), pad=6,
                     stroke=colour, stroke_width=4, min_width=size,
                     class_="market-space", data_currency=space.currency)
        spaces.append(box)
    return framed(row(spaces, 8), label(t("Building market"), 13, bold=True), class_="market")


def display_panel(display: Sequence[str], discard: int, deck: int) -> Box:
    cards = row([card_box(c, 32) for c in display], 5) if display else label(t("empty"), 11)
    counts = label(t("deck {deck} \u00b7 discard pile {discard}", deck=deck, discard=discard), 11,
                   colour=palette.MUTED)
    return framed(stack([cards, counts], 6), label(t("Money display"), 13, bold=True),
                  class_="display")


def ranking_panel(ranking: Sequence[RankEntry], title: str = t("Ranking")) -> Box | None:
    if not ranking:
        return None
    lines = [label(f"{r.place}. {r.name} \u00b7 {r.score}", 13) for r in ranking]
    return framed(stack(lines, 3), label(title, 13, bold=True), class_="ranking")


def turn_text(who: ToAct, phase: str) -> str:
    """Who must act (the engine's `to_act`), as a line of the header."""
    if phase == "over" or not who.actors:
        return t("the game is over")
    first, *others = who.actors
    step = t("final placement") if phase == "final-placement" else t("play")
    parts = [t("{step} \u00b7 {player} to act ({rule})", step=step, player=first.player, rule=first.rule)]
    if first.kind == "turn":
        parts.append(tn("{n} action left", "{n} actions left", first.actions_left))
    if others:
        parts.append(t("may act out of turn: {players}", players=tuple(a.player for a in others)))
    return " \u00b7 ".join(say(p) for p in parts)


def header(title: str, lines: Sequence[str]) -> Box:
    return stack([label(title, 18, bold=True), *(label(line, 12, colour=palette.MUTED)
                                                 for line in lines if line)], gap=4)


def page(parts: Iterable[Box | None]) -> str:
    """The finished SVG document: the boxes one under the other on the page's paper."""
    body = stack(parts, gap=14)
    width, height = body.width + 32, body.height + 32
    drawing = draw.Drawing(width, height)
    drawing.append(draw.Rectangle(0, 0, width, height, fill="#efe8da"))
    root = draw.Group(font_family=palette.FONT, transform="translate(16,16)")
    root.append(body.element)
    drawing.append(root)
    # Characters XML 1.0 forbids even escaped (control characters): the picture stays XML
    # whatever text reaches it (names are refused with them; this is the last guard).
    return _NOT_XML.sub("\ufffd", str(drawing.as_svg()))


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


# --- scores -----------------------------------------------------------------------------------------


def line_caption(line: Any) -> str:
    """A scoring line's caption: its building type, or its kind (the line's tag), as a word."""
    return say(word(str(getattr(line, "building", None) or line.__struct_config__.tag)))


def line_detail(name: str, value: Any) -> str:
    """A field of a scoring line as a detail of its points (`animals 3`, `sets 2+1`): the
    field's name as a word (a module's words.py gives it to the catalogues); the command line's
    score table says them alike."""
    if value is True:
        return say(word(name))
    if value is False:
        return say(t("not {what}", what=word(name)))
    if isinstance(value, tuple):
        return f"{say(word(name))} {'+'.join(map(str, value)) or say(t('none'))}"
    return f"{say(word(name))} {value}"


def line_cell(line: Any) -> str:
    """The points of a scoring line, and in brackets what earned them (count, place, length...)."""
    details = [line_detail(k, getattr(line, k)) for k in line.__struct_fields__
               if k not in ("points", "building") and getattr(line, k) is not None]
    return f"{line.points} ({', '.join(details)})" if details else str(line.points)


def breakdown_panel(breakdown: Any, scores_before: Sequence[int]) -> Box:
    """A scoring round as a table: one column per player, one row per scoring line."""
    players = breakdown.players
    running = {r.name: r.score for r in breakdown.ranking}
    rows: list[list[str]] = [["", *(p.name for p in players)]]
    rows.append([say(t("before")), *(str(s) for s in scores_before)])
    for i, line in enumerate(players[0].lines if players else ()):
        rows.append([line_caption(line), *(line_cell(p.lines[i]) for p in players)])
    rows.append([say(t("round total")), *(str(p.total) for p in players)])
    rows.append([say(t("running score")), *(str(running.get(p.name, "")) for p in players)])
    widths = [max(len(r[c]) for r in rows) * 7 + 14 for c in range(len(rows[0]))]
    group = draw.Group(**attrs(class_="breakdown"))
    for r, cells in enumerate(rows):
        bold = r == 0 or r >= len(rows) - 2
        x = 0
        for c, text in enumerate(cells):
            group.append(draw.Text(text, 12, x + (widths[c] - 8 if c else 0), 16 * r + 12,
                                   fill=palette.INK, text_anchor="end" if c else "start",
                                   font_weight="bold" if bold else None))
            x += widths[c]
    table = Box(group, sum(widths), 16 * len(rows))
    return framed(table, label(t("Scoring round {round}", round=breakdown.round), 13, bold=True))
