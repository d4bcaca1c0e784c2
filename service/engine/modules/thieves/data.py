"""The Thieves' data (`data/thieves.json`): the thief cards and their currencies, and how
many each player is dealt."""

from __future__ import annotations

from ...catalogue import load_data

DATA = load_data("thieves")
CURRENCY: dict[str, str] = {c["id"]: c["currency"] for c in DATA["cards"]}  # thief -> currency
CARDS: tuple[str, ...] = tuple(CURRENCY)
THIEF_CARDS = frozenset(CARDS)
DEAL: dict[int, int] = {int(n): k for n, k in DATA["deal"].items()}
