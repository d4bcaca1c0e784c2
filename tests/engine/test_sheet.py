"""Score sheets (issue 22 item 12): every line of an earlier round (`previous`) is what its own
counts score in its round, with that round's table and the other players' counts of the round.

The sheets are the referee's own: an evening of tallies scored round by round, random positions
of every scoring module, and random games played to the end. Each refusal tampers one line and
makes the totals and rankings add up again (`tampered`), so only the line itself is wrong.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from service.api import examples
from service.engine import InconsistentState
from service.engine.catalogue import CATALOGUE
from service.engine.module import registered
from service.engine.scoring import Breakdown, Position, rank
from service.engine.scoring.positions import position_problems
from service.engine.scoring.sheet import score_sheet, sheet_problems
from service.engine.scoring.tally import Tally
from tests.engine.test_tally import table as tally_table
from tests.support.positions import NAMES, random_position

MODULES = tuple(m.id for m in registered() if m.id not in ("base", "dirk"))
SCORING = ("power", "staff", "treasure", "vendors", "zoo")  # the modules with a line


def tally(**fields: object) -> Tally:
    return msgspec.convert(fields, Tally)


def table(round_: int, *tallies: Tally, dirk: Tally | None = None,
          modules: Sequence[str] = SCORING) -> Position:
    """test_tally's table, round first, with the scoring modules on by default."""
    return tally_table(*tallies, modules=modules, round_=round_, dirk=dirk)


def sheet_of(rounds: Sequence[Position]) -> list[Breakdown]:
    """Each round scored by the referee after the earlier ones: a real sheet."""
    out: list[Breakdown] = []
    for position in rounds:
        assert position_problems(position) == [], position
        out.append(score_sheet(position, out))
    return out


ROUND_1 = table(
    1,
    tally(buildings={"pavilion": 1, "seraglio": 1, "garden": 2, "tower": 1}, wall=4, zoo={"animals": 2},
          power={"black_pips": 3, "second_wall": 2}, staff={"unserved": 2},
          treasure={"chests": {"garden": 1}}, vendors={"inhabitants": {"garden": 1, "tower": 1}}),
    tally(buildings={"pavilion": 2, "arcades": 1, "chambers": 1}, wall=3, staff={"unserved": 4},
          vendors={"inhabitants": {"pavilion": 1}}),
    tally(buildings={"seraglio": 1, "arcades": 1, "chambers": 2, "tower": 2}, wall=5,
          power={"black_pips": 2, "second_wall": 4}, treasure={"chests": {"tower": 2}}))
ROUND_2 = table(
    2,
    tally(buildings={"pavilion": 2, "seraglio": 2, "arcades": 1, "garden": 3, "tower": 2}, wall=6,
          zoo={"animals": 3}, power={"black_pips": 3, "second_wall": 5}, staff={"unserved": 3},
          treasure={"chests": {"garden": 2, "tower": 1}},
          vendors={"inhabitants": {"pavilion": 1, "garden": 2, "tower": 1}}),
    tally(buildings={"pavilion": 3, "arcades": 2, "chambers": 1, "garden": 1}, wall=5, zoo={"animals": 1},
          staff={"unserved": 5}, treasure={"chests": {"pavilion": 1}},
          vendors={"inhabitants": {"pavilion": 1, "arcades": 1}}),
    tally(buildings={"seraglio": 1, "arcades": 2, "chambers": 3, "tower": 3}, wall=7,
          power={"black_pips": 2, "second_wall": 6}, treasure={"chests": {"tower": 3}}))
ROUND_3 = replace(ROUND_2, round=3)


@pytest.fixture(scope="module")
def evening() -> list[Breakdown]:
    """The referee's sheet of rounds 1 and 2, every scoring module on."""
    return sheet_of([ROUND_1, ROUND_2])


def line_at(sheet: Sequence[Breakdown], k: int, name: str, category: str,
            building: str | None = None) -> tuple[int, int]:
    """(player, line) indexes of a player's line of a category in round k+1."""
    j = next(j for j, p in enumerate(sheet[k].players) if p.name == name)
    i = next(i for i, line in enumerate(sheet[k].players[j].lines)
             if line.__struct_config__.tag == category and getattr(line, "building", None) == building)
    return j, i


