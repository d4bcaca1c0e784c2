"""Alhambra Zoo (RULES.md §Z, seed 000): one test that allows and one that refuses per rule id,
the seed's examples, and tests of its sentences (000.28 to 000.43) written from the text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

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
from service.engine.actions import BuyBuilding, PlaceBuilding, ReserveBuilding, TakeMoney
from service.engine.catalogue import CATALOGUE, NEIGHBOURS
from service.engine.grid import layout_of
from service.engine.module import Context
from service.engine.modules.dirk.actions import GiveToDirk
from service.engine.modules.zoo.actions import AnimalsArrived, MoveAnimals, _single_steps
from service.engine.modules.zoo.data import KINDS
from service.engine.modules.zoo.model import AnimalStep, ZooState
from service.engine.modules.zoo.play import arrive, pending
from service.engine.modules.zoo.scoring import ZooLine
from service.engine.scoring import Position, PositionPlayer
from service.engine.state import GameState, PlacedTile, Tile, Turn
from tests.support.helpers import arrange, play, refused
from tests.support.play import play_random_game

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


def zoo_arrange(state: GameState, animals: Mapping[tuple[int, int] | str, Sequence[str]] | None = None,
                **where: object) -> GameState:
    """`arrange` for a zoo game, with `animals` taken from the supply (or the box) onto Ana's
    tiles: by position in her Alhambra, by tile id in her reserve. The market's animals go back
    first; the gardens then on the market take theirs as they would arriving there."""
    zoo = state.zoo
    assert zoo is not None
    pool = [*zoo.supply, *(k for s in state.market for k in s.animals), *zoo.removed]
    state = replace(state, market=tuple(replace(s, animals=()) for s in state.market),
                    zoo=replace(zoo, supply=(), removed=()))
    state = arrange(state, check=False, **where)  # type: ignore[arg-type]
    wanted = dict(animals or {})
    for kinds in wanted.values():
        for kind in kinds:
            pool.remove(kind)
    ana = state.players[0]
    ana = replace(ana, alhambra=tuple(replace(p, animals=tuple(wanted.get((p.x, p.y), ())))
                                      for p in ana.alhambra),
                  reserve=tuple(replace(t, animals=tuple(wanted.get(t.tile, ()))) for t in ana.reserve))
    state = replace(state, players=(ana, *state.players[1:]),
                    zoo=ZooState(supply=tuple(pool[2:]), removed=tuple(pool[:2])))
    state = arrive(state, Context(Generator(1)))
    assert check_consistency(state) == []
    return state


# Ana's Alhambra: a row of open tiles east of the fountain, gardens at both ends.
ROW = (("garden-10-open", 1, 0), ("arcades-9-open", 2, 0), ("chambers-10-open", 3, 0),
       ("tower-11-open", 4, 0), ("garden-11-open", 5, 0))
# A garden with a south wall at (1, 0) over a garden with a north wall at (1, 1); the way round
# goes through the fountain and the open arcades at (0, 1).
WALLED = (("garden-12-S", 1, 0), ("arcades-9-open", 0, 1), ("garden-10-N", 1, 1))
ACTIONS_OVER = Turn(player=0, actions=0, acted=True, ending=0)


def moving(alhambra: Sequence[tuple[str, int, int]], hand: Sequence[str],
           animals: Mapping[tuple[int, int] | str, Sequence[str]]) -> GameState:
    """Ana's actions are over, nothing is held: she decides how her animals move."""
    state = zoo_arrange(zoo_game(), animals, alhambras={"Ana": alhambra}, hands={"Ana": hand},
                        active="Ana", turn=ACTIONS_OVER)
    found = pending(state)
    assert found is not None and found.rule == "zoo.move" and found.seat == 0
    return state


def east(kind: str, x: int, n: int) -> tuple[AnimalStep, ...]:
    """`n` steps east along the row, from (x, 0)."""
    return tuple(AnimalStep(kind=kind, x=x + i, y=0, side="E") for i in range(n))


