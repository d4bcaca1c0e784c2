"""base.end.leftovers (RULES.md §6): "each tile still on the market goes to the player whose hand
holds the highest total value in that space's currency ... Recipients place these tiles by the
usual rules (Alhambra or reserve)." A tile marked leftover exists only once the game has ended,
never at Dirk's, within the market's bounds, and carries no token that only a turn of play puts
on a tile; in game states and scoring positions alike, with any modules on."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest
from msgspec.structs import replace

from service.engine import check_consistency, new_game
from service.engine.module import Module, registered, temporarily_registered
from service.engine.scoring import Position, PositionPlayer
from service.engine.scoring.positions import position_problems
from service.engine.state import GameState, PlacedTile, Tile
from service.engine.violations import Violation
from tests.engine.test_end import last_turn, leftovers
from tests.engine.test_tally import leftovers as counted_leftovers
from tests.engine.test_tally import table

RULE = "base.end.leftovers"
FOUNTAIN = PlacedTile(tile="fountain", x=0, y=0)
OPEN = ("garden-10-open", "garden-11-open", "tower-11-open", "tower-12-open", "arcades-9-open",
        "arcades-10-open")


def cited(problems: Sequence[Violation], *words: str) -> list[Violation]:
    """The violations citing base.end.leftovers; their messages name each of `words`."""
    found = [v for v in problems if v.rule == RULE]
    assert found, problems
    message = " ".join(v.message for v in found)
    for word in words:
        assert word in message, (word, message)
    return found


def row(*tiles: PlacedTile | str) -> tuple[PlacedTile, ...]:
    """The fountain and tiles in a row east of it (tile ids, or tiles whose x, y are replaced)."""
    out = [FOUNTAIN]
    for i, t in enumerate(tiles):
        placed = PlacedTile(tile=t, x=0, y=0) if isinstance(t, str) else t
        out.append(replace(placed, x=i + 1, y=0))
    return tuple(out)


def marked(tile: str, **tokens: object) -> PlacedTile:
    return PlacedTile(tile=tile, x=0, y=0, leftover=True, **tokens)  # type: ignore[arg-type]


def layout(*players: tuple[PlacedTile, ...], modules: Sequence[str] = (), round_: int = 3,
           dirk: Sequence[Tile] | None = None) -> Position:
    """The players' Alhambras, then Dirk, then fountains alone up to a table that can occur
    (base.setup.players: 2 to 6 players, Dirk joining 2; base.score.rounds: no points before
    round 1)."""
    names = ("Ana", "Ben", "Cyd")
    score = 10 if round_ > 1 else 0
    seats = [PositionPlayer(name=n, score=score, alhambra=a) for n, a in zip(names, players, strict=False)]
    seats += [PositionPlayer(name=n, alhambra=(FOUNTAIN,)) for n in names[len(players):2 if dirk else 3]]
    if dirk is not None:
        seats.append(PositionPlayer(name="Dirk", dirk=True, tiles=tuple(dirk)))
    return Position(round=round_, players=tuple(seats), modules=tuple(modules))


# --- game states: only once the game has ended ----------------------------------------------

def from_bag(state: GameState, seat: int, where: str, tile: Tile) -> GameState:
    """`tile` (taken from the bag) put in a player's `where` (alhambra, reserve, held)."""
    player = state.players[seat]
    player = replace(player, **{where: (*getattr(player, where), tile)})
    players = (*state.players[:seat], player, *state.players[seat + 1:])
    return replace(state, bag=tuple(t for t in state.bag if t != tile.tile), players=players)


@pytest.mark.rule(RULE)
def test_base_end_leftovers_allows_tiles_marked_leftover_once_the_game_has_ended() -> None:
    """RULES.md base.end.leftovers: once the game has ended (phase final-placement) the tiles of
    the market are held by their recipients, marked leftover; a tile nobody wins leaves the
    game unmarked."""
    state = leftovers()
    assert state.phase == "final-placement"
    held = [t.tile for p in state.players for t in p.held if t.leftover]
    assert held == ["pavilion-8-open", "seraglio-9-open"]
    assert check_consistency(state) == []


