"""The toy's one number (a real module reads its numbers from `data/<id>.json`)."""

BOW_STEP = 20  # before the refills (30): the toy's place in the end-of-turn order
