"""Palace Staff (RULES.md §S): one test that allows and one that refuses per rule id, the seed's
example (2 denari taken, the marshal walks 4 tiles), the running-score floor, random games."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec
import pytest
from msgspec.structs import replace

from service.engine import InconsistentState, apply, check_consistency, new_game, score, validate
from service.engine.actions import BuyBuilding, PlaceBuilding, RemoveToReserve, SwapWithReserve, TakeMoney
from service.engine.catalogue import CATALOGUE
from service.engine.module import pending_decision
from service.engine.modules.staff.actions import MarshalMoved, MoveMarshal, candidates_move
from service.engine.modules.staff.data import DISPLAY_SIZE, SERVANTS
from service.engine.modules.staff.model import Spot
from service.engine.modules.staff.play import pending
from service.engine.modules.staff.scoring import StaffLine
from service.engine.modules.zoo.actions import MoveAnimals
from service.engine.scoring import MajorityLine, Position, PositionPlayer, WallLine
from service.engine.state import GameState, PlacedTile, Tile
from service.engine.view import view
from tests.modules.test_zoo import zoo_arrange
from tests.support.helpers import seated
from tests.support.play import play_random_game

NAMES = ("Ana", "Ben", "Cyd")
# A street east of the fountain: garden, chambers, arcades, tower, all open (the seed's example).
STREET = (("garden-10-open", 1, 0), ("chambers-10-open", 2, 0), ("arcades-9-open", 3, 0),
          ("tower-11-open", 4, 0))


def staff_game(players: int = 3, seed: int = 1) -> GameState:
    return new_game(NAMES[:players] if players > 2 else ("Ana", "Ben"), ["staff"], seed=seed).state


def build(tiles: Iterable[tuple[str, int, int]] = STREET, *, served: Iterable[str] = (),
          reserve: Iterable[str] = (), display: Iterable[str] | None = None,
          marshal: tuple[int, int] = (0, 0), players: int = 3, seed: int = 1) -> GameState:
    """A new staff game whose active player has `tiles` in the Alhambra (those named in `served`
    carrying a servant), `reserve` on the reserve board, the servant display `display` and the
    marshal at `marshal`; every component stays exactly once."""
    state = staff_game(players, seed)
    tiles = list(tiles)
    served = set(served)
    needed = {t for t, _, _ in tiles} | set(reserve)
    spare = [t for t in state.bag if t not in needed]
    market = tuple(replace(s, tile=spare.pop()) if s.tile in needed else s for s in state.market)
    dirk = state.dirk
    if dirk is not None:
        dirk = replace(dirk, tiles=tuple(Tile(tile=spare.pop()) if t.tile in needed else t
                                         for t in dirk.tiles))
    used = needed | {s.tile for s in market} | ({t.tile for t in dirk.tiles} if dirk else set())
    bag = tuple(t for t in state.bag if t not in used)
    staff = state.staff
    assert staff is not None
    pool = list(staff.display + staff.pile)
    for tile in served:
        pool.remove(CATALOGUE.tiles[tile].type)
    shown = list(display) if display is not None else pool[:DISPLAY_SIZE]
    for colour in shown:
        pool.remove(colour)
    seat = state.turn.player
    player = state.active
    alhambra = (*player.alhambra, *(PlacedTile(tile=t, x=x, y=y, servant=t in served) for t, x, y in tiles))
    players_ = list(state.players)
    players_[seat] = replace(player, alhambra=alhambra, reserve=tuple(Tile(tile=t) for t in reserve))
    marshals = list(staff.marshals)
    marshals[seat] = Spot(x=marshal[0], y=marshal[1])
    state = replace(state, players=tuple(players_), market=market, bag=bag, dirk=dirk,
                    staff=replace(staff, display=tuple(shown), pile=tuple(pool), marshals=tuple(marshals)))
    assert check_consistency(state) == []
    return state


def with_money(state: GameState, *cards: str) -> GameState:
    """The money display shows `cards` (taken from the deck or the display) and others."""
    rest = [c for c in state.display if c not in cards]
    display = (*cards, *rest)[:len(state.display)]
    deck = tuple(c for c in (*rest, *state.deck) if c not in display)
    state = replace(state, display=display, deck=deck)
    assert check_consistency(state) == []
    return state


def free_card(state: GameState, currency: str, value: int) -> str:
    """A money card of that currency and value in the deck or the display."""
    return next(c for c in (*state.display, *state.deck) if c in CATALOGUE.money
                and CATALOGUE.money[c].currency == currency and CATALOGUE.money[c].value == value)


def take(state: GameState, *spec: tuple[str, int]) -> GameState:
    """The active player takes cards of these (currency, value) from the display."""
    cards = [free_card(state, currency, value) for currency, value in spec]
    state = with_money(state, *cards)
    return apply(state, TakeMoney(player=state.active.name, cards=tuple(cards))).state


def path(*spots: tuple[int, int]) -> tuple[Spot, ...]:
    return tuple(Spot(x=x, y=y) for x, y in spots)


def tile_at(state: GameState, seat: int, x: int, y: int) -> PlacedTile:
    return next(p for p in state.players[seat].alhambra if (p.x, p.y) == (x, y))


def staff_points(position: Position, name: str = "Ana") -> StaffLine:
    player = next(p for p in score(seated(position)).players if p.name == name)
    return next(ln for ln in player.lines if isinstance(ln, StaffLine))


def fountain(*tiles: PlacedTile) -> tuple[PlacedTile, ...]:
    return (PlacedTile(x=0, y=0, tile="fountain"), *tiles)


# --- staff.setup ----------------------------------------------------------------------------

@pytest.mark.rule("staff.setup")
def test_staff_setup_allows_6_face_up_48_face_down_and_marshals_on_the_fountains() -> None:
    """seeds 002.2, 002.3, 002.4, 002.5, 002.6: "54 Servant tiles (7x/ 7x/ 9x/ 9x/ 11x/ 11x in
    colors of pavilion, seraglio/ arcades/ chambers/ garden/ tower)" "6 Court marshals (1 of
    each player color)" "Shuffle the servant tiles face down" "draw 6 servant tiles, and place
    them face up" "Each player places the marshal of their player color on their Lion Fountain
    tile." """
    assert SERVANTS == {"pavilion": 7, "seraglio": 7, "arcades": 9, "chambers": 9, "garden": 11, "tower": 11}
    state = staff_game()
    staff = state.staff
    assert staff is not None
    assert len(staff.display) == DISPLAY_SIZE and len(staff.pile) == 54 - DISPLAY_SIZE
    assert sorted(staff.display + staff.pile) == sorted(c for c, n in SERVANTS.items() for _ in range(n))
    assert staff.marshals == (Spot(x=0, y=0),) * 3 and staff.steps == 0
    assert check_consistency(state) == []
    assert len({staff_game(seed=seed).staff.pile for seed in range(4)}) > 1  # type: ignore[union-attr]
    seen = view(state, None).staff  # face down: only how many
    assert seen is not None and seen.pile_size == 48 and seen.display == staff.display
    assert "pile" not in msgspec.json.decode(msgspec.json.encode(seen))


