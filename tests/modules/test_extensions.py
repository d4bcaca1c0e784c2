"""Extensions (RULES.md §E, seed 001): one test that allows and one that refuses per rule id, the
seed's example, tests of its sentences (001.13 to 001.28) written from the text, the listing of
legal purchases, and random complete games."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from msgspec.structs import replace

from service.engine import (
    InconsistentState,
    apply,
    check_consistency,
    legal_actions,
    new_game,
    score,
    validate,
)
from service.engine.actions import BuyBuilding, RemoveToReserve, ReserveBuilding, TakeMoney
from service.engine.catalogue import CATALOGUE
from service.engine.modules.extensions.actions import BuyExtension, ExtensionBought, payments
from service.engine.modules.extensions.data import AMOUNTS, COLUMNS
from service.engine.scoring import MajorityLine, Position, PositionPlayer
from service.engine.state import GameState, PlacedTile, Tile
from tests.support.helpers import play, seated
from tests.support.play import play_random_game

NAMES = ("Ana", "Ben", "Cyd")


def ext_game(players: int = 3, seed: int = 1, modules: Sequence[str] = ("extensions",)) -> GameState:
    return new_game(NAMES[:players] if players > 2 else ("Ana", "Ben"), list(modules), seed=seed).state


def card(state: GameState, currency: str, value: int, taken: Sequence[str] = ()) -> str:
    """A card of the deck of that currency and value (not among `taken`)."""
    return next(c for c in state.deck if c not in taken and c in CATALOGUE.money
                and CATALOGUE.money[c].currency == currency
                and CATALOGUE.money[c].value == value)


def give(state: GameState, cards: Sequence[tuple[str, int]] = (), reserve: Sequence[str] = (),
         dirk: Sequence[str] = ()) -> tuple[GameState, tuple[str, ...], tuple[str, ...]]:
    """The active player takes cards (currency, value) from the deck and, onto the reserve, a
    tile of each named building type from the bag; Dirk gets a tile of each type in `dirk`."""
    ids: list[str] = []
    for currency, value in cards:
        ids.append(card(state, currency, value, ids))
    tiles: list[str] = []
    for kind in (*reserve, *dirk):
        tiles.append(next(t for t in state.bag if t not in tiles and CATALOGUE.tiles[t].type == kind))
    seat = state.turn.player
    players = list(state.players)
    p = players[seat]
    players[seat] = replace(p, hand=(*p.hand, *ids),
                            reserve=(*p.reserve, *(Tile(tile=t) for t in tiles[:len(reserve)])))
    state = replace(state, players=tuple(players), deck=tuple(c for c in state.deck if c not in ids),
                    bag=tuple(t for t in state.bag if t not in tiles))
    if dirk:
        assert state.dirk is not None
        state = replace(state, dirk=replace(state.dirk, tiles=(
            *state.dirk.tiles, *(Tile(tile=t) for t in tiles[len(reserve):]))))
    assert check_consistency(state) == []
    return state, tuple(ids), tuple(tiles)


def put(state: GameState, extension: str, col: int, row: int) -> GameState:
    """The board with `extension` swapped onto column `col`, space `row` (0-based)."""
    ext = state.extensions
    assert ext is not None
    board = [list(c) for c in ext.board]
    (c0, r0), = [(c, r) for c, column in enumerate(board) for r, t in enumerate(column) if t == extension]
    board[c0][r0], board[col][row] = board[col][row], board[c0][r0]
    return replace(state, extensions=replace(ext, board=tuple(tuple(c) for c in board)))


def garden_ready(players: int = 3, row: int = 0,
                 cards: Sequence[tuple[str, int]] = (("yellow", 5), ("yellow", 2), ("green", 4)),
                 ) -> tuple[GameState, tuple[str, ...], str]:
    """The active player has a garden in the reserve and the cards; extension-garden-1 lies in
    column 1 (yellow-yellow-green) at `row`."""
    state = put(ext_game(players), "extension-garden-1", 0, row)
    state, ids, tiles = give(state, cards, reserve=("garden",))
    return state, ids, tiles[0]


def buy(state: GameState, payment: Sequence[str], building: str,
        extension: str = "extension-garden-1") -> BuyExtension:
    return BuyExtension(player=state.active.name, extension=extension, payment=tuple(payment),
                        building=building)


def rules_of(violations: Sequence[object]) -> set[str]:
    return {v.rule for v in violations}  # type: ignore[attr-defined]


# --- extensions.setup -----------------------------------------------------------------------

@pytest.mark.rule("extensions.setup")
def test_extensions_setup_allows_the_12_tiles_face_up_on_4_columns_of_3() -> None:
    """extensions.setup, seeds 001.14, 001.15, 001.16: "12 Extension tiles". "Put the extension
    board next to the building market." "Shuffle the 12 extension tiles and place them face up
    on the spaces of the extension board." (Face up: every view shows the board,
    tests/modules/test_views.py.)"""
    state = ext_game()
    assert state.extensions is not None
    board = state.extensions.board
    assert len(board) == 4 and all(len(c) == 3 for c in board)
    tiles = sorted(t for c in board for t in c if t)
    assert len(set(tiles)) == 12 and "extension-garden-1" in tiles
    assert check_consistency(state) == []
    # Shuffled from the game's generator: the same seed gives the same board, seeds differ.
    assert ext_game().extensions == state.extensions
    assert len({ext_game(seed=s).extensions.board for s in range(1, 6)}) > 1  # type: ignore[union-attr]
    assert ext_game(modules=()).extensions is None


@pytest.mark.rule("extensions.setup")
def test_extensions_setup_refuses_a_tile_twice_on_the_board_or_a_third_garden_extension() -> None:
    """extensions.setup, seed 001.14: there are 12 extension tiles (2 of each type, Default data),
    each once."""
    state = ext_game()
    assert state.extensions is not None
    board = state.extensions.board
    twice = replace(state, extensions=replace(state.extensions, board=(
        (board[0][0], board[0][0], board[0][2]), *board[1:])))
    assert "extensions.setup" in rules_of(check_consistency(twice))
    position = Position(round=1, modules=("extensions",), players=(PositionPlayer(name="Ana", alhambra=(
        PlacedTile(x=0, y=0, tile="fountain"),
        PlacedTile(x=1, y=0, tile="garden-10-open", extension=True),
        PlacedTile(x=-1, y=0, tile="garden-11-open", extension=True),
        PlacedTile(x=0, y=1, tile="garden-10-N", extension=True))),))
    with pytest.raises(InconsistentState) as refused:
        score(position)
    assert any(v.rule == "extensions.setup" and "garden" in v.message for v in refused.value.violations)
    # In a state too: a third garden extension is a component that does not exist.
    three = give(state, reserve=("garden", "garden", "garden"))[0]
    three = replace(three, players=tuple(
        replace(q, reserve=tuple(replace(t, extension=True) for t in q.reserve))
        if q.name == state.active.name else q for q in three.players))
    assert any("extension:garden" in v.message for v in check_consistency(three))


# --- extensions.action ----------------------------------------------------------------------

@pytest.mark.rule("extensions.action")
def test_extensions_action_allows_three_cards_of_the_columns_combination() -> None:
    """extensions.action, seeds 001.13, 001.17, 001.18, 001.24: "The players may now extend their
    buildings." "The player plays three money cards of one combination as shown on the extension
    board. Then, the player may take one extension tile from the column of that combination."
    "The player places the extension tile on a building of that type immediately.\""""
    state, ids, garden = garden_ready()
    action = buy(state, ids, garden)
    assert validate(state, action) == []
    outcome = apply(state, action)
    after = outcome.state
    assert after.extensions is not None
    assert "extension-garden-1" not in {t for c in after.extensions.board for t in c}
    buyer = after.players[state.turn.player]
    assert set(ids) <= set(after.discard) and not set(ids) & set(buyer.hand)
    assert next(t for t in buyer.reserve if t.tile == garden).extension
    assert any(isinstance(e, ExtensionBought) for e in outcome.events)
    assert check_consistency(after) == []


