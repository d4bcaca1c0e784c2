"""Two players: Dirk, the virtual third player (RULES.md §9)."""
