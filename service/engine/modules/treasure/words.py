"""The Treasure Chamber's words that the pictures and the command line name (service/engine/text.py
`word`), marked for the catalogues: the names of its state's fields, of its tally and of its scoring
line (a module part is drawn field by field, service/render/scene.py)."""

from ...text import w

FIELDS = (w("bag"), w("bag size"), w("closed"), w("passing"), w("receiver"), w("room"), w("rooms"),
          w("treasure"))