@pytest.mark.rule("extensions.action")
def test_extensions_action_refuses_another_combination_or_count_or_tile() -> None:
    """extensions.action, seeds 001.17, 001.18: "three money cards of one combination as shown on
    the extension board", and the tile "from the column of that combination": not two or four
    cards, not yellow-green-green for column 1's yellow-yellow-green."""
    state, ids, garden = garden_ready(cards=(("yellow", 5), ("green", 2), ("green", 4), ("yellow", 3)))
    wrong = validate(state, buy(state, ids[:3], garden))  # yellow-green-green for column 1
    assert rules_of(wrong) == {"extensions.action"} and "asks for (yellow, yellow, green)" in wrong[0].message
    two = validate(state, buy(state, (ids[0], ids[3]), garden))
    assert rules_of(two) == {"extensions.action"} and "exactly 3" in two[0].message
    four = validate(state, buy(state, ids, garden))
    assert rules_of(four) == {"extensions.action"}
    not_held = card(state, "yellow", 9)
    assert rules_of(validate(state, buy(state, (ids[0], ids[3], not_held), garden))) == {"extensions.action"}
    assert rules_of(validate(state, buy(state, (ids[0], ids[0], ids[1]), garden))) == {"extensions.action"}
    off_board = validate(state, buy(state, (ids[0], ids[3], ids[1]), garden, extension="extension-hut-1"))
    assert rules_of(off_board) == {"extensions.action"}
    assert "not on the extension board" in off_board[0].message
    # Without the module the action does not exist.
    plain = new_game(NAMES, [], seed=1).state
    assert rules_of(validate(plain, buy(plain, ids[:3], garden))) == {"extensions.action"}


