"""The Change's components (RULES.md §K): the coins of `data/change.json`, each a currency
and a value, and the value of coins."""

from __future__ import annotations

from collections.abc import Iterable

from ...catalogue import load_data

DATA = load_data("change")
COINS: dict[str, tuple[str, int]] = {c["id"]: (c["currency"], c["value"]) for c in DATA["coins"]}
COIN_IDS = frozenset(COINS)


def currency_of(coin: str) -> str:
    return COINS[coin][0]


def value_of(coins: Iterable[str]) -> int:
    return sum(COINS[c][1] for c in coins)
