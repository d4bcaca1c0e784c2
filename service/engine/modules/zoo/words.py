"""The zoo's words that messages name as details (service/engine/text.py `word`), marked for the
catalogues: the animals' kinds (data/zoo.json) and the animals themselves."""

from ...text import w

KINDS = (w("monkey"), w("pigeon"), w("cheetah"), w("camel"), w("peacock"), w("flamingo"), w("turtle"),
         w("elephant"))
ANIMALS = w("animals")
# The names of its state's fields, of its tally and of its scoring line (a module part is drawn
# field by field, service/render/scene.py).
FIELDS = (w("discarded"), w("removed"), w("removed size"), w("supply"), w("supply size"), w("zoo"))
