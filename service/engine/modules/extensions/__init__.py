"""Extensions (RULES.md §E, seed 001): a new action buys an extension tile from the board with
exactly three money cards forming a column's combination of currencies; the extension goes at
once onto a building of its type (the buyer's, or with two players Dirk's), which then counts
as two buildings for majorities."""
