"""Buildings of Power (RULES.md §P): one test that allows and one that refuses per rule id, the
seed's strength example, and random complete games."""

from __future__ import annotations

from itertools import permutations

import pytest
from msgspec.structs import replace

from service.engine import InconsistentState, check_consistency, legal_actions, new_game, score, validate
from service.engine.actions import Action, BuyBuilding, EndTurn, PlaceBuilding, ReserveBuilding, TakeMoney
from service.engine.module import Context, pending_decision
from service.engine.modules.craftsmen.actions import SwapMarketTiles
from service.engine.modules.dirk.actions import GiveToDirk
from service.engine.modules.power.actions import (
    ChooseTile,
    DeclinePower,
    HideTile,
    KeepCard,
    UsePower,
    apply_choose,
)
from service.engine.modules.power.data import REPLACED
from service.engine.modules.power.model import HiddenTile, PowerState
from service.engine.modules.power.play import leftover
from service.engine.modules.power.scoring import PowerLine
from service.engine.rng import Generator
from service.engine.scoring import Position, PositionPlayer
from service.engine.state import GameState, PlacedTile, Tile
from service.engine.view import view
from tests.modules.test_craftsmen import hire
from tests.support.helpers import NAMES, allowed, arrange, play, refused, seated
from tests.support.play import play_random_game

WISDOM = "garden-9-E-wisdom"
ARCHITECTURE = "pavilion-5-NW-architecture"
STRENGTH = "tower-9-NE-strength"
PROSPERITY = "pavilion-3-SW-prosperity"


def power_game(players: int = 3, seed: int = 1) -> GameState:
    return new_game(NAMES[:players], ["power"], seed=seed).state


def power(state: GameState) -> PowerState:
    assert state.power is not None
    return state.power


def buy_on_green(state: GameState, tile: str, cards: tuple[str, ...], **extra: object) -> GameState:
    """Ana buys `tile` laid on the green space with `cards` and reserves it (ending her turn)."""
    state = arrange(state, market={"green": tile}, hands={"Ana": cards}, active="Ana")
    return allowed(state, BuyBuilding(player="Ana", tile=tile, payment=cards, **extra))  # type: ignore[arg-type]


# --- power.setup ----------------------------------------------------------------------------


@pytest.mark.rule("power.setup")
def test_power_setup_allows_the_special_tiles_in_place_of_their_base_tiles() -> None:
    """seeds 000.44, 000.45, 000.46: "Powerful abilities are waiting for those players who add
    these buildings to their Alhambra." "Replace the 12 base tiles with the same building type,
    price, and wall placement as the special tiles with the new special tiles." "Put the special
    tiles into the tower, together with the other Alhambra tiles." """
    from service.engine.catalogue import CATALOGUE

    for base, special in REPLACED.items():
        a, b = CATALOGUE.tiles[base], CATALOGUE.tiles[special]
        assert (a.type, a.price, a.walls) == (b.type, b.price, b.walls)
    assert len(REPLACED) == 12
    state = power_game()
    everywhere = {
        *state.bag,
        *(s.tile for s in state.market),
        *(t.tile for p in state.players for t in p.held),
    }
    for base, special in REPLACED.items():
        assert base not in everywhere
        assert special in everywhere
    assert check_consistency(state) == []


@pytest.mark.rule("power.setup")
def test_power_setup_refuses_a_replaced_base_tile_still_in_the_game() -> None:
    """seed 000.47: "Return the replaced tiles to the game box." """
    state = power_game()
    base = next(iter(REPLACED))
    bad = replace(state, bag=(*state.bag, base))
    assert any(base in v.message for v in check_consistency(bad))


def holding(tile: str, modules: tuple[str, ...] = ("power",)) -> Position:
    """A round-1 position: Ana has `tile` east of her fountain, Ben only his fountain."""
    fountain = PlacedTile(tile="fountain", x=0, y=0)
    return Position(round=1, modules=modules, players=(
        PositionPlayer(name="Ana", alhambra=(fountain, PlacedTile(tile=tile, x=1, y=0))),
        PositionPlayer(name="Ben", alhambra=(fountain,)), PositionPlayer(name="Cyd", alhambra=(fountain,))))


@pytest.mark.rule("power.setup")
def test_power_setup_allows_a_position_with_the_special_tile_or_without_power_the_base_tile() -> None:
    """seed 000.45: "Replace the 12 base tiles with the same building type, price, and wall
    placement as the special tiles with the new special tiles." With power on the special tile is
    in the game; without it the base tile is."""
    assert REPLACED["garden-8-NE"] == "garden-8-NE-strength"
    assert score(holding("garden-8-NE-strength")).players[0].total >= 0
    assert score(holding("garden-8-NE", modules=())).players[0].total >= 0


@pytest.mark.rule("power.setup")
@pytest.mark.parametrize("zone", ["alhambra", "reserve"])
def test_power_setup_refuses_a_position_holding_a_replaced_base_tile(zone: str) -> None:
    """seeds 000.45, 000.47: "Replace the 12 base tiles [...] with the new special tiles."
    "Return the replaced tiles to the game box." With power on no player holds garden-8-NE."""
    position = holding("garden-8-NE")
    if zone == "reserve":
        ana = replace(position.players[0], alhambra=position.players[0].alhambra[:1],
                      reserve=(Tile(tile="garden-8-NE"),))
        position = replace(position, players=(ana, *position.players[1:]))
    with pytest.raises(InconsistentState) as error:
        score(position)
    index = 1 if zone == "alhambra" else 0
    assert [(v.rule, v.message.split(" ")[0]) for v in error.value.violations] == [
        ("power.setup", f"$.players[0].{zone}[{index}]")]
    assert "garden-8-NE-strength" in error.value.violations[0].message


# --- power.end-of-turn ----------------------------------------------------------------------


def offered(tile: str = WISDOM, cards: tuple[str, ...] = ("green-9-a",), **arranged: object) -> GameState:
    """Ana bought `tile` and reserved it: the end of her turn offers its power."""
    state = arrange(power_game(), **arranged) if arranged else power_game()  # type: ignore[arg-type]
    state = buy_on_green(state, tile, cards)
    return play(state, ReserveBuilding(player="Ana", tile=tile)).state


