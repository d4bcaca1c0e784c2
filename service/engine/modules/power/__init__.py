"""Buildings of Power (RULES.md §P, seed 000): twelve special tiles replace base tiles. Strength
and prosperity tiles get a die when bought: black dice let a second wall score, white dice lower
later prices. Architecture and wisdom may be used at the end of the turn they were bought (the
player may decline): the red die says how many tiles (or money cards) to draw; one must be
hidden under a market tile (or kept), the rest go back on top in the player's order (all of
them only when no market tile can take one, or when a drawn scoring card is resolved instead).
Hidden tiles still on the market at the end go to the two richest in that currency."""
