"""The three levels of the bots (issue 28 item 2): each answers a legal action for the seat the
game waits on (or a decision it owes), deterministically; `random` is uniform over the legal
actions; `basic` reckons one step ahead as a player would; `strong` searches within a budget."""

from __future__ import annotations

import msgspec
import pytest

from service.bots import LEVELS, NotToAct, UnknownSeat, suggest
from service.bots import basic as basic_level
from service.bots.seat import options, seen_by
from service.engine import GameState, apply, new_game, to_act, validate
from service.engine.catalogue import CATALOGUE
from tests.support.play import after_steps, play_until

encode = msgspec.json.encode


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_request_gives_the_same_suggestion(level: str) -> None:
    state = after_steps(("zoo", "treasure"), 4, seed=21, steps=60)
    actor = to_act(state).actors[0]
    first = encode(suggest(state, actor.player, level, 50))  # type: ignore[arg-type]
    assert all(encode(suggest(state, actor.player, level, 50)) == first for _ in range(2))  # type: ignore[arg-type]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.rule("base.turn.order")
def test_a_suggestion_is_legal_for_the_seat_the_game_waits_for(level: str) -> None:
    """RULES.md: "Seats: ... Turn order goes to the left": the suggestion is the acting seat's,
    and validate accepts it."""
    for seed in range(3):
        state = after_steps((), 3, seed=seed, steps=40 + seed)
        actor = to_act(state).actors[0]
        s = suggest(state, actor.player, level, 20)  # type: ignore[arg-type]
        assert s.action is not None and s.action.player == actor.player
        assert validate(state, s.action) == []
        assert s.level == level and s.legal >= 1


@pytest.mark.rule("base.turn.order")
def test_a_seat_with_nothing_to_decide_is_told_whom_the_game_waits_for() -> None:
    state = new_game(["Ana", "Ben", "Cyd"], seed=4).state
    waiting = to_act(state).players[0]
    idle = next(p.name for p in state.players if p.name != waiting)
    with pytest.raises(NotToAct, match=f"waits for {waiting}"):
        suggest(state, idle, "basic")


def test_an_unknown_player_is_refused() -> None:
    with pytest.raises(UnknownSeat, match="Zed"):
        suggest(new_game(["Ana", "Ben"], seed=1).state, "Zed", "random")


def test_only_the_strong_level_spends_its_budget() -> None:
    state = after_steps((), 4, seed=8, steps=30)
    actor = to_act(state).actors[0]
    for level in ("random", "basic"):
        small, large = (suggest(state, actor.player, level, b) for b in (10, 2000))  # type: ignore[arg-type]
        assert encode(small) == encode(large)
    small = suggest(state, actor.player, "strong", 10)
    large = suggest(state, actor.player, "strong", 300)
    assert large.simulated > small.simulated
    assert small.considered[0].simulations >= 1  # the search runs one world at least


def test_random_is_uniform_over_the_legal_actions() -> None:
    """Over many states, where the chosen action falls among the seat's legal actions is
    spread evenly (quarters of the list, 400 states: each quarter 100 expected)."""
    quarters = [0, 0, 0, 0]
    seed = 0
    while sum(quarters) < 400:
        seed += 1
        state = new_game(["Ana", "Ben", "Cyd", "Dov"], seed=seed).state
        while state.phase != "over" and sum(quarters) < 400:
            actor = to_act(state).actors[0]
            listed = options(seen_by(state, actor.seat), actor.seat)
            s = suggest(state, actor.player, "random")
            if len(listed) >= 4:
                quarters[4 * listed.index(s.action) // len(listed)] += 1
            state = apply(state, s.action).state  # type: ignore[arg-type]
    assert all(60 <= q <= 140 for q in quarters), quarters


def _buy_choices(state: GameState) -> bool:
    """Whether the acting seat may buy one tile both exactly and overpaying."""
    actor = to_act(state).actors[0]
    by_tile: dict[str, set[bool]] = {}
    for a in options(seen_by(state, actor.seat), actor.seat):
        if a is not None and a.type == "buy-building":
            price = CATALOGUE.tiles[a.tile].price
            by_tile.setdefault(a.tile, set()).add(basic_level.paid(a) == price)
    return any(kinds == {True, False} for kinds in by_tile.values())


@pytest.mark.rule("base.buy.exact-bonus")
def test_basic_pays_exactly_rather_than_overpay() -> None:
    """RULES.md base.buy.exact-bonus: paying the exact price gives another action; and money
    overpaid is lost. Of two payments for the same tile basic values the exact one higher."""
    state = play_until((), 3, seed=2, wanted=_buy_choices)
    actor = to_act(state).actors[0]
    seen = seen_by(state, actor.seat)
    listed = options(seen, actor.seat)
    values = basic_level.values(seen, actor.seat, listed)
    exact = max(v for a, v in zip(listed, values, strict=True) if a is not None and a.type == "buy-building"
                and basic_level.paid(a) == CATALOGUE.tiles[a.tile].price)
    over = [v for a, v in zip(listed, values, strict=True) if a is not None and a.type == "buy-building"
            and basic_level.paid(a) > CATALOGUE.tiles[a.tile].price and v > float("-inf")]
    assert over and exact > max(over)


def test_basic_weighs_only_the_cheapest_payments_of_a_purchase() -> None:
    """Paying 14 for a tile that 7 pays is no move a player weighs: of one purchase's payments
    only the cheapest few are reckoned (the rest stay listed in `legal`)."""
    state = play_until((), 2, seed=3, wanted=lambda s: s.phase == "play" and sum(
        1 for a in options(seen_by(s, to_act(s).actors[0].seat), to_act(s).actors[0].seat)
        if a is not None and a.type == "buy-building") > 12)
    actor = to_act(state).actors[0]
    listed = options(seen_by(state, actor.seat), actor.seat)
    kept = basic_level.weighed(listed)
    assert len(kept) < len(listed)
    per_tile: dict[str, int] = {}
    for i in kept:
        a = listed[i]
        if a is not None and a.type == "buy-building":
            per_tile[a.tile] = per_tile.get(a.tile, 0) + 1
    assert max(per_tile.values()) <= basic_level.PAYMENTS_WEIGHED


def _hoarded(cards: int) -> GameState:
    """A base game where the seat to act holds `cards` blue cards (from the deck): a purchase it
    can pay in tens of thousands of ways."""
    state = new_game(["Ana", "Ben", "Cyd"], seed=6).state
    seat = to_act(state).actors[0].seat
    blue = [c for c in state.deck if c.startswith("blue-")][:cards]
    players = list(state.players)
    players[seat] = msgspec.structs.replace(players[seat], hand=players[seat].hand + tuple(blue))
    return msgspec.structs.replace(state, players=tuple(players),
                                   deck=tuple(c for c in state.deck if c not in blue))


@pytest.mark.parametrize("level", LEVELS)
def test_a_seat_with_too_many_legal_actions_chooses_among_the_first(level: str) -> None:
    """A hoarded hand: the bot lists MOST_OPTIONS of the legal actions (the engine's order),
    says so, and still answers a legal one."""
    from service.bots.model import MOST_OPTIONS
    from service.engine import check_consistency

    state = _hoarded(20)
    assert check_consistency(state) == []
    actor = to_act(state).actors[0]
    s = suggest(state, actor.player, level, 10)  # type: ignore[arg-type]
    assert s.truncated and s.legal == MOST_OPTIONS
    assert s.action is not None and validate(state, s.action) == []
