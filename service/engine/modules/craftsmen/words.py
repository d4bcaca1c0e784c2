"""The Travelling Craftsmen's words that messages name as details (service/engine/text.py
`word`), marked for the catalogues: the kinds of craftsman."""

from ...text import w

KINDS = (w("mosaic-artist"), w("carpenter"), w("blacksmith"), w("goldsmith"), w("coiner"),
         w("mortar-mixer"), w("builder"), w("brickmaker"), w("stonemason"))