# --- extensions.matching --------------------------------------------------------------------

@pytest.mark.rule("extensions.matching")
def test_extensions_matching_allows_another_action_when_the_cards_total_at_most_the_amount() -> None:
    """extensions.matching, seed 001.19: "If the total of the played money cards is less than or
    equal to the amount shown next to the tile, the purchase is considered matching, and the
    player continues their turn.\""""
    # The seed's example: yellow 5, yellow 2, green 4 (11) match the tiles beside 12 and 14.
    for row in (1, 2):
        state, ids, garden = garden_ready(row=row)
        assert sum(CATALOGUE.money[c].value for c in ids) == 11 <= AMOUNTS[row]
        outcome = apply(state, buy(state, ids, garden))
        assert next(e for e in outcome.events if isinstance(e, ExtensionBought)).matching
        after = outcome.state
        assert after.turn.actions == 1 and after.active.name == state.active.name
        assert validate(after, TakeMoney(player=after.active.name, cards=after.display[:1])) == []


@pytest.mark.rule("extensions.matching")
def test_extensions_matching_allows_cards_totalling_exactly_the_amount() -> None:
    """extensions.matching, seed 001.19: "less than or equal to the amount shown next to the
    tile": yellow 5, yellow 3 and green 2 make 10, the amount beside the top tile (10)."""
    state, ids, garden = garden_ready(row=0, cards=(("yellow", 5), ("yellow", 3), ("green", 2)))
    assert AMOUNTS[0] == 10
    outcome = play(state, buy(state, ids, garden))
    assert next(e for e in outcome.events if isinstance(e, ExtensionBought)).matching
    assert outcome.state.turn.actions == 1 and outcome.state.active.name == state.active.name