@pytest.mark.rule("staff.setup")
def test_staff_setup_refuses_a_lost_servant_and_an_eighth_pavilion_servant() -> None:
    """seed 002.2: "54 Servant tiles (7x/ 7x/ ...)": no fewer, and no more of a colour."""
    state = staff_game()
    assert state.staff is not None
    lost = replace(state, staff=replace(state.staff, pile=state.staff.pile[1:]))
    assert any("missing" in v.message and "servant:" in v.message for v in check_consistency(lost))
    pavilions = [t.id for t in CATALOGUE.tiles.values() if t.type == "pavilion" and t.module == "base"]
    assert len(pavilions) == 7
    layout = tuple(PlacedTile(x=1 + i, y=0, tile=t, servant=True) for i, t in enumerate(sorted(pavilions)))
    position = Position(round=1, modules=("staff",), check_layout=False, players=(
        PositionPlayer(name="Ana", alhambra=fountain(*layout)),
        PositionPlayer(name="Ben", alhambra=fountain(PlacedTile(x=1, y=0, tile="pavilion-8-open",
                                                                servant=True)))))
    with pytest.raises(InconsistentState) as refused:
        score(seated(position))  # (pavilion-8-open twice as well: only building sites add pavilions)
    assert any(v.rule == "staff.setup" and "8 servants on pavilion" in v.message
               for v in refused.value.violations)


@pytest.mark.rule("staff.setup")
def test_staff_setup_refuses_more_pavilion_servants_than_7_naming_who_holds_them() -> None:
    """seed 002.2: "54 Servant tiles (7x/ 7x/ 9x/ 9x/ 11x/ 11x in colors of pavilion, ...)": the
    refusal of a colour's servants beyond its 7 names the players and the paths of the servants,
    so a client knows which to take off."""
    pavilions = sorted(t.id for t in CATALOGUE.tiles.values() if t.type == "pavilion" and t.module == "base")
    ana = tuple(PlacedTile(x=1 + i, y=0, tile=t, servant=True) for i, t in enumerate(pavilions[:6]))
    ben = (PlacedTile(x=1, y=0, tile=pavilions[6], servant=True),)
    position = seated(Position(round=1, modules=("staff",), check_layout=False, players=(
        PositionPlayer(name="Ana", alhambra=fountain(*ana)),
        PositionPlayer(name="Ben", alhambra=fountain(*ben)))))
    assert score(position).players[0].total >= 0  # 7 pavilion servants: the box holds them
    over = replace(position.players[1], reserve=(Tile(tile="pavilion-8-open", servant=True),))
    with pytest.raises(InconsistentState) as refused:
        score(replace(position, players=(position.players[0], over, *position.players[2:])))
    [problem] = [v for v in refused.value.violations if v.rule == "staff.setup"]
    assert "8 servants on pavilion tiles: there are only 7" in problem.message
    assert "Ana at $.players[0].alhambra[1]" in problem.message
    assert "$.players[0].alhambra[6]" in problem.message
    assert "Ben at $.players[1].alhambra[1], $.players[1].reserve[0]" in problem.message


# --- staff.move -----------------------------------------------------------------------------