def animals_at(state: GameState, x: int, y: int) -> tuple[str, ...]:
    return next(p.animals for p in state.players[0].alhambra if (p.x, p.y) == (x, y))


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
    """zoo.setup, seeds 000.28, 000.29, 000.30: "Exotic pets are finding a new home in the
    Alhambra." "24 Animal tiles (3 each of 8 types)". "Shuffle the 24 animal tiles face down and
    keep them next to the building market. Two random tiles are placed back in the box unseen."
    (That nobody sees them: tests/modules/test_views.py.)"""
    state = zoo_game()
    assert state.zoo is not None and len(state.zoo.removed) == 2
    on_market = sum(len(s.animals) for s in state.market)
    assert len(state.zoo.supply) + on_market == 22
    assert check_consistency(state) == []
    on_spaces = (k for s in state.market for k in s.animals)
    everywhere = Counter((*state.zoo.supply, *state.zoo.removed, *on_spaces))
    assert len(KINDS) == 8 and everywhere == {kind: 3 for kind in KINDS}
    assert {"monkey", "pigeon", "cheetah"} <= set(KINDS)  # the kinds the seed names
    # Shuffled with the game's generator: the two put back differ from game to game.
    assert len({zoo_game(seed=s).zoo.removed for s in range(1, 9)}) > 1  # type: ignore[union-attr]


@pytest.mark.rule("zoo.setup")
def test_zoo_setup_refuses_a_fourth_monkey_in_a_position() -> None:
    position = Position(round=1, modules=("zoo",), players=(PositionPlayer(name="Ana", alhambra=(
        PlacedTile(x=0, y=0, tile="fountain"),
        PlacedTile(x=1, y=0, tile="garden-10-open", animals=("monkey", "monkey")),
        PlacedTile(x=-1, y=0, tile="garden-11-open", animals=("monkey", "monkey")))),))
    with pytest.raises(InconsistentState) as refused:
        score(position)
    assert any(v.rule == "zoo.setup" and "monkey" in v.message for v in refused.value.violations)


@pytest.mark.rule("zoo.setup")
def test_zoo_setup_refuses_a_state_with_no_animal_put_back_unseen() -> None:
    """seeds 000.29, 000.30: "Shuffle the 24 animal tiles face down" "Two random tiles are
    placed back in the box unseen.": a state with the box empty and 24 animals in play cannot
    occur (nor 3 in the box); the dealt state with 2 in the box can."""
    state = zoo_game()
    zoo = state.zoo
    assert zoo is not None and check_consistency(state) == []
    for supply, removed in (((*zoo.supply, *zoo.removed), ()),
                            (zoo.supply[1:], (*zoo.removed, zoo.supply[0]))):
        bad = replace(state, zoo=replace(zoo, supply=supply, removed=removed))
        problems = [v.message for v in check_consistency(bad) if v.rule == "zoo.setup"]
        assert any(f"zoo.removed holds {len(removed)} animals" in m for m in problems), problems


# --- zoo.arrive -----------------------------------------------------------------------------

@pytest.mark.rule("zoo.arrive")
def test_zoo_arrive_allows_two_animals_onto_a_garden_laid_on_the_market() -> None:
    """zoo.arrive, seed 000.31: "Whenever a garden is revealed at the market, draw 2 animals and
    place them face up on the garden." (At setup; at a refill: the next test.)"""
    state = with_garden_on_market()
    garden = next(s for s in state.market if s.tile and s.tile.startswith("garden"))
    assert len(garden.animals) == 2
    bare = replace(state, market=tuple(replace(s, animals=()) if s is garden else s for s in state.market))
    ctx = Context(Generator(1))
    after = arrive(bare, ctx)
    assert len(next(s for s in after.market if s.tile == garden.tile).animals) == 2


