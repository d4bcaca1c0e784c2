"""The look of the game as data: colours of currencies, buildings and tokens, and labels.

A new module needs no drawing code: its tile tokens get a badge from `TOKENS` (or a grey one
named after the field), its state part is drawn field by field, and the fields held per seat
are listed in `PER_SEAT` (with `MARKERS` for those that stand on a space of the Alhambra).
"""

from __future__ import annotations

import functools
from types import MappingProxyType

from service.engine.modules.craftsmen.words import KINDS as CRAFTSMEN
from service.engine.text import w

# The money cards and market spaces (RULES.md §1: yellow florin, green dirham, blue denar,
# orange ducat).
CURRENCIES = MappingProxyType({
    "yellow": "#e8b92f", "green": "#3f8f3a", "blue": "#2f6db3", "orange": "#e0782a",
})
CURRENCY_NAMES = MappingProxyType({
    "yellow": w("florin"), "green": w("dirham"), "blue": w("denar"), "orange": w("ducat"),
})

# The building types by the colour of their roofs (RULES.md §1).
BUILDINGS = MappingProxyType({
    "pavilion": "#8cbbe8", "seraglio": "#d9534f", "arcades": "#a8743f",
    "chambers": "#f3efe6", "garden": "#79b865", "tower": "#9470c2",
})

# The zoo's animals (RULES.md §Z).
ANIMALS = MappingProxyType({
    "monkey": "#8b5a2b", "pigeon": "#9aa3ad", "cheetah": "#e0a526", "camel": "#c9a46a",
    "peacock": "#1f8a8a", "flamingo": "#ef7fa6", "turtle": "#6b8e23", "elephant": "#6c7a89",
})

# Values of a module's part that are game words: a chip shows them in the picture's language.
WORDS = frozenset({*BUILDINGS, *ANIMALS, *CRAFTSMEN})

# Anything else a chip may name (ids are split at '-' and the first known part gives the
# colour: `coin-blue-3` is blue, `extension-garden-1` green, `thief-orange-2` orange).
OTHER = MappingProxyType({
    "fountain": "#dccca5", "site": "#cfc6b6", "wall": "#7a5230", "scoring": "#f5f0dc",
    "chest": "#d4a017",
})

# The players' lines on a score sheet's chart, in seat order (told apart by hue and lightness).
PLAYERS = ("#2f6db3", "#d9534f", "#3f8f3a", "#e0782a", "#7b4fb0", "#8b5a2b", "#4a4a4a")

FOUNTAIN_WATER = "#5aa0d8"
EMPTY = "#f7f4ee"
NEUTRAL = "#e4ded2"
INK = "#222222"
MUTED = "#6b6257"
FRAME = "#b9ab95"
ACTIVE = "#c8901c"
PRINTED_WALL = "#2b1a0e"
ADDED_WALL = "#c46a12"
CARD_BACK = "#6d5a8d"
PAPER = "#fbf8f1"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# Tile tokens (fields of state.Tile): label (`{v}` is the value, or each item of a list) and
# fill; "building" takes the colour of the tile's building type, "item" the item's own colour.
TOKENS = MappingProxyType({
    "animals": ("{v}", "item"),
    "chest": (w("chest"), "#d4a017"),
    "servant": (w("servant"), "building"),
    "inhabitant": (w("inhabitant"), "building"),
    "extension": (w("extension"), "#4a4a4a"),
    "die": (w("die {v}"), "#ffffff"),
    "construction": ("{v}", "item"),
    "leftover": (w("leftover"), "#b0a999"),
})
# Tokens drawn as part of the tile rather than as a badge.
DRAWN_TOKENS = frozenset({"added_walls", "rotation"})

# Fields of a module's state holding one entry per seat (drawn with that player), and how to
# call them there (game words, translated as such).
PER_SEAT = MappingProxyType({
    "craftsmen": {"face_up": w("craftsmen"), "face_down": w("craftsman face down")},
    "staff": {"marshals": w("court marshal")},
    "thieves": {"hands": w("thieves")},
    "vendors": {"discs": w("vendor disc")},
    "change": {"coins": w("coins")},
})

# Module parts drawn in a panel of their own rather than field by field (Dirk's tiles).
OWN_PANEL = frozenset({"dirk"})

# Per-seat entries that stand on a space of the player's Alhambra (a struct with x and y):
# the marker's letter, and the field that must be true for it to stand anywhere (or None).
MARKERS = MappingProxyType({
    ("staff", "marshals"): ("M", None),
    ("vendors", "discs"): ("V", "chosen"),
})


def luminance(colour: str) -> float:
    """Relative luminance of a #rrggbb colour (WCAG), to pick dark or light text on it."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


@functools.lru_cache(maxsize=256)  # the palette's colours: a few dozen
def text_on(fill: str) -> str:
    """Black or white text, whichever reads better on `fill`."""
    return INK if luminance(fill) > 0.22 else "#ffffff"


_ALL = {**CURRENCIES, **BUILDINGS, **ANIMALS, **OTHER}


def colour_of(name: str, default: str = NEUTRAL) -> str:
    """The colour of an id by its first part that names a currency, building, animal, ..."""
    for part in name.split("-"):
        found = _ALL.get(part)
        if found is not None:
            return found
    return default