@pytest.mark.rule("staff.move")
def test_staff_move_allows_taking_2_denari_to_walk_the_marshal_4_tiles() -> None:
    """seeds 002.7, 002.12, 002.13, 002.14, 002.15, the seed's example: "Whenever a player
    chooses the Action: Take money, and takes money which totals less than 6, they may move
    their marshal from tile to tile across the Alhambra." "Example: The player takes 2 denari,
    thus may move their marshal 6 - 2 = 4 steps." "They choose his path entering the garden,
    chambers, arcades, and tower." "The player places one matching servant tile each on the
    garden, arcades, and tower tile from the display." "Unfortunately, there is no servant
    available for the chambers." """
    state = build(display=("garden", "arcades", "tower", "pavilion", "pavilion", "seraglio"))
    seat = state.turn.player
    state = take(state, ("blue", 2))
    waiting = pending(state)
    assert waiting is not None and waiting.rule == "staff.move" and state.staff is not None
    assert state.staff.steps == 4
    walk = MoveMarshal(player=state.active.name, path=path((1, 0), (2, 0), (3, 0), (4, 0)))
    assert validate(state, walk) == []
    outcome = apply(state, walk)
    after = outcome.state
    assert [tile_at(after, seat, x, 0).servant for x in (1, 2, 3, 4)] == [True, False, True, True]
    moved = next(e for e in outcome.events if isinstance(e, MarshalMoved))
    assert moved.served == ("garden-10-open", "arcades-9-open", "tower-11-open")
    assert after.staff is not None and after.staff.marshals[seat] == Spot(x=4, y=0)
    assert after.turn.player != seat  # the turn is over
    assert check_consistency(after) == []


def marshal_and_animals() -> GameState:
    """Staff and zoo: Ana, with two animals on a garden east of her fountain, takes 3 denari."""
    state = new_game(("Ana", "Ben", "Cyd"), ["staff", "zoo"], seed=1).state
    zoo = state.zoo
    assert zoo is not None
    state = zoo_arrange(state, animals={(1, 0): zoo.supply[:2]}, active="Ana",
                        alhambras={"Ana": [("garden-10-open", 1, 0)]})
    return take(state, ("blue", 3))


@pytest.mark.rule("staff.move")
def test_staff_move_is_asked_before_the_animals_move_at_the_end_of_the_turn() -> None:
    """seeds 002.7, 002.9 ("Whenever a player chooses the Action: Take money, and takes money
    which totals less than 6, they may move their marshal" "Subtract the value of money taken
    from 6"): the marshal's move belongs to the take; seed 000.33 ("A player with animals in
    their Alhambra may move them at the end of their turn") and RULES.md §H step 2: the animals
    move at the end of the turn, after it. So the marshal is asked first and a move-animals is
    refused citing staff.move; then the animals are asked."""
    state = marshal_and_animals()
    waiting = pending_decision(state)
    assert waiting is not None and waiting.rule == "staff.move"
    assert validate(state, MoveMarshal(player="Ana", path=path((1, 0)))) == []
    assert [v.rule for v in validate(state, MoveAnimals(player="Ana"))] == ["staff.move"]
    after = apply(state, MoveMarshal(player="Ana", path=path((1, 0)))).state
    waiting = pending_decision(after)
    assert waiting is not None and waiting.rule == "zoo.move" and after.turn.player == 0
    assert validate(after, MoveAnimals(player="Ana")) == []


@pytest.mark.rule("staff.move")
def test_staff_move_allows_every_walk_up_to_the_steps_and_staying() -> None:
    """seeds 002.7, 002.9: "they may move their marshal" "Subtract the value of money taken from
    6, and the player is allowed to move his marshal that many tiles." (up to that many, or
    not at all)."""
    state = take(build(), ("blue", 2))
    listed = list(candidates_move(state, state.turn.player))
    # Along a street of 4 tiles from its end, walks of 0..4 steps: 1 + 1 + 2 + 3 + 6.
    assert len(listed) == 13 and MoveMarshal(player=state.active.name) in listed
    assert all(validate(state, a) == [] for a in listed)
    stay = apply(state, MoveMarshal(player=state.active.name)).state
    assert stay.staff is not None and stay.staff.marshals[state.turn.player] == Spot(x=0, y=0)


@pytest.mark.rule("staff.move")
def test_staff_move_refuses_more_steps_than_6_less_the_money_taken() -> None:
    """seed 002.9: "Subtract the value of money taken from 6, and the player is allowed to move
    his marshal that many tiles." """
    state = take(build(), ("blue", 3), ("green", 1))  # 4 taken: 2 steps
    refused = validate(state, MoveMarshal(player=state.active.name, path=path((1, 0), (2, 0), (3, 0))))
    assert refused and refused[0].rule == "staff.move" and "2 steps" in refused[0].message
    # While the marshal's move is pending nothing else may be done.
    buy = BuyBuilding(player=state.active.name, tile=str(state.market[0].tile), payment=state.active.hand[:1])
    assert validate(state, buy)[0].rule == "staff.move"
    other = next(p.name for p in state.players if p.name != state.active.name)
    assert validate(state, MoveMarshal(player=other))[0].rule == "staff.move"


@pytest.mark.rule("staff.move")
def test_staff_move_refuses_a_walk_after_taking_6_or_more() -> None:
    """seed 002.7: "takes money which totals less than 6" (6 or more: no walk)."""
    state = take(build(), ("blue", 6))
    assert pending(state) is None
    refused = validate(state, MoveMarshal(player=state.players[0].name))
    assert refused and refused[0].rule == "staff.move"


# A square: seraglio-8-S east of the fountain, tower-12-open south of it, arcades-8-N in the
# corner; a wall lies between the seraglio and the arcades.
SQUARE = (("seraglio-8-S", 1, 0), ("tower-12-open", 0, 1), ("arcades-8-N", 1, 1))


