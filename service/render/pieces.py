"""The game's pieces as boxes: tiles with their walls and tokens, money cards, chips, markers.

Pieces carry `class` and `data-*` attributes naming what they show (`data-tile`, `data-card`,
`data-side`), so a test or a script can find them in the SVG.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from service.engine.catalogue import CATALOGUE, FOUNTAIN, SIDE_BIT, SIDES, parse_walls, walls_text
from service.engine.grid import rotate
from service.engine.state import TOKENS, Tile, has_tokens
from service.engine.text import word

from . import palette
from . import svg as draw
from .layout import Box, attrs, flow, flow_lines, placed, say
from .metrics import advance, fitted, width_of

_TILE_DEFAULTS = {f: getattr(Tile(tile=""), f) for f in TOKENS}


def building_of(tile: Tile) -> str | None:
    """The building type the tile shows: its own, or the one built on a building site."""
    if tile.construction is not None:
        return tile.construction
    found = CATALOGUE.tiles.get(tile.tile)
    return found.type if found else None


def printed_walls(tile_id: str) -> int:
    found = CATALOGUE.tiles.get(tile_id)
    return found.walls if found else 0


def _names(tile_id: str) -> tuple[str, str, str]:
    """(kind, price, what else the id says): `tower-9-NE-strength` -> tower, 9, strength;
    `site-3-9-NE` -> site 3, 9, ''."""
    found = CATALOGUE.tiles.get(tile_id)
    if found is None:
        return tile_id, "", ""
    parts = tile_id.split("-")
    price = str(found.price)
    walls = walls_text(found.walls)
    at = parts.index(price, 1) if price in parts[1:] else len(parts)
    kind = " ".join(parts[:at])
    rest = [p for p in parts[at + 1:] if p != walls]
    return kind, price, " ".join(rest)


def _site(kind: str) -> str:
    """A building site (`site 3`, New Building Grounds) with the word `site` in the picture's
    language; any other kind as its id says it."""
    first, *rest = kind.split(" ")
    return " ".join([say(word(first)), *rest]) if first == "site" else kind


def _badges(tile: Tile) -> list[tuple[str, str, str]]:
    """(text, fill, token field) for each token on the tile that is not drawn as part of it."""
    out: list[tuple[str, str, str]] = []
    building = building_of(tile)
    for field in TOKENS:
        value = getattr(tile, field)
        if field in palette.DRAWN_TOKENS or value == _TILE_DEFAULTS[field]:
            continue
        text, fill = palette.TOKENS.get(field, (field + (" {v}" if value is not True else ""),
                                                palette.NEUTRAL))
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            colour = fill
            if fill == "building":
                colour = palette.BUILDINGS.get(building or "", palette.NEUTRAL)
            elif fill == "item":
                colour = palette.colour_of(str(item))
            # the token's name and an item that is a game word (an animal, a building type) in
            # the picture's language
            out.append((say(word(text)).format(v=say(word(str(item)))), colour, field))
    return out


def badge_width(text: str, size: int, most: int | None = None) -> int:
    """The width of a badge: its text and 2 px either side; at most `most`."""
    width = width_of(text, size) + 4
    return width if most is None else min(width, most)


def badge(text: str, fill: str, size: int = 10, most: int | None = None, **extra: Any) -> Box:
    """A label on a rounded patch of `fill`, `size` px; no wider than `most` (its text made
    smaller to fit, or cut short), as high as at `size`."""
    width = badge_width(text, size, most)
    font = size
    if width_of(text, size) + 4 > width:
        text, font = fitted(text, size, width - 4)
    height = size + 4
    group = draw.Group(**attrs(**extra))
    group.append(draw.Rectangle(0, 0, width, height, rx=3, fill=fill, stroke=palette.INK,
                                stroke_width=0.5))
    group.append(draw.Text(text, font, 2, size, fill=palette.text_on(fill)))
    return Box(group, width, height)


def _wall_lines(group: Any, mask: int, size: int, kind: str, colour: str, inset: float) -> None:
    width = max(3, size // 11)
    off = inset + width / 2
    ends = {
        "N": (0, off, size, off), "E": (size - off, 0, size - off, size),
        "S": (0, size - off, size, size - off), "W": (off, 0, off, size),
    }
    for side in SIDES:
        if mask & SIDE_BIT[side]:
            x1, y1, x2, y2 = ends[side]
            group.append(draw.Line(x1, y1, x2, y2, stroke=colour, stroke_width=width,
                                   stroke_linecap="butt",
                                   **attrs(class_=f"wall {kind}", data_side=side)))


LEAST_BADGE = 7  # px: the smallest a tile's badges are made before some give way to a count


class _Metrics:
    """Where things go on a tile of `size` pixels: text lines on top, tokens below them, the
    position and rotation on the bottom line, all within the tile's edge (clear of its walls),
    their widths those DejaVu Sans draws (`metrics`). The tokens' badges are measured, not
    drawn (`tokens` draws them): choosing a size measures every tile at every size."""

    def __init__(self, tile: Tile, size: int) -> None:
        self.tile, self.size = tile, size
        self.small = min(11, max(9, size // 7))  # text keeps its size; big tiles hold more tokens
        self.edge = 3 + size // 16  # clear of the walls
        self.inner = size - 2 * self.edge  # the width between them
        kind, self.price, rest = _names(tile.tile)
        self.rest = say(word(rest)) if rest else ""  # a power's name (architecture...) as a word
        if tile.tile == FOUNTAIN:
            kind = "fountain"
        # a building type (or the fountain) in the picture's language; a tile of another kind
        # (a building site) by the words of its id
        self.kind = say(word(kind)) if kind in palette.BUILDINGS or kind == "fountain" else _site(kind)
        crowded = (advance(self.kind, self.small) + 4 + advance(self.price, self.small + 3, True)
                   > self.inner)
        self.price_line = 2 if self.price and crowded else 1
        self.lines = self.price_line + (1 if self.rest else 0)
        self.badge_size = 9 if size >= 64 else 8
        self.badges = _badges(tile)
        # under the text lines, clear of their descenders (a quarter of an em)
        self.top = self.edge + self.lines * (self.small + 2) + 3
        self.bottom = size - self.edge - self.small  # the bottom line's top

    def _height(self, badges: Sequence[tuple[str, str, str]], size: int) -> int:
        """How high the badges stack at `size`, as `tokens` flows them."""
        widths = [badge_width(text, size, self.inner) for text, _, _ in badges]
        lines = len(flow_lines(widths, self.inner, gap=2))
        return lines * (size + 4) + (lines - 1) * 2

    def fits(self) -> bool:
        return not self.badges or self.top + self._height(self.badges, self.badge_size) <= self.bottom

    def tokens(self) -> Box | None:
        """The badges flowed into the tile's width (None without tokens): at their size where
        they fit between the text lines, else smaller (down to LEAST_BADGE), else as many as
        fit and a last one counting the others (the tile's tooltip names them all)."""
        if not self.badges:
            return None
        room = self.bottom - self.top
        shown = list(self.badges)
        size = next((s for s in range(self.badge_size, LEAST_BADGE - 1, -1)
                     if self._height(shown, s) <= room), None)
        if size is None:
            size = LEAST_BADGE
            for keep in range(len(self.badges) - 1, -1, -1):
                shown = [*self.badges[:keep], (f"+{len(self.badges) - keep}", palette.NEUTRAL, "")]
                if self._height(shown, size) <= room:
                    break
            else:
                return None  # not even the count fits: the tooltip holds them
        drawn = [badge(text, colour, size, self.inner, class_="token" if field else "token more",
                       data_token=field or None)
                 for text, colour, field in shown]
        return flow(drawn, self.inner, gap=2)

    def bottom_line(self, rotation: int, x: int | None, y: int | None) -> tuple[str, str, int]:
        """The turn (left) and the position (right) of the bottom line, and their font size:
        one size, small enough that both fit side by side."""
        turned = f"\u21bb{rotation}" if rotation else ""
        at = f"{x},{y}" if x is not None else ""
        size = self.small - 1
        while size > 6 and (advance(turned, size) + advance(at, size) + (4 if turned and at else 0)
                            > self.inner):
            size -= 1
        return turned, at, size


def size_for(tiles: Sequence[Tile], sizes: Sequence[int]) -> int:
    """The first of `sizes` at which every tile's tokens fit between its text lines."""
    for size in sizes[:-1]:
        if all(_Metrics(t, size).fits() for t in tiles if has_tokens(t)):
            return size
    return sizes[-1]


def tile_box(tile: Tile, size: int = 64) -> Box:
    """A tile: the colour of its building, its kind and price, its walls (printed in dark brown,
    added ones in ochre, both turned with the tile), its position and its tokens as badges."""
    x, y = getattr(tile, "x", None), getattr(tile, "y", None)
    rotation = getattr(tile, "rotation", 0)
    building = building_of(tile)
    is_fountain = tile.tile == FOUNTAIN
    if is_fountain:
        fill = palette.OTHER["fountain"]
    else:
        fill = palette.BUILDINGS.get(building or "", palette.OTHER["site"])
    ink = palette.text_on(fill)
    group = draw.Group(**attrs(class_="tile", data_tile=tile.tile, data_x=x, data_y=y,
                               data_rotation=rotation or None))
    group.append(draw.Rectangle(0, 0, size, size, fill=fill, stroke=palette.FRAME, stroke_width=1))
    m = _Metrics(tile, size)
    small, edge = m.small, m.edge
    if is_fountain:
        group.append(draw.Circle(size / 2, size / 2, size / 5, fill=palette.FOUNTAIN_WATER,
                                 stroke="#ffffff", stroke_width=2))
    # As on the printed tiles: the price in a corner; the middle holds the tokens. Each text is
    # made smaller where it would not fit the tile's width (the kind beside its price, if on one
    # line), and cut short where even that would not do.
    beside = m.inner - 4 - advance(m.price, small + 3, True) if m.price_line == 1 else m.inner
    kind, kind_size = fitted(m.kind, small, beside)
    group.append(draw.Text(kind, kind_size, edge, edge + small, fill=ink))
    if m.price:
        group.append(draw.Text(m.price, small + 3, size - edge, edge + m.price_line * (small + 2) - 1,
                               fill=ink, font_weight="bold", text_anchor="end",
                               **attrs(class_="price")))
    if m.rest:
        rest, rest_size = fitted(m.rest, small - 1, m.inner)
        group.append(draw.Text(rest, rest_size, size / 2, edge + m.lines * (small + 2), fill=ink,
                               text_anchor="middle"))
    turned, at, line_size = m.bottom_line(rotation, x, y)
    if turned:
        group.append(draw.Text(turned, line_size, edge, size - edge, fill=ink,
                               **attrs(class_="rotation")))
    if at:
        group.append(draw.Text(at, line_size, size - edge, size - edge, fill=ink,
                               text_anchor="end", **attrs(class_="coords")))
    _wall_lines(group, rotate(printed_walls(tile.tile), rotation), size, "printed",
                palette.PRINTED_WALL, 0)
    if tile.added_walls:
        _wall_lines(group, rotate(parse_walls(tile.added_walls), rotation), size, "added",
                    palette.ADDED_WALL, 0)
    tokens = m.tokens()
    if tokens is not None:
        group.append(placed(tokens, edge, m.top))
    group.append(draw.Title(_tooltip(tile)))
    return Box(group, size, size)


def _tooltip(tile: Tile) -> str:
    """Everything about the tile in one line, as API.md writes it."""
    return msgspec.json.encode(tile).decode()


def empty_space(size: int, x: int, y: int) -> Box:
    """A free space next to the Alhambra, with its position (where a tile could go)."""
    group = draw.Group(**attrs(class_="space", data_x=x, data_y=y))
    group.append(draw.Rectangle(2, 2, size - 4, size - 4, fill="none", stroke=palette.FRAME,
                                stroke_dasharray="4 3"))
    small = min(11, max(9, size // 7))
    group.append(draw.Text(f"{x},{y}", small, size / 2, size / 2 + small / 3,
                           fill=palette.MUTED, text_anchor="middle"))
    return Box(group, size, size)


def marker(letter: str, size: int, module: str, tooltip: str) -> Box:
    """A figure standing on a space (a court marshal, a vendor disc)."""
    r = max(8, size // 7)
    group = draw.Group(**attrs(class_="marker", data_module=module))
    group.append(draw.Circle(r, r, r, fill="#ffffff", stroke=palette.INK, stroke_width=2))
    group.append(draw.Text(letter, r + 2, r, r + (r + 2) / 3, fill=palette.INK,
                           font_weight="bold", text_anchor="middle"))
    group.append(draw.Title(say(tooltip)))
    return Box(group, 2 * r, 2 * r)


def card_box(card: str, width: int = 30) -> Box:
    """A money card (its currency's colour and its value), or another card by its id."""
    height = width * 3 // 2
    money = CATALOGUE.money.get(card)
    fill = palette.CURRENCIES[money.currency] if money else palette.colour_of(card)
    group = draw.Group(**attrs(class_="card", data_card=card))
    group.append(draw.Rectangle(0, 0, width, height, rx=3, fill=fill, stroke=palette.INK,
                                stroke_width=0.75))
    ink = palette.text_on(fill)
    if money:
        group.append(draw.Text(str(money.value), width // 2 + 2, width / 2, height / 2 + width / 6,
                               fill=ink, font_weight="bold", text_anchor="middle"))
    else:
        lines = card.split("-", 1)
        group.append(draw.Text(lines, max(8, width // 4), width / 2, height / 3, fill=ink,
                               text_anchor="middle"))
    group.append(draw.Title(card))
    return Box(group, width, height)


def card_back(width: int = 30) -> Box:
    height = width * 3 // 2
    group = draw.Group(**attrs(class_="card-back"))
    group.append(draw.Rectangle(0, 0, width, height, rx=3, fill=palette.CARD_BACK,
                                stroke=palette.INK, stroke_width=0.75))
    group.append(draw.Rectangle(4, 4, width - 8, height - 8, rx=2, fill="none", stroke="#ffffff",
                                stroke_width=0.75))
    return Box(group, width, height)


def chip(text: str, size: int = 11, **extra: Any) -> Box:
    """An id or value shown as a small coloured label (its colour from the palette); a value
    that is a game word (a building type, an animal, a kind of craftsman) in the picture's
    language."""
    shown = say(word(text)) if text in palette.WORDS else text
    return badge(shown, palette.colour_of(text, palette.EMPTY), size, class_="chip", **extra)


__all__ = ["badge", "building_of", "card_back", "card_box", "chip", "empty_space", "marker",
           "printed_walls", "tile_box"]