def tampered(sheet: Sequence[Breakdown], k: int, j: int, i: int, **fields: Any) -> list[Breakdown]:
    """The sheet with line i of player j in round k+1 changed, and the player's total and every
    ranking made to add up again: only the line is wrong (the arithmetic checks pass)."""
    player = sheet[k].players[j]
    lines = list(player.lines)
    lines[i] = replace(lines[i], **fields)
    players = list(sheet[k].players)
    players[j] = replace(player, lines=tuple(lines), total=sum(line.points for line in lines))
    rounds = list(sheet)
    rounds[k] = replace(rounds[k], players=tuple(players))
    running: Counter[str] = Counter()
    out = []
    for past in rounds:
        running.update({p.name: p.total for p in past.players})
        out.append(replace(past, ranking=rank((p.name, running[p.name]) for p in past.players)))
    return out


def refused_line(position: Position, sheet: Sequence[Breakdown], rule: str, at: str, *words: str) -> None:
    """The sheet's arithmetic holds, yet it is refused: the line at `at` under `rule`."""
    assert sheet_problems(position, sheet) == []
    with pytest.raises(InconsistentState) as refused:
        score_sheet(position, sheet)
    named = [v for v in refused.value.violations if v.message.startswith(at)]
    assert named and {v.rule for v in named} == {rule}, refused.value.violations
    for word in words:
        assert word in named[0].message, (word, named[0].message)


def allowed_then_refused(evening: list[Breakdown], k: int, name: str, category: str, rule: str,
                         building: str | None = None, **fields: Any) -> None:
    score_sheet(ROUND_3, evening)  # the referee's own sheet is accepted
    j, i = line_at(evening, k, name, category, building)
    at = f"$.previous[{k}].players[{j}].lines[{i}]"
    refused_line(ROUND_3, tampered(evening, k, j, i, **fields), rule, at, f"in round {k + 1}")


# --- each category: the referee's sheet allowed, one tampered line refused --------------------


@pytest.mark.rule("base.score.majority")
@pytest.mark.parametrize("building", CATALOGUE.building_types)
def test_base_score_majority_refuses_a_round_2_line_scored_with_the_round_1_table(
        evening: list[Breakdown], building: str) -> None:
    """RULES.md base.score.majority: "for each building type, players are ranked by how many
    buildings of that type stand in their Alhambra", with a table per round (round 1: 1st only;
    round 2: 1st / 2nd). A round-2 line of 1st place given round 1's points is refused."""
    _, leader = max((line.count, p.name) for p in evening[1].players for line in p.lines
                    if getattr(line, "building", None) == building)
    j, i = line_at(evening, 1, leader, "majority", building)
    line = evening[1].players[j].lines[i]
    assert line.place == 1  # type: ignore[attr-defined]
    first = CATALOGUE.majority_points[1][building][0]
    assert line.points != first
    allowed_then_refused(evening, 1, leader, "majority", "base.score.majority", building, points=first)


@pytest.mark.rule("base.score.ties")
def test_base_score_majority_refuses_a_place_the_counts_of_the_round_do_not_give(
        evening: list[Breakdown]) -> None:
    """RULES.md base.score.ties: tied players share the places they occupy. In round 1 Ana and
    Cyd have 1 seraglio each and share 1st (2 points: 1 each); Ana's line as a lone 1st (place
    1, 2 points) is not what the counts of the round give, though it adds up."""
    j, i = line_at(evening, 0, "Ana", "majority", "seraglio")
    assert evening[0].players[j].lines[i].points == 1
    allowed_then_refused(evening, 0, "Ana", "majority", "base.score.majority", "seraglio", points=2)


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_refuses_points_other_than_the_length(evening: list[Breakdown]) -> None:
    """RULES.md base.score.wall: "each player scores 1 point per wall side in their longest
    continuous outer wall": a wall of 4 scoring 7 is refused."""
    allowed_then_refused(evening, 0, "Ana", "wall", "base.score.wall", points=7)


@pytest.mark.rule("zoo.score")
def test_zoo_score_refuses_more_points_than_animals(evening: list[Breakdown]) -> None:
    """seed 000.39 (zoo.score): "Each garden with exactly one kind of animal scores as many points
    as the number of these animals": Ana's 3 animals of round 2 score 3, not 5."""
    allowed_then_refused(evening, 1, "Ana", "zoo", "zoo.score", points=5)