@pytest.mark.rule("zoo.arrive")
def test_zoo_arrive_allows_two_animals_onto_a_garden_revealed_at_a_refill() -> None:
    """zoo.arrive, seed 000.31: "Whenever a garden is revealed at the market, draw 2 animals and
    place them face up on the garden." Ana buys the blue space's pavilion; the refill reveals
    the garden on top of the bag there, and it takes the two animals on top of the supply."""
    state = zoo_arrange(zoo_game(), market={"blue": "pavilion-8-open"}, hands={"Ana": ("blue-9-a",)},
                        bag_top=("garden-10-open",), active="Ana")
    assert state.zoo is not None
    top = state.zoo.supply[:2]
    outcome = play(state, BuyBuilding(player="Ana", tile="pavilion-8-open", payment=("blue-9-a",)),
                   ReserveBuilding(player="Ana", tile="pavilion-8-open"))
    after = outcome.state
    blue = next(s for s in after.market if s.currency == "blue")
    assert blue.tile == "garden-10-open" and blue.animals == top
    assert after.zoo is not None and after.zoo.supply == state.zoo.supply[2:]
    assert AnimalsArrived(tile="garden-10-open", animals=top) in outcome.events
    assert after.active.name == "Ben"


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


@pytest.mark.rule("zoo.arrive")
def test_zoo_arrive_refuses_a_bare_market_garden_while_the_supply_holds_animals() -> None:
    """seed 000.31: "Whenever a garden is revealed at the market, draw 2 animals and place them
    face up on the garden." Can a garden lie on the market with fewer than 2 while the supply
    still holds some? No: the animals are drawn in the same end-of-turn step as the refill (and
    the power's reveal) that lays the garden, before any decision can stop the turn's steps;
    only the buyer takes animals off a market garden (seed 000.32), taking the garden along; a
    mortar mixer's swap moves them with it; and the supply never grows (animals reaching Dirk
    are discarded: zoo.dirk, seed 000.43). So only an empty supply leaves a garden bare."""
    state = with_garden_on_market()
    zoo = state.zoo
    assert zoo is not None and zoo.supply
    garden = next(s for s in state.market if s.tile and s.tile.startswith("garden"))
    for keep in (0, 1):
        bare = replace(state, zoo=replace(zoo, supply=(*zoo.supply, *garden.animals[keep:])),
                       market=tuple(replace(s, animals=s.animals[:keep]) if s is garden else s
                                    for s in state.market))
        problems = [v.message for v in check_consistency(bare) if v.rule == "zoo.arrive"]
        assert any(str(garden.tile) in m and f"carries {keep} animals" in m for m in problems), problems


@pytest.mark.rule("zoo.arrive")
def test_zoo_arrive_allows_a_bare_market_garden_once_the_supply_ran_out() -> None:
    """seed 000.31 and RULES.md zoo.arrive: "2 animals are drawn and put on it (as many as are
    left, if fewer)": with one animal left, one market garden takes it and the other none."""
    state = zoo_game()
    zoo = state.zoo
    assert zoo is not None
    pool = [*zoo.supply, *(k for s in state.market for k in s.animals), *zoo.removed]
    after = zoo_arrange(state, animals={(0, 0): pool[:21]},
                        market={"green": "garden-10-open", "blue": "garden-11-open"})
    gardens = [len(s.animals) for s in after.market if s.tile and s.tile.startswith("garden")]
    assert after.zoo is not None and after.zoo.supply == ()
    assert sum(gardens) == 1 and 0 in gardens  # the first garden took the last one
    assert check_consistency(after) == []


# --- zoo.buy --------------------------------------------------------------------------------

@pytest.mark.rule("zoo.buy")
def test_zoo_buy_allows_the_buyer_the_animals_of_the_garden_for_free() -> None:
    """zoo.buy, seed 000.32: "Any player buying the garden receives the animals as well"."""
    state = with_garden_on_market()
    animals = next(s.animals for s in state.market if s.tile and s.tile.startswith("garden"))
    state, garden = buy_garden(state)
    held = next(t for t in state.active.held if t.tile == garden)
    assert held.animals == animals
    assert check_consistency(state) == []