@pytest.mark.rule("extensions.matching")
def test_extensions_matching_allows_the_seeds_example_seraglio_or_arcades_but_not_the_pavilion() -> None:
    """extensions.matching, seeds 001.21, 001.22: "Example: The player plays the combination yellow
    5 - yellow 2 - green 4, and may choose from pavilion, arcades or seraglio. Continuing the
    example above, both the seraglio or the arcades would be a matching purchase, but not the
    pavilion." Column 1 (yellow-yellow-green) holds the pavilion beside 10, the seraglio beside
    12 and the arcades beside 14; the player owns one building of each of these types."""
    board = put(put(put(ext_game(), "extension-pavilion-1", 0, 0), "extension-seraglio-1", 0, 1),
                "extension-arcades-1", 0, 2)
    state, ids, tiles = give(board, (("yellow", 5), ("yellow", 2), ("green", 4)),
                             reserve=("pavilion", "seraglio", "arcades"))
    listed = {a.extension for a in legal_actions(state, 100_000)[0]
              if isinstance(a, BuyExtension) and sorted(a.payment) == sorted(ids)}
    assert listed == {"extension-pavilion-1", "extension-seraglio-1", "extension-arcades-1"}
    for kind, tile in zip(("pavilion", "seraglio", "arcades"), tiles, strict=True):
        outcome = play(state, buy(state, ids, tile, extension=f"extension-{kind}-1"))
        matching = next(e for e in outcome.events if isinstance(e, ExtensionBought)).matching
        assert matching == (kind != "pavilion"), kind
        # Matching: the player continues their turn; the pavilion's 11 > 10 ends it.
        assert (outcome.state.active.name == state.active.name) == matching, kind


@pytest.mark.rule("extensions.matching")
def test_extensions_matching_refuses_another_action_when_the_cards_total_more() -> None:
    """extensions.matching, seed 001.20: "Otherwise, the purchase is not matching and the
    player's turn ends." (With a building held, only its placement remains.)"""
    state, ids, garden = garden_ready(row=0)  # 11 > 10: not matching, the turn's actions end
    outcome = apply(state, buy(state, ids, garden))
    assert not next(e for e in outcome.events if isinstance(e, ExtensionBought)).matching
    after = outcome.state
    assert after.active.name != state.active.name  # nothing held: the turn is over
    # With a building held, the player only places it.
    state, ids, garden = garden_ready(row=0)
    space = next(s for s in state.market if s.tile)
    assert space.tile is not None
    price = CATALOGUE.tiles[space.tile].price
    exact = [(space.currency, price)] if price <= 9 else [(space.currency, 9), (space.currency, price - 9)]
    state, paid, _ = give(state, exact)
    held = apply(state, BuyBuilding(player=state.active.name, tile=space.tile, payment=paid)).state
    assert held.turn.actions == 1  # an exact payment: another action
    after = apply(held, buy(held, ids, garden)).state
    assert after.turn.actions == 0 and after.active.held  # only the placement remains
    refused = validate(after, TakeMoney(player=after.active.name, cards=after.display[:1]))
    assert rules_of(refused) == {"base.turn.one-action"}


# --- extensions.owns-type -------------------------------------------------------------------

@pytest.mark.rule("extensions.owns-type")
def test_extensions_owns_type_allows_a_building_bought_this_turn_and_it_keeps_the_extension() -> None:
    """extensions.owns-type, seeds 001.23, 001.24, 001.25: "A player may buy an extension tile only
    if they own that type of building (in their Alhambra or their reserve) or bought that type of
    building during this turn. The player places the extension tile on a building of that type
    immediately. The extension remains part of the building even when redesigning the
    Alhambra." (Here: bought this turn, then put in the reserve.)"""
    for seed in range(1, 200):
        state = put(ext_game(seed=seed), "extension-garden-1", 0, 2)
        space = next((s for s in state.market if s.tile and CATALOGUE.tiles[s.tile].type == "garden"), None)
        if space is None or space.tile is None:
            continue
        price = CATALOGUE.tiles[space.tile].price
        state, ids, _ = give(state, [(space.currency, price)])
        state = apply(state, BuyBuilding(player=state.active.name, tile=space.tile, payment=ids)).state
        assert state.turn.actions == 1  # exact: another action
        state, ids, _ = give(state, [("yellow", 1), ("yellow", 2), ("green", 3)])
        action = buy(state, ids, space.tile)
        assert validate(state, action) == []
        state = apply(state, action).state
        assert next(t for t in state.active.held if t.tile == space.tile).extension
        after = apply(state, ReserveBuilding(player=state.active.name, tile=space.tile)).state
        seat = state.turn.player
        assert next(t for t in after.players[seat].reserve if t.tile == space.tile).extension
        assert check_consistency(after) == []
        return
    raise AssertionError("no seed lays a garden on the market")