@pytest.mark.rule("power.strength")
def test_power_strength_refuses_a_second_wall_scored_beyond_the_pips(evening: list[Breakdown]) -> None:
    """seed 000.62 (power.strength): "the maximum score for their second longest wall is the total
    of all of their black dice": with 3 pips it scores at most 3, not 4."""
    allowed_then_refused(evening, 0, "Ana", "power", "power.strength", points=4)


@pytest.mark.rule("power.strength")
def test_power_strength_refuses_a_second_wall_longer_than_the_longest(evening: list[Breakdown]) -> None:
    """seed 000.61 (power.strength): "Their longest wall, as usual, plus their second longest
    wall": the second is no longer than the longest (the wall line: 4 in Ana's round 1), so with
    16 pips it cannot score 6 (16: beside Cyd's 2, the 3 black dice show at most 18)."""
    allowed_then_refused(evening, 0, "Ana", "power", "power.strength", dice=16, points=6)


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_a_deduction_below_the_running_score_of_0(evening: list[Breakdown]) -> None:
    """seeds 002.20, 002.21 (staff.score): "deduct 1 point for each building ... without a servant
    tile", but "A player may never have less than 0 points". Ben makes 2 points of buildings in
    round 1 and has 4 unserved: he loses 2 (the referee's line), not 4."""
    j, i = line_at(evening, 0, "Ben", "staff")
    assert evening[0].players[j].lines[i].points == -2
    allowed_then_refused(evening, 0, "Ben", "staff", "staff.score", points=-4)


@pytest.mark.rule("treasure.score")
def test_treasure_score_refuses_a_chest_worth_22_in_round_1(evening: list[Breakdown]) -> None:
    """seeds 004.24, 004.25 (treasure.score; Default data round 1: 7): "The player with the most
    chests is awarded the points for 1st place". The issue's line {count 1, place 1} worth 22:
    Ana has 1 chest to Cyd's 2 in round 1: 2nd, which round 1 does not pay."""
    allowed_then_refused(evening, 0, "Ana", "treasure", "treasure.score", place=1, points=22)


@pytest.mark.rule("vendors.score")
def test_vendors_score_refuses_a_set_of_1_worth_21(evening: list[Breakdown]) -> None:
    """seed 003.39 (vendors.score): "Una sèrie d'1, 2, 3, 4, 5 o 6 colors dona respectivament 1, 3,
    6, 10, 15 o 21 punts": the issue's line {1 inhabitant, sets [1]} worth 21 is refused (it scores 1)."""
    j, i = line_at(evening, 0, "Ben", "vendors")
    assert evening[0].players[j].lines[i].sets == (1,)  # type: ignore[attr-defined]
    allowed_then_refused(evening, 0, "Ben", "vendors", "vendors.score", points=21)


@pytest.mark.rule("vendors.score")
def test_vendors_score_refuses_sets_that_do_not_hold_the_inhabitants(evening: list[Breakdown]) -> None:
    """seed 003.40 (vendors.score): "Cada habitant només entra en una sèrie". Ana's 2 inhabitants of round 1
    (a garden and a tower) as sets [2, 1] worth 4 are refused: the sets hold 3."""
    allowed_then_refused(evening, 0, "Ana", "vendors", "vendors.score", sets=(2, 1), points=4)


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_a_line_with_a_count_no_tally_can_hold(evening: list[Breakdown]) -> None:
    """seed 002.20 (staff.score): "deduct 1 point for each building": a deduction, never a gain:
    -2 buildings without a servant "deducting" +2 is refused as a count out of bounds."""
    score_sheet(ROUND_3, evening)
    j, i = line_at(evening, 0, "Ana", "staff")
    refused_line(ROUND_3, tampered(evening, 0, j, i, unserved=-2, points=2), "staff.score",
                 f"$.previous[0].players[{j}].lines[{i}]", "no tally can hold", "staff.unserved")


# --- counts that cannot stand on a table: the tally checks on an earlier round's lines --------


STAFF_ROUNDS = [
    table(1, tally(buildings={"garden": 1, "tower": 2}, wall=2, staff={"unserved": 3}),
          tally(buildings={"pavilion": 2}, wall=1, staff={"unserved": 0}), modules=("staff",)),
]