@pytest.mark.rule("zoo.buy")
def test_zoo_buy_allows_the_animals_for_free_placed_with_the_garden_by_the_usual_rules() -> None:
    """zoo.buy, seed 000.32: "Any player buying the garden receives the animals as well for free,
    placing them together with the garden, following the usual rules." Paying the garden's
    price exactly is an exact payment (the animals cost nothing); the garden goes where the
    usual rules let it, its animals on it."""
    state = zoo_arrange(zoo_game(), market={"green": "garden-10-open"},
                        hands={"Ana": ("green-9-a", "green-1-a")}, active="Ana")
    animals = next(s.animals for s in state.market if s.currency == "green")
    assert len(animals) == 2
    bought = play(state, BuyBuilding(player="Ana", tile="garden-10-open",
                                     payment=("green-9-a", "green-1-a"))).state
    assert bought.turn.actions == 1  # base.buy.exact-bonus: 10 paid for 10, another action
    assert bought.players[0].held == (Tile(tile="garden-10-open", animals=animals),)
    state = play(bought, TakeMoney(player="Ana", cards=bought.display[:1])).state
    refused(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=2, y=0), "base.place.adjacent")
    state = play(state, PlaceBuilding(player="Ana", tile="garden-10-open", x=1, y=0)).state
    assert animals_at(state, 1, 0) == animals
    found = pending(state)  # animals in her Alhambra now: she may move them
    assert found is not None and found.rule == "zoo.move" and found.seat == 0


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
    """zoo.move, seed 000.33: "A player with animals in their Alhambra may move them at the end of
    their turn by discarding a money card." (In random play.)"""
    state = moving_state()
    step = next(iter(_single_steps(state.active.alhambra)))
    card = state.active.hand[0]
    action = MoveAnimals(player=state.active.name, card=card, steps=(step,))
    assert validate(state, action) == []
    after = apply(state, action).state
    assert card in after.discard
    assert check_consistency(after) == []


@pytest.mark.rule("zoo.move")
def test_zoo_move_allows_the_seeds_example_a_card_worth_4_for_4_steps_of_any_currency() -> None:
    """zoo.move, seeds 000.33, 000.34, 000.38: "A player with animals in their Alhambra may move
    them at the end of their turn by discarding a money card. The value of the card equals the
    number of steps the animals can take from tile to tile (the currency does not matter)."
    "Example: A player plays a money card worth 4, thus may move their animals up to 4 steps.\""""
    for currency in ("yellow", "green", "blue", "orange"):
        card = f"{currency}-4-a"
        state = moving(ROW, (card, "yellow-1-a"), {(1, 0): ("monkey",)})
        outcome = play(state, MoveAnimals(player="Ana", card=card, steps=east("monkey", 1, 4)))
        after = outcome.state
        assert animals_at(after, 1, 0) == () and animals_at(after, 5, 0) == ("monkey",)
        assert card in after.discard and after.players[0].hand == ("yellow-1-a",)
        assert after.active.name == "Ben"  # the move ended Ana's turn


@pytest.mark.rule("zoo.move")
def test_zoo_move_refuses_a_fifth_step_for_a_card_worth_4() -> None:
    """zoo.move, seeds 000.34, 000.38: the card "worth 4" moves the animals "up to 4 steps"."""
    state = moving(ROW, ("orange-4-a",), {(1, 0): ("monkey",)})
    five = (*east("monkey", 1, 4), AnimalStep(kind="monkey", x=5, y=0, side="W"))
    refused(state, MoveAnimals(player="Ana", card="orange-4-a", steps=five), "zoo.move", "orange-4-a",
            "4 steps")
    # The same five steps with a card worth 5.
    state = moving(ROW, ("orange-5-a",), {(1, 0): ("monkey",)})
    after = play(state, MoveAnimals(player="Ana", card="orange-5-a", steps=five)).state
    assert animals_at(after, 4, 0) == ("monkey",)