@pytest.mark.rule("extensions.owns-type")
def test_extensions_owns_type_allows_the_alhambra_and_keeps_it_through_a_redesign() -> None:
    """extensions.owns-type, seeds 001.23, 001.25: a building "in their Alhambra"; "The extension
    remains part of the building even when redesigning the Alhambra." (The reserve: the
    action's tests, whose garden lies there.)"""
    state, ids, garden = garden_ready(row=2)
    seat = state.turn.player
    p = state.active
    walls = CATALOGUE.tiles[garden].walls
    # The first open side of the garden faces the fountain (N open: south of it, and so on).
    x, y = next((x, y) for b, x, y in ((1, 0, 1), (2, -1, 0), (4, 0, -1), (8, 1, 0)) if not walls & b)
    placed = PlacedTile(tile=garden, x=x, y=y)
    players = list(state.players)
    players[seat] = replace(p, reserve=tuple(t for t in p.reserve if t.tile != garden),
                            alhambra=(*p.alhambra, placed))
    state = replace(state, players=tuple(players))
    assert check_consistency(state) == []
    state = apply(state, buy(state, ids, garden)).state
    assert state.turn.actions == 1
    assert next(t for t in state.active.alhambra if t.tile == garden).extension
    after = apply(state, RemoveToReserve(player=state.active.name, tile=garden)).state
    assert next(t for t in after.players[seat].reserve if t.tile == garden).extension


@pytest.mark.rule("extensions.owns-type")
def test_extensions_owns_type_refuses_no_building_of_the_type_or_one_already_extended() -> None:
    """extensions.owns-type, seeds 001.23, 001.26: "only if they own that type of building" (a
    tower is no garden; another's garden is not theirs); "A building can be extended only
    once.\""""
    state, ids, garden = garden_ready(row=2)
    state, _, (tower,) = give(state, reserve=("tower",))
    wrong_type = validate(state, buy(state, ids, tower))
    assert rules_of(wrong_type) == {"extensions.owns-type"} and "tower" in wrong_type[0].message
    fountain = validate(state, buy(state, ids, "fountain"))
    assert rules_of(fountain) == {"extensions.owns-type"}
    others = next(t for t in state.bag if CATALOGUE.tiles[t].type == "garden")
    not_mine = validate(state, buy(state, ids, others))
    assert rules_of(not_mine) == {"extensions.owns-type"}
    # A building takes at most one extension.
    state = put(state, "extension-garden-2", 1, 2)
    state = apply(state, buy(state, ids, garden)).state
    state, more, _ = give(state, [("green", 1), ("green", 2), ("blue", 3)])
    twice = validate(state, buy(state, more, garden, extension="extension-garden-2"))
    assert rules_of(twice) == {"extensions.owns-type"} and "already" in twice[0].message