@pytest.mark.rule(RULE)
@pytest.mark.parametrize("where", ["reserve", "held", "alhambra"])
def test_base_end_leftovers_refuses_a_tile_marked_leftover_before_the_game_has_ended(where: str) -> None:
    """RULES.md base.end.leftovers: the market tiles are handed out when the game ends, so during
    play no tile is marked leftover (the reviewer's reserve tile, placed by the referee into the
    Alhambra, gave the same state two verdicts). The refusal cites base.end.leftovers."""
    state = last_turn(bag=("chambers-11-open", "tower-12-open"))
    assert state.phase == "play" and check_consistency(state) == []
    tile = Tile(tile="chambers-11-open", leftover=True)
    if where == "alhambra":
        tile = PlacedTile(tile="chambers-11-open", x=1, y=0, leftover=True)
    problems = check_consistency(from_bag(state, 0, where, tile))
    cited(problems, "chambers-11-open", "Ana's", "before the game has ended")
    assert all(v.rule != "inconsistent-state" or "leftover" not in v.message for v in problems)


@pytest.mark.rule(RULE)
def test_base_end_leftovers_refuses_a_tile_marked_leftover_at_dirks_or_out_of_the_game() -> None:
    """RULES.md base.end.leftovers and dirk.scores ("Dirk ... holds no money"): the richest
    player receives a leftover tile, so Dirk never does; one nobody wins is removed from the
    game as it is, unmarked."""
    state = leftovers()
    removed = tuple(replace(t, leftover=True) for t in state.removed)
    cited(check_consistency(replace(state, removed=removed)), "garden-11-open", "out of the game")
    two = new_game(["Ana", "Ben"], seed=4).state
    assert two.dirk is not None and check_consistency(two) == []
    dirk = replace(two.dirk, tiles=(replace(two.dirk.tiles[0], leftover=True), *two.dirk.tiles[1:]))
    cited(check_consistency(replace(two, dirk=dirk)), two.dirk.tiles[0].tile, "Dirk")


# --- tokens a leftover tile cannot carry ----------------------------------------------------

# (module, tile, token, value, the rule that puts it on a tile during a turn, seed sentence)
PLAY_TOKENS = [
    ("staff", "garden-10-open", "servant", True, "staff.servant"),  # seeds 002.11, 002.16
    ("treasure", "garden-10-open", "chest", True, "treasure.place"),  # seed 004.14
    ("extensions", "garden-10-open", "extension", True, "extensions.owns-type"),  # seed 001.24
    ("walls", "garden-10-open", "added_walls", "N", "walls.action"),  # seed 003.6
    ("craftsmen", "garden-10-open", "rotation", 90, "craftsmen.mosaic-artist"),  # seeds 000.13, 000.14
    ("power", "garden-8-NE-strength", "die", 3, "power.strength"),  # seeds 000.60, 000.67
]


@pytest.mark.rule(RULE)
@pytest.mark.parametrize(("module", "tile", "token", "value", "rule"), PLAY_TOKENS)
def test_base_end_leftovers_refuses_a_token_only_play_puts_on_a_leftover_tile(
        module: str, tile: str, token: str, value: object, rule: str) -> None:
    """A leftover tile is handed out after the last turn (RULES.md base.end.leftovers), so it
    carries none of the tokens only a turn's action or purchase puts on a tile: a servant (seeds
    002.11, 002.16: the marshal entering it after a take), a chest (seed 004.14: "distributed ...
    during the move in which they are bought"), an extension (seed 001.24: placed "immediately"
    with the action), added walls (seed 003.6: "As an action"), a rotation (seeds 000.13-000.14:
    the Mosaic artist, during the holder's turn), a die (seeds 000.60, 000.67: rolled
    "Immediately after purchasing this tile"; a leftover is not bought). Refused naming the path,
    the token and its rule; the same token on a tile bought during play is allowed."""
    played = layout(row(PlacedTile(tile=tile, x=0, y=0, **{token: value})),  # type: ignore[arg-type]
                    modules=(module,))
    assert position_problems(played) == []
    position = layout(row(marked(tile, **{token: value})), modules=(module,))
    cited(position_problems(position), "$.players[0].alhambra[1]", repr(token), rule)