@pytest.mark.rule("power.end-of-turn")
def test_power_end_of_turn_allows_wisdom_after_the_refills_of_the_turn_it_was_bought() -> None:
    """seeds 000.49, 000.56: "When a player has bought a special tile, they may use its special
    ability (as shown on the tile) once at the end of their turn." "The player rolls the red die
    after money cards and buildings have been replenished, and draws that many cards"."""
    state = buy_on_green(power_game(), WISDOM, ("green-9-a",))
    outcome = play(state, ReserveBuilding(player="Ana", tile=WISDOM))
    names = [type(e).__name__ for e in outcome.events]
    assert "MarketRefilled" in names and "PowerUsed" not in names  # offered, not used yet
    waiting = pending_decision(outcome.state)
    assert waiting is not None and (waiting.rule, waiting.seat) == ("power.end-of-turn", 0)
    used = play(outcome.state, UsePower(player="Ana", tile=WISDOM))
    assert [type(e).__name__ for e in used.events] == ["PowerUsed"]
    assert 1 <= power(used.state).roll <= 6 and len(power(used.state).drawn) == power(used.state).roll
    waiting = pending_decision(used.state)
    assert waiting is not None and waiting.rule == "power.wisdom"
    assert used.state.active.name == "Ana"


@pytest.mark.rule("power.end-of-turn")
def test_power_end_of_turn_allows_declining_before_the_roll() -> None:
    """seed 000.49: "they may use its special ability" (power.end-of-turn: they may decline
    before the die is rolled; nothing is rolled or drawn then)."""
    state = offered()
    listed, _ = legal_actions(state)
    assert listed == [UsePower(player="Ana", tile=WISDOM), DeclinePower(player="Ana", tile=WISDOM)]
    outcome = play(state, DeclinePower(player="Ana", tile=WISDOM))
    after = outcome.state
    names = [type(e).__name__ for e in outcome.events]
    assert "PowerDeclined" in names and "PowerUsed" not in names
    assert after.rng == state.rng  # no die was rolled
    assert after.deck == state.deck and after.bag == state.bag  # nothing was drawn
    assert power(after).using is None and power(after).drawn == () and power(after).roll == 0
    assert after.active.name == "Ben" and pending_decision(after) is None


@pytest.mark.rule("power.end-of-turn")
def test_power_end_of_turn_allows_two_powers_offered_in_the_order_bought() -> None:
    """seed 000.49: each special tile bought may be used once at the end of the turn; one
    declined, the other used."""
    state = arrange(power_game(), market={"green": WISDOM, "blue": ARCHITECTURE},
                    hands={"Ana": ("green-9-a", "blue-5-a")}, active="Ana")
    state = play(state, BuyBuilding(player="Ana", tile=WISDOM, payment=("green-9-a",)),
                 BuyBuilding(player="Ana", tile=ARCHITECTURE, payment=("blue-5-a",)),
                 ReserveBuilding(player="Ana", tile=WISDOM),
                 ReserveBuilding(player="Ana", tile=ARCHITECTURE)).state
    assert legal_actions(state)[0][0] == UsePower(player="Ana", tile=WISDOM)
    state = allowed(state, DeclinePower(player="Ana", tile=WISDOM))
    assert legal_actions(state)[0][0] == UsePower(player="Ana", tile=ARCHITECTURE)
    state = allowed(state, UsePower(player="Ana", tile=ARCHITECTURE))
    waiting = pending_decision(state)
    assert waiting is not None and waiting.rule == "power.architecture"
    drawn = power(state).drawn
    under = next(s.tile for s in state.market if s.tile)
    state = allowed(state, HideTile(player="Ana", tile=drawn[0], under=under, order=drawn[1:]))
    assert state.active.name == "Ben"


@pytest.mark.rule("power.end-of-turn")
def test_power_end_of_turn_refuses_a_power_decision_when_none_is_due() -> None:
    state = power_game()
    name = state.active.name
    refused(state, KeepCard(player=name), "power.wisdom", "no such decision")
    refused(state, HideTile(player=name), "power.architecture", "no such decision")
    refused(state, UsePower(player=name, tile=WISDOM), "power.end-of-turn", "no such decision")
    refused(state, DeclinePower(player=name, tile=WISDOM), "power.end-of-turn", "no such decision")


@pytest.mark.rule("power.end-of-turn")
def test_power_end_of_turn_refuses_another_tile_another_player_or_anything_else_while_offered() -> None:
    """seed 000.49: the power is used "once at the end of their turn": the offer is answered
    before play goes on, by the player who bought the tile, for that tile."""
    state = offered()
    refused(state, UsePower(player="Ana", tile=ARCHITECTURE), "power.end-of-turn", WISDOM, ARCHITECTURE)
    refused(state, DeclinePower(player="Ben", tile=WISDOM), "power.end-of-turn", "only Ana")
    refused(state, TakeMoney(player="Ben", cards=state.display[:1]), "power.end-of-turn", "waits for Ana")
    refused(state, KeepCard(player="Ana"), "power.end-of-turn", "use-power")
    used = allowed(state, UsePower(player="Ana", tile=WISDOM))
    refused(used, UsePower(player="Ana", tile=WISDOM), "power.wisdom", "keep-card")  # once only
    # A power offered while the turn's actions are not over cannot occur.
    early = replace(state, turn=replace(state.turn, actions=1))
    assert any(v.rule == "power.end-of-turn" for v in check_consistency(early))


# --- power.wisdom ---------------------------------------------------------------------------


def wisdom_decision(**arranged: object) -> GameState:
    return allowed(offered(**arranged), UsePower(player="Ana", tile=WISDOM))


@pytest.mark.rule("power.wisdom")
def test_power_wisdom_allows_keeping_one_card_and_ordering_the_rest() -> None:
    """seeds 000.57, 000.58: "They choose one of the cards and keep it." "Any remaining cards are
    placed on top of the pile, sorted in any way the player likes"."""
    top = ("green-1-a", "green-2-a", "green-3-a", "green-4-a", "green-5-a", "green-6-a")
    state = wisdom_decision(deck_top=top)
    drawn = list(power(state).drawn)
    assert drawn == list(top[:len(drawn)])
    keep = drawn[-1]
    rest = [c for c in drawn if c != keep][::-1]
    after = allowed(state, KeepCard(player="Ana", card=keep, order=tuple(rest)))
    assert keep in after.players[0].hand
    assert after.active.name != "Ana"  # the turn went on and ended
    assert list(after.deck[: len(rest)]) == rest  # the rest lie on top, in her order


