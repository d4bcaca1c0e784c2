"""Tallies (issue 15): a scoring position's players given by what people count at a table.

The property: for random layouts of every combination of the eleven modules, scoring the layout
and scoring the tally counted from it (sent through JSON, checked like a client's) give the
same breakdown, byte for byte; also when only some players are given by tally. Then the
refusals, one test per class (each names the field and the limit), and the seeds' scoring
examples written as tallies.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import msgspec
import pytest
from msgspec.structs import replace

from service.engine import InconsistentState, score
from service.engine.module import modules_of_ids, registered
from service.engine.scoring import Breakdown, Position, PositionPlayer, score_position, tally_of
from service.engine.scoring.positions import position_problems
from service.engine.scoring.tally import Tally
from service.engine.state import PlacedTile, Tile
from service.engine.violations import Violation
from tests.support.positions import random_position

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
COMBINATIONS = [tuple(m for j, m in enumerate(MODULES) if i >> j & 1) for i in range(2 ** len(MODULES))]
CHUNKS = 16
ENCODE = msgspec.json.Encoder().encode
DECODE = msgspec.json.Decoder(Position).decode


def counted(position: Position, which: Sequence[int]) -> Position:
    """The position with the players at `which` given by their tally instead of their tiles,
    through JSON as a client would send it."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    players = tuple(replace(p, alhambra=(), reserve=(), tiles=(), tally=tally_of(p, modules))
                    if i in which else p for i, p in enumerate(position.players))
    return DECODE(ENCODE(replace(position, players=players)))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_tally_allows_the_breakdown_of_the_layout_it_counts_for_every_module_combination(chunk: int) -> None:
    """2048 positions, one per combination of the eleven modules: layout -> score equals
    layout -> tally -> JSON -> check -> score, for all players counted and for a random part."""
    size = len(COMBINATIONS) // CHUNKS
    for index in range(chunk * size, (chunk + 1) * size):
        modules = COMBINATIONS[index]
        rng = random.Random(index)
        position = random_position(rng, modules)
        assert position_problems(position) == [], (modules, position)
        expected = ENCODE(score_position(position))
        everyone = range(len(position.players))
        some = [i for i in everyone if rng.random() < 0.5]
        for which in (everyone, some):
            tallied = counted(position, which)
            assert position_problems(tallied) == [], (modules, which, tallied)
            assert ENCODE(score_position(tallied)) == expected, (modules, which, tallied)


def test_tally_allows_a_position_of_tallies_only_and_refuses_nothing_counted_from_a_real_game() -> None:
    """A real game's state, counted: the engine's own scoring of the state (every module on)."""
    from service.engine import score_state
    from service.engine.scoring import position_of
    from tests.support.play import after_steps

    state = after_steps(MODULES, 4, 3, 120)
    for round_ in (1, 2, 3):
        position = position_of(state, round_)
        tallied = counted(replace(position, check_layout=True), range(len(position.players)))
        assert position_problems(tallied) == []
        assert ENCODE(score(tallied)) == ENCODE(score_state(state, round_))


# --- refusals: each names the field and the limit ------------------------------------------


def tally(**fields: object) -> Tally:
    return msgspec.convert(fields, Tally)


NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eve", "Fay")


def table(*tallies: Tally, modules: Sequence[str] = (), round_: int = 2,
          dirk: Tally | None = None) -> Position:
    """The tallies, then Dirk's, then players counting nothing up to a table that can occur
    (base.setup.players: 2 to 6 players, Dirk joining 2)."""
    players = [PositionPlayer(name=n, tally=t) for n, t in zip(NAMES, tallies, strict=False)]
    if dirk is not None:
        players.append(PositionPlayer(name="Dirk", dirk=True, tally=dirk))
    seats = 2 if dirk is not None else 3
    players += [PositionPlayer(name=n, tally=Tally()) for n in NAMES[len(tallies):seats]]
    return Position(round=round_, players=tuple(players), modules=tuple(modules))


def refused(position: Position, rule: str, *words: str) -> list[Violation]:
    problems = position_problems(position)
    assert problems, "the position was accepted"
    assert any(v.rule == rule for v in problems), problems
    message = " ".join(v.message for v in problems if v.rule == rule)
    for word in words:
        assert word in message, (word, message)
    with pytest.raises(InconsistentState):
        score(position)
    return problems


def test_tally_refuses_more_buildings_of_a_type_than_exist() -> None:
    refused(table(tally(buildings={"pavilion": 8})), "inconsistent-state",
            "$.players[0].tally.buildings.pavilion = 8", "only 7")


