"""The Change's census: the coins and where each lies, the consistency of its state, and what
a seat sees of it (everything)."""

from __future__ import annotations

from collections.abc import Iterator

from ...module import ViewPart
from ...places import Place
from ...state import GameState
from ...violations import Violation
from .data import COIN_IDS, COINS
from .model import ChangeState


def expected(state: GameState) -> Iterator[str]:
    yield from COINS


def places(state: GameState) -> Iterator[Place]:
    change = state.change
    if change is None:
        return
    yield Place("the coin bag", change.bag, COIN_IDS, "it holds only coins")
    for p, held in zip(state.players, change.coins, strict=False):
        yield Place(f"{p.name}'s coins", held, COIN_IDS, "it holds only coins")


def located(state: GameState) -> Iterator[tuple[str, str]]:
    change = state.change
    if change is None:
        return
    for c in change.bag:
        yield c, "the coin bag"
    for p, held in zip(state.players, change.coins, strict=False):
        for c in held:
            yield c, f"{p.name}'s coins"


def census(state: GameState) -> Iterator[str]:
    change = state.change
    if change is None:
        return
    yield from change.bag
    for held in change.coins:
        yield from held


def consistency(state: GameState) -> list[Violation]:
    change = state.change
    if change is None:
        return [Violation("change.give", "the change module is on but the state has no `change` part")]
    out = []
    if len(change.coins) != len(state.players):
        out.append(Violation("change.give", f"coins are kept for {len(change.coins)} seats, but the game "
                                            f"has {len(state.players)} players"))
    return out + unsorted_bag(change.bag)


def unsorted_bag(bag: tuple[str, ...]) -> list[Violation]:
    """change.spend: spent coins go back into the bag, which the referee keeps sorted by coin id
    (a coin is drawn from it at random, so its order carries nothing: one bag, one form)."""
    want = sorted(bag)
    if list(bag) == want:
        return []
    at = next(i for i, (got, wanted) in enumerate(zip(bag, want, strict=True)) if got != wanted)
    return [Violation("change.spend", (
        f"`change.bag` is out of order: the coin bag is kept sorted by coin id (a coin is drawn from "
        f"it at random, so its order means nothing), but its item {at} is {bag[at]} where the sorted "
        f"bag has {want[at]}; list it in this order: {', '.join(want)}"))]


def seen(state: GameState, seat: int | None) -> ChangeState:
    """change.give: the coins are visible and the bag is kept sorted (a coin is drawn at
    random with the game's generator), so everyone sees all of it."""
    change = state.change
    assert change is not None
    return change


VIEW = ViewPart(ChangeState, seen)
