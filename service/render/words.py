"""The words the pictures name that are not messages (service/engine/text.py `word`), marked for
the catalogues: the fountain on its tile, the base game's scoring lines and what they count, the
parts of a tally. The currency names, the tokens' badges and the per-seat captions are marked
where they are listed (palette.py)."""

from service.engine.text import w

TILES = (w("fountain"),)
SCORING = (w("wall"), w("count"), w("place"), w("length"), w("buildings"))