@pytest.mark.rule("staff.score")
def test_staff_score_allows_a_round_1_line_with_as_many_unserved_as_buildings() -> None:
    """seed 002.20 (staff.score): "deduct 1 point for each building from the base game (besides
    the Lion Fountain) in a player's Alhambra without a servant tile": Ana's 3 buildings, all
    without a servant, are a real round 1 (her majority lines count 3 buildings)."""
    sheet = sheet_of(STAFF_ROUNDS)
    j, i = line_at(sheet, 0, "Ana", "staff")
    assert sheet[0].players[j].lines[i].unserved == 3  # type: ignore[attr-defined]
    score_sheet(replace(STAFF_ROUNDS[0], round=2), sheet)


@pytest.mark.rule("staff.score")
def test_staff_score_refuses_a_round_1_line_with_more_unserved_than_its_majority_lines_count() -> None:
    """seed 002.20 (staff.score): "deduct 1 point for each building [...] in a player's Alhambra
    without a servant tile": unserved buildings are buildings, so Ana's round-1 staff line with 5
    unserved is refused when her majority lines of the round count 3 buildings."""
    sheet = sheet_of(STAFF_ROUNDS)
    j, i = line_at(sheet, 0, "Ana", "staff")
    points = sheet[0].players[j].lines[i].points - 2
    refused_line(replace(STAFF_ROUNDS[0], round=2), tampered(sheet, 0, j, i, unserved=5, points=points),
                 "staff.score", f"$.previous[0].players[{j}].lines[{i}]", "(staff.unserved) is 5",
                 "counts 3 buildings", "round 1")


@pytest.mark.rule("staff.setup")
def test_staff_setup_allows_servants_the_majority_counts_overstate_with_extensions() -> None:
    """seed 002.2 (staff.setup): "54 Servant tiles (7x/ 7x/ 9x/ 9x/ 11x/ 11x ...)": 7 pavilion
    servants. Ana's 7 pavilions all served, one of them extended (extensions.score: it counts
    twice), make a pavilion majority line of 8: a real sheet, whose majority counts are not the
    buildings, so the servants (and the 7 pavilions that exist) are not checked against them."""
    rounds = [table(1, tally(buildings={"pavilion": 7}, wall=4, staff={"unserved": 0},
                             extensions={"extended": {"pavilion": 1}}),
                    tally(buildings={"tower": 1}, wall=1, staff={"unserved": 1}),
                    modules=("staff", "extensions"))]
    sheet = sheet_of(rounds)
    j, i = line_at(sheet, 0, "Ana", "majority", "pavilion")
    assert sheet[0].players[j].lines[i].count == 8  # type: ignore[attr-defined]
    score_sheet(replace(rounds[0], round=2), sheet)


@pytest.mark.rule("base.score.majority")
def test_base_score_majority_refuses_majority_lines_counting_more_buildings_than_exist(
        evening: list[Breakdown]) -> None:
    """RULES.md base.score.majority: "players are ranked by how many buildings of that type stand
    in their Alhambra"; the game holds 7 pavilions (no module adds any here), so round 1's lines
    counting 6 for Ana and 2 for Ben are refused (Ana 1st either way: the points stay)."""
    j, i = line_at(evening, 0, "Ana", "majority", "pavilion")
    sheet = tampered(evening, 0, j, i, count=6, place=1, points=evening[0].players[j].lines[i].points)
    score_sheet(ROUND_3, evening)
    refused_line(ROUND_3, sheet, "inconsistent-state", f"$.previous[0].players[{j}].lines[{i}]",
                 "(buildings.pavilion) = 6", "only 7", "round 1")


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_refuses_a_wall_longer_than_the_buildings_counted_make(
        evening: list[Breakdown]) -> None:
    """RULES.md base.score.wall: "1 point per wall side in their longest continuous outer wall":
    the outer wall of the fountain and Ben's 4 buildings of round 1 has at most 2 * 5 + 2 = 12
    sides, so his wall line of 20 scoring 20 is refused."""
    allowed_then_refused_at(evening, "Ben", "wall", "base.score.wall", "(wall) is 20", "at most 12",
                            length=20, points=20)


