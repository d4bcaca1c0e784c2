"""The base game's words that messages name as details (service/engine/text.py `word`), marked
for the catalogues: the currencies and the building types, in the rulebooks' vocabulary."""

from ..text import w

CURRENCIES = (w("blue"), w("green"), w("orange"), w("yellow"))
BUILDING_TYPES = (w("pavilion"), w("seraglio"), w("arcades"), w("chambers"), w("garden"), w("tower"))
