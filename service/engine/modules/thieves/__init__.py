"""The Thieves (RULES.md §T, seed 003): twelve thief cards, 3 per currency, are dealt at setup
(4 each with 2 or 3 players, 3 with 4, 2 with 5 or 6; the rest leave the game; Dirk gets none).
After a turn is complete (refills and scoring done) a thieves' window opens: players other
than the one whose turn comes next may each discard a thief to take one money card of its
currency from the display, in turn order starting with the second player to the left of the
one whose turn ended; the display is refilled after each theft and a scoring card drawn then
is scored at once. The window closes when the next player takes an action.

`steal` is taken out of turn (action kind "out-of-turn"): its own check says who may steal.
Thief cards are held face up: everything of this module is public.
"""
