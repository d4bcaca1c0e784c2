"""The Thieves's words that the pictures and the command line name (service/engine/text.py `word`),
marked for the catalogues: the names of its state's fields (a module part is drawn field by field,
service/render/scene.py)."""

from ...text import w

FIELDS = (w("ended"), w("hands"), w("last"), w("out"), w("played"), w("window"))
