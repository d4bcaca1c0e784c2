"""Small pure helpers every part of the game uses to build the next state, and the turn loop:
after an action, a finished turn runs the end-of-turn steps of every module, in §H order.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from .module import Context, pending_decision, plan_of
from .state import GameState, Player, Turn


def with_player(state: GameState, seat: int, **changes: Any) -> GameState:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def without(items: tuple[Any, ...], *gone: Any) -> tuple[Any, ...]:
    """`items` less one occurrence of each of `gone` (all must be there)."""
    out = list(items)
    for item in gone:
        out.remove(item)
    return tuple(out)


def spend_action(state: GameState, *, another: bool) -> GameState:
    """The active player has taken an action; `another` grants one more (exact payment)."""
    turn = replace(state.turn, actions=1 if another else 0, acted=True)
    return replace(state, turn=turn)


def end_actions(state: GameState) -> GameState:
    """The player starts placing held buildings: no action remains this turn."""
    if state.turn.actions == 0:
        return state
    return replace(state, turn=replace(state.turn, actions=0))


NEXT_TURN = 90  # the end-of-turn position where the next player's turn starts


def is_turn_over(state: GameState) -> bool:
    return state.phase == "play" and state.turn.actions == 0 and not state.active.held


def finish_turn(state: GameState, ctx: Context) -> GameState:
    """Run the end-of-turn steps of every module a state has on (RULES.md §H), from where a
    decision stopped them; stop again at the next pending decision."""
    start = state.turn.ending
    plan = plan_of(state)
    for order, step in plan.end_of_turn:
        if order < start:
            continue
        state = step(state, ctx)
        if state.phase != "play":
            return state
        if order < NEXT_TURN and plan.hooks["pending"] and pending_decision(state) is not None:
            return replace(state, turn=replace(state.turn, ending=order + 1))
    return state


def next_turn(state: GameState) -> Turn:
    return Turn.start((state.turn.player + 1) % len(state.players))


def hand_total(player: Player, currency: str) -> int:
    from .catalogue import CATALOGUE

    return sum(CATALOGUE.money[c].value for c in player.hand if CATALOGUE.money[c].currency == currency)