@pytest.mark.rule("staff.move")
def test_staff_move_refuses_walls_empty_spaces_and_jumps() -> None:
    """seed 002.10: "The marshal must have access to each tile by foot, i. e. he is not allowed
    to cross a wall or step down from a tile." """
    state = take(build(SQUARE, marshal=(1, 0)), ("blue", 2))
    name = state.active.name
    across = validate(state, MoveMarshal(player=name, path=path((1, 1))))
    assert across and across[0].rule == "staff.move" and "wall" in across[0].message
    onto_empty = validate(state, MoveMarshal(player=name, path=path((2, 0))))
    assert onto_empty[0].rule == "staff.move" and "empty space" in onto_empty[0].message
    jump = validate(state, MoveMarshal(player=name, path=path((0, 0), (1, 1))))
    assert "not orthogonally next" in jump[0].message
    around = MoveMarshal(player=name, path=path((0, 0), (0, 1), (1, 1)))
    assert validate(state, around) == []


@pytest.mark.rule("staff.move")
def test_staff_move_refuses_a_decision_when_the_marshal_cannot_step() -> None:
    """seed 002.10 with staff.move: "he is not allowed to cross a wall or step down from a tile":
    with no open way out of the marshal's tile, taking money opens no move (Decision)."""
    state = take(build(()), ("blue", 1))
    assert pending(state) is None and state.turn.player != build(()).turn.player


@pytest.mark.rule("staff.move")
def test_staff_move_refuses_taking_money_worth_0() -> None:
    """seed 002.8: "Note: It is not allowed to take money worth 0." (no walk of 6 steps for an
    empty take)."""
    state = build()
    refused = validate(state, TakeMoney(player=state.active.name, cards=()))
    assert refused and refused[0].rule == "base.money.take"
    assert validate(state, MoveMarshal(player=state.active.name, path=path((1, 0))))[0].rule == "staff.move"


# --- staff.servant --------------------------------------------------------------------------

@pytest.mark.rule("staff.servant")
def test_staff_servant_allows_a_servant_of_the_tiles_colour_and_a_refill_to_6() -> None:
    """seeds 002.11, 002.16, 002.17: "The player gains 1 servant tile of the matching color for
    each tile the marshal enters" "Take the servant from the open display, if available, and
    place it on that building tile." "After the player has finished their turn, they replenish
    the display to 6 tiles." """
    state = build(display=("tower", "tower", "garden", "seraglio", "seraglio", "pavilion"))
    seat = state.turn.player
    state = take(state, ("yellow", 3))
    after = apply(state, MoveMarshal(player=state.active.name, path=path((1, 0), (2, 0), (3, 0)))).state
    assert tile_at(after, seat, 1, 0).servant  # the garden took the garden servant
    assert after.staff is not None and len(after.staff.display) == DISPLAY_SIZE  # refilled
    assert after.staff.display[:5] == ("tower", "tower", "seraglio", "seraglio", "pavilion")
    assert check_consistency(after) == []


@pytest.mark.rule("staff.servant")
def test_staff_servant_refuses_a_colour_not_on_display_or_a_second_servant() -> None:
    """seeds 002.11, 002.16: "if there is no servant on that tile." "Take the servant from the
    open display, if available" (none of the colour shown: none taken)."""
    state = build(served=("garden-10-open",),
                  display=("garden", "tower", "tower", "seraglio", "seraglio", "pavilion"))
    seat = state.turn.player
    state = take(state, ("yellow", 1))
    # Into the garden (served already), the chambers (no chambers servant shown), and back.
    walk = path((1, 0), (2, 0), (1, 0), (0, 0), (1, 0))
    outcome = apply(state, MoveMarshal(player=state.active.name, path=walk))
    moved = next(e for e in outcome.events if isinstance(e, MarshalMoved))
    assert moved.served == ()
    assert not tile_at(outcome.state, seat, 2, 0).servant
    staff = outcome.state.staff
    assert staff is not None
    assert staff.display == ("garden", "tower", "tower", "seraglio", "seraglio", "pavilion")
    # A servant never stands on the fountain (it has no colour).
    alhambra = tuple(replace(p, servant=True) if p.tile == "fountain" else p
                     for p in state.players[seat].alhambra)
    players = tuple(replace(p, alhambra=alhambra) if i == seat else p for i, p in enumerate(state.players))
    bad = replace(state, players=players)
    assert any(v.rule == "staff.servant" and "fountain" in v.message for v in check_consistency(bad))


# --- staff.marshal-tile ---------------------------------------------------------------------

@pytest.mark.rule("staff.marshal-tile")
def test_staff_marshal_tile_allows_other_tiles_to_the_reserve_with_their_servants() -> None:
    """seeds 002.18, 002.19: "The tile occupied by the marshal may not be placed on the player's
    reserve board." (others may) "Servant tiles are placed on the reserve board together with
    their building tile." """
    state = build(served=("tower-11-open",), marshal=(3, 0))
    seat = state.turn.player
    action = RemoveToReserve(player=state.active.name, tile="tower-11-open")
    assert validate(state, action) == []
    after = apply(state, action).state
    assert Tile(tile="tower-11-open", servant=True) in after.players[seat].reserve
    assert check_consistency(after) == []