@pytest.mark.rule("zoo.score")
def test_zoo_score_refuses_more_animals_than_the_gardens_counted_hold(evening: list[Breakdown]) -> None:
    """seed 000.39 (zoo.score): "Each garden with exactly one kind of animal scores as many points
    as the number of these animals", and 3 of each kind exist: Ana's 2 gardens of round 1 score
    at most 6 animals, so her zoo line of 7 scoring 7 is refused."""
    allowed_then_refused_at(evening, "Ana", "zoo", "zoo.score", "(zoo.animals) is 7", animals=7, points=7)


@pytest.mark.rule("treasure.place")
def test_treasure_place_refuses_more_chests_than_the_buildings_counted(evening: list[Breakdown]) -> None:
    """seed 004.15 (treasure.place): "Only 1 chest can be put in a building at any one time": Ana's
    majority lines of round 1 count 5 buildings, so her treasure line of 6 chests (1st, 7 points)
    is refused, though its colours are not on it."""
    allowed_then_refused_at(evening, "Ana", "treasure", "treasure.place", "(treasure.chests) counts 6",
                            "counts 5 buildings", count=6, place=1, points=7)


def allowed_then_refused_at(evening: list[Breakdown], name: str, category: str, rule: str,
                            *words: str, **fields: Any) -> None:
    """Round 1 of the referee's sheet is allowed; the player's line tampered is refused as
    counts that cannot stand, the words in the message."""
    score_sheet(ROUND_3, evening)
    j, i = line_at(evening, 0, name, category)
    at = f"$.previous[0].players[{j}].lines[{i}]"
    refused_line(ROUND_3, tampered(evening, 0, j, i, **fields), rule, at, *words, "round 1")


def refused_tampered(rounds: Sequence[Position], changes: dict[tuple[str, str, str | None], dict[str, Any]],
                     rule: str, *words: str) -> None:
    """The referee's sheet of `rounds` is allowed in the next round; with the lines of round 1
    in `changes` ((player, category, building): fields) tampered, it is refused under `rule`
    alone, in a message naming every line changed (a table's total names the others' lines
    too), with the words."""
    sheet = sheet_of(rounds)
    now = replace(rounds[-1], round=len(rounds) + 1)
    score_sheet(now, sheet)
    at = []
    for (name, category, building), fields in changes.items():
        j, i = line_at(sheet, 0, name, category, building)
        sheet = tampered(sheet, 0, j, i, **fields)
        at.append(f"$.previous[0].players[{j}].lines[{i}] (")
    assert sheet_problems(now, sheet) == []
    with pytest.raises(InconsistentState) as refused:
        score_sheet(now, sheet)
    assert {v.rule for v in refused.value.violations} == {rule}, refused.value.violations
    message = refused.value.violations[0].message
    for word in (*at, *words, "round 1"):
        assert word in message, (word, message)


# --- vendors: a sheet's inhabitants on the buildings its majority lines count -----------------


def vendors_round(*extended: str) -> list[Position]:
    """Round 1: Ana's 2 gardens and tower each hold an inhabitant (sets [2, 1]), the gardens
    `extended` extended (extensions.score: counted twice)."""
    extensions = {"extensions": {"extended": {"garden": len(extended)}}} if extended else {}
    return [table(1, tally(buildings={"garden": 2, "tower": 1}, wall=4,
                           vendors={"inhabitants": {"garden": 2, "tower": 1}}, **extensions),
                  tally(buildings={"pavilion": 2}, wall=1, vendors={"inhabitants": {"pavilion": 1}}),
                  tally(buildings={"tower": 1}, wall=3),
                  modules=("vendors", "extensions") if extended else ("vendors",))]


@pytest.mark.rule("vendors.one-per-building")
@pytest.mark.parametrize("extended", [(), ("garden",)])
def test_vendors_one_per_building_allows_a_sheets_inhabitant_on_every_building_counted(
        extended: tuple[str, ...]) -> None:
    """seed 003.35 (vendors.one-per-building): "Un edifici només rep un habitant"; seeds
    003.38-003.40 (vendors.score): Ana's 3 buildings of 2 colours hold 3 inhabitants, sets
    [2, 1]: her round-1 line is real, also when an extended garden makes her garden line 3."""
    rounds = vendors_round(*extended)
    sheet = sheet_of(rounds)
    j, i = line_at(sheet, 0, "Ana", "vendors")
    assert sheet[0].players[j].lines[i].sets == (2, 1)  # type: ignore[attr-defined]
    score_sheet(replace(rounds[0], round=2), sheet)


