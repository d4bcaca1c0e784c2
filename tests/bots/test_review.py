"""What the independent review of the bots found (issue 28), held fixed."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from service.bots import suggest
from service.bots.strong import cost_factor
from service.engine import check_consistency, new_game, to_act
from tests.bots.support import MODULES

encode = msgspec.json.encode


def test_the_order_of_a_vendors_supply_does_not_move_a_bot() -> None:
    """vendors.setup: before anyone has chosen, the supply and the unchosen discs hold colours
    as sets. A state sent with another order (the same view) gives the same suggestion."""
    state = new_game(["Ana", "Ben"], ("vendors",), seed=1).state
    vendors = state.vendors
    assert vendors is not None and not any(d.chosen for d in vendors.discs)
    supply = list(vendors.supply)
    i, j = next((a, b) for a in range(len(supply)) for b in range(a + 1, len(supply))
                if supply[a] != supply[b])
    supply[i], supply[j] = supply[j], supply[i]
    discs = tuple(replace(d, inhabitants=tuple(reversed(d.inhabitants))) for d in vendors.discs)
    shuffled = replace(state, vendors=replace(vendors, supply=tuple(supply), discs=discs))
    assert check_consistency(shuffled) == [] and encode(shuffled) != encode(state)
    actor = to_act(state).actors[0]
    for level in ("random", "basic", "strong"):
        ours, theirs = (suggest(s, actor.player, level, 10) for s in (shuffled, state))  # type: ignore[arg-type]
        assert encode(ours) == encode(theirs)


def test_the_strong_budget_buys_less_work_with_every_module_on() -> None:
    """A unit of work costs more with modules on: the base game's budget is the calibrated one,
    every module's game gets fewer units for the same milliseconds."""
    base = new_game(["Ana", "Ben", "Cyd"], seed=1).state
    every = new_game(["Ana", "Ben", "Cyd"], MODULES, seed=1).state
    assert cost_factor(base) == 1 and cost_factor(every) > 4
