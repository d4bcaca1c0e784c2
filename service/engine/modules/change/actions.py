"""The Change's events (change.give, change.spend). It has no action of its own: coins pay
in other modules' actions (play.py)."""

from __future__ import annotations

from ...events import Event


class CoinsGiven(Event, tag="coins-given"):
    """change.give: the coins the buyer drew from the bag for overpaying `tile` by `overpaid`
    (none when the bag was empty)."""

    player: str
    tile: str
    overpaid: int
    coins: tuple[str, ...]


class CoinsSpent(Event, tag="coins-spent"):
    """change.spend: coins paid, back in the bag."""

    player: str
    coins: tuple[str, ...]
