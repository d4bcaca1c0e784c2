"""The Change (RULES.md §K, seed 003): a player who pays more than the price for a building
draws one random coin from the coin bag for every 2 units overpaid (change.give). A coin is
worth 1 of its currency and pays wherever money is paid, alone or with cards of its currency
(a building's `coins`, a treasure room's `coins`), never where cards are required (extensions);
spent coins go back in the bag (change.spend). Coins count as money for the leftover tiles at
the end (change.count) and for the hidden tiles of Buildings of Power (power.end-hidden).

Base changes: the generic hooks `payment_values` (money in a payment that is no card),
`overpaid` (run by a building purchase that pays more than the reduced price) and `money_held`
(money beyond the hand, counted by `base.turn.richest`).

Nothing is hidden: the bag is kept sorted and a coin is drawn from it at random with the game's
generator; the players' coins are visible (RULES.md §1).
"""