@pytest.mark.rule("power.end-of-turn")
def test_power_end_of_turn_refuses_keeping_no_card_once_the_die_is_rolled() -> None:
    """seed 000.57: "They choose one of the cards and keep it." (power.end-of-turn: once the die
    is rolled the player must keep one drawn card; no free look at the cards.) Keeping none is
    refused and not listed; every listed answer keeps one."""
    top = ("green-1-a", "green-2-a", "green-3-a", "green-4-a", "green-5-a", "green-6-a")
    state = wisdom_decision(deck_top=top)
    drawn = power(state).drawn
    refused(state, KeepCard(player="Ana", order=drawn[::-1]), "power.end-of-turn", drawn[0], "keep")
    listed = legal_actions(state, 100_000)[0]
    assert listed and all(isinstance(a, KeepCard) and a.card in drawn for a in listed)
    waiting = pending_decision(state)
    assert waiting is not None and "none" not in waiting.what + str(waiting.own_what)


@pytest.mark.rule("power.end-of-turn")
def test_power_end_of_turn_allows_every_card_back_when_only_a_scoring_card_was_drawn() -> None:
    """seeds 000.57, 000.59: "They choose one of the cards and keep it." "If they draw a
    scoring card, they may resolve it immediately (...), or put it back on the pile together with
    any other cards, face down." With only a scoring card drawn there is no money card to keep:
    putting it back (keeping none) is allowed and listed, as is resolving it."""
    state = wisdom_decision(deck_top=("scoring-1", "green-1-a"))
    drawn = power(state).drawn
    deck = tuple(c for c in drawn if c != "scoring-1")
    state = replace(state, power=replace(power(state), roll=1, drawn=("scoring-1",)),
                    deck=(*deck, *state.deck))
    assert check_consistency(state) == []
    listed = legal_actions(state, 100_000)[0]
    assert sorted(listed, key=str) == sorted([KeepCard(player="Ana", order=("scoring-1",)),
                                              KeepCard(player="Ana", score="scoring-1")], key=str)
    back = allowed(state, KeepCard(player="Ana", order=("scoring-1",)))
    assert back.rounds_held == () and back.deck[0] == "scoring-1"
    assert back.players[0].hand == state.players[0].hand


@pytest.mark.rule("power.wisdom")
def test_power_wisdom_allows_holding_a_drawn_scoring_round_or_putting_it_back() -> None:
    """seed 000.59: "If they draw a scoring card, they may resolve it immediately (without
    receiving any compensation), thus triggering a scoring, or put it back on the pile together
    with any other cards, face down." (power.wisdom, decision: resolving it is the player's one
    choice; no money card is kept then.)"""
    state = wisdom_decision(deck_top=("scoring-1", "green-1-a", "green-2-a", "green-3-a", "green-4-a",
                                      "green-5-a"))
    drawn = power(state).drawn
    assert drawn[0] == "scoring-1"
    hand = state.players[0].hand
    held = play(state, KeepCard(player="Ana", score="scoring-1", order=drawn[1:]))
    assert held.state.rounds_held == (1,) and [b.round for b in held.scoring] == [1]
    assert held.state.players[0].hand == hand  # no card kept, no compensation
    assert held.state.deck[: len(drawn) - 1] == drawn[1:]
    # Put back with the others while a money card is kept (with no money card drawn, none is).
    kept = next((c for c in drawn if c != "scoring-1"), None)
    back = allowed(state, KeepCard(player="Ana", card=kept, order=tuple(c for c in drawn if c != kept)))
    assert back.rounds_held == () and back.deck[0] == "scoring-1"  # face down on the pile
    if len(drawn) > 1:
        refused(state, KeepCard(player="Ana", card=drawn[1], score="scoring-1", order=drawn[2:]),
                "power.wisdom", "one choice")


@pytest.mark.rule("power.wisdom")
def test_power_wisdom_refuses_a_card_not_drawn_or_a_wrong_order() -> None:
    state = wisdom_decision()
    drawn = list(power(state).drawn)
    stranger = next(c for c in state.players[1].hand)
    refused(state, KeepCard(player="Ana", card=stranger, order=tuple(drawn)), "power.wisdom", stranger)
    money = [c for c in drawn if not c.startswith("scoring")]
    rest = tuple(c for c in drawn if c != money[0])
    if rest:
        refused(state, KeepCard(player="Ana", card=money[0], order=rest[1:]), "power.wisdom", "order")
    refused(state, EndTurn(player="Ana"), "power.wisdom")


@pytest.mark.rule("power.wisdom")
def test_power_wisdom_refuses_the_others_with_a_message_naming_no_drawn_card() -> None:
    """RULES.md §8 (issue 13): while Ana chooses among the drawn cards, the others are told how
    many she drew, never which; Ana herself may be told."""
    state = wisdom_decision()
    told_only_how_many(state, "cards", KeepCard(player="Cyd", order=power(state).drawn))


def told_only_how_many(state: GameState, drawn_what: str, answer_by_another: Action) -> None:
    """Ben's action and another player's answer to Ana's decision are refused with a message
    naming how many were drawn and none of them; Ana's own refusal names them all."""
    drawn = power(state).drawn
    for action in (TakeMoney(player="Ben", cards=state.display[:1]), answer_by_another):
        problems = validate(state, action)
        text = " ".join(v.message for v in problems)
        assert problems and f"{len(drawn)} drawn {drawn_what}" in text, text
        assert not [c for c in drawn if c in text], text
    own = " ".join(v.message for v in validate(state, TakeMoney(player="Ana", cards=state.display[:1])))
    assert all(c in own for c in drawn), own


# --- power.architecture ---------------------------------------------------------------------


def architecture_decision() -> GameState:
    state = offered(ARCHITECTURE, ("green-5-a",))
    return allowed(state, UsePower(player="Ana", tile=ARCHITECTURE))


