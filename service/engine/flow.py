"""Small pure helpers every part of the game uses to build the next state, and the turn loop:
after an action, a finished turn runs the end-of-turn steps of every module, in §H order.

Who acts reads that flow, so it lives here too: `to_act` says who must act now, and why (the
players who may act, each with the moment that lets them); `acting_seat` is the seat that acts
for the game, and `out_of_turn_players` those a window lets act beside it.

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

from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from .module import ActionRule, Context, Plan, action_rules, extra_checks, pending_decision, plan_of
from .state import GameState, Player, Turn
from .text import t


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
    return state.phase == "play" and state.turn.actions == 0 and not state.players[state.turn.player].held


def finish_turn(state: GameState, ctx: Context, plan: Plan | None = None) -> GameState:
    """Run the end-of-turn steps of every module a state has on (RULES.md §H), from where a
    decision stopped them; stop again at the next pending decision. (`plan`: the state's, if
    known.)"""
    start = state.turn.ending
    if plan is None:
        plan = plan_of(state)
    decisions = bool(plan.hooks["pending"])
    for order, step in plan.end_of_turn:
        if order < start:
            continue
        state = step(state, ctx)
        if state.phase != "play":
            return state
        if decisions and order < NEXT_TURN and pending_decision(state) is not None:
            return replace(state, turn=replace(state.turn, ending=order + 1))
    return state


def next_turn(state: GameState) -> Turn:
    return Turn.start((state.turn.player + 1) % len(state.players))


def hand_total(player: Player, currency: str) -> int:
    from .catalogue import CATALOGUE

    return sum(CATALOGUE.money[c].value for c in player.hand if CATALOGUE.money[c].currency == currency)


# --- who acts -----------------------------------------------------------------------------

def acting_seat(state: GameState) -> int:
    """Who acts now: the player a pending decision waits for, else the active player."""
    pending = pending_decision(state)
    return state.turn.player if pending is None else pending.seat


def out_of_turn_players(state: GameState) -> list[tuple[int, ActionRule]]:
    """The seats that have a legal out-of-turn action now (e.g. a theft in the thieves' window),
    each with the first such rule, in seat order. None while a decision is pending."""
    rules = [r for r in action_rules(state).values() if r.kind == "out-of-turn" and state.phase in r.phases]
    if not rules or (plan_of(state).hooks["pending"] and pending_decision(state) is not None):
        return []
    found: dict[int, ActionRule] = {}
    for rule in rules:
        extra = extra_checks(state, rule.action)
        for action in rule.candidates(state, state.turn.player):
            seat = state.seat_of(action.player)
            if seat in found or seat < 0:
                continue
            if not rule.exact_candidates and rule.check(state, action):
                continue
            if any(fn(state, action) for fn in extra):
                continue
            found[seat] = rule
    return sorted(found.items())

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
    held = tuple(h.tile for h in active.held)
    if state.phase == "final-placement":
        first = Actor(player=active.name, seat=turn.player, kind="placement", rule="base.end.leftovers",
                      what=t("place the leftover tiles ({held}) (place-building or reserve-building)",
                             held=held),
                      actions_left=0)
    elif turn.actions == 0:
        first = Actor(player=active.name, seat=turn.player, kind="placement", rule="base.turn.placement",
                      what=t("place the held buildings ({held}) (place-building or reserve-building)",
                             held=held),
                      actions_left=0)
    elif turn.acted:
        first = Actor(player=active.name, seat=turn.player, kind="turn", rule="base.buy.exact-bonus",
                      what=t("take another action (an exact payment's bonus), or end the turn (end-turn)"),
                      actions_left=turn.actions)
    else:
        first = Actor(player=active.name, seat=turn.player, kind="turn", rule="base.turn.order",
                      what=t("take an action: take money, buy, or redesign the Alhambra"),

                      actions_left=turn.actions)
    actors = [first]
    for seat, rule in out_of_turn_players(state):
        if seat != turn.player:
            actors.append(Actor(player=state.players[seat].name, seat=seat, kind="out-of-turn",
                                rule=rule.rule, what=rule.what or f"{rule.action.__struct_config__.tag}",
                                actions_left=0))
    return ToAct(players=tuple(a.player for a in actors), actors=tuple(actors))