@pytest.mark.rule("vendors.one-per-building")
@pytest.mark.parametrize(("fields", "words"), [
    ({"inhabitants": 6, "sets": (6,), "points": 21}, ("the sets [6]", "each of 6 colours", "2 types")),
    ({"inhabitants": 4, "sets": (2, 2), "points": 6}, ("the sets [2, 2]", "2 or more inhabitants",
                                                      "each of 2 colours", "1 type with 2 or more")),
])
def test_vendors_one_per_building_refuses_a_sheets_inhabitants_the_buildings_counted_cannot_hold(
        fields: dict[str, Any], words: tuple[str, ...]) -> None:
    """seed 003.35 (vendors.one-per-building): "Un edifici només rep un habitant", of its colour;
    seeds 003.38-003.40 (vendors.score): the sets are of different colours. Ana's majority lines
    of round 1 count 2 gardens and 1 tower: a set of 6 colours (6 inhabitants) needs buildings of
    6 types; sets [2, 2] (4 inhabitants) need 2 types with 2 buildings each. The issue's lines."""
    refused_tampered(vendors_round(), {("Ana", "vendors", None): fields}, "vendors.one-per-building",
                     *words)


def crowded() -> list[Position]:
    """Round 1 of six players, each with one building of every type and one more of its own type
    (Fay also a second garden), an inhabitant on each but Fay's second garden: 7 of each colour,
    the 42 there are (vendors.setup)."""
    kinds = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
    counts = [{k: 1 + (k == own) for k in kinds} for own in kinds]
    return [table(1, *(tally(buildings={**c, "garden": c["garden"] + (n == 5)}, vendors={"inhabitants": c})
                       for n, c in enumerate(counts)), modules=("vendors",))]


@pytest.mark.rule("vendors.setup")
def test_vendors_setup_allows_a_sheet_with_the_42_inhabitants_settled() -> None:
    """seed 003.2 (vendors.setup): 42 inhabitants, 7 of each colour: all settled, 7 each of six
    players, is a real round 1."""
    sheet = sheet_of(crowded())
    assert sum(line.inhabitants for p in sheet[0].players for line in p.lines  # type: ignore[attr-defined]
               if line.__struct_config__.tag == "vendors") == 42
    score_sheet(replace(crowded()[0], round=2), sheet)


@pytest.mark.rule("vendors.setup")
def test_vendors_setup_refuses_a_sheet_with_43_inhabitants_settled() -> None:
    """seed 003.2 (vendors.setup): 42 inhabitants: Fay's line of sets [6, 2] (her 2 gardens and 2
    towers can hold them) makes 43 on the table."""
    refused_tampered(crowded(), {("Fay", "vendors", None): {"inhabitants": 8, "sets": (6, 2), "points": 24}},
                     "vendors.setup", "43 inhabitants settled", "only 42")


# --- extensions: majority counts are the buildings and the extensions of the type at most ------


EXTENDED = [table(1, tally(buildings={"pavilion": 5}, wall=2, extensions={"extended": {"pavilion": 2}}),
                  tally(buildings={"pavilion": 2}, wall=1), tally(buildings={"tower": 1}, wall=3),
                  modules=("extensions",))]


@pytest.mark.rule("extensions.score")
def test_extensions_score_allows_a_sheets_pavilion_counts_of_7_pavilions_and_2_extensions() -> None:
    """seeds 001.14, 001.26, 001.27 (extensions.setup, extensions.score): 2 pavilion extensions, "A
    building can be extended only once", "An extended building counts as 2 buildings for
    majorities": Ana's 5 pavilions, 2 extended, count 7, Ben's 2 count 2: the 7 pavilions and 2
    extensions there are, 9 on the table."""
    sheet = sheet_of(EXTENDED)
    assert [sheet[0].players[j].lines[i].count for j, i in  # type: ignore[attr-defined]
            (line_at(sheet, 0, n, "majority", "pavilion") for n in ("Ana", "Ben"))] == [7, 2]
    score_sheet(replace(EXTENDED[0], round=2), sheet)


