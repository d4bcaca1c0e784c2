"""The Change's census: the coins and where each lies, the consistency of its state, and what
a seat sees of it (everything)."""

from __future__ import annotations

from collections.abc import Iterator

from ...module import ViewPart
from ...places import Place
from ...state import GameState
from ...text import t
from ...violations import Violation
from .data import COIN_IDS, COINS
from .model import ChangeState


def expected(state: GameState) -> Iterator[str]:
    yield from COINS


THE_BAG = t("the coin bag")
ONLY_COINS = t("it holds only coins")


def coins_of(player: str) -> str:
    return t("{player}'s coins", player=player)


def places(state: GameState) -> Iterator[Place]:
    change = state.change
    if change is None:
        return
    yield Place(THE_BAG, change.bag, COIN_IDS, ONLY_COINS)
    for p, held in zip(state.players, change.coins, strict=False):
        yield Place(coins_of(p.name), held, COIN_IDS, ONLY_COINS)


def located(state: GameState) -> Iterator[tuple[str, str]]:
    change = state.change
    if change is None:
        return
    for c in change.bag:
        yield c, THE_BAG
    for p, held in zip(state.players, change.coins, strict=False):
        where = coins_of(p.name)
        for c in held:
            yield c, where


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
        return [Violation("change.give", t("the change module is on but the state has no `change` part"))]
    out = []
    if len(change.coins) != len(state.players):
        out.append(Violation("change.give", t("coins are kept for {seats} seats, but the game has {players} "
                                              "players", seats=len(change.coins),
                                              players=len(state.players))))
    return out + unsorted_bag(change.bag)


def unsorted_bag(bag: tuple[str, ...]) -> list[Violation]:
    """change.spend: spent coins go back into the bag, which the referee keeps sorted by coin id
    (a coin is drawn from it at random, so its order carries nothing: one bag, one form)."""
    want = sorted(bag)
    if list(bag) == want:
        return []
    at = next(i for i, (got, wanted) in enumerate(zip(bag, want, strict=True)) if got != wanted)
    return [Violation("change.spend", t(
        "`change.bag` is out of order: the coin bag is kept sorted by coin id (a coin is drawn from "
        "it at random, so its order means nothing), but its item {at} is {coin} where the sorted "
        "bag has {sorted}; list it in this order: {order}", at=at, coin=bag[at], sorted=want[at],
        order=tuple(want)))]


def seen(state: GameState, seat: int | None) -> ChangeState:
    """change.give: the coins are visible and the bag is kept sorted (a coin is drawn at
    random with the game's generator), so everyone sees all of it."""
    change = state.change
    assert change is not None
    return change


VIEW = ViewPart(ChangeState, seen)
