"""The Walls (RULES.md §W, seed 003): wall cards in the money piles, set aside when drawn, and
added as wooden walls to one tile of a player's Alhambra or reserve."""