@pytest.mark.rule("power.architecture")
def test_power_architecture_allows_hiding_a_tile_that_the_next_buyer_turns_up() -> None:
    """seeds 000.50, 000.51, 000.52, 000.53, 000.54: "The player rolls the red die after money
    cards and buildings have been replenished, and draws as many tiles from the tower as the
    number of pips rolled." "Then, they choose 1 of these tiles, and put it face down underneath
    one of the tiles on the market." "Any remaining tiles are returned to the tower." "The tiles
    are placed on top of the tiles in the tower, sorted in any way the player likes."
    "Whenever a player buys a tile from the market that has a tile underneath, flip this tile
    face up when replenishing the market instead of drawing a new one"."""
    state = architecture_decision()
    drawn = list(power(state).drawn)
    assert len(drawn) == power(state).roll
    under = next(s.tile for s in state.market if s.tile)
    assert under is not None
    rest = tuple(drawn[1:][::-1])
    after = allowed(state, HideTile(player="Ana", tile=drawn[0], under=under, order=rest))
    assert power(after).hidden == (
        HiddenTile(
            tile=drawn[0],
            above=under,
            currency=next(s.currency for s in after.market if s.tile == under),
            owner="Ana",
        ),
    )
    assert after.bag[: len(rest)] == rest
    # Whoever buys the tile above: the refill turns the hidden one up instead of drawing.
    space = next(s for s in after.market if s.tile == under)
    buyer = after.active.name
    cards = tuple(c for c in (*after.deck, *after.discard) if c.startswith(f"{space.currency}-9-"))[:2]
    after = arrange(after, hands={buyer: cards})
    bought = allowed(after, BuyBuilding(player=buyer, tile=under, payment=cards))
    final = play(bought, ReserveBuilding(player=buyer, tile=under)).state
    assert next(s.tile for s in final.market if s.currency == space.currency) == drawn[0]
    assert final.bag[: len(rest)] == rest  # no tile was drawn for that space


def hide_answers(state: GameState) -> list[HideTile]:
    """Every hide-tile answer of every shape (each drawn tile or none, under each market tile or
    none), the others back in sorted order."""
    drawn = power(state).drawn
    return [HideTile(player="Ana", tile=tile, under=under, order=tuple(sorted(_without(drawn, tile))))
            for tile in (None, *drawn) for under in (None, *(s.tile for s in state.market if s.tile))]


def _without(items: tuple[str, ...], item: str | None) -> list[str]:
    rest = list(items)
    if item is not None:
        rest.remove(item)
    return rest


@pytest.mark.rule("power.end-of-turn")
def test_power_end_of_turn_refuses_hiding_no_tile_once_the_die_is_rolled() -> None:
    """seed 000.51: "Then, they choose 1 of these tiles, and put it face down underneath one of
    the tiles on the market." (power.end-of-turn: once the die is rolled the player must hide
    one drawn tile; no free look at the tiles.) Hiding none is refused, naming the free market
    tiles, and not listed: legal-actions lists exactly what validate accepts."""
    state = architecture_decision()
    drawn = power(state).drawn
    free = [s.tile for s in state.market if s.tile]
    assert free
    refused(state, HideTile(player="Ana", order=drawn[::-1]), "power.end-of-turn", drawn[0], *free)
    listed = legal_actions(state, 100_000)[0]
    assert all(isinstance(a, HideTile) and a.tile in drawn for a in listed)
    assert len(listed) == len(drawn) * len(free) * len(list(permutations(drawn[1:])))
    for answer in hide_answers(state):
        assert (answer in listed) == (validate(state, answer) == []), answer


@pytest.mark.rule("power.end-of-turn")
def test_power_end_of_turn_allows_every_tile_back_when_no_market_tile_can_take_one() -> None:
    """seeds 000.51, 000.55: "they choose 1 of these tiles, and put it face down underneath one
    of the tiles on the market." "No more than one tile may be underneath a tile." With a tile
    under every market tile, none can take one: every drawn tile goes back on top of the bag in
    the player's order (power.end-of-turn), and that is all that is listed. (With the default
    data, 3 architecture tiles for 4 market spaces, this is built by hand.)"""
    state = architecture_decision()
    drawn = power(state).drawn
    hidden = tuple(HiddenTile(tile=state.bag[i], above=s.tile, currency=s.currency, owner="Ben")
                   for i, s in enumerate(state.market) if s.tile)
    covered = replace(state, power=replace(power(state), hidden=hidden), bag=state.bag[len(hidden):])
    listed = legal_actions(covered, 100_000)[0]
    assert sorted(listed, key=str) == sorted((HideTile(player="Ana", order=o) for o in permutations(drawn)),
                                             key=str)
    for answer in hide_answers(covered):
        assert (answer in listed) == (validate(covered, answer) == []), answer
    after = play(covered, HideTile(player="Ana", order=drawn[::-1])).state
    assert power(after).hidden == hidden and after.bag[: len(drawn)] == drawn[::-1]


@pytest.mark.rule("power.architecture")
def test_power_architecture_refuses_a_tile_not_drawn_or_a_covered_market_tile() -> None:
    """seed 000.55: "No more than one tile may be underneath a tile." """
    state = architecture_decision()
    drawn = list(power(state).drawn)
    under = next(s.tile for s in state.market if s.tile)
    assert under is not None
    not_drawn = state.bag[0]
    refused(
        state,
        HideTile(player="Ana", tile=not_drawn, under=under, order=tuple(drawn)),
        "power.architecture",
        not_drawn,
    )
    refused(state, HideTile(player="Ana", under=under, order=tuple(drawn)), "power.architecture", under)
    covered = replace(
        state,
        power=replace(
            power(state),
            hidden=(HiddenTile(tile=state.bag[0], above=under, currency="yellow", owner="Ben"),),
        ),
        bag=state.bag[1:],
    )
    refused(
        covered,
        HideTile(player="Ana", tile=drawn[0], under=under, order=tuple(drawn[1:])),
        "power.architecture",
        under,
    )


def hidden_under(state: GameState, *hidden: tuple[str, str | None, str, str]) -> GameState:
    """`state` with (tile, above, currency, owner) hidden under the market, the tiles taken from
    the bag (consistency not checked: the tests judge it)."""
    tiles = {h[0] for h in hidden}
    return replace(state, bag=tuple(t for t in state.bag if t not in tiles),
                   power=replace(power(state), hidden=tuple(
                       HiddenTile(tile=t, above=a, currency=c, owner=o) for t, a, c, o in hidden)))


def architecture_problems(state: GameState) -> list[str]:
    return [v.message for v in check_consistency(state) if v.rule == "power.architecture"]


