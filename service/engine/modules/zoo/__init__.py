"""Alhambra Zoo (RULES.md §Z, seed 000): animals arrive on gardens laid on the market, go with
the garden to its buyer, may walk through the Alhambra at the end of a turn for a discarded money
card, and score on gardens that hold a single kind."""
