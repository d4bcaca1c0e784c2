"""The Change's data: its state (RULES.md §K)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from ...records import Record, Text

Coins = Annotated[tuple[Text, ...], msgspec.Meta(max_length=64)]


class ChangeState(Record):
    """The coins: `bag` holds those in the coin bag (kept sorted: a coin is drawn from it at
    random with the game's generator, so its order tells nothing), `coins` those of each seat
    (visible to everyone, RULES.md §1)."""

    bag: Coins = ()
    coins: Annotated[tuple[Coins, ...], msgspec.Meta(max_length=6)] = ()


__all__ = ["ChangeState"]