@pytest.mark.rule(RULE)
def test_base_end_leftovers_refuses_a_servant_on_a_leftover_tile_in_a_game_state() -> None:
    """seeds 002.11, 002.16 (staff.servant) with RULES.md base.end.leftovers: in a game that is
    over, the leftover pavilion Ben placed has no servant; one there cannot occur."""
    from tests.modules.test_staff import end_with_leftover, last_turn_with_staff

    state, _ = end_with_leftover(last_turn_with_staff(ben=0))
    assert state.phase == "over" and check_consistency(state) == []
    ben = state.players[1]
    alhambra = tuple(replace(t, servant=True) if t.leftover else t for t in ben.alhambra)
    assert state.staff is not None and "pavilion" in state.staff.display
    display = list(state.staff.display)
    display.remove("pavilion")  # the servant comes from the display: the count stays right
    served = replace(state, players=(state.players[0], replace(ben, alhambra=alhambra), state.players[2]),
                     staff=replace(state.staff, display=tuple(display)))
    cited(check_consistency(served), "pavilion-8-open", "Ben's Alhambra", "'servant'", "staff.servant")


@pytest.mark.rule(RULE)
def test_base_end_leftovers_allows_animals_a_sites_building_and_an_inhabitant_on_a_leftover_tile() -> None:
    """What a leftover tile may carry: the animals that lay on the garden on the market (seed
    000.31: put on a garden "revealed at the market"; 000.32: they go with the garden), the
    building its recipient chooses for a site (RULES.md grounds.buy: "A site handed out as a
    leftover ... gets its building chosen by its recipient"; seed 001.7), an inhabitant settled
    as the recipient places it on the vendor's space (seeds 003.31-003.32: "when you place a
    building"; the leftovers are placed "by the usual rules")."""
    for module, tile in (("zoo", marked("garden-10-open", animals=("monkey", "monkey"))),
                         ("grounds", marked("site-1-8-N", construction="garden")),
                         ("vendors", marked("garden-10-open", inhabitant=True))):
        assert position_problems(layout(row(tile), modules=(module,))) == [], module


@pytest.mark.rule(RULE)
def test_base_end_leftovers_allows_each_modules_tokens_only_as_declared() -> None:
    """Every token of every module is either one only play puts on a tile (`play_tokens`, with
    the module's rule that puts it there) or one a leftover tile may carry as the rules say:
    the leftover mark itself, the zoo's animals (seed 000.32), a site's building (grounds.buy),
    an inhabitant (seed 003.31). A new token must be classified."""
    may_carry = {"leftover", "animals", "construction", "inhabitant"}
    for m in registered():
        for token in m.tokens:
            if token in m.play_tokens:
                assert m.play_tokens[token] in m.rule_ids, (m.id, token)
            else:
                assert token in may_carry, (m.id, token)


@pytest.mark.rule(RULE)
def test_base_end_leftovers_refuses_to_register_play_tokens_a_module_does_not_own() -> None:
    """`Module.play_tokens` names tokens of the module's own `tokens`."""
    toy = Module(id="toy-leftovers", name="toy", rule_ids=("toy.rule",), tokens=(),
                 play_tokens={"servant": "toy.rule"})
    with pytest.raises(ValueError, match="play_tokens"), temporarily_registered(toy):
        pass


# --- how many, and whose --------------------------------------------------------------------