@pytest.mark.rule("power.architecture")
def test_power_architecture_refuses_a_state_with_two_tiles_under_one_market_tile() -> None:
    """seed 000.55: "No more than one tile may be underneath a tile."; seed 000.54: the tile
    under a bought one is flipped face up on its space, so two under one tile would both claim
    that space (one vanished from the state). One tile under each of two market tiles occurs."""
    state = power_game()
    (c1, t1), (c2, t2) = [(s.currency, s.tile) for s in state.market[:2]]
    one_each = hidden_under(state, (state.bag[0], t1, c1, "Ana"), (state.bag[1], t2, c2, "Ben"))
    assert architecture_problems(one_each) == []
    two = hidden_under(state, (state.bag[0], t1, c1, "Ana"), (state.bag[1], t1, c1, "Ben"))
    assert any("2 tiles are hidden under" in m and str(t1) in m for m in architecture_problems(two))
    # Once the market tile is bought, the two would wait for the same emptied space.
    market = tuple(replace(s, tile=None) if s.tile == t1 else s for s in state.market)
    waiting = tuple(replace(h, above=None) for h in power(two).hidden)
    bought = replace(two, market=market, removed=(*two.removed, Tile(tile=str(t1))),
                     power=replace(power(two), hidden=waiting))
    assert any(f"2 tiles are hidden under the bought tile of the {c1} space" in m
               for m in architecture_problems(bought))


@pytest.mark.rule("power.architecture")
def test_power_architecture_refuses_a_hidden_tile_of_no_player_or_at_no_market_space() -> None:
    """seed 000.52: "they choose 1 of these tiles, and put it face down underneath one of the
    tiles on the market": it is a player's, at that market tile's space. Zed is not at the
    table; purple is no currency; a tile under the blue space's tile lies at the blue space."""
    state = power_game()
    space = state.market[2]
    assert space.tile is not None
    other = next(s.currency for s in state.market if s.currency != space.currency)
    tile = state.bag[0]
    assert architecture_problems(hidden_under(state, (tile, space.tile, space.currency, "Ana"))) == []
    for owner, currency, named in (("Zed", space.currency, "'Zed'"), ("Ana", "purple", "purple"),
                                   ("Ana", other, other)):
        problems = architecture_problems(hidden_under(state, (tile, space.tile, currency, owner)))
        assert any(tile in m and named in m for m in problems), problems


@pytest.mark.rule("power.architecture")
def test_power_architecture_allows_a_hidden_tile_to_move_with_its_market_tile() -> None:
    """seed 000.52 ("put it face down underneath one of the tiles on the market") and seed
    000.21 (the mortar mixer "may swap two tiles on the building market"): the hidden tile lies
    under its market tile, so it moves with it, in the state and in every view, and the buyer
    turns it up on the space the tile was bought from (seed 000.54)."""
    state = new_game(NAMES[:3], ["power", "craftsmen"], seed=1).state
    state = arrange(state, active="Ana")
    first, second = state.market[0], state.market[2]
    assert first.tile is not None and second.tile is not None
    state = hire(hidden_under(state, (state.bag[0], first.tile, first.currency, "Ben")), "mortar-mixer")
    assert check_consistency(state) == []
    after = allowed(state, SwapMarketTiles(player="Ana", first=first.tile, second=second.tile))
    assert power(after).hidden[0].currency == second.currency
    assert view(after, None).power.hidden[0].currency == second.currency  # type: ignore[union-attr]


@pytest.mark.rule("power.architecture")
def test_power_architecture_refuses_a_tile_without_under_saying_under_is_missing() -> None:
    """seed 000.52: "they choose 1 of these tiles, and put it face down underneath one of the
    tiles on the market": a hide-tile naming a drawn tile but no market tile is refused saying
    that `under` is missing (not "None is no market tile"); with `under` it is allowed."""
    state = architecture_decision()
    drawn = list(power(state).drawn)
    under = next(s.tile for s in state.market if s.tile)
    assert under is not None
    problems = refused(state, HideTile(player="Ana", tile=drawn[0], order=tuple(drawn[1:])),
                       "power.architecture", "`under` is missing", drawn[0], under)
    assert not any("None" in v.message for v in problems)
    allowed(state, HideTile(player="Ana", tile=drawn[0], under=under, order=tuple(drawn[1:])))


@pytest.mark.rule("power.architecture")
def test_power_architecture_refuses_the_others_with_a_message_naming_no_drawn_tile() -> None:
    """RULES.md §8 (issue 13): while Ana chooses a drawn tile to hide, the others are told how
    many she drew, never which; Ana herself may be told."""
    state = architecture_decision()
    told_only_how_many(state, "tiles", HideTile(player="Cyd", order=power(state).drawn))


# --- power.strength -------------------------------------------------------------------------


def _walls(dice: tuple[int, ...]) -> int:
    """Wall points of an Alhambra with a wall of 3 (north) and a separate one of 2 (south),
    and strength tiles with black dice of `dice` pips in the reserve."""
    alhambra = (
        PlacedTile(tile="fountain", x=0, y=0),
        PlacedTile(tile="tower-11-N", x=1, y=0),
        PlacedTile(tile="pavilion-6-N", x=2, y=0),
        PlacedTile(tile="garden-10-N", x=3, y=0),
        PlacedTile(tile="seraglio-8-S", x=1, y=1),
        PlacedTile(tile="chambers-9-S", x=2, y=1),
    )
    reserve = tuple(
        Tile(tile=t, die=d)
        for t, d in zip(
            ("tower-9-NE-strength", "garden-8-NE-strength", "arcades-5-NW-strength"), dice, strict=False
        )
    )
    position = seated(Position(
        round=1, modules=("power",), players=(PositionPlayer(name="Ana", alhambra=alhambra, reserve=reserve),)
    ))
    lines = score(position).players[0].lines
    wall = next(ln for ln in lines if type(ln).__name__ == "WallLine")
    extra = next(ln for ln in lines if isinstance(ln, PowerLine))
    assert wall.points == 3
    return wall.points + extra.points


@pytest.mark.rule("power.strength")
def test_power_strength_allows_a_second_wall_up_to_the_black_dice() -> None:
    """seeds 000.61, 000.62: "When scoring, the player may score 2 walls as of now: Their longest
    wall, as usual, plus their second longest wall." "However, the maximum score for their second
    longest wall is the total of all of their black dice." """
    assert _walls(()) == 3
    assert _walls((1,)) == 4  # the second wall (2) counts up to 1 pip
    assert _walls((1, 4)) == 5  # and no more than its own length


