"""What a bot starts from: the state as its seat may know it, the seat's options in it, and the
seed of its choices, all drawn from what the seat sees (RULES.md §8) and nothing else."""

from __future__ import annotations

import hashlib
from itertools import islice

import msgspec
from msgspec.structs import replace

from service.engine import GameState, Generator, iter_legal_actions, to_act
from service.engine.actions import Action
from service.engine.sight import as_seen

from .model import MOST_OPTIONS, Level, NotToAct

_encode = msgspec.json.Encoder().encode


def seen_by(state: GameState, seat: int) -> GameState:
    """`state` as `seat` may know it: what it may not see dealt in one fixed way
    (`sight.as_seen`), and no seal (the sealed state is the whole state, encrypted)."""
    return as_seen(replace(state, seal=None), seat)


def options(seen: GameState, seat: int) -> list[Action | None]:
    """The seat's legal actions, in the engine's order, at most MOST_OPTIONS (one more when
    there are more: `truncated` cuts it off); with None first (waiting) when the seat may only
    act out of turn, where not acting is a choice too. NotToAct when it has none."""
    name = seen.players[seat].name
    actions: list[Action | None] = list(islice(iter_legal_actions(seen, name), MOST_OPTIONS + 1))
    if not actions:
        raise NotToAct(name, to_act(seen).players)  # the game may wait for it with nothing legal
    actors = [a for a in to_act(seen).actors if a.seat == seat]
    if actors and all(a.kind == "out-of-turn" for a in actors):
        actions.insert(0, None)
    return actions


def truncated(options: list[Action | None]) -> tuple[list[Action | None], bool]:
    """The options a bot chooses among (MOST_OPTIONS at most, waiting included), and whether
    the seat had more."""
    listed = [o for o in options if o is not None]
    if len(listed) <= MOST_OPTIONS:
        return options, False
    return options[:MOST_OPTIONS], True


def generator(seen: GameState, seat: int, level: Level, budget_ms: int) -> Generator:
    """The bot's generator, seeded by what the seat knows and what was asked: the same request
    gives the same suggestion, and nothing hidden moves it."""
    digest = hashlib.sha256(_encode(seen) + f"|{seat}|{level}|{budget_ms}".encode()).digest()
    return Generator(int.from_bytes(digest[:8], "big"))
