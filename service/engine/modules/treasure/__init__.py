"""The Treasure Chamber (RULES.md §R, seed 004): a new action buys the 4 chests of one room of
the treasure chamber for money worth at least 8 in any currencies. The buyer puts every chest
they can on their own buildings of its colour (the Alhambra and buildings bought this turn, one
chest per building); the rest pass round the table to the left (with two players to Dirk first,
who takes his at once): each receiver who can place some chooses their buildings (place-chests),
and what nobody can place goes back in the bag. Then the room is refilled from the bag. A chest
whose building leaves the Alhambra (or whose held building goes to the reserve or to Dirk) goes
back in the bag. Chests score by their number, ranked like the buildings.

Hidden information: the order of the chests in the bag (`TreasureState.bag`).
"""