@pytest.mark.rule("power.strength")
def test_power_strength_refuses_a_second_wall_without_black_dice_or_a_die_elsewhere() -> None:
    """seed 000.62: the second wall counts up to "the total of all of their black dice": none
    without dice, and a die lies only on a strength tile."""
    position = Position(
        round=1,
        modules=("power",),
        players=(
            PositionPlayer(
                name="Ana",
                alhambra=(PlacedTile(tile="fountain", x=0, y=0), PlacedTile(tile="tower-11-N", x=1, y=0)),
                reserve=(Tile(tile="tower-12-open", die=3),),
            ),
        ),
    )
    with pytest.raises(InconsistentState) as error:
        score(seated(position))
    assert any(v.rule == "power.strength" and "tower-12-open" in v.message for v in error.value.violations)
    plain = Position(
        round=1,
        modules=("power",),
        players=(
            PositionPlayer(
                name="Ana",
                alhambra=(PlacedTile(tile="fountain", x=0, y=0), PlacedTile(tile="tower-11-N", x=1, y=0)),
            ),
        ),
    )
    line = next(ln for ln in score(seated(plain)).players[0].lines if isinstance(ln, PowerLine))
    assert line.points == 0


def test_power_strength_seed_example_8_and_6_with_dice_2_3_is_13_and_with_5_3_is_14() -> None:
    """seeds 000.63, 000.64, 000.65, 000.66: "The player has 2 black dice in their Alhambra (2 and
    3 pips)." "Their longest wall counts 8, their second longest counts 6." "The player scores 8 +
    5 = 13 points for their walls." "With a higher die result (for instance, a 5 instead of a 2,
    for a total of 8), they would have scored 8 + 6 = 14 points." """
    from service.engine.grid import best_wall_pair

    layout = {(x, 0): 1 for x in range(8)} | {(x, 5): 1 for x in range(6)}
    first, second, exhaustive = best_wall_pair(layout, 2 + 3)
    assert (first, first + second, exhaustive) == (8, 13, True)
    first, second, _ = best_wall_pair(layout, 5 + 3)
    assert first + second == 14


# --- power.prosperity -----------------------------------------------------------------------


def prosperous() -> GameState:
    """Ana owns a prosperity tile with a white die (bought in an earlier turn) on her reserve."""
    state = power_game()
    state = arrange(state, reserves={"Ana": [PROSPERITY]}, active="Ana")
    ana = state.players[0]
    reserve = tuple(replace(t, die=4) if t.tile == PROSPERITY else t for t in ana.reserve)
    players = (replace(ana, reserve=reserve), *state.players[1:])
    state = replace(state, players=players, power=replace(power(state), white=power(state).white - 1))
    assert check_consistency(state) == []
    return state


@pytest.mark.rule("power.prosperity")
def test_power_prosperity_allows_a_price_one_lower_with_the_die_turned_down() -> None:
    """seeds 000.70, 000.71: "The purchase price of a building is reduced by 1 when using the white
    die." "Each time the die is used, it must be turned, showing 1 pip less than before." """
    state = arrange(
        prosperous(), market={"green": "tower-12-open"}, hands={"Ana": ("green-9-a", "green-2-a")}
    )
    outcome = play(
        state,
        BuyBuilding(
            player="Ana", tile="tower-12-open", payment=("green-9-a", "green-2-a"), white_die=PROSPERITY
        ),
    )
    after = outcome.state
    bought = next(e for e in outcome.events if type(e).__name__ == "BuildingBought")
    assert bought.exact  # 11 paid for 12 - 1: an exact payment
    die = next(t.die for t in after.players[0].reserve if t.tile == PROSPERITY)
    assert die == 3


@pytest.mark.rule("power.prosperity")
def test_power_prosperity_refuses_a_second_use_in_a_turn_or_a_missing_die() -> None:
    """seed 000.68: "During each of their future turns, the player may use this die once only." """
    state = arrange(
        prosperous(),
        market={"green": "tower-12-open", "blue": "tower-11-open"},
        hands={"Ana": ("green-9-a", "green-2-a", "blue-9-a", "blue-1-a")},
    )
    state = allowed(
        state,
        BuyBuilding(
            player="Ana", tile="tower-12-open", payment=("green-9-a", "green-2-a"), white_die=PROSPERITY
        ),
    )
    refused(
        state,
        BuyBuilding(player="Ana", tile="tower-11-open", payment=("blue-9-a",), white_die=PROSPERITY),
        "power.prosperity",
        PROSPERITY,
    )
    plain = new_game(NAMES[:3], seed=1).state
    card = plain.active.hand[0]
    refused(
        plain,
        BuyBuilding(
            player=plain.active.name, tile=plain.market[0].tile or "", payment=(card,), white_die=PROSPERITY
        ),
        "power.prosperity",
        "power",
    )


# --- power.end-hidden -----------------------------------------------------------------------


def ending_with_hidden(hands: dict[str, tuple[str, ...]]) -> GameState:
    state = arrange(power_game(), market={"green": "tower-12-open"}, hands=hands)
    hidden = HiddenTile(tile=state.bag[0], above="tower-12-open", currency="green", owner="Ben")
    return replace(state, bag=state.bag[1:], power=replace(power(state), hidden=(hidden,)))


@pytest.mark.rule("power.end-hidden")
def test_power_end_hidden_allows_the_richest_to_choose_and_the_second_to_take_the_other() -> None:
    """seeds 000.73, 000.74: "If there are any face down tiles on the market at the end of the game
    when the remaining buildings are given to players, the player with the most money of that
    currency may choose one of the two tiles." "The player owning the second-most money of that
    currency takes the other tile." """
    state = ending_with_hidden({"Ana": ("green-9-a",), "Ben": ("green-3-a",), "Cyd": ()})
    hidden = power(state).hidden[0].tile
    space = next(s for s in state.market if s.currency == "green")
    ctx = Context(Generator(1))
    after = leftover(state, space, ctx)
    assert after is not None
    choice = power(after).choices[0]
    assert (choice.chooser, choice.second) == (0, 1)
    assert set(choice.options) == {"tower-12-open", hidden}


@pytest.mark.rule("power.end-hidden")
def test_power_end_hidden_refuses_both_tiles_on_a_tie_for_the_most() -> None:
    """seed 000.75: "In case of a tie for the most money, both tiles are removed from the game." """
    state = ending_with_hidden({"Ana": ("green-9-a",), "Ben": ("green-9-b",), "Cyd": ()})
    space = next(s for s in state.market if s.currency == "green")
    after = leftover(state, space, Context(Generator(1)))
    assert after is not None and power(after).choices == ()
    assert {t.tile for t in after.removed} >= {"tower-12-open", power(state).hidden[0].tile}


