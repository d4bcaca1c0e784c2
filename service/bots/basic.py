"""The `basic` level: one step ahead, the option after which the seat's position is worth most
ahead of the best other player (`evaluate.advantage`): majorities within reach and the wall,
each module's points (the engine's own scoring of the rounds to come), money kept rather than
overpaid, and an exact payment's extra action. Ties go to the first option in the engine's
order, so the choice is deterministic."""

from __future__ import annotations

from msgspec.structs import replace

from service.engine import GameState, advance
from service.engine.actions import Action
from service.engine.catalogue import CATALOGUE

from .evaluate import advantage
from .model import MOST_CONSIDERED, Considered, Suggestion


def after(seen: GameState, action: Action | None) -> GameState:
    """The state after `action` (None: waiting, the state as it is). `action` is one the engine
    listed as legal for the seat (`seat.options`), in `seen` or in a world the seat cannot tell
    from it (its legality rests on what the seat sees): `advance`, not validated again."""
    return seen if action is None else advance(seen, action).state


# The fields of an action that pay (a purchase's cards, a coiner's display cards, coins), and how
# many payments of the same purchase a player weighs: the cheapest ones. Paying 14 for a tile
# of 7 that 7 can pay is no move a player considers (and a big hand has hundreds of payments).
PAYING = ("payment", "from_display", "coins")
PAYMENTS_WEIGHED = 3


def paid(action: Action) -> int:
    """What an action pays, in money (cards at their value, coins at 1 each: only an order)."""
    total = 0
    for name in PAYING:
        for item in getattr(action, name, None) or ():
            card = CATALOGUE.money.get(item)
            total += card.value if card is not None else 1
    return total


def weighed(options: list[Action | None]) -> list[int]:
    """The indices of the options worth weighing: all, but of several payments of the same
    purchase only the PAYMENTS_WEIGHED cheapest (the engine's order among equals)."""
    groups: dict[object, list[int]] = {}
    out = []
    for i, action in enumerate(options):
        fields = [n for n in PAYING if getattr(action, n, None)] if action is not None else []
        if not fields:
            out.append(i)
            continue
        groups.setdefault(replace(action, **{n: None if n != "payment" else () for n in fields}),
                          []).append(i)
    for members in groups.values():
        members.sort(key=lambda i: (paid(options[i]), i))  # type: ignore[arg-type]
        out += members[:PAYMENTS_WEIGHED]
    return sorted(out)


def values(seen: GameState, seat: int, options: list[Action | None]) -> list[float]:
    """Each option's worth to the seat one step ahead (-inf: a payment not weighed)."""
    out = [float("-inf")] * len(options)
    for i in weighed(options):
        out[i] = advantage(after(seen, options[i]), seat)
    return out


def ranked(options: list[Action | None], vals: list[float]) -> list[int]:
    """The options' indices, best first (the engine's order among equals)."""
    return sorted(range(len(options)), key=lambda i: (-vals[i], i))


def suggest(seen: GameState, seat: int, options: list[Action | None]) -> Suggestion:
    vals = values(seen, seat, options)
    order = ranked(options, vals)
    considered = tuple(Considered(action=options[i], value=round(vals[i], 3))
                       for i in order[:MOST_CONSIDERED] if vals[i] > float("-inf"))
    return Suggestion(player=seen.players[seat].name, level="basic", action=options[order[0]],
                      legal=len(options), considered=considered)
