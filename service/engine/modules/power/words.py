"""The Buildings of Power's words that the pictures and the command line name
(service/engine/text.py `word`), marked for the catalogues: the names of its state's fields, of its
tally and of its scoring line, and the powers its tiles name (a module part is drawn field by field,
service/render/scene.py)."""

from ...text import w

POWERS = (w("architecture"), w("wisdom"), w("strength"), w("prosperity"))
FIELDS = (w("above"), w("black"), w("choices"), w("chooser"), w("currency"), w("drawn"), w("drawn size"),
          w("due"), w("hidden"), w("options"), w("owner"), w("roll"), w("second"), w("tile"),
          w("used white"), w("using"), w("white"), w("white out"), w("black pips"), w("dice"),
          w("exhaustive"), w("power"))