def test_power_end_hidden_choice_is_refused_for_a_tile_not_offered() -> None:
    game = None
    for seed in range(1, 80):
        g = play_random_game(seed, 3, ("power",), check_every=1000)
        if any(isinstance(a, ChooseTile) for a in g.actions):
            game = g
            break
    assert game is not None, "no random game ended with a hidden tile on the market"
    i = next(i for i, a in enumerate(game.actions) if isinstance(a, ChooseTile))
    state, action = game.states[i], game.actions[i]
    assert isinstance(action, ChooseTile)
    refused(state, ChooseTile(player=action.player, tile="fountain"), "power.end-hidden", "fountain")


# --- power.dirk -----------------------------------------------------------------------------


@pytest.mark.rule("power.dirk")
def test_power_dirk_allows_a_gift_of_a_strength_tile_whose_die_goes_back() -> None:
    """seed 000.77: "Dirk does not roll any dice." (power.dirk: a die on a tile given to him
    goes back to the supply.)"""
    state = new_game(("Ana", "Ben"), ["power"], seed=2).state
    state = arrange(state, market={"green": STRENGTH}, hands={"Ana": ("green-9-a",)}, active="Ana")
    state = allowed(state, BuyBuilding(player="Ana", tile=STRENGTH, payment=("green-9-a",)))
    assert power(state).black == 2
    after = allowed(state, GiveToDirk(player="Ana", tile=STRENGTH))
    assert after.dirk is not None and all(t.die is None for t in after.dirk.tiles)
    assert power(after).black == 3


@pytest.mark.rule("power.dirk")
def test_power_dirk_refuses_dice_on_dirks_tiles() -> None:
    """seed 000.77: "Dirk does not roll any dice." """
    position = Position(
        round=1,
        modules=("power",),
        players=(
            PositionPlayer(name="Ana", alhambra=(PlacedTile(tile="fountain", x=0, y=0),)),
            PositionPlayer(name="Ben", alhambra=(PlacedTile(tile="fountain", x=0, y=0),)),
            PositionPlayer(name="Dirk", dirk=True, tiles=(Tile(tile=STRENGTH, die=4),)),
        ),
    )
    with pytest.raises(InconsistentState) as error:
        score(position)
    assert any(v.rule == "power.dirk" for v in error.value.violations)


# --- whole games ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_power_reach_the_end(players: int) -> None:
    game = play_random_game(200 + players, players, ("power",), list_every=40)
    assert game.states[-1].phase == "over"


def test_random_games_with_power_use_decline_and_answer_every_way() -> None:
    """The random sampler covers every answer: use, decline, hide or keep one (over a few
    games); hiding none never comes (power.end-of-turn: with the default data some market tile
    can always take one), keeping none only where validate accepts it (no money card drawn)."""
    seen: set[str] = set()
    for seed in range(30):
        for action in play_random_game(600 + seed, 2 + seed % 5, ("power",), check_every=1000).actions:
            if isinstance(action, HideTile | KeepCard):
                kept = action.tile if isinstance(action, HideTile) else action.card or action.score
                none = kept is None
                seen.add(f"{type(action).__struct_config__.tag} {'none' if none else 'one'}")
            elif isinstance(action, UsePower | DeclinePower):
                seen.add(str(type(action).__struct_config__.tag))
        if {"use-power", "decline-power", "hide-tile one", "keep-card one"} <= seen:
            break
    assert {"use-power", "decline-power", "hide-tile one", "keep-card one"} <= seen
    assert "hide-tile none" not in seen


def test_random_games_with_power_and_zoo_reach_the_end() -> None:
    for seed in range(4):
        game = play_random_game(300 + seed, 4, ("power", "zoo"), check_every=3)
        assert game.states[-1].phase == "over"


@pytest.mark.rule("power.strength")
def test_power_strength_allows_a_black_die_rolled_onto_the_tile_bought() -> None:
    """seed 000.60: "Immediately after purchasing this tile, the player rolls a black die from the
    supply, keeping it on the tile." """
    before = power_game()
    state = buy_on_green(before, STRENGTH, ("green-9-a",))
    held = next(t for t in state.players[0].held if t.tile == STRENGTH)
    assert held.die is not None and 1 <= held.die <= 6
    assert power(state).black == power(before).black - 1
    assert state.turn.actions == 1  # immediately: before the turn goes on (an exact payment here)


@pytest.mark.rule("power.prosperity")
def test_power_prosperity_allows_a_white_die_rolled_onto_the_tile_bought() -> None:
    """seed 000.67: "Immediately after purchasing this tile, the player rolls a white die from the
    supply, keeping it on the tile." """
    before = power_game()
    state = buy_on_green(before, PROSPERITY, ("green-3-a",))
    held = next(t for t in state.players[0].held if t.tile == PROSPERITY)
    assert held.die is not None and 1 <= held.die <= 6
    assert power(state).white == power(before).white - 1


@pytest.mark.rule("power.prosperity")
def test_power_prosperity_refuses_the_die_in_the_turn_its_tile_was_bought() -> None:
    """seed 000.68: "During each of their future turns, the player may use this die" (not in the
    turn the tile was bought, also after an exact payment's extra action)."""
    state = arrange(power_game(), market={"green": PROSPERITY, "blue": "tower-11-open"},
                    hands={"Ana": ("green-3-a", "blue-9-a", "blue-1-a")}, active="Ana")
    state = allowed(state, BuyBuilding(player="Ana", tile=PROSPERITY, payment=("green-3-a",)))
    assert state.turn.actions == 1
    refused(state, BuyBuilding(player="Ana", tile="tower-11-open", payment=("blue-9-a", "blue-1-a"),
                               white_die=PROSPERITY), "power.prosperity", PROSPERITY)


