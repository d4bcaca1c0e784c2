"""New Building Grounds (RULES.md §G, seed 001): building sites in the bag; whoever buys one
chooses a building under construction from the column of the site's number, and the pair is one
tile of that building's type with the site's walls. A site that reaches Dirk takes the top
building of its column.

Where the rulebook is silent (gathered in docs/decisions.md, "New Building Grounds"):
- the top of a column is its first element (the building next to the number tile);
- a bought site's building is chosen before anything else happens (a pending decision of the
  buyer, so before an exact payment's extra action and before a gift to Dirk, which then takes
  the chosen building with the site);
- several leftover sites at the end are chosen for in seat order from the player whose turn
  ended the game; a leftover site removed from the game (tie) takes no building;
- a site without a building (its column was empty) is a tile of no type: it counts for no
  majority, and only its walls matter.
"""
