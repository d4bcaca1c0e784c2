"""Who must act now, and why: the players who may act, each with the moment that lets them.

`turn.player` names the player whose turn it is, which is not always who acts: a pending
decision may wait for another player (every player chooses their vendor's inhabitants before
the first turn), the active player may owe a decision after their actions (moving animals), and
an out-of-turn window lets other players act beside the active one (the thieves). `to_act`
derives all of it from the registry's hooks (each module's `pending`, the action rules of kind
"out-of-turn"), the turn and the phase, so a UI can show it as it is.

Everything here is public (RULES.md §8): seats, rule ids, held buildings, and each decision's
`Pending.what`, which a module writes without naming anything hidden; a view shows the seat a
decision waits for its `own_what` (which may name what that seat alone sees).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from .game import out_of_turn_players
from .module import pending_decision, plan_of
from .state import GameState

Moment = Literal["turn", "placement", "decision", "out-of-turn"]


class Actor(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """One player who may act now.

    `kind`: `turn` (the active player's turn: an action, or another after an exact payment),
    `placement` (placing held buildings: at the end of a turn, or leftover tiles at the end of
    the game), `decision` (a pending decision: only this player may act, with the actions that
    answer it) or `out-of-turn` (a window beside the active player's turn, e.g. the thieves').
    `rule` is the rule id that gives the moment; `what` says in words what is to be done;
    `actions_left` is how many turn actions this player still has (`turn.actions` for the
    active player, 0 for anyone else).
    """

    player: str
    seat: int
    kind: Moment
    rule: str
    what: str
    actions_left: int


class ToAct(msgspec.Struct, frozen=True, gc=False, kw_only=True):
    """Who must act next and why: `players` are the names of every player who may act now (the
    one the game waits for first, then those of an out-of-turn window, in seat order), `actors`
    the same players with their moment. Both are empty once the game is over."""

    players: tuple[str, ...]
    actors: tuple[Actor, ...]


NOBODY = ToAct(players=(), actors=())


def to_act(state: GameState, viewer: int | None = None) -> ToAct:
    """Who may act in `state`, and why; for the seat `viewer`, a decision it owes is told as it
    may know it (`Pending.told_to`: e.g. naming the cards it drew), to anyone else as all may."""
    if state.phase == "over":
        return NOBODY
    turn = state.turn
    pending = pending_decision(state) if plan_of(state).hooks["pending"] else None
    if pending is not None:
        first = Actor(player=state.players[pending.seat].name, seat=pending.seat, kind="decision",
                      rule=pending.rule, what=pending.what if viewer is None else pending.told_to(viewer),
                      actions_left=turn.actions if pending.seat == turn.player else 0)
        return ToAct(players=(first.player,), actors=(first,))
    active = state.active
    held = [t.tile for t in active.held]
    if state.phase == "final-placement":
        first = Actor(player=active.name, seat=turn.player, kind="placement", rule="base.end.leftovers",
                      what=f"place the leftover tiles {held} (place-building or reserve-building)",
                      actions_left=0)
    elif turn.actions == 0:
        first = Actor(player=active.name, seat=turn.player, kind="placement", rule="base.turn.placement",
                      what=f"place the held buildings {held} (place-building or reserve-building)",
                      actions_left=0)
    elif turn.acted:
        first = Actor(player=active.name, seat=turn.player, kind="turn", rule="base.buy.exact-bonus",
                      what="take another action (an exact payment's bonus), or end the turn (end-turn)",
                      actions_left=turn.actions)
    else:
        first = Actor(player=active.name, seat=turn.player, kind="turn", rule="base.turn.order",
                      what="take an action: take money, buy, or redesign the Alhambra",
                      actions_left=turn.actions)
    actors = [first]
    for seat, rule in out_of_turn_players(state):
        if seat != turn.player:
            actors.append(Actor(player=state.players[seat].name, seat=seat, kind="out-of-turn",
                                rule=rule.rule, what=rule.what or f"{rule.action.__struct_config__.tag}",
                                actions_left=0))
    return ToAct(players=tuple(a.player for a in actors), actors=tuple(actors))
