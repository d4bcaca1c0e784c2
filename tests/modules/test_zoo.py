"""Alhambra Zoo (RULES.md §Z): one test that allows and one that refuses per rule id, and the
seed's scoring examples."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from msgspec.structs import replace

from service.engine import (
    Generator,
    InconsistentState,
    apply,
    check_consistency,
    new_game,
    random_action,
    score,
    validate,
)
from service.engine.actions import BuyBuilding, PlaceBuilding
from service.engine.catalogue import CATALOGUE, NEIGHBOURS
from service.engine.grid import layout_of
from service.engine.modules.dirk import GiveToDirk
from service.engine.modules.zoo.model import AnimalStep
from service.engine.modules.zoo.rules import MoveAnimals, ZooLine, _single_steps, arrive, pending
from service.engine.rules import Context
from service.engine.scoring import Position, PositionPlayer
from service.engine.state import GameState, PlacedTile, Tile
from tests.engine.play import play_random_game

NAMES = ("Ana", "Ben", "Cyd")


def zoo_game(players: int = 3, seed: int = 1) -> GameState:
    return new_game(NAMES[:players] if players > 2 else ("Ana", "Ben"), ["zoo"], seed=seed).state


def with_garden_on_market(seed_from: int = 1, players: int = 3) -> GameState:
    """A new zoo game whose market holds a garden (with its animals)."""
    for seed in range(seed_from, seed_from + 200):
        state = zoo_game(players, seed)
        if any(s.tile and s.tile.startswith("garden") for s in state.market):
            return state
    raise AssertionError("no seed lays a garden on the market")


def rich(state: GameState, currency: str) -> GameState:
    """Give the active player every card of `currency` still in the deck (all still unique)."""
    cards = tuple(c for c in state.deck if c in CATALOGUE.money and CATALOGUE.money[c].currency == currency)
    seat = state.turn.player
    players = list(state.players)
    players[seat] = replace(players[seat], hand=(*players[seat].hand, *cards))
    state = replace(state, players=tuple(players), deck=tuple(c for c in state.deck if c not in cards))
    assert check_consistency(state) == []
    return state


def pay(state: GameState, tile: str) -> tuple[str, ...]:
    space = next(s for s in state.market if s.tile == tile)
    price = CATALOGUE.tiles[tile].price
    paid: list[str] = []
    for card in sorted(state.active.hand, key=lambda c: -CATALOGUE.money[c].value):
        if CATALOGUE.money[card].currency == space.currency and sum(
                CATALOGUE.money[c].value for c in paid) < price:
            paid.append(card)
    return tuple(paid)


def buy_garden(state: GameState) -> tuple[GameState, str]:
    space = next(s for s in state.market if s.tile and s.tile.startswith("garden"))
    assert space.tile is not None
    state = rich(state, space.currency)
    outcome = apply(state, BuyBuilding(player=state.active.name, tile=space.tile,
                                       payment=pay(state, space.tile)))
    return outcome.state, space.tile


def moving_state(also: Callable[[GameState], object] = lambda state: True) -> GameState:
    """A state from random play where a player decides how their animals move, with a step."""
    for seed in range(1, 200):
        game = play_random_game(seed, 3, ("zoo",), check_every=1000)
        for state in game.states:
            if pending(state) is not None and state.active.hand and \
                    list(_single_steps(state.active.alhambra)) and also(state):
                return state
    raise AssertionError("no random game reached such an animal move")


def _walls_beside_animals(state: GameState) -> list[AnimalStep]:
    """Steps that would take an animal across a wall into a neighbouring tile."""
    layout = layout_of(state.active.alhambra)
    out = []
    for p in state.active.alhambra:
        for kind in p.animals:
            for side, (dx, dy, bit, facing) in zip("NESW", NEIGHBOURS, strict=True):
                target = layout.get((p.x + dx, p.y + dy))
                if target is not None and (layout[(p.x, p.y)] & bit or target & facing):
                    out.append(AnimalStep(kind=kind, x=p.x, y=p.y, side=side))  # type: ignore[arg-type]
    return out


# --- zoo.setup ------------------------------------------------------------------------------

@pytest.mark.rule("zoo.setup")
def test_zoo_setup_allows_22_face_down_animals_after_two_go_back_unseen() -> None:
    state = zoo_game()
    assert state.zoo is not None and len(state.zoo.removed) == 2
    on_market = sum(len(s.animals) for s in state.market)
    assert len(state.zoo.supply) + on_market == 22
    assert check_consistency(state) == []


@pytest.mark.rule("zoo.setup")
def test_zoo_setup_refuses_a_fourth_monkey_in_a_position() -> None:
    position = Position(round=1, modules=("zoo",), players=(PositionPlayer(name="Ana", alhambra=(
        PlacedTile(x=0, y=0, tile="fountain"),
        PlacedTile(x=1, y=0, tile="garden-10-open", animals=("monkey", "monkey")),
        PlacedTile(x=-1, y=0, tile="garden-11-open", animals=("monkey", "monkey")))),))
    with pytest.raises(InconsistentState) as refused:
        score(position)
    assert any(v.rule == "zoo.setup" and "monkey" in v.message for v in refused.value.violations)


# --- zoo.arrive -----------------------------------------------------------------------------

@pytest.mark.rule("zoo.arrive")
def test_zoo_arrive_allows_two_animals_onto_a_garden_laid_on_the_market() -> None:
    state = with_garden_on_market()
    garden = next(s for s in state.market if s.tile and s.tile.startswith("garden"))
    assert len(garden.animals) == 2
    bare = replace(state, market=tuple(replace(s, animals=()) if s is garden else s for s in state.market))
    ctx = Context(Generator(1))
    after = arrive(bare, ctx)
    assert len(next(s for s in after.market if s.tile == garden.tile).animals) == 2


@pytest.mark.rule("zoo.arrive")
def test_zoo_arrive_refuses_animals_on_a_market_tile_that_is_no_garden() -> None:
    state = zoo_game()
    other = next(s for s in state.market if s.tile and not s.tile.startswith("garden"))
    assert other.animals == ()
    zoo = state.zoo
    assert zoo is not None
    moved = replace(state, zoo=replace(zoo, supply=zoo.supply[1:]),
                    market=tuple(replace(s, animals=zoo.supply[:1]) if s is other else s
                                 for s in state.market))
    problems = check_consistency(moved)
    assert any(v.rule == "zoo.arrive" and str(other.tile) in v.message for v in problems)


# --- zoo.buy --------------------------------------------------------------------------------

@pytest.mark.rule("zoo.buy")
def test_zoo_buy_allows_the_buyer_the_animals_of_the_garden_for_free() -> None:
    state = with_garden_on_market()
    animals = next(s.animals for s in state.market if s.tile and s.tile.startswith("garden"))
    state, garden = buy_garden(state)
    held = next(t for t in state.active.held if t.tile == garden)
    assert held.animals == animals
    assert check_consistency(state) == []


@pytest.mark.rule("zoo.buy")
def test_zoo_buy_refuses_animals_to_the_buyer_of_another_building() -> None:
    state = with_garden_on_market()
    other = next(s for s in state.market if s.tile and not s.tile.startswith("garden"))
    assert other.tile is not None
    state = rich(state, other.currency)
    after = apply(state, BuyBuilding(player=state.active.name, tile=other.tile,
                                     payment=pay(state, other.tile))).state
    assert all(t.animals == () for t in after.active.held)
    assert sum(len(s.animals) for s in after.market) == sum(len(s.animals) for s in state.market)


# --- zoo.move -------------------------------------------------------------------------------

@pytest.mark.rule("zoo.move")
def test_zoo_move_allows_a_step_through_an_open_side_for_a_discarded_card() -> None:
    state = moving_state()
    step = next(iter(_single_steps(state.active.alhambra)))
    card = state.active.hand[0]
    action = MoveAnimals(player=state.active.name, card=card, steps=(step,))
    assert validate(state, action) == []
    after = apply(state, action).state
    assert card in after.discard
    assert check_consistency(after) == []


def _steps_onto_empty(state: GameState) -> list[AnimalStep]:
    positions = {(p.x, p.y) for p in state.active.alhambra}
    return [AnimalStep(kind=p.animals[0], x=p.x, y=p.y, side=side)  # type: ignore[arg-type]
            for p in state.active.alhambra if p.animals
            for side, (dx, dy, _, _) in zip("NESW", NEIGHBOURS, strict=True)
            if (p.x + dx, p.y + dy) not in positions]


@pytest.mark.rule("zoo.move")
def test_zoo_move_refuses_an_empty_space_or_too_many_steps() -> None:
    state = moving_state(_steps_onto_empty)
    player = state.active
    card = min(player.hand, key=lambda c: CATALOGUE.money[c].value)
    step = _steps_onto_empty(state)[0]
    onto_empty = MoveAnimals(player=player.name, card=card, steps=(step,))
    refused = validate(state, onto_empty)
    assert refused and refused[0].rule == "zoo.move" and "empty space" in refused[0].message
    too_many = MoveAnimals(player=player.name, card=card,
                           steps=(step,) * (CATALOGUE.money[card].value + 1))
    assert "steps" in validate(state, too_many)[0].message
    no_card = MoveAnimals(player=player.name, steps=onto_empty.steps)
    assert validate(state, no_card)[0].rule == "zoo.move"
    # Only the player whose turn it is decides, and nothing else is done meanwhile.
    other = next(p.name for p in state.players if p.name != player.name)
    assert validate(state, MoveAnimals(player=other))[0].rule == "zoo.move"


@pytest.mark.rule("zoo.move")
def test_zoo_move_refuses_to_cross_a_wall() -> None:
    state = moving_state(_walls_beside_animals)
    step = _walls_beside_animals(state)[0]
    refused = validate(state, MoveAnimals(player=state.active.name, card=state.active.hand[0],
                                          steps=(step,)))
    assert refused and refused[0].rule == "zoo.move" and "walled" in refused[0].message


# --- zoo.score ------------------------------------------------------------------------------

def _zoo_points(*tiles: PlacedTile) -> int:
    position = Position(round=2, modules=("zoo",), players=(PositionPlayer(name="Ana", alhambra=(
        PlacedTile(x=0, y=0, tile="fountain"), *tiles)),))
    line = next(ln for ln in score(position).players[0].lines if isinstance(ln, ZooLine))
    return line.points


@pytest.mark.rule("zoo.score")
def test_zoo_score_allows_three_monkeys_on_a_garden_3_points() -> None:
    assert _zoo_points(PlacedTile(x=1, y=0, tile="garden-10-open",
                                  animals=("monkey", "monkey", "monkey"))) == 3


@pytest.mark.rule("zoo.score")
def test_zoo_score_refuses_two_pigeons_and_a_cheetah_and_animals_off_gardens() -> None:
    assert _zoo_points(PlacedTile(x=1, y=0, tile="garden-10-open",
                                  animals=("pigeon", "pigeon", "cheetah"))) == 0
    assert _zoo_points(PlacedTile(x=1, y=0, tile="tower-11-open", animals=("camel",))) == 0


# --- zoo.dirk -------------------------------------------------------------------------------

@pytest.mark.rule("zoo.dirk")
def test_zoo_dirk_allows_a_gift_but_its_animals_are_discarded() -> None:
    state = with_garden_on_market(players=2)
    animals = next(s.animals for s in state.market if s.tile and s.tile.startswith("garden"))
    state, garden = buy_garden(state)
    after = apply(state, GiveToDirk(player=state.active.name, tile=garden)).state
    assert after.dirk is not None and after.zoo is not None
    given = next(t for t in after.dirk.tiles if t.tile == garden)
    assert given.animals == () and after.zoo.discarded == animals
    assert check_consistency(after) == []


@pytest.mark.rule("zoo.dirk")
def test_zoo_dirk_refuses_a_state_where_dirk_keeps_animals() -> None:
    state = zoo_game(players=2)
    assert state.dirk is not None and state.zoo is not None
    tiles = (replace(state.dirk.tiles[0], animals=state.zoo.supply[:1]), *state.dirk.tiles[1:])
    bad = replace(state, dirk=replace(state.dirk, tiles=tiles),
                  zoo=replace(state.zoo, supply=state.zoo.supply[1:]))
    assert any(v.rule == "zoo.dirk" for v in check_consistency(bad))


# --- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_zoo_reach_the_end(players: int) -> None:
    game = play_random_game(100 + players, players, ("zoo",), list_every=40)
    assert game.states[-1].phase == "over"


def test_animals_stay_on_a_garden_placed_in_the_alhambra() -> None:
    state = with_garden_on_market()
    state, garden = buy_garden(state)
    animals = next(t.animals for t in state.active.held if t.tile == garden)
    rng = Generator(3)
    for _ in range(50):  # place it wherever it fits, else reserve
        action = random_action(state, rng)
        assert action is not None
        if isinstance(action, PlaceBuilding) and action.tile == garden:
            after = apply(state, action).state
            placed = next(p for p in after.players[state.turn.player].alhambra if p.tile == garden)
            assert placed.animals == animals
            return
    assert isinstance(Tile(tile=garden), Tile)
