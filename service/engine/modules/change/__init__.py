"""The Change (RULES.md §K): see `rules.py`."""
