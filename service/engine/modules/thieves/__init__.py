"""The Thieves (RULES.md §T)."""