@pytest.mark.rule("staff.marshal-tile")
def test_staff_marshal_tile_refuses_the_tile_under_the_marshal_to_the_reserve() -> None:
    """seed 002.18: "The tile occupied by the marshal may not be placed on the player's reserve
    board." """
    state = build(reserve=("garden-10-N",), marshal=(4, 0))
    name = state.active.name
    refused = validate(state, RemoveToReserve(player=name, tile="tower-11-open"))
    assert [v.rule for v in refused] == ["staff.marshal-tile"] and "(4, 0)" in refused[0].message
    # A swap sends the replaced tile to the reserve: refused too, allowed elsewhere.
    moved = build(reserve=("garden-10-N",), marshal=(1, 0))
    swap = SwapWithReserve(player=name, tile="garden-10-N", replaces="garden-10-open")
    assert [v.rule for v in validate(moved, swap)] == ["staff.marshal-tile"]
    assert validate(state, swap) == []


# With the craftsmen: Ana's builder (face up) and her marshal on the arcades at (1, 0), which
# carries a servant; a garden on her reserve.
def with_builder(marshal: tuple[int, int] = (1, 0)) -> GameState:
    from tests.modules.test_craftsmen import hire
    from tests.support.helpers import arrange

    state = new_game(NAMES, ["staff", "craftsmen"], seed=1).state
    state = arrange(state, active="Ana", alhambras={"Ana": [PlacedTile(tile="arcades-9-open", x=1, y=0,
                                                                       servant=True)]},
                    reserves={"Ana": ["garden-10-N"]}, check=False)
    staff = state.staff
    assert staff is not None
    pile = list(staff.pile)
    pile.remove("arcades")
    marshals = tuple(Spot(x=marshal[0], y=marshal[1]) if seat == 0 else m
                     for seat, m in enumerate(staff.marshals))
    state = replace(state, staff=replace(staff, pile=tuple(pile), marshals=marshals))
    return hire(state, "builder")


@pytest.mark.rule("staff.marshal-tile")
def test_staff_marshal_tile_allows_a_builder_move_carrying_the_marshal() -> None:
    """seed 002.18 with staff.marshal-tile: "The tile occupied by the marshal may not be placed on
    the player's reserve board." Only the reserve: the builder may move it within the Alhambra,
    and the marshal (and the servant) move with it."""
    from service.engine.modules.craftsmen.actions import BuilderRedesign

    state = with_builder()
    move = BuilderRedesign(player="Ana", tile="arcades-9-open", x=0, y=1)
    assert validate(state, move) == []
    after = apply(state, move).state
    assert after.staff is not None and after.staff.marshals[0] == Spot(x=0, y=1)
    assert tile_at(after, 0, 0, 1).tile == "arcades-9-open" and tile_at(after, 0, 0, 1).servant
    assert check_consistency(after) == []
    # Another tile moved leaves the marshal where it stands.
    fountain_marshal = with_builder(marshal=(0, 0))
    after = apply(fountain_marshal, move).state
    assert after.staff is not None and after.staff.marshals[0] == Spot(x=0, y=0)


@pytest.mark.rule("staff.marshal-tile")
def test_staff_marshal_tile_refuses_a_builder_sending_the_marshals_tile_to_the_reserve() -> None:
    """seed 002.18: "The tile occupied by the marshal may not be placed on the player's reserve
    board." (a builder's removal or swap sends it there)."""
    from service.engine.modules.craftsmen.actions import BuilderRedesign

    state = with_builder()
    for action in (BuilderRedesign(player="Ana", tile="arcades-9-open"),
                   BuilderRedesign(player="Ana", tile="garden-10-N", replaces="arcades-9-open")):
        refused = validate(state, action)
        assert [v.rule for v in refused] == ["staff.marshal-tile"] and "reserve" in refused[0].message
    elsewhere = with_builder(marshal=(0, 0))
    assert validate(elsewhere, BuilderRedesign(player="Ana", tile="arcades-9-open")) == []


# With the craftsmen: Ana's brickmaker (face up), her marshal on the arcades at (1, 0), which
# carries a servant, and the arcades-10-open she bought, to place (craftsmen.brickmaker).
def with_brickmaker(marshal: tuple[int, int] = (1, 0)) -> GameState:
    from tests.modules.test_craftsmen import PLACING, hire
    from tests.support.helpers import arrange

    state = arrange(with_builder(marshal), held={"Ana": ["arcades-10-open"]}, turn=PLACING, check=False)
    return hire(state, "brickmaker")


@pytest.mark.rule("staff.marshal-tile")
def test_staff_marshal_tile_allows_a_brickmakers_displaced_building_carrying_the_marshal() -> None:
    """seed 002.18 with staff.marshal-tile: "The tile occupied by the marshal may not be placed on
    the player's reserve board." RULES.md: "A tile moved within the Alhambra (the builder's move,
    or a brickmaker's displaced building put on another space) carries the marshal". The new
    arcades takes the marshal's space; the displaced one goes to (0, 1) with its servant and
    the marshal."""
    state = with_brickmaker()
    place = PlaceBuilding(player="Ana", tile="arcades-10-open", x=1, y=0, displaced=(0, 1))
    assert validate(state, place) == []
    after = apply(state, place).state
    assert tile_at(after, 0, 0, 1).tile == "arcades-9-open" and tile_at(after, 0, 0, 1).servant
    assert after.staff is not None and after.staff.marshals[0] == Spot(x=0, y=1)
    assert check_consistency(after) == []
    # A building displaced from another space leaves the marshal where it stands.
    elsewhere = apply(with_brickmaker(marshal=(0, 0)), place).state
    assert elsewhere.staff is not None and elsewhere.staff.marshals[0] == Spot(x=0, y=0)


