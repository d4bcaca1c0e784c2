"""The Change's data: its state (RULES.md §K)."""

from __future__ import annotations

from typing import Annotated

from ...census import CENSUS
from ...records import Record, Text, up_to

Coins = Annotated[tuple[Text, ...], up_to(CENSUS.coins)]


class ChangeState(Record):
    """The coins: `bag` holds those in the coin bag (kept sorted: a coin is drawn from it at
    random with the game's generator, so its order tells nothing), `coins` those of each seat
    (visible to everyone, RULES.md §1)."""

    bag: Coins = ()
    coins: Annotated[tuple[Coins, ...], up_to(CENSUS.players)] = ()


__all__ = ["ChangeState"]