@pytest.mark.rule("power.end-hidden")
def test_power_end_hidden_allows_three_leftover_tiles_for_each_of_two_players() -> None:
    """seeds 000.73-000.74 (power.end-hidden): of a market space with a tile hidden under it, the
    richest chooses one tile, "The player owning the second-most money ... takes the other":
    with 3 spaces left, 6 tiles, 3 for each of two players."""
    for tallies in ((counted_leftovers(3), counted_leftovers(3, "garden")),
                    (counted_leftovers(3), counted_leftovers(2, "garden"), counted_leftovers(1, "chambers"))):
        assert position_problems(table(*tallies, modules=("staff", "power"), round_=3)) == []
    ana, ben = row(*(marked(t) for t in OPEN[:3])), row(*(marked(t) for t in OPEN[3:]))
    assert position_problems(layout(ana, ben, modules=("power",))) == []


@pytest.mark.rule("power.end-hidden")
def test_power_end_hidden_refuses_more_than_one_leftover_tile_of_each_market_space_for_a_player() -> None:
    """seeds 000.73-000.74: the two tiles of a space go to two players, so one player receives at
    most one tile of each space, and one space at least is empty (RULES.md base.end.trigger): 3.
    A tally of 4 or 6 for one player is beyond the contract (the census's bound) and a layout of
    4 is refused with power on."""
    for n in (4, 6):
        with pytest.raises(msgspec.ValidationError, match=r"<= 3 - at `\$\.staff\.leftover`"):
            counted_leftovers(n)
    ana = row(*(marked(t) for t in OPEN[:4]))
    cited(position_problems(layout(ana, modules=("power",))), "Ana has 4 leftover tiles",
          "$.players[0].alhambra[4].leftover", "at most 3")


@pytest.mark.rule(RULE)
def test_base_end_leftovers_refuses_a_leftover_tile_at_dirks_in_a_position() -> None:
    """RULES.md dirk.scores: "Dirk ... holds no money", so the richest player of a currency is
    never Dirk (base.end.leftovers): his tiles are never leftover tiles."""
    five = [Tile(tile=t) for t in ("seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW", "garden-6-ESW",
                                   "tower-7-NEW")]  # with pavilion-8-open his 6 of setup (dirk.setup)
    plain = layout(row("garden-10-open"), dirk=[Tile(tile="pavilion-8-open"), *five])
    assert position_problems(plain) == []
    gift = layout(row("garden-10-open"), dirk=[Tile(tile="pavilion-8-open", leftover=True), *five])
    cited(position_problems(gift), "$.players[2].tiles[0].leftover", "Dirk")


@pytest.mark.rule(RULE)
@pytest.mark.parametrize("modules", [(), ("zoo",), ("staff",)])
def test_base_end_leftovers_allows_three_leftover_tiles_with_any_modules(modules: tuple[str, ...]) -> None:
    """RULES.md base.end.trigger, base.end.leftovers: one market space at least is empty when the
    game ends, so up to 3 tiles are handed out, with or without the staff module."""
    ana, ben = row(*(marked(t) for t in OPEN[:2])), row(marked(OPEN[2]))
    assert position_problems(layout(ana, ben, modules=modules)) == []


@pytest.mark.rule(RULE)
@pytest.mark.parametrize("modules", [(), ("zoo",), ("staff",)])
def test_base_end_leftovers_refuses_four_leftover_tiles_with_any_modules(modules: tuple[str, ...]) -> None:
    """RULES.md base.end.trigger, base.end.leftovers: 4 leftover tiles on a table cannot occur,
    the staff module off too (the leftover mark is the base game's)."""
    ana, ben = row(*(marked(t) for t in OPEN[:2])), row(*(marked(t) for t in OPEN[2:4]))
    cited(position_problems(layout(ana, ben, modules=modules)), "4 leftover tiles on the table", "at most 3")


@pytest.mark.rule(RULE)
def test_base_end_leftovers_refuses_a_leftover_tile_before_round_3_with_any_modules() -> None:
    """RULES.md base.end.leftovers, base.end.final-scoring: the leftover tiles are handed out when
    the game ends, then round 3 is held: a position of round 1 or 2 has none (round 3 allowed)."""
    position = layout(row(marked("garden-10-open")), modules=("zoo",))
    assert position_problems(position) == []
    for round_ in (1, 2):
        cited(position_problems(replace(position, round=round_)), "$.players[0].alhambra[1].leftover",
              f"in round {round_}")