@pytest.mark.rule("extensions.owns-type")
def test_extensions_owns_type_refuses_an_extension_on_the_fountain() -> None:
    state = ext_game()
    assert state.extensions is not None
    seat = state.turn.player
    p = state.active
    board = state.extensions.board
    players = list(state.players)
    players[seat] = replace(p, alhambra=(replace(p.alhambra[0], extension=True), *p.alhambra[1:]))
    bad = replace(state, players=tuple(players), extensions=replace(state.extensions, board=(
        (None, *board[0][1:]), *board[1:])))
    problems = check_consistency(bad)
    assert any(v.rule == "extensions.owns-type" and "fountain" in v.message for v in problems)
    position = Position(round=1, modules=("extensions",), players=(PositionPlayer(name="Ana", alhambra=(
        PlacedTile(x=0, y=0, tile="fountain", extension=True),)),))
    with pytest.raises(InconsistentState) as refused:
        score(position)
    assert any(v.rule == "extensions.owns-type" and "fountain" in v.message
               for v in refused.value.violations)


# --- extensions.score -----------------------------------------------------------------------

def _garden_counts(*players: PositionPlayer, modules: tuple[str, ...] = ("extensions",)) -> dict[str, int]:
    breakdown = score(seated(Position(round=2, modules=modules, players=players)))
    return {s.name: next(ln.count for ln in s.lines if isinstance(ln, MajorityLine)
                         and ln.building == "garden") for s in breakdown.players[:len(players)]}


@pytest.mark.rule("extensions.score")
def test_extensions_score_allows_an_extended_building_to_count_as_two() -> None:
    """extensions.score, seed 001.27: "An extended building counts as 2 buildings for
    majorities." (Dirk's too.)"""
    ana = PositionPlayer(name="Ana", alhambra=(PlacedTile(x=0, y=0, tile="fountain"),
                                               PlacedTile(x=1, y=0, tile="garden-10-open", extension=True)))
    ben = PositionPlayer(name="Ben", alhambra=(PlacedTile(x=0, y=0, tile="fountain"),
                                               PlacedTile(x=1, y=0, tile="garden-11-open"),
                                               PlacedTile(x=-1, y=0, tile="garden-10-W")))
    dirk = PositionPlayer(name="Dirk", dirk=True, tiles=(Tile(tile="garden-12-S", extension=True),
                                                          Tile(tile="garden-9-E"), *(Tile(tile=t) for t in (
        "pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW"))))  # his 6 (dirk.setup)
    assert _garden_counts(ana, ben, dirk) == {"Ana": 2, "Ben": 2, "Dirk": 3}
    breakdown = score(Position(round=2, modules=("extensions",), players=(ana, ben, dirk)))
    garden = {s.name: next(ln for ln in s.lines if isinstance(ln, MajorityLine) and ln.building == "garden")
              for s in breakdown.players}
    assert garden["Dirk"].place == 1 and garden["Ana"].place == garden["Ben"].place == 2
    assert garden["Ana"].points == garden["Ben"].points == 5 // 2


@pytest.mark.rule("extensions.score")
def test_extensions_score_refuses_to_count_an_extension_in_the_reserve_or_without_the_module() -> None:
    """extensions.score, seed 001.27: it counts twice "for majorities", where reserve buildings
    never count."""
    ana = PositionPlayer(name="Ana", alhambra=(PlacedTile(x=0, y=0, tile="fountain"),
                                               PlacedTile(x=1, y=0, tile="garden-10-open")),
                         reserve=(Tile(tile="garden-11-open", extension=True),))
    assert _garden_counts(ana) == {"Ana": 1}
    with pytest.raises(InconsistentState) as refused:
        _garden_counts(ana, modules=())
    assert any("extension" in v.message for v in refused.value.violations)


# --- extensions.dirk ------------------------------------------------------------------------

def dirk_ready(dirk: Sequence[str] = ("garden",)) -> tuple[GameState, tuple[str, ...], str, tuple[str, ...]]:
    state = put(ext_game(players=2), "extension-garden-1", 0, 2)
    state, ids, tiles = give(state, [("yellow", 1), ("yellow", 2), ("green", 3)],
                             reserve=("garden",), dirk=dirk)
    return state, ids, tiles[0], tiles[1:]