@pytest.mark.rule("zoo.move")
def test_zoo_move_allows_steps_split_between_animals_and_unused_steps_forfeited() -> None:
    """zoo.move, seeds 000.36, 000.37: "The steps may be used for one animal only or can be split
    between several animals." "A player may forfeit any steps if they want to do so." A card
    worth 4: the monkey takes 2, the pigeon 1, the fourth is forfeited; a card worth 9 may be
    discarded for no step at all."""
    state = moving(ROW, ("green-4-a",), {(1, 0): ("monkey",), (5, 0): ("pigeon",)})
    steps = (*east("monkey", 1, 2), AnimalStep(kind="pigeon", x=5, y=0, side="W"))
    after = play(state, MoveAnimals(player="Ana", card="green-4-a", steps=steps)).state
    assert animals_at(after, 3, 0) == ("monkey",) and animals_at(after, 4, 0) == ("pigeon",)
    assert animals_at(after, 1, 0) == animals_at(after, 5, 0) == ()
    state = moving(ROW, ("blue-9-a",), {(1, 0): ("monkey",)})
    after = play(state, MoveAnimals(player="Ana", card="blue-9-a")).state
    assert animals_at(after, 1, 0) == ("monkey",) and "blue-9-a" in after.discard


@pytest.mark.rule("zoo.move")
def test_zoo_move_refuses_a_wall_or_an_empty_space_but_allows_the_way_round() -> None:
    """zoo.move, seed 000.35: "The animals may move only orthogonally, and they cannot cross
    walls." (A step names a side, N, E, S or W: a diagonal step cannot even be written.) Steps
    go "from tile to tile" (seed 000.34), never onto an empty space."""
    state = moving(WALLED, ("green-3-a",), {(1, 0): ("monkey",)})
    across = AnimalStep(kind="monkey", x=1, y=0, side="S")
    refused(state, MoveAnimals(player="Ana", card="green-3-a", steps=(across,)), "zoo.move", "walled")
    off = AnimalStep(kind="monkey", x=1, y=0, side="E")
    refused(state, MoveAnimals(player="Ana", card="green-3-a", steps=(off,)), "zoo.move", "(2, 0)")
    round_ = (AnimalStep(kind="monkey", x=1, y=0, side="W"), AnimalStep(kind="monkey", x=0, y=0, side="S"),
              AnimalStep(kind="monkey", x=0, y=1, side="E"))
    after = play(state, MoveAnimals(player="Ana", card="green-3-a", steps=round_)).state
    assert animals_at(after, 1, 1) == ("monkey",) and animals_at(after, 1, 0) == ()


@pytest.mark.rule("zoo.move")
def test_zoo_move_refuses_a_move_to_a_player_whose_animals_are_only_in_the_reserve() -> None:
    """zoo.move, seed 000.33: "A player with animals in their Alhambra may move them": animals on
    a garden in the reserve give no move; the same garden in the Alhambra does."""
    state = zoo_arrange(zoo_game(), {"garden-11-open": ("monkey",)}, reserves={"Ana": ("garden-11-open",)},
                        hands={"Ana": ("green-4-a",)}, active="Ana")
    after = play(state, TakeMoney(player="Ana", cards=state.display[:1])).state
    assert after.active.name == "Ben" and pending(after) is None
    refused(after, MoveAnimals(player="Ana", card="green-4-a"), "zoo.move", "no such decision")
    state = zoo_arrange(zoo_game(), {(1, 0): ("monkey",)}, alhambras={"Ana": (("garden-11-open", 1, 0),)},
                        hands={"Ana": ("green-4-a",)}, active="Ana")
    after = play(state, TakeMoney(player="Ana", cards=state.display[:1])).state
    found = pending(after)
    assert after.active.name == "Ana" and found is not None and found.rule == "zoo.move"


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
    """zoo.move, seed 000.35: "they cannot cross walls" (in random play)."""
    state = moving_state(_walls_beside_animals)
    step = _walls_beside_animals(state)[0]
    refused = validate(state, MoveAnimals(player=state.active.name, card=state.active.hand[0],
                                          steps=(step,)))
    assert refused and refused[0].rule == "zoo.move" and "walled" in refused[0].message


# --- zoo.score ------------------------------------------------------------------------------