def test_tally_refuses_more_buildings_on_the_table_than_exist_counting_tiles_too() -> None:
    """Ana's 4 and Ben's 3 pavilions are all 7; Cyd's reserve holds an eighth."""
    alone = table(tally(buildings={"pavilion": 4}), tally(buildings={"pavilion": 3}))
    assert position_problems(alone) == []
    cyd = PositionPlayer(name="Cyd", alhambra=(PlacedTile(tile="fountain", x=0, y=0),),
                         reserve=(Tile(tile="pavilion-8-open"),))
    refused(replace(alone, players=(*alone.players[:2], cyd)), "inconsistent-state",
            "$.players[0].tally.buildings.pavilion = 4", "$.players[1].tally.buildings.pavilion = 3",
            "and Cyd's tiles", "8 buildings of type pavilion", "only 7")


def test_tally_allows_the_buildings_under_construction_of_new_building_grounds() -> None:
    """grounds.score: a building under construction counts as any other of its type (2 each)."""
    assert position_problems(table(tally(buildings={"pavilion": 9}), modules=("grounds",))) == []
    refused(table(tally(buildings={"pavilion": 10}), modules=("grounds",)), "inconsistent-state", "only 9")


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_refuses_a_tally_wall_longer_than_its_tiles_could_make() -> None:
    refused(table(tally(buildings={"garden": 2}, wall=7)), "base.score.wall",
            "$.players[0].tally.wall is 7", "at most 6")
    refused(table(tally(wall=1)), "base.score.wall", "at most 0")  # the fountain has no wall


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_allows_a_tally_wall_as_long_as_the_outline() -> None:
    """Four buildings round the fountain, each walled on its three outer sides: a ring of 12."""
    assert position_problems(table(tally(buildings={"garden": 4}, wall=12))) == []
    assert score(table(tally(buildings={"garden": 4}, wall=12))).players[0].lines[6].points == 12
    # With the walls module the fountain takes walls too: alone, a ring of 4.
    assert position_problems(table(tally(wall=4), modules=("walls",))) == []


def test_tally_refuses_counts_of_a_module_that_is_off() -> None:
    refused(table(tally(buildings={"garden": 1}, zoo={"animals": 1})), "inconsistent-state",
            "$.players[0].tally.zoo", "'zoo', which is not on")
    refused(table(tally(treasure={"chests": {}})), "inconsistent-state", "$.players[0].tally.treasure")


@pytest.mark.rule("dirk.scores")
def test_dirk_scores_refuses_a_tally_wall_for_dirk() -> None:
    """dirk.scores: Dirk builds no Alhambra and scores no wall."""
    refused(table(tally(), tally(), dirk=tally(buildings={"tower": 6}, wall=3)), "dirk.scores",
            "$.players[2].tally.wall is 3")


@pytest.mark.rule("dirk.scores")
def test_dirk_scores_allows_dirks_buildings_by_tally() -> None:
    position = table(tally(buildings={"tower": 1}), tally(), dirk=tally(buildings={"tower": 6}), round_=1)
    breakdown = score(position)
    assert [p.total for p in breakdown.players] == [0, 0, 6]


def test_tally_refuses_a_player_given_by_tiles_and_by_a_tally() -> None:
    position = table(tally(buildings={"tower": 1}))
    both = replace(position.players[0], alhambra=(PlacedTile(tile="fountain", x=0, y=0),))
    refused(replace(position, players=(both, *position.players[1:])), "inconsistent-state", "$.players[0]",
            "give one")


@pytest.mark.rule("treasure.place")
def test_treasure_place_refuses_more_chests_of_a_colour_than_buildings_of_that_colour() -> None:
    refused(table(tally(buildings={"garden": 2}, treasure={"chests": {"garden": 3}}), modules=("treasure",)),
            "treasure.place", "$.players[0].tally.treasure.chests.garden is 3",
            "$.players[0].tally.buildings.garden is 2")


@pytest.mark.rule("treasure.setup")
def test_treasure_setup_refuses_more_chests_of_a_colour_on_the_table_than_exist() -> None:
    """5 pavilion chests exist (Default data); two players' 3 each make 6."""
    each = tally(buildings={"pavilion": 3}, treasure={"chests": {"pavilion": 3}})
    refused(table(each, each, modules=("treasure",)), "treasure.setup", "6 chests on pavilion buildings",
            "only 5")


@pytest.mark.rule("vendors.one-per-building")
def test_vendors_one_per_building_refuses_more_inhabitants_than_buildings_and_any_at_dirks() -> None:
    refused(table(tally(buildings={"tower": 1}, vendors={"inhabitants": {"tower": 2}}), modules=("vendors",)),
            "vendors.one-per-building", "$.players[0].tally.vendors.inhabitants.tower is 2")
    refused(table(tally(), tally(), dirk=tally(buildings={"tower": 6}, vendors={"inhabitants": {"tower": 1}}),
                  modules=("vendors",)), "vendors.one-per-building", "$.players[2].tally.vendors")