@pytest.mark.rule("extensions.score")
@pytest.mark.parametrize(("counts", "words"), [
    ({"Ana": 10}, ("(buildings.pavilion) = 10", "12 pavilion buildings counted", "only 9")),
    ({"Ana": 15}, ("(buildings.pavilion) = 15", "17 pavilion buildings counted", "only 9")),
    ({"Ben": 3}, ("(buildings.pavilion) = 3", "10 pavilion buildings counted", "only 9")),
    ({"Ana": 9, "Ben": 9}, ("(buildings.pavilion) = 9", "18 pavilion buildings counted", "only 9")),
])
def test_extensions_score_refuses_a_sheets_pavilion_counts_beyond_7_pavilions_and_2_extensions(
        counts: dict[str, int], words: tuple[str, ...]) -> None:
    """seeds 001.14, 001.26, 001.27 (extensions.setup, extensions.score): 7 pavilions and 2
    extensions, each building extended once at most, count 9 at most, one player's or the
    table's: a line of 10 or 15, Ben's 3 beside Ana's 7, Ana's and Ben's 9 each are refused."""
    refused_tampered(EXTENDED, {(n, "majority", "pavilion"): {"count": c} for n, c in counts.items()},
                     "extensions.score", *words)


# --- grounds: a sheet's buildings under construction on the 8 sites ---------------------------


def building_sites(*modules: str) -> list[Position]:
    """Round 1: 8 buildings under construction (pavilions and seraglios 9 of 7, arcades and
    chambers 11 of 9), Cyd with 11 gardens and towers (none under construction); with
    extensions every extension on a building too: lines counting 11, 11, 13, 13, 13, 13."""
    def of(*kinds: str) -> dict[str, Any]:
        if "extensions" not in modules:
            return {}
        return {"extensions": {"extended": dict.fromkeys(kinds, 2)}}
    return [table(1, tally(buildings={"pavilion": 9, "seraglio": 9}, wall=4, **of("pavilion", "seraglio")),
                  tally(buildings={"arcades": 11, "chambers": 11}, wall=4, **of("arcades", "chambers")),
                  tally(buildings={"garden": 11, "tower": 11}, wall=3, **of("garden", "tower")),
                  modules=("grounds", *modules))]


@pytest.mark.rule("grounds.setup")
@pytest.mark.parametrize("modules", [(), ("extensions",)])
def test_grounds_setup_allows_a_sheet_with_8_buildings_under_construction(modules: tuple[str, ...]) -> None:
    """seeds 001.3, 001.7 (grounds.setup, grounds.buy): 8 building sites, each taking one building
    under construction: 8 beyond the base game's tiles are real, also with every extension on
    a building (seeds 001.14, 001.27: the lines count 2 more of each type)."""
    rounds = building_sites(*modules)
    score_sheet(replace(rounds[0], round=2), sheet_of(rounds))


@pytest.mark.rule("grounds.setup")
@pytest.mark.parametrize(("modules", "gardens"), [((), 12), (("extensions",), 14)])
def test_grounds_setup_refuses_a_sheet_with_9_buildings_under_construction(modules: tuple[str, ...],
                                                                           gardens: int) -> None:
    """seeds 001.3, 001.7 (grounds.setup, grounds.buy): 8 building sites: Cyd's garden line of 12
    (13 gardens exist with the grounds) needs a ninth building under construction; with
    extensions one of 14 does (2 of them may be extensions, seeds 001.14, 001.27)."""
    refused_tampered(building_sites(*modules), {("Cyd", "majority", "garden"): {"count": gardens}},
                     "grounds.setup", "9 buildings under construction", "only 8")


# --- Dirk: he scores majorities and chests, nothing else (dirk.scores) -----------------------


DIRK_ROUNDS = [
    table(1, tally(buildings={"garden": 2}, wall=3, zoo={"animals": 2}),
          tally(buildings={"tower": 1}, wall=2, treasure={"chests": {"tower": 1}}),
          dirk=tally(buildings={"pavilion": 2, "garden": 3, "tower": 1}, treasure={"chests": {"garden": 2}})),
]


