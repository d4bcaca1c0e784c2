"""The Travelling Craftsmen's words that messages name as details (service/engine/text.py
`word`), marked for the catalogues: the kinds of craftsman."""

from ...text import w

KINDS = (w("mosaic-artist"), w("carpenter"), w("blacksmith"), w("goldsmith"), w("coiner"),
         w("mortar-mixer"), w("builder"), w("brickmaker"), w("stonemason"))
# The names of its state's fields (a module part is drawn field by field, service/render/scene.py).
FIELDS = (w("face up"), w("face down"), w("out"), w("out size"), w("own face down"), w("passing"), w("used"))