@pytest.mark.rule("staff.marshal-tile")
def test_staff_marshal_tile_refuses_a_brickmaker_displacing_the_marshals_tile_to_the_reserve() -> None:
    """seed 002.18: "The tile occupied by the marshal may not be placed on the player's reserve
    board." (a brickmaker's displaced building goes to the reserve or another space)."""
    state = with_brickmaker()
    to_reserve = PlaceBuilding(player="Ana", tile="arcades-10-open", x=1, y=0, displaced="reserve")
    refused = validate(state, to_reserve)
    assert [v.rule for v in refused] == ["staff.marshal-tile"] and "arcades-9-open" in refused[0].message
    assert validate(with_brickmaker(marshal=(0, 0)), to_reserve) == []


# --- staff.score ----------------------------------------------------------------------------

@pytest.mark.rule("staff.score")
def test_staff_score_allows_minus_1_per_unserved_building_right_after_the_types() -> None:
    """seed 002.20: "After scoring all building types, deduct 1 point for each building from the
    base game (besides the Lion Fountain) in a player's Alhambra without a servant tile." """
    position = Position(round=2, modules=("staff",), players=(PositionPlayer(name="Ana", alhambra=fountain(
        PlacedTile(x=1, y=0, tile="garden-10-open", servant=True),
        PlacedTile(x=-1, y=0, tile="tower-11-open"),
        PlacedTile(x=0, y=1, tile="pavilion-8-open"))),))
    position = seated(position)
    line = staff_points(position)
    assert (line.unserved, line.points) == (2, -2)
    encoded = msgspec.json.decode(msgspec.json.encode(line))
    assert encoded == {"category": "staff", "unserved": 2, "points": -2}
    lines = score(position).players[0].lines
    kinds = [type(ln) for ln in lines]
    assert kinds.index(StaffLine) == 6 and isinstance(lines[7], WallLine)  # after the 6 types
    assert score(position).players[0].total == 8 + 12 + 13 - 2


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_to_take_the_running_score_below_0() -> None:
    """seed 002.21 with staff.score: "A player may never have less than 0 points." RULES.md
    decides it is the running score (before this round plus this round's building points).
    Ana's 3 buildings score nothing in round 2 (Ben and Cyd have more of each type): starting the
    round at 0 she loses nothing, at 1 point she loses 1, at 5 all 3."""
    cyds = ("garden-8-SW", "garden-8-NE", "tower-9-ES", "tower-9-NE", "pavilion-5-NW", "pavilion-4-ES")
    cyd = PositionPlayer(name="Cyd", alhambra=fountain(*(PlacedTile(x=1 + i, y=0, tile=t)
                                                         for i, t in enumerate(cyds))))
    ben = PositionPlayer(name="Ben", alhambra=fountain(
        PlacedTile(x=1, y=0, tile="garden-10-open"), PlacedTile(x=2, y=0, tile="garden-11-open"),
        PlacedTile(x=-1, y=0, tile="tower-11-open"), PlacedTile(x=-2, y=0, tile="tower-12-open"),
        PlacedTile(x=0, y=1, tile="pavilion-8-open"), PlacedTile(x=0, y=2, tile="pavilion-7-E")))
    ana_tiles = fountain(PlacedTile(x=1, y=0, tile="garden-10-W"), PlacedTile(x=-1, y=0, tile="tower-11-N"),
                         PlacedTile(x=0, y=1, tile="pavilion-6-N"))
    for before, lost in ((0, 0), (1, 1), (5, 3)):
        position = Position(round=2, modules=("staff",), check_layout=False, players=(
            PositionPlayer(name="Ana", score=before, alhambra=ana_tiles), ben, cyd))
        breakdown = score(position)
        ana = breakdown.players[0]
        assert sum(ln.points for ln in ana.lines if isinstance(ln, MajorityLine)) == 0
        assert staff_points(position) == StaffLine(unserved=3, points=-lost)
        wall = next(ln.points for ln in ana.lines if isinstance(ln, WallLine))
        assert ana.total == wall - lost  # the wall is added after the deduction
    # This round's building points count towards the floor: alone, Ana scores 1 + 5 + 6 = 12.
    alone = Position(round=1, modules=("staff",), check_layout=False,
                     players=(PositionPlayer(name="Ana", alhambra=ana_tiles),))
    assert staff_points(alone) == StaffLine(unserved=3, points=-3)


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_to_count_the_fountain_or_round_3_leftover_tiles() -> None:
    """seeds 002.20, 002.22: "(besides the Lion Fountain)" "Players deduct points, as above, but
    before leftover buildings are assigned." """
    tiles = fountain(PlacedTile(x=1, y=0, tile="garden-10-open", leftover=True),
                     PlacedTile(x=-1, y=0, tile="tower-11-open"))
    # 5 points before round 3: the floor (the score before it) does not limit the deduction.
    ana = PositionPlayer(name="Ana", score=5, alhambra=tiles)
    position = Position(round=3, modules=("staff",), players=(ana,))
    assert staff_points(position) == StaffLine(unserved=1, points=-1)


