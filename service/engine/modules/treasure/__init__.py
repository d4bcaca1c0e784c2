"""The Treasure Chamber (RULES.md §R): see `rules.py`."""
