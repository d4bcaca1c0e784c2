"""The Walls (RULES.md §W, seed 003): eight wall cards are shuffled into the money piles 2 to 5.
A wall card turned up by any draw is set aside face up beside the display (drawing goes on).
As their action a player takes a set-aside card and adds its walls, as shown, to one tile of
their Alhambra or reserve: never on a printed wall, and the Alhambra must still obey §4. The added
walls stay on that tile for good and count as walls for every purpose.

Added walls lie on a tile as its `added_walls` token, in the tile's own frame (a tile placed
turned by a Mosaic artist shows them turned with it). Everything of this module is public.
"""