# Round 3 (staff.score, seed 002.22): the deduction comes before the leftover tiles and any point
# of the round, so only the score before round 3 can absorb it. Ana has a garden and a chambers
# without a servant and receives the tower as a leftover tile, which wins her the tower majority.
ROUND_3 = fountain(PlacedTile(x=1, y=0, tile="garden-10-open"), PlacedTile(x=2, y=0, tile="chambers-10-open"),
                   PlacedTile(x=-1, y=0, tile="tower-11-open", leftover=True))


def round_3(before: int, tally: bool = False) -> Position:
    from service.engine.module import modules_of_ids
    from service.engine.scoring import tally_of

    ana = PositionPlayer(name="Ana", score=before, alhambra=ROUND_3)
    if tally:
        ana = PositionPlayer(name="Ana", score=before, tally=tally_of(ana, modules_of_ids(("staff",), False)))
    return seated(Position(round=3, modules=("staff",), players=(ana,)))


@pytest.mark.rule("staff.score")
@pytest.mark.parametrize("tally", [False, True], ids=["tiles", "tally"])
def test_staff_score_refuses_a_round_3_deduction_below_the_score_before_round_3(tally: bool) -> None:
    """seeds 002.21, 002.22: "A player may never have less than 0 points." "Players deduct
    points, as above, but before leftover buildings are assigned." At 0 after round 2, Ana
    loses nothing, though the round's majorities (her leftover tower's 21 among them) would
    absorb the deduction: they come after it."""
    position = round_3(0, tally)
    breakdown = score(position)
    majorities = sum(ln.points for ln in breakdown.players[0].lines if isinstance(ln, MajorityLine))
    assert majorities == 20 + 19 + 21
    assert staff_points(position) == StaffLine(unserved=2, points=0)
    assert breakdown.ranking[0].score == breakdown.players[0].total == majorities


@pytest.mark.rule("staff.score")
@pytest.mark.parametrize("tally", [False, True], ids=["tiles", "tally"])
def test_staff_score_allows_a_round_3_deduction_down_to_the_score_before_round_3(tally: bool) -> None:
    """seeds 002.20, 002.21, 002.22: "deduct 1 point for each building ... without a servant
    tile" "A player may never have less than 0 points." "Players deduct points, as above, but
    before leftover buildings are assigned.": at 1 point before round 3 Ana loses 1 of her 2
    unserved buildings' points, with 2 or more both (the leftover tower none)."""
    for before, lost in ((1, 1), (2, 2), (40, 2)):
        position = round_3(before, tally)
        assert staff_points(position) == StaffLine(unserved=2, points=-lost)
        assert score(position).ranking[0].score == before + 20 + 19 + 21 - lost


def sheet_rounds() -> tuple[Position, Position, Position]:
    """An evening of three rounds, counted: Ana's garden loses every majority to Ben's and
    Cyd's in rounds 1 and 2 (she stays at 0); in round 3 she has won a leftover tower."""
    from tests.engine.test_tally import tally

    ben = PositionPlayer(name="Ben", tally=tally(buildings={"garden": 3}, staff={"unserved": 0}))
    cyd = PositionPlayer(name="Cyd", tally=tally(buildings={"garden": 2}, staff={"unserved": 0}))
    ana = PositionPlayer(name="Ana", tally=tally(buildings={"garden": 1}, staff={"unserved": 1}))
    ana_3 = PositionPlayer(name="Ana", tally=tally(buildings={"garden": 1, "tower": 1},
                                                   staff={"unserved": 2, "leftover": 1}))
    return tuple(Position(round=r, modules=("staff",), players=(ana_3 if r == 3 else ana, ben, cyd))
                 for r in (1, 2, 3))  # type: ignore[return-value]


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_a_round_3_deduction_below_the_sheets_total_before_round_3() -> None:
    """seeds 002.21, 002.22 in a score sheet (`previous`): Ana's earlier rounds total 0, so her
    unserved garden costs nothing in round 3, though her leftover tower wins 21 points after."""
    from service.engine.scoring.sheet import score_sheet

    first, second, third = sheet_rounds()
    previous = [score(first)]
    previous.append(score_sheet(second, previous))
    assert [r.score for r in previous[-1].ranking if r.name == "Ana"] == [0]
    breakdown = score_sheet(third, previous)
    ana = breakdown.players[0]
    assert next(ln for ln in ana.lines if isinstance(ln, StaffLine)) == StaffLine(unserved=1, points=0)
    assert [r.score for r in breakdown.ranking if r.name == "Ana"] == [ana.total] and ana.total == 5 + 21


def last_turn_with_staff(ben: int) -> GameState:
    """Ana's turn of a staff game with the bag empty, rounds 1 and 2 held and `ben` points for
    Ben, whose garden has no servant; Ben is the richest in yellow, so the pavilion on the
    yellow space will be his leftover tile."""
    from tests.engine.test_end import MARKET
    from tests.support.helpers import arrange

    state = new_game(NAMES, ["staff"], seed=1).state
    return arrange(state, bag=(), market=MARKET, rounds_held=(1, 2), active="Ana", scores={"Ben": ben},
                   alhambras={"Ben": [("garden-10-open", 1, 0), ("chambers-10-open", 2, 0)]},
                   hands={"Ana": ("blue-9-a", "blue-5-a", "blue-4-a"), "Ben": ("yellow-9-a",), "Cyd": ()})