def _zoo_points(*tiles: PlacedTile) -> int:
    fountain = PlacedTile(x=0, y=0, tile="fountain")
    others = tuple(PositionPlayer(name=n, alhambra=(fountain,)) for n in ("Ben", "Cyd"))
    position = Position(round=2, modules=("zoo",), players=(PositionPlayer(name="Ana", alhambra=(
        fountain, *tiles)), *others))
    line = next(ln for ln in score(position).players[0].lines if isinstance(ln, ZooLine))
    return line.points


@pytest.mark.rule("zoo.score")
def test_zoo_score_allows_three_monkeys_on_a_garden_3_points() -> None:
    """zoo.score, seeds 000.39, 000.41: "Each garden with exactly one kind of animal scores as many
    points as the number of these animals." "Example: 3 monkeys are on a garden (no other
    animals), the player scores 3 points." Two such gardens add up."""
    assert _zoo_points(PlacedTile(x=1, y=0, tile="garden-10-open",
                                  animals=("monkey", "monkey", "monkey"))) == 3
    assert _zoo_points(PlacedTile(x=1, y=0, tile="garden-10-open", animals=("monkey", "monkey")),
                       PlacedTile(x=-1, y=0, tile="garden-11-open", animals=("camel",))) == 3


@pytest.mark.rule("zoo.score")
def test_zoo_score_refuses_two_pigeons_and_a_cheetah_and_animals_off_gardens() -> None:
    """zoo.score, seeds 000.40, 000.42: "There are 2 pigeons and 1 cheetah on the player's second
    garden - no points at all." "Animals on other tiles than a garden are not worth any
    points.\""""
    assert _zoo_points(PlacedTile(x=1, y=0, tile="garden-10-open",
                                  animals=("pigeon", "pigeon", "cheetah"))) == 0
    assert _zoo_points(PlacedTile(x=1, y=0, tile="tower-11-open", animals=("camel",))) == 0


# --- zoo.dirk -------------------------------------------------------------------------------

@pytest.mark.rule("zoo.dirk")
def test_zoo_dirk_allows_a_gift_but_its_animals_are_discarded() -> None:
    """zoo.dirk, seed 000.43: "If Dirk gets any animal tiles they are immediately discarded.\""""
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
    """zoo.dirk, seed 000.43: Dirk's animals are "immediately discarded": he never keeps one."""
    state = zoo_game(players=2)
    assert state.dirk is not None and state.zoo is not None
    tiles = (replace(state.dirk.tiles[0], animals=state.zoo.supply[:1]), *state.dirk.tiles[1:])
    bad = replace(state, dirk=replace(state.dirk, tiles=tiles),
                  zoo=replace(state.zoo, supply=state.zoo.supply[1:]))
    assert any(v.rule == "zoo.dirk" for v in check_consistency(bad))


@pytest.mark.rule("zoo.dirk")
def test_zoo_dirk_refuses_a_position_where_dirks_tiles_carry_animals() -> None:
    """zoo.dirk, seed 000.43: "If Dirk gets any animal tiles they are immediately discarded":
    Dirk given by tiles (his 6 of setup) with bare gardens is allowed; the same with 3 monkeys
    on his garden-11-open is refused, naming the tile, as a state or a tally already are."""
    six = ("garden-10-open", "tower-11-N", "arcades-9-open", "chambers-10-open", "pavilion-8-open",
           "garden-11-open")
    fountain = PlacedTile(x=0, y=0, tile="fountain")
    players = tuple(PositionPlayer(name=n, alhambra=(fountain,)) for n in ("Ana", "Ben"))

    def dirk_with(tiles: tuple[Tile, ...]) -> Position:
        return Position(round=1, modules=("zoo",), players=(
            *players, PositionPlayer(name="Dirk", dirk=True, tiles=tiles)))

    bare = tuple(Tile(tile=t) for t in six)
    score(dirk_with(bare))
    monkeys = (*bare[:5], Tile(tile="garden-11-open", animals=("monkey",) * 3))
    with pytest.raises(InconsistentState) as refused_position:
        score(dirk_with(monkeys))
    (problem,) = refused_position.value.violations
    assert problem.rule == "zoo.dirk"
    assert problem.message.startswith("$.players[2].tiles[5]: Dirk's garden-11-open")


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
