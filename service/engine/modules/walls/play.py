"""The Walls in the rest of play: its part of the state at setup, the wall cards shuffled into
the money piles (walls.setup), and a wall card turned up by any draw set aside (walls.reveal)."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...base.setup import PILES
from ...module import Context
from ...state import GameState
from .actions import WallCardSetAside
from .data import CARDS, DATA, WALLS
from .model import WallsState

SETUP_STEP = PILES - 1  # the module's part of the state, before the piles take the wall cards


def setup(state: GameState, ctx: Context) -> GameState:
    """The module's part of the state, before the piles take the wall cards (60)."""
    return replace(state, walls=WallsState())


def pile_cards(state: GameState, ctx: Context) -> Iterator[tuple[int, str]]:
    """walls.setup: the wall cards shuffled, two each into the piles 2 to 5."""
    cards = ctx.rng.shuffled(CARDS)
    per = DATA["per_pile"]
    for i, pile in enumerate(DATA["piles"]):
        for card in cards[i * per:(i + 1) * per]:
            yield pile, card


def take_drawn(state: GameState, card: str, ctx: Context) -> GameState | None:
    """walls.reveal: a wall card turned up by any draw (the display's refill, a wisdom power's
    draw) is set aside face up beside the display; the draw goes on without it."""
    if card not in WALLS or state.walls is None:
        return None
    ctx.events.append(WallCardSetAside(card=card))
    return replace(state, walls=replace(state.walls, aside=(*state.walls.aside, card)))

