"""The base game's words that messages name as details (service/engine/text.py `word`), marked
for the catalogues: the currencies and the building types, in the rulebooks' vocabulary; the
sides of a tile and whether a side is walled (grid.py)."""

from ..text import w

CURRENCIES = (w("blue"), w("green"), w("orange"), w("yellow"))
BUILDING_TYPES = (w("pavilion"), w("seraglio"), w("arcades"), w("chambers"), w("garden"), w("tower"))
SIDES = (w("N side"), w("E side"), w("S side"), w("W side"))
WALLS = (w("walled"), w("open"))
# An empty list as a detail (text.NONE).
EMPTY = w("none")