def end_with_leftover(state: GameState) -> tuple[GameState, StaffLine]:
    """Ana ends the game; Ben places his leftover pavilion; round 3: Ben's staff line."""
    from tests.engine.test_end import buy_tower_and_place
    from tests.support.helpers import play

    ended = buy_tower_and_place(state)
    assert [(t.tile, t.leftover) for t in ended.state.players[1].held] == [("pavilion-8-open", True)]
    outcome = play(ended.state, PlaceBuilding(player="Ben", tile="pavilion-8-open", x=0, y=1))
    assert outcome.state.phase == "over"
    (round_3_,) = outcome.scoring
    ben = round_3_.players[1]
    assert MajorityLine(building="pavilion", count=1, place=1, points=16) in ben.lines
    return outcome.state, next(ln for ln in ben.lines if isinstance(ln, StaffLine))


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_a_round_3_deduction_below_the_score_before_round_3_in_a_game() -> None:
    """seeds 002.21, 002.22 in a game: "A player may never have less than 0 points." "Players
    deduct points, as above, but before leftover buildings are assigned." Ben, at 0 after round
    2, wins the pavilion majority with his leftover tile: his 2 unserved buildings cost nothing."""
    state, line = end_with_leftover(last_turn_with_staff(ben=0))
    assert line == StaffLine(unserved=2, points=0)
    assert state.players[1].score == 16 + 20 + 19  # pavilion, garden, chambers (all open: no wall)


@pytest.mark.rule("staff.score")
def test_staff_score_allows_a_round_3_deduction_down_to_the_score_before_round_3_in_a_game() -> None:
    """seed 002.22 in a game: at 1 after round 2, Ben loses 1 point of his 2 unserved buildings;
    the leftover pavilion is never deducted."""
    state, line = end_with_leftover(last_turn_with_staff(ben=1))
    assert line == StaffLine(unserved=2, points=-1)
    assert state.players[1].score == 1 + 16 + 20 + 19 - 1


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_a_leftover_tile_in_a_position_of_round_1_or_2() -> None:
    """staff.score: "Positions and tallies mark a leftover tile only in round 3." (seed 002.22:
    leftover buildings are assigned at the end, before the third scoring): in rounds 1 and 2 a
    leftover mark would let a tile escape the deduction."""
    for round_ in (1, 2):
        position = Position(round=round_, modules=("staff",), players=(
            PositionPlayer(name="Ana", alhambra=ROUND_3),
            PositionPlayer(name="Ben", alhambra=fountain(),
                           reserve=(Tile(tile="garden-11-open", leftover=True),))))
        with pytest.raises(InconsistentState) as refused:
            score(position)
        problems = [v for v in refused.value.violations if v.rule == "staff.score"]
        assert len(problems) == 2, refused.value.violations
        assert "$.players[0].alhambra[3].leftover" in problems[0].message
        assert f"in round {round_}" in problems[0].message
        assert "$.players[1].reserve[0].leftover" in problems[1].message
    assert staff_points(round_3(5)).unserved == 2  # round 3: allowed


# --- staff.dirk -----------------------------------------------------------------------------

@pytest.mark.rule("staff.dirk")
def test_staff_dirk_allows_dirk_no_marshal_and_no_loss() -> None:
    """seed 002.3: "6 Court marshals (1 of each player color)": Dirk, no player, has none
    (staff.dirk)."""
    state = staff_game(players=2)
    assert state.staff is not None and len(state.staff.marshals) == 2
    position = Position(round=2, modules=("staff",), players=(
        PositionPlayer(name="Ana", alhambra=fountain()),
        PositionPlayer(name="Ben", alhambra=fountain()),
        PositionPlayer(name="Dirk", dirk=True, tiles=tuple(Tile(tile=t) for t in (  # his 6 (dirk.setup)
            "tower-11-open", "garden-10-open", "pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES",
            "chambers-5-NSW")))))
    assert staff_points(position, "Dirk") == StaffLine(unserved=0, points=0)


@pytest.mark.rule("staff.dirk")
def test_staff_dirk_refuses_dirk_a_marshal_or_a_servant() -> None:
    state = staff_game(players=2)
    assert state.staff is not None and state.dirk is not None
    three = replace(state, staff=replace(state.staff, marshals=(*state.staff.marshals, Spot(x=0, y=0))))
    assert any(v.rule == "staff.dirk" for v in check_consistency(three))
    assert validate(state, MoveMarshal(player="Dirk"))[0].rule == "dirk.scores"
    position = Position(round=1, modules=("staff",), players=(
        PositionPlayer(name="Ana", alhambra=fountain()), PositionPlayer(name="Ben", alhambra=fountain()),
        PositionPlayer(name="Dirk", dirk=True, tiles=(Tile(tile="tower-11-open", servant=True),))))
    with pytest.raises(InconsistentState) as refused:
        score(position)
    assert any(v.rule == "staff.dirk" for v in refused.value.violations)


# --- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_palace_staff_reach_the_end(players: int) -> None:
    """seed 002.1: "Different servants are working in each building of the palace" (servants
    end up on the tiles)."""
    game = play_random_game(200 + players, players, ("staff",), list_every=40)
    assert game.states[-1].phase == "over"
    assert any(isinstance(a, MoveMarshal) and a.path for a in game.actions)
    assert any(t.servant for s in game.states[-1:] for p in s.players for t in p.alhambra)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_the_zoo_and_palace_staff_reach_the_end(players: int) -> None:
    game = play_random_game(300 + players, players, ("zoo", "staff"), list_every=40)
    assert game.states[-1].phase == "over"