@pytest.mark.rule("vendors.setup")
def test_vendors_setup_refuses_more_inhabitants_of_a_colour_than_exist() -> None:
    four = tally(buildings={"garden": 4}, vendors={"inhabitants": {"garden": 4}})
    refused(table(four, four, modules=("vendors",)), "vendors.setup", "8 garden inhabitants", "only 7")


@pytest.mark.rule("extensions.owns-type")
def test_extensions_owns_type_refuses_more_extensions_than_buildings_of_the_type() -> None:
    refused(table(tally(buildings={"arcades": 1}, extensions={"extended": {"arcades": 2}}),
                  modules=("extensions",)), "extensions.owns-type",
            "$.players[0].tally.extensions.extended.arcades is 2")


@pytest.mark.rule("extensions.setup")
def test_extensions_setup_refuses_a_third_extension_of_a_type_on_the_table() -> None:
    two = tally(buildings={"arcades": 2}, extensions={"extended": {"arcades": 2}})
    one = tally(buildings={"arcades": 1}, extensions={"extended": {"arcades": 1}})
    refused(table(two, one, modules=("extensions",)), "extensions.setup", "3 arcades extensions", "only 2")


@pytest.mark.rule("extensions.score")
def test_extensions_score_allows_an_extended_building_to_count_twice_in_a_tally() -> None:
    position = table(tally(buildings={"arcades": 2}, extensions={"extended": {"arcades": 1}}),
                     tally(buildings={"arcades": 2}), modules=("extensions",), round_=1)
    lines = score(position).players[0].lines
    assert (lines[2].count, lines[2].points) == (3, 3)  # type: ignore[attr-defined]


@pytest.mark.rule("zoo.score")
def test_zoo_score_refuses_more_animals_that_score_than_gardens_could_hold() -> None:
    refused(table(tally(buildings={"garden": 1}, zoo={"animals": 4}), modules=("zoo",)), "zoo.score",
            "$.players[0].tally.zoo.animals is 4", "at most 3")


@pytest.mark.rule("zoo.setup")
def test_zoo_setup_refuses_more_animals_than_are_in_play() -> None:
    """zoo.setup: 2 of the 24 animals are put back unseen, so 22 are in play."""
    eight = tally(buildings={"garden": 4}, zoo={"animals": 12})
    refused(table(eight, eight, modules=("zoo",)), "zoo.setup", "24 animals", "only 22")


@pytest.mark.rule("zoo.dirk")
def test_zoo_dirk_refuses_animals_counted_for_dirk() -> None:
    dirk = tally(buildings={"garden": 6}, zoo={"animals": 1})
    refused(table(tally(), tally(), dirk=dirk, modules=("zoo",)),
            "zoo.dirk", "$.players[2].tally.zoo.animals is 1")


# --- the table's totals count what players given by tiles hold anywhere, the reserve too ------


FOUNTAIN = PlacedTile(tile="fountain", x=0, y=0)
KINDS = ("monkey", "pigeon", "cheetah", "camel", "peacock", "flamingo", "turtle", "elephant")


def beside(position: Position, *players: PositionPlayer) -> Position:
    """`position` with `players` in place of the bare seats `table` added under their names."""
    names = {p.name for p in players}
    kept = tuple(p for p in position.players if p.name not in names or p.tally != Tally())
    return replace(position, players=(*kept, *players))


def reserve_extended(gardens: int) -> Position:
    """Ana with a tower, Ben with 2 gardens of which `gardens` are extended (a tally), and Cyd
    given by tiles: an extended garden in his reserve."""
    cyd = PositionPlayer(name="Cyd", alhambra=(FOUNTAIN,),
                         reserve=(Tile(tile="garden-10-open", extension=True),))
    ben = tally(buildings={"garden": 2}, extensions={"extended": {"garden": gardens}})
    return beside(table(tally(buildings={"tower": 1}), ben, modules=("extensions",)), cyd)


@pytest.mark.rule("extensions.setup")
def test_extensions_setup_allows_two_garden_extensions_one_of_them_in_a_reserve() -> None:
    """seed 001.14 (extensions.setup): "12 Extension tiles", 2 of each type; seed 001.26: "A
    building can be extended only once". Ben's tally counts 1 extended garden, Cyd's reserve
    holds the other: 2 on the table."""
    assert position_problems(reserve_extended(1)) == []


@pytest.mark.rule("extensions.setup")
def test_extensions_setup_refuses_a_third_garden_extension_in_a_reserve() -> None:
    """seed 001.14 (extensions.setup): "12 Extension tiles", 2 of each type: Ben's tally of 2
    extended gardens and the extended garden in Cyd's reserve make 3 (a reserve's tile scores
    nothing, but its extension is on the table all the same)."""
    refused(reserve_extended(2), "extensions.setup", "$.players[1].tally.extensions.extended.garden = 2",
            "and Cyd's tiles", "3 garden extensions", "only 2")


