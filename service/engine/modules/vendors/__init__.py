"""Street Vendors and Inhabitants (RULES.md §V, seed 003): each player's vendor disc carries three
inhabitants; placing a building on the disc's space lets an inhabitant of its colour move in (or
swaps one with the supply); the disc is then put down next to the Alhambra. Inhabitants on
buildings score in sets of different colours.

Hidden information: the setup choices (the three inhabitants of a disc, its space, and so the
supply's colours) until every player has chosen (`model.seen`)."""
