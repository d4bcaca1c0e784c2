"""The Palace Staff's words that the pictures and the command line name (service/engine/text.py
`word`), marked for the catalogues: the names of its state's fields, of its tally and of its scoring
line (a module part is drawn field by field, service/render/scene.py)."""

from ...text import w

FIELDS = (w("display"), w("marshals"), w("pile"), w("pile size"), w("steps"), w("staff"), w("unserved"))