def keeper(*reserve: Sequence[str], mixed: Sequence[str] = ()) -> PositionPlayer:
    """Cyd, given by tiles: gardens in the reserve with these animals, and a garden in the
    Alhambra with animals of several kinds (`mixed`), which score nothing."""
    return PositionPlayer(name="Cyd", alhambra=(FOUNTAIN, PlacedTile(tile="garden-10-open", x=1, y=0,
                                                                     animals=tuple(mixed))),
                          reserve=tuple(Tile(tile=t, animals=tuple(a)) for t, a in
                                        zip(("garden-11-open", "garden-12-S"), reserve, strict=False)))


@pytest.mark.rule("zoo.setup")
def test_zoo_setup_allows_22_animals_on_the_table_with_those_in_a_reserve() -> None:
    """seeds 000.29-000.30 (zoo.setup): "Shuffle the 24 animal tiles", "Two random tiles are placed
    back in the box unseen": 22 in play. Ben's tally of 3 and Cyd's 19 (in his reserve and on a
    garden of several kinds) are 22."""
    animals = [k for k in KINDS for _ in range(3)]
    ben = table(tally(buildings={"tower": 1}), tally(buildings={"garden": 1}, zoo={"animals": 3}),
                modules=("zoo",))
    assert position_problems(beside(ben, keeper(animals[3:13], mixed=animals[13:22]))) == []


@pytest.mark.rule("zoo.setup")
def test_zoo_setup_refuses_23_animals_on_the_table_counting_those_in_a_reserve() -> None:
    """seeds 000.29-000.30 (zoo.setup): 22 animals in play; seed 000.32 (zoo.buy): the buyer
    receives the animals, "placing them together with the garden" (RULES.md: "they stay on the
    garden wherever it is placed (Alhambra or reserve)"). The issue's case: 20
    animals on Cyd's reserve garden and Ben's tally of 3 are 23; so are Ben's 3 and Cyd's 20 of
    which 10 stand on an Alhambra garden of several kinds (they score nothing but are in play)."""
    animals = [k for k in KINDS for _ in range(3)]
    ben = table(tally(buildings={"tower": 1}), tally(buildings={"garden": 1}, zoo={"animals": 3}),
                modules=("zoo",))
    refused(beside(ben, keeper(animals[:20])), "zoo.setup", "$.players[1].tally.zoo.animals = 3",
            "and Cyd's tiles", "23 animals", "only 22")
    refused(beside(ben, keeper(animals[3:13], mixed=animals[13:23])), "zoo.setup", "23 animals", "only 22")


# --- grounds: a building under construction stands on one of the 8 sites ---------------------


def grounds_table(*counts: dict[str, int]) -> Position:
    return table(*(tally(buildings=c) for c in counts), modules=("grounds",))


@pytest.mark.rule("grounds.setup")
def test_grounds_setup_allows_8_buildings_under_construction_on_the_8_sites() -> None:
    """seeds 001.3, 001.7 (grounds.setup, grounds.buy): "Shuffle the 8 building site tiles in with
    the other Alhambra tiles", and on each bought site its buyer places one building under
    construction: 4 types 2 above the tiles of the base game (7, 7, 9, 9) are 8 on 8 sites."""
    assert position_problems(grounds_table({"pavilion": 9, "seraglio": 9},
                                           {"arcades": 11, "chambers": 11})) == []


@pytest.mark.rule("grounds.setup")
def test_grounds_setup_refuses_more_buildings_under_construction_than_sites() -> None:
    """seeds 001.3, 001.7 (grounds.setup, grounds.buy): 8 building sites, one building under
    construction on each: the issue's tally of every type 2 above its base count needs 12 (seed
    001.2: 12 exist, 2 of each type, but 4 stay in the columns); 9 with one more in a reserve
    (a site with its building, given by tiles) too."""
    refused(grounds_table({"pavilion": 9, "seraglio": 9, "arcades": 11}, {"chambers": 11, "garden": 13},
                          {"tower": 13}), "grounds.setup", "$.players[2].tally.buildings.tower = 13",
            "12 buildings under construction", "only 8")
    cyd = PositionPlayer(name="Cyd", alhambra=(FOUNTAIN,),
                         reserve=(Tile(tile="site-1-8-N", construction="tower"),))
    eight = grounds_table({"pavilion": 9, "seraglio": 9}, {"arcades": 11, "chambers": 11, "tower": 11})
    assert position_problems(eight) == []
    refused(beside(eight, cyd), "grounds.setup", "and Cyd's tiles", "1 tower",
            "9 buildings under construction", "only 8")


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_impossible_unserved_and_leftover_counts() -> None:
    refused(table(tally(buildings={"tower": 2}, staff={"unserved": 3}), modules=("staff",)), "staff.score",
            "$.players[0].tally.staff.unserved is 3")
    refused(table(tally(buildings={"tower": 2}, staff={"unserved": 1, "leftover": 2}), modules=("staff",),
                  round_=3), "staff.score", "$.players[0].tally.staff.leftover is 2")
    refused(table(tally(buildings={"tower": 2}, staff={"unserved": 2, "leftover": 1}), modules=("staff",),
                  round_=2), "staff.score", "in round 2")


