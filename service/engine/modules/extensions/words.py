"""The Extensions's words that the pictures and the command line name (service/engine/text.py
`word`), marked for the catalogues: the names of its state's fields and of its tally (a module part
is drawn field by field, service/render/scene.py)."""

from ...text import w

FIELDS = (w("board"), w("extended"), w("extensions"))