@pytest.mark.rule("dirk.scores")
@pytest.mark.parametrize(("category", "fields", "rule"), [
    ("wall", {"length": 3, "points": 3}, "base.score.wall"),
    ("zoo", {"animals": 1, "points": 1}, "zoo.score"),
])
def test_dirk_scores_refuses_a_wall_or_animals_on_dirks_line(category: str, fields: dict[str, int],
                                                             rule: str) -> None:
    """RULES.md dirk.scores: Dirk "takes part in the building majorities with all his tiles, and
    scores no wall"; seed 000.43 (zoo.dirk): "If Dirk gets any animal tiles they are immediately
    discarded". His sheet of
    the referee is allowed (majorities and chests scored); a wall or animals on his line are not."""
    sheet = sheet_of(DIRK_ROUNDS)
    dirk = sheet[0].players[2]
    assert sum(line.points for line in dirk.lines) > 0  # his majorities and chests count
    now = replace(DIRK_ROUNDS[0], round=2)
    score_sheet(now, sheet)
    j, i = line_at(sheet, 0, "Dirk", category)
    refused_line(now, tampered(sheet, 0, j, i, **fields), rule, f"$.previous[0].players[{j}].lines[{i}]")


# --- real sheets of every module are allowed -------------------------------------------------


def without_scores(position: Position) -> Position:
    """The position with its scores left out (with a sheet the points before a round are the
    earlier rounds')."""
    return replace(position, players=tuple(replace(p, score=0) for p in position.players))


@pytest.mark.rule("base.score.rounds")
@pytest.mark.parametrize("modules", [(m,) for m in SCORING] + [MODULES, ("extensions", "grounds", "walls")])
def test_base_score_rounds_allows_the_referees_sheet_of_random_positions(modules: tuple[str, ...]) -> None:
    """Three rounds of random layouts, each scored by the referee after the earlier ones: every
    line read back from its counts scores the same (2 to 6 players, Dirk with 2)."""
    for seed in range(3):
        rng = random.Random(f"{modules}-{seed}")  # a str seeds the same in every process
        n = rng.randint(2, 6)
        rounds = [without_scores(random_position(rng, modules, n, round_=r)) for r in (1, 2, 3)]
        assert len(sheet_of(rounds)) == 3


def played(seed: int, players: int, modules: tuple[str, ...]) -> tuple[Position, list[Breakdown]]:
    """A random game played to its end: the scoring rounds it held and its final position."""
    return examples.played(NAMES[:players], modules, seed)


@pytest.mark.rule("base.score.rounds")
@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 4)])
def test_base_score_rounds_allows_the_sheet_of_a_played_game(seed: int, players: int) -> None:
    """A game with every module on, played to its end: rounds 1 and 2 as it scored them are the
    sheet of round 3, which then scores as the game did; one line changed is refused."""
    final, held = played(seed, players, MODULES)
    assert [b.round for b in held] == [1, 2, 3]
    assert score_sheet(final, held[:2]) == held[2]
    j, i = line_at(held, 1, held[1].players[0].name, "wall")
    wall = held[1].players[j].lines[i]
    refused_line(final, tampered(held[:2], 1, j, i, points=wall.points + 1), "base.score.wall",
                 f"$.previous[1].players[{j}].lines[{i}]")


def test_every_module_that_scores_a_line_reads_its_counts_back_from_it() -> None:
    """A line that could not be scored again would pass unchecked: every module with lines of its
    own reads its part of the tally from them, and every line type names a rule of its module."""
    for m in registered():
        for line in m.lines:
            assert line.rule in m.rule_ids, (m.id, line)
        if m.lines and m.id != "base":
            assert m.tally is not None and m.tally.of_lines is not None, m.id


@pytest.mark.rule("dirk.setup")
def test_dirk_setup_refuses_a_round_1_line_giving_dirk_fewer_than_his_6_setup_tiles() -> None:
    """RULES.md dirk.setup: "Dirk ... receives 6 tiles drawn from the bag at setup", so his
    majority lines of round 1 count 6 buildings at least: the referee's sheet (2 pavilions, 3
    gardens, 1 tower) is allowed; the same with 1 pavilion (still 1st, the same points) is not."""
    sheet = sheet_of(DIRK_ROUNDS)
    now = replace(DIRK_ROUNDS[0], round=2)
    score_sheet(now, sheet)
    j, i = line_at(sheet, 0, "Dirk", "majority", "pavilion")
    assert sheet[0].players[j].lines[i].place == 1  # type: ignore[attr-defined]
    refused_line(now, tampered(sheet, 0, j, i, count=1), "dirk.setup",
                 f"$.previous[0].players[{j}]'s majority", "Dirk holds 5 buildings in round 1")