def leftovers(n: int, kind: str = "tower") -> Tally:
    """A player whose n buildings are all leftover tiles without a servant (round 3)."""
    return tally(buildings={kind: n}, staff={"unserved": n, "leftover": n})


@pytest.mark.rule("base.end.leftovers")
def test_base_end_leftovers_allows_as_many_leftover_tiles_as_the_market_hands_out() -> None:
    """RULES.md base.end.trigger, base.end.leftovers: "the game ends when, at a refill, the market
    cannot be filled completely" "each tile still on the market goes to the player ...": of the 4
    spaces one at least is empty, so 3 tiles at most, to one player or several. seeds 000.51,
    000.55 (power.end-hidden): with the power module each may have a tile underneath: 6, of
    which one player takes at most one of each space (seeds 000.73-000.74): 3 + 3."""
    for players in ((leftovers(3),), (leftovers(1), leftovers(1), leftovers(1))):
        assert position_problems(table(*players, modules=("staff",), round_=3)) == []
    assert position_problems(table(leftovers(3), leftovers(3), modules=("staff", "power"), round_=3)) == []
    assert position_problems(table(leftovers(3), leftovers(2), modules=("staff", "power"), round_=3)) == []


@pytest.mark.rule("base.end.leftovers")
def test_base_end_leftovers_refuses_more_leftover_tiles_than_the_market_hands_out() -> None:
    """RULES.md base.end.trigger, base.end.leftovers (3 tiles at most; seeds 000.51, 000.55: 6
    with the power module, one player taking at most one of each space, 000.73-000.74): 3 + 3
    + 3 on a table, 2 + 2, 3 + 3 + 1 with power; 4 for one player is beyond the contract."""
    three_each = (leftovers(3), leftovers(3, "garden"), leftovers(3, "chambers"))
    refused(table(*three_each, modules=("staff",), round_=3), "base.end.leftovers",
            "$.players[2].tally.staff.leftover = 3", "9 leftover tiles", "at most 3")
    refused(table(leftovers(2), leftovers(2), modules=("staff",), round_=3), "base.end.leftovers",
            "at most 3")
    refused(table(leftovers(3), leftovers(3), leftovers(1, "garden"), modules=("staff", "power"), round_=3),
            "base.end.leftovers", "at most 6")
    with pytest.raises(msgspec.ValidationError, match=r"<= 3 - at `\$\.staff\.leftover`"):
        leftovers(4)  # beyond what any player receives: the contract's bound (the census)
    # A player given by tiles counts the tiles marked leftover, the reserve's too.
    cyd = PositionPlayer(name="Cyd", alhambra=(PlacedTile(tile="fountain", x=0, y=0),
                                               PlacedTile(tile="garden-10-open", x=1, y=0, leftover=True)),
                         reserve=(Tile(tile="garden-11-open", leftover=True),))
    two = table(leftovers(2), modules=("staff",), round_=3)
    refused(replace(two, players=(*two.players[:2], cyd)), "base.end.leftovers",
            "$.players[0].tally.staff.leftover = 2", "$.players[2].alhambra[1].leftover",
            "$.players[2].reserve[0].leftover", "4 leftover tiles")
    assert position_problems(replace(two, players=(replace(two.players[0], tally=leftovers(1)),
                                                   two.players[1], cyd))) == []


@pytest.mark.rule("base.end.leftovers")
def test_base_end_leftovers_refuses_more_leftover_tiles_than_the_market_hands_out_in_a_layout() -> None:
    """RULES.md base.end.trigger, base.end.leftovers: 3 leftover tiles at most on a table."""
    fountain = PlacedTile(tile="fountain", x=0, y=0)
    tiles = ("garden-10-open", "garden-11-open", "tower-11-open", "tower-12-open")
    ana = PositionPlayer(name="Ana", alhambra=(fountain, *(PlacedTile(tile=t, x=1 + i, y=0, leftover=True)
                                                           for i, t in enumerate(tiles[:3]))))
    ben = PositionPlayer(name="Ben", alhambra=(fountain, PlacedTile(tile=tiles[3], x=1, y=0, leftover=True)))
    cyd, dov = (PositionPlayer(name=n, alhambra=(fountain,)) for n in ("Cyd", "Dov"))
    three = Position(round=3, players=(ana, cyd, dov), modules=("staff",))
    assert position_problems(three) == []
    refused(replace(three, players=(ana, ben, cyd)), "base.end.leftovers",
            "$.players[1].alhambra[1].leftover", "4 leftover tiles", "at most 3")