@pytest.mark.rule("power.prosperity")
def test_power_prosperity_allows_two_white_dice_each_once_one_per_purchase() -> None:
    """seed 000.69: "If they have more than one white die, they may use only one at a time." (one
    die per purchase: a purchase names one `white_die`; each die once a turn.)"""
    second = "seraglio-4-NE-prosperity"
    state = arrange(power_game(), reserves={"Ana": [PROSPERITY, second]}, active="Ana",
                    market={"green": "tower-12-open", "blue": "tower-11-open"},
                    hands={"Ana": ("green-9-a", "green-2-a", "blue-9-a", "blue-1-a")})
    ana = state.players[0]
    state = replace(state, players=(replace(ana, reserve=tuple(replace(t, die=3) for t in ana.reserve)),
                                    *state.players[1:]),
                    power=replace(power(state), white=power(state).white - 2))
    state = allowed(state, BuyBuilding(player="Ana", tile="tower-12-open", payment=("green-9-a", "green-2-a"),
                                       white_die=PROSPERITY))
    after = allowed(state, BuyBuilding(player="Ana", tile="tower-11-open", payment=("blue-9-a", "blue-1-a"),
                                       white_die=second))
    assert [t.die for t in after.players[0].reserve] == [2, 2]


@pytest.mark.rule("power.prosperity")
def test_power_prosperity_allows_the_last_pip_used_and_the_die_out_of_the_game() -> None:
    """seed 000.72: "After the last pip has been used, remove the die from the game." """
    state = arrange(prosperous(), market={"green": "tower-12-open"},
                    hands={"Ana": ("green-9-a", "green-2-a")})
    ana = state.players[0]
    state = replace(state, players=(replace(ana, reserve=tuple(replace(t, die=1) for t in ana.reserve)),
                                    *state.players[1:]))
    after = allowed(state, BuyBuilding(player="Ana", tile="tower-12-open", payment=("green-9-a", "green-2-a"),
                                       white_die=PROSPERITY))
    assert next(t for t in after.players[0].reserve if t.tile == PROSPERITY).die is None
    assert power(after).white_out == 1 and power(after).white == power(state).white


@pytest.mark.rule("power.end-hidden")
def test_power_end_hidden_refuses_the_second_tile_on_a_tie_for_the_second_most() -> None:
    """seed 000.76: "In case of a tie for the second most money, the leftover tile is removed from
    the game." """
    state = ending_with_hidden({"Ana": ("green-9-a",), "Ben": ("green-3-a",), "Cyd": ("green-3-b",)})
    space = next(s for s in state.market if s.currency == "green")
    after = leftover(state, space, Context(Generator(1)))
    assert after is not None
    choice = power(after).choices[0]
    assert (choice.chooser, choice.second) == (0, -1)
    hidden = power(state).hidden[0].tile
    chose = apply_choose(after, ChooseTile(player="Ana", tile=hidden), Context(Generator(1)))
    assert [t.tile for t in chose.players[0].held] == [hidden]
    assert "tower-12-open" in {t.tile for t in chose.removed}
    assert not chose.players[1].held and not chose.players[2].held


@pytest.mark.rule("power.setup")
def test_power_setup_allows_a_special_tile_placed_as_usual() -> None:
    """seed 000.48: "When a player buys a special tile from the building market, they add it to
    their Alhambra or put it in their reserve as usual." (pavilion-5-NW-architecture has walls on
    N and W, like pavilion-5-NW.)"""
    state = buy_on_green(power_game(), ARCHITECTURE, ("green-5-a",))
    refused(state, PlaceBuilding(player="Ana", tile=ARCHITECTURE, x=1, y=0), "base.place.sides-match")
    placed = allowed(state, PlaceBuilding(player="Ana", tile=ARCHITECTURE, x=-1, y=0))
    assert any(t.tile == ARCHITECTURE for t in placed.players[0].alhambra)
    reserved = allowed(state, ReserveBuilding(player="Ana", tile=ARCHITECTURE))
    assert any(t.tile == ARCHITECTURE for t in reserved.players[0].reserve)


@pytest.mark.rule("base.end.trigger")
def test_base_end_trigger_allows_the_end_after_a_wisdom_decision_that_followed_the_refill() -> None:
    """The empty bag noticed at the refill still ends the game once the decision is taken."""
    state = arrange(
        power_game(), market={"green": WISDOM}, hands={"Ana": ("green-9-a",)}, active="Ana", bag=[]
    )
    state = allowed(state, BuyBuilding(player="Ana", tile=WISDOM, payment=("green-9-a",)))
    state = play(state, ReserveBuilding(player="Ana", tile=WISDOM), UsePower(player="Ana", tile=WISDOM)).state
    assert pending_decision(state) is not None and state.phase == "play"
    drawn = list(power(state).drawn)
    money = [c for c in drawn if not c.startswith("scoring")]
    keep = KeepCard(
        player="Ana",
        card=money[0] if money else None,
        order=tuple(c for c in drawn if not money or c != money[0]),
    )
    after = allowed(state, keep)
    assert after.phase in ("final-placement", "over")
    assert all(s.tile is None for s in after.market)


@pytest.mark.rule("power.wisdom")
def test_power_wisdom_refuses_holding_round_2_before_round_1_or_putting_scoring_2_above_scoring_1() -> None:
    """seed 000.59 ("If they draw a scoring card, they may resolve it immediately ... or put it
    back on the pile together with any other cards") with RULES.md base.turn.scoring-card
    ("Decision: if both scoring cards come up in the same refill, scoring 1 and then scoring 2
    are held, in that order"): the rounds are held in order. A wisdom draw of both scoring cards
    may hold round 1, or put both back with scoring-1 above scoring-2; holding round 2 first, or
    putting scoring-2 back above scoring-1 (the next refill would call round 2 first), is
    refused, and legal-actions lists neither."""
    state = wisdom_decision(deck_top=("scoring-1", "scoring-2", "green-1-a"))
    deck = tuple(c for c in power(state).drawn if c not in ("scoring-1", "scoring-2"))
    state = replace(state, power=replace(power(state), roll=2, drawn=("scoring-1", "scoring-2")),
                    deck=(*deck, *state.deck))
    assert check_consistency(state) == []
    listed = legal_actions(state, 100_000)[0]
    expected = [KeepCard(player="Ana", order=("scoring-1", "scoring-2")),
                KeepCard(player="Ana", score="scoring-1", order=("scoring-2",))]
    assert sorted(listed, key=str) == sorted(expected, key=str)
    held = allowed(state, KeepCard(player="Ana", score="scoring-1", order=("scoring-2",)))
    assert held.rounds_held == (1,) and held.deck[0] == "scoring-2"
    refused(state, KeepCard(player="Ana", score="scoring-2", order=("scoring-1",)), "power.wisdom",
            "round 1 is not held yet")
    refused(state, KeepCard(player="Ana", order=("scoring-2", "scoring-1")), "power.wisdom",
            "puts a later scoring card above an earlier one")
