"""How wide a text is drawn: the advance widths of DejaVu Sans, the font the pictures name first
(palette.FONT; Verdana, named next, was its model and runs as wide), so a piece that must hold
its text (a tile, a badge) is made to.

The widths are those of DejaVu Sans 2.37 and DejaVu Sans Bold (Debian's fonts-dejavu-core), in
1/2048 em as each font's `hmtx` table gives them through its `cmap`, for the characters 32-126,
160-255 and the few others the pictures write (em dash, ellipsis, minus, the turn arrow, the
marker triangle, times). A character outside them is counted as 1 em, as wide as an ideograph,
wider than nearly any of those above: its glyph comes from another font. Kerning is not
counted; tests/render/test_tile_labels.py measures what resvg inks, kerning included, and finds
every tile's labels within it.
"""

from __future__ import annotations

import math

UNITS = 2048
_CHARS = ("".join(map(chr, range(32, 127))) + "".join(map(chr, range(0xA0, 0x100)))
          + "\u2014\u2026\u2212\u21bb\u25b6\u00d7")
_UNKNOWN = 1.0  # em


def _widths(numbers: str) -> dict[str, float]:
    widths = [int(n) / UNITS for n in numbers.split()]
    assert len(widths) == len(_CHARS)
    return dict(zip(_CHARS, widths, strict=True))


_BOOK = _widths("""
    651 821 942 1716 1303 1946 1597 563 799 799 1024 1716 651 739 651 690 1303 1303 1303 1303 1303
    1303 1303 1303 1303 1303 690 690 1716 1716 1716 1087 2048 1401 1405 1430 1577 1294 1178 1587
    1540 604 604 1343 1141 1767 1532 1612 1235 1612 1423 1300 1251 1499 1401 2025 1403 1251 1403
    799 690 799 1716 1024 1024 1255 1300 1126 1300 1260 721 1300 1298 569 569 1186 569 1995 1298
    1253 1300 1300 842 1067 803 1298 1212 1675 1212 1212 1075 1303 690 1303 1716 651 821 1303 1303
    1303 1303 690 1024 1024 2048 965 1253 1716 739 2048 1024 1024 1716 821 821 1024 1303 1303 651
    1024 821 965 1253 1985 1985 1985 1087 1401 1401 1401 1401 1401 1401 1995 1430 1294 1294 1294
    1294 604 604 604 604 1587 1532 1612 1612 1612 1612 1612 1716 1612 1499 1499 1499 1499 1251
    1239 1290 1255 1255 1255 1255 1255 1255 2011 1126 1260 1260 1260 1260 569 569 569 569 1253
    1298 1253 1253 1253 1253 1253 1716 1253 1298 1298 1298 1298 1212 1300 1212 2048 2048 1716 1716
    1575 1716
""")

_BOLD = _widths("""
    713 934 1067 1716 1425 2052 1786 627 936 936 1071 1716 778 850 778 748 1425 1425 1425 1425
    1425 1425 1425 1425 1425 1425 819 819 1716 1716 1716 1188 2048 1585 1561 1503 1700 1399 1399
    1681 1714 762 762 1587 1305 2038 1714 1741 1501 1741 1577 1475 1397 1663 1585 2259 1579 1483
    1485 936 748 936 1716 1024 1024 1382 1466 1214 1466 1389 891 1466 1458 702 702 1362 702 2134
    1458 1407 1466 1466 1010 1219 979 1458 1335 1892 1321 1335 1192 1458 748 1458 1716 713 934
    1425 1425 1303 1425 748 1024 1024 2048 1155 1323 1716 850 2048 1024 1024 1716 897 897 1024
    1507 1303 778 1024 897 1155 1323 2120 2120 2120 1188 1585 1585 1585 1585 1585 1585 2222 1503
    1399 1399 1399 1399 762 762 762 762 1716 1714 1741 1741 1741 1741 1741 1716 1741 1663 1663
    1663 1663 1483 1511 1473 1382 1382 1382 1382 1382 1382 2146 1214 1389 1389 1389 1389 702 702
    702 702 1407 1458 1407 1407 1407 1407 1407 1716 1407 1458 1458 1458 1458 1335 1466 1335 2048
    2048 1716 1716 1575 1716
""")


def advance(text: str, size: float, bold: bool = False) -> float:
    """The width of `text` at `size` px, in px."""
    widths = _BOLD if bold else _BOOK
    return sum(widths.get(c, _UNKNOWN) for c in text) * size


def fitted(text: str, size: int, width: float, bold: bool = False, least: int = 6) -> tuple[str, int]:
    """`text` and the largest font size up to `size` at which it is at most `width` wide; at
    `least` px it is cut short (an ellipsis ends it) rather than made smaller."""
    while size > least and advance(text, size, bold) > width:
        size -= 1
    if advance(text, size, bold) <= width:
        return text, size
    cut = text
    while cut and advance(cut + "\u2026", size, bold) > width:
        cut = cut[:-1]
    return (cut + "\u2026" if cut else ""), size


def width_of(text: str, size: float, bold: bool = False) -> int:
    """`advance` in whole pixels, rounded up."""
    return math.ceil(advance(text, size, bold))