def served(pavilion: int, unserved: int, **more: int) -> Tally:
    return tally(buildings={"pavilion": pavilion, **more}, staff={"unserved": unserved})


@pytest.mark.rule("staff.setup")
def test_staff_setup_allows_servants_counted_up_to_the_supply_of_each_colour() -> None:
    """seed 002.2: "54 Servant tiles (7x/ 7x/ 9x/ 9x/ 11x/ 11x in colors of pavilion, seraglio/
    arcades/ chambers/ garden/ tower)". With the building grounds 9 pavilions exist (seed 001.2:
    "2 tiles of each building type"), but only 7 can carry a servant."""
    grounds = ("staff", "grounds")
    assert position_problems(table(served(9, 2), modules=grounds)) == []
    assert position_problems(table(served(5, 0), served(4, 2), modules=grounds)) == []
    # Two colours at their supply each: 7 pavilion and 7 seraglio servants, 2 of 9 + 9 unserved.
    assert position_problems(table(served(9, 4, seraglio=9), modules=grounds)) == []


@pytest.mark.rule("staff.setup")
def test_staff_setup_refuses_more_servants_counted_of_a_colour_than_exist() -> None:
    """seed 002.2: "54 Servant tiles (7x/ 7x/ ...)": 9 pavilions with 1 unserved need 8 pavilion
    servants; over a table 5 + 3; and 9 pavilions and 9 seraglios with 3 unserved need 15 of the
    14 pavilion and seraglio servants, though each colour alone could fit."""
    grounds = ("staff", "grounds")
    refused(table(served(9, 1), modules=grounds), "staff.setup",
            "$.players[0].tally.buildings.pavilion = 9", "$.players[0].tally.staff.unserved = 1",
            "at least 8 pavilion buildings carry a servant", "only 7")
    refused(table(served(5, 0), served(4, 1), modules=grounds), "staff.setup",
            "$.players[1].tally.buildings.pavilion = 4", "at least 8 pavilion", "only 7")
    refused(table(served(9, 3, seraglio=9), modules=grounds), "staff.setup",
            "at least 15 pavilion and seraglio buildings carry a servant", "only 14")
    # The servants on a layout's tiles, the reserve's too, are taken from the same supply.
    fountain = PlacedTile(tile="fountain", x=0, y=0)
    cyd = PositionPlayer(name="Cyd", alhambra=(fountain,),
                         reserve=(Tile(tile="pavilion-8-open", servant=True),))
    assert position_problems(replace(table(served(8, 2), modules=grounds), players=(
        PositionPlayer(name="Ana", tally=served(8, 2)), PositionPlayer(name="Ben", tally=Tally()),
        cyd))) == []
    refused(replace(table(served(7, 1), modules=grounds), players=(
        PositionPlayer(name="Ana", tally=served(7, 1)), PositionPlayer(name="Ben", tally=served(1, 0)), cyd)),
            "staff.setup", "at least 7 pavilion", "only 6")


@pytest.mark.rule("staff.dirk")
def test_staff_dirk_refuses_servants_counted_for_dirk() -> None:
    dirk = tally(buildings={"tower": 6}, staff={"unserved": 1})
    refused(table(tally(), tally(), dirk=dirk, modules=("staff",)), "staff.dirk", "$.players[2].tally.staff")


@pytest.mark.rule("power.strength")
def test_power_strength_refuses_a_second_wall_the_tiles_could_not_make() -> None:
    refused(table(tally(buildings={"garden": 9}, wall=6, power={"black_pips": 4, "second_wall": 7}),
                  modules=("power",)), "power.strength", "$.players[0].tally.power.second_wall is 7",
            "longer than $.players[0].tally.wall (6)")
    refused(table(tally(buildings={"garden": 3}, wall=6, power={"black_pips": 4, "second_wall": 5}),
                  modules=("power",)), "power.strength", "at most 9 outer wall sides")
    many = tally(buildings={"garden": 9}, wall=9, power={"black_pips": 10})
    refused(table(many, many, modules=("power",)), "power.strength", "20 pips of black dice", "only 18")


@pytest.mark.rule("power.dirk")
def test_power_dirk_refuses_dice_counted_for_dirk() -> None:
    refused(table(tally(), tally(), dirk=tally(buildings={"garden": 6}, power={"black_pips": 3}),
                  modules=("power",)), "power.dirk", "$.players[2].tally.power.black_pips is 3")


# --- the seeds' scoring examples, as tallies ------------------------------------------------