@pytest.mark.rule("extensions.dirk")
def test_extensions_dirk_allows_giving_an_extension_to_dirks_building() -> None:
    """extensions.dirk, seed 001.28: "The players may give an extension to Dirk as a gift.\""""
    state, ids, _, (dirks,) = dirk_ready()
    action = buy(state, ids, dirks)
    assert validate(state, action) == []
    outcome = apply(state, action)
    after = outcome.state
    assert after.dirk is not None and next(t for t in after.dirk.tiles if t.tile == dirks).extension
    assert next(e for e in outcome.events if isinstance(e, ExtensionBought)).owner == after.dirk.name
    assert check_consistency(after) == []
    # Dirk's gardens are alike: the listing offers one of them.
    assert state.dirk is not None
    his = {t.tile for t in state.dirk.tiles}
    assert any(a.building in his for a in legal_actions(state, 10_000)[0] if isinstance(a, BuyExtension))


@pytest.mark.rule("extensions.dirk")
def test_extensions_dirk_refuses_a_building_of_another_type_or_already_extended() -> None:
    """extensions.dirk, seeds 001.28, 001.23, 001.26: the gift goes on a building of Dirk's of the
    extension's type, extended only once, and only a player owning that type may buy it."""
    state, ids, _, (tower,) = dirk_ready(dirk=("tower",))
    refused = validate(state, buy(state, ids, tower))
    assert rules_of(refused) == {"extensions.dirk"} and "tower" in refused[0].message
    state, ids, garden, (dirks,) = dirk_ready()
    assert state.dirk is not None
    extended = replace(state, dirk=replace(state.dirk, tiles=tuple(
        replace(t, extension=True) if t.tile == dirks else t for t in state.dirk.tiles)))
    extended = put(extended, "extension-garden-2", 3, 0)
    board = extended.extensions.board  # type: ignore[union-attr]
    extended = replace(extended, extensions=replace(extended.extensions, board=(  # type: ignore[arg-type]
        *board[:3], (None, *board[3][1:]))))
    assert check_consistency(extended) == []
    assert rules_of(validate(extended, buy(extended, ids, dirks))) == {"extensions.dirk"}
    # The giver must own a building of the type to buy the extension at all.
    seat = state.turn.player
    players = list(state.players)
    players[seat] = replace(state.active, reserve=tuple(t for t in state.active.reserve if t.tile != garden))
    no_garden = replace(state, players=tuple(players), removed=(Tile(tile=garden),))
    assert rules_of(validate(no_garden, buy(no_garden, ids, dirks))) == {"extensions.owns-type"}


# --- listing --------------------------------------------------------------------------------

def test_legal_purchases_list_each_distinct_combination_once() -> None:
    state = put(ext_game(), "extension-garden-1", 0, 0)
    state, ids, _ = give(state, [("yellow", 5), ("yellow", 5), ("yellow", 2), ("green", 4), ("green", 4)],
                         reserve=("garden",))
    assert len(list(payments(ids, 0))) == 2  # {5, 5} or {2, 5} with a 4
    listed = [a for a in legal_actions(state, 100_000)[0] if isinstance(a, BuyExtension)]
    garden_buys = [a for a in listed if a.extension == "extension-garden-1"]
    assert len(garden_buys) == 2
    assert all(validate(state, a) == [] for a in listed)
    assert COLUMNS[0] == ("yellow", "yellow", "green")


# --- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_extensions_reach_the_end(players: int) -> None:
    game = play_random_game(200 + players, players, ("extensions",), list_every=40)
    assert game.states[-1].phase == "over"
    assert any(isinstance(a, BuyExtension) for a in game.actions)


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_with_zoo_and_extensions_reach_the_end(players: int) -> None:
    game = play_random_game(300 + players, players, ("zoo", "extensions"), list_every=40)
    assert game.states[-1].phase == "over"