def lines_of(breakdown: Breakdown, name: str) -> dict[str, int]:
    player = next(p for p in breakdown.players if p.name == name)
    return {line.__struct_config__.tag: line.points for line in player.lines  # type: ignore[attr-defined]
            if line.__struct_config__.tag != "majority"}


@pytest.mark.rule("power.strength")
def test_power_strength_allows_8_plus_5_for_walls_8_and_6_with_dice_2_and_3() -> None:
    """seeds 000.63, 000.64, 000.65 (power.strength): "The player has 2 black dice in their
    Alhambra (2 and 3 pips). Their longest wall counts 8, their second longest counts 6. The
    player scores 8 + 5 = 13 points for their walls." """
    ana = tally(buildings={"garden": 4, "tower": 4}, wall=8, power={"black_pips": 2 + 3, "second_wall": 6})
    lines = lines_of(score(table(ana, modules=("power",))), "Ana")
    assert (lines["wall"], lines["power"]) == (8, 5)
    assert lines["wall"] + lines["power"] == 13


@pytest.mark.rule("power.strength")
def test_power_strength_allows_the_whole_second_wall_with_a_higher_die() -> None:
    """seed 000.66 (power.strength): "With a higher die result (for instance, a 5 instead of a 2,
    for a total of 8), they would have scored 8 + 6 = 14 points." """
    ana = tally(buildings={"garden": 4, "tower": 4}, wall=8, power={"black_pips": 5 + 3, "second_wall": 6})
    lines = lines_of(score(table(ana, modules=("power",))), "Ana")
    assert lines["wall"] + lines["power"] == 14


@pytest.mark.rule("zoo.score")
def test_zoo_score_allows_3_points_for_3_monkeys_counted_on_a_garden() -> None:
    """seed 000.41 (zoo.score): "Example: 3 monkeys are on a garden (no other animals), the
    player scores 3 points." Counted from the layout, then scored from the tally."""
    monkeys = PlacedTile(tile="garden-10-open", x=1, y=0, animals=("monkey", "monkey", "monkey"))
    ana = PositionPlayer(name="Ana", alhambra=(PlacedTile(tile="fountain", x=0, y=0), monkeys))
    modules = modules_of_ids(("zoo",), False)
    counted_ = tally_of(ana, modules)
    assert counted_.zoo is not None and counted_.zoo.animals == 3
    assert lines_of(score(table(counted_, modules=("zoo",))), "Ana")["zoo"] == 3


@pytest.mark.rule("zoo.score")
def test_zoo_score_refuses_points_for_a_garden_of_two_kinds() -> None:
    """seed 000.42 (zoo.score): "There are 2 pigeons and 1 cheetah on the player's second garden
    - no points at all." They are not counted in the tally."""
    mixed = PlacedTile(tile="garden-10-open", x=1, y=0, animals=("pigeon", "pigeon", "cheetah"))
    ana = PositionPlayer(name="Ana", alhambra=(PlacedTile(tile="fountain", x=0, y=0), mixed))
    counted_ = tally_of(ana, modules_of_ids(("zoo",), False))
    assert counted_.zoo is not None and counted_.zoo.animals == 0
    assert lines_of(score(table(counted_, modules=("zoo",))), "Ana")["zoo"] == 0


@pytest.mark.rule("treasure.score")
@pytest.mark.parametrize(("round_", "points"), [(1, [7, 0, 0]), (2, [14, 7, 0]), (3, [22, 14, 7])])
def test_treasure_score_allows_7_14_22_by_rank_of_chests(round_: int, points: list[int]) -> None:
    """seeds 004.24, 004.25, 004.26 (treasure.score, Default data 7; 14 / 7; 22 / 14 / 7): "only
    the number is of relevance", "the player with the most chests is awarded the points for 1st
    place", "the second-most and third-most ... 2nd and 3rd place"."""
    players = [tally(buildings={"garden": 3, "tower": 3}, treasure={"chests": chests})
               for chests in ({"garden": 2, "tower": 1}, {"tower": 2}, {"garden": 1})]
    breakdown = score(table(*players, modules=("treasure",), round_=round_))
    assert [lines_of(breakdown, n)["treasure"] for n in ("Ana", "Ben", "Cyd")] == points


@pytest.mark.rule("treasure.score")
def test_treasure_score_refuses_a_place_without_chests_and_shares_a_tie() -> None:
    """seed 004.27 (treasure.score): "If several players have the same number, the same procedure
    is used as that for awarding points for buildings." Two tied for 1st in round 3 share 22 +
    14; a player without chests takes no place."""
    two = tally(buildings={"garden": 2}, treasure={"chests": {"garden": 2}})
    breakdown = score(table(two, two, tally(buildings={"garden": 2}), modules=("treasure",), round_=3))
    assert [lines_of(breakdown, n)["treasure"] for n in ("Ana", "Ben", "Cyd")] == [18, 18, 0]


@pytest.mark.rule("vendors.score")
@pytest.mark.parametrize(("colours", "points"), [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21)])
def test_vendors_score_allows_1_3_6_10_15_21_for_sets_of_1_to_6_colours(colours: int, points: int) -> None:
    """seed 003.39 (vendors.score): "Una sèrie d'1, 2, 3, 4, 5 o 6 colors dona respectivament 1,
    3, 6, 10, 15 o 21 punts." """
    kinds = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")[:colours]
    ana = tally(buildings={k: 1 for k in kinds}, vendors={"inhabitants": {k: 1 for k in kinds}})
    assert lines_of(score(table(ana, modules=("vendors",))), "Ana")["vendors"] == points


@pytest.mark.rule("vendors.score")
def test_vendors_score_refuses_one_set_for_repeated_colours() -> None:
    """seed 003.40 (vendors.score): "Cada habitant només entra en una sèrie; els repetits formen
    sèries addicionals." Two gardens and a tower: a set of 2 (3) and a set of 1 (1), not 6."""
    ana = tally(buildings={"garden": 2, "tower": 1}, vendors={"inhabitants": {"garden": 2, "tower": 1}})
    breakdown = score(table(ana, modules=("vendors",)))
    assert lines_of(breakdown, "Ana")["vendors"] == 4
    assert breakdown.players[0].lines[-1].sets == (2, 1)  # type: ignore[attr-defined]


@pytest.mark.rule("staff.score")
def test_staff_score_allows_the_deduction_down_to_a_running_score_of_0() -> None:
    """seeds 002.20, 002.21 (staff.score): "After scoring all building types, deduct 1 point for
    each building ... without a servant tile." "A player may never have less than 0 points."
    In round 1 Ana makes 11 points of buildings and loses 1 for each of her 5 unserved; Ben,
    with no points, loses nothing for his."""
    ana = tally(buildings={"garden": 3, "tower": 2}, staff={"unserved": 5})
    ben = tally(buildings={"garden": 1}, staff={"unserved": 1})
    breakdown = score(table(ana, ben, modules=("staff",), round_=1))
    # Ana: garden 5 + tower 6 = 11, minus 5; Ben: no place, 0 points, so he loses nothing.
    assert lines_of(breakdown, "Ana")["staff"] == -5
    assert lines_of(breakdown, "Ben")["staff"] == 0
    assert [p.total for p in breakdown.players] == [6, 0, 0]  # and Cyd, who counts nothing


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_a_deduction_below_the_points_before_and_this_rounds_buildings() -> None:
    """seed 002.21 (staff.score): "A player may never have less than 0 points." With 3 points
    before round 2 and 2 of buildings (2nd in seraglios; Ben and Cyd ahead in the rest), 9
    unserved buildings cost 5, not 9."""
    four = {"garden": 4, "tower": 4, "chambers": 4, "arcades": 4}
    ana = PositionPlayer(name="Ana", score=3, tally=tally(
        buildings={"seraglio": 1, **{k: 2 for k in four}}, staff={"unserved": 9}))
    ben = PositionPlayer(name="Ben", tally=tally(buildings={"seraglio": 2, **four}))
    cyd = PositionPlayer(name="Cyd", tally=tally(buildings={k: 3 for k in four}))
    breakdown = score(Position(round=2, players=(ana, ben, cyd), modules=("staff",)))
    assert lines_of(breakdown, "Ana")["staff"] == -5
    assert next(r.score for r in breakdown.ranking if r.name == "Ana") == 0  # Ana: 3 + 2 - 5


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_to_deduct_leftover_tiles_in_round_3() -> None:
    """seed 002.22 (staff.score): "Players deduct points, as above, but before leftover buildings
    are assigned." Of 4 buildings without a servant, 2 are leftover tiles: 2 are deducted."""
    ana = PositionPlayer(name="Ana", score=40, tally=tally(buildings={"tower": 4},
                                                           staff={"unserved": 4, "leftover": 2}))
    others = tuple(PositionPlayer(name=n, tally=Tally()) for n in ("Ben", "Cyd"))
    breakdown = score(Position(round=3, players=(ana, *others), modules=("staff",)))
    assert lines_of(breakdown, "Ana")["staff"] == -2


def test_tally_allows_every_pair_of_modules_to_score_an_empty_tally() -> None:
    """Every category of every module on appears, 0 included, as for layouts."""
    for pair in combinations(MODULES, 2):
        position = table(tally(), tally(), modules=pair)
        fountain = (PlacedTile(tile="fountain", x=0, y=0),)
        layouts = Position(round=2, modules=pair, players=tuple(
            PositionPlayer(name=n, alhambra=fountain) for n in ("Ana", "Ben", "Cyd")))
        assert ENCODE(score(position)) == ENCODE(score(layouts)), pair
