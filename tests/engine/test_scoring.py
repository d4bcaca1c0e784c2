"""RULES.md §7 (scoring), hand-checked: each round's majority table, shared places, the longest
outer wall in its shapes, and the rounds of a game; each rule id allowing and refusing."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from msgspec.structs import replace

from service.engine import InconsistentState, check_consistency, score, score_state
from service.engine.actions import TakeMoney
from service.engine.grid import check_layout, layout_of, longest_wall, outer_wall_sides
from service.engine.scoring import (
    MajorityLine,
    Position,
    PositionPlayer,
    WallLine,
    rank,
    score_position,
    shared_places,
)
from service.engine.state import GameState, RankEntry, Tile
from tests.support.helpers import Spec, alhambra, arrange, game, play

TYPES = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
# Every base tile of each type, cheapest first.
BY_TYPE = {
    "pavilion": (
        "pavilion-2-NEW",
        "pavilion-3-SW",
        "pavilion-4-ES",
        "pavilion-5-NW",
        "pavilion-6-N",
        "pavilion-7-E",
        "pavilion-8-open",
    ),
    "seraglio": (
        "seraglio-3-ESW",
        "seraglio-4-NE",
        "seraglio-5-SW",
        "seraglio-6-ES",
        "seraglio-7-W",
        "seraglio-8-S",
        "seraglio-9-open",
    ),
    "arcades": (
        "arcades-4-NES",
        "arcades-5-NW",
        "arcades-6-SW",
        "arcades-6-NE",
        "arcades-7-ES",
        "arcades-8-N",
        "arcades-8-E",
        "arcades-9-open",
        "arcades-10-open",
    ),
    "chambers": (
        "chambers-5-NSW",
        "chambers-6-ES",
        "chambers-7-SW",
        "chambers-7-NE",
        "chambers-8-NW",
        "chambers-9-W",
        "chambers-9-S",
        "chambers-10-open",
        "chambers-11-open",
    ),
    "garden": (
        "garden-6-ESW",
        "garden-7-NSW",
        "garden-8-SW",
        "garden-8-NE",
        "garden-8-NW",
        "garden-9-E",
        "garden-10-N",
        "garden-10-W",
        "garden-10-open",
        "garden-11-open",
        "garden-12-S",
    ),
    "tower": (
        "tower-7-NEW",
        "tower-8-NES",
        "tower-9-ES",
        "tower-9-NE",
        "tower-9-NW",
        "tower-10-W",
        "tower-11-N",
        "tower-11-S",
        "tower-11-open",
        "tower-12-open",
        "tower-13-E",
    ),
}


class Box:
    """Hands out distinct tiles of each type, so positions never hold a tile twice."""

    def __init__(self) -> None:
        self.left = {t: list(tiles) for t, tiles in BY_TYPE.items()}

    def take(self, type_: str, n: int) -> list[str]:
        taken, self.left[type_] = self.left[type_][:n], self.left[type_][n:]
        assert len(taken) == n
        return taken


def owner(
    name: str, box: Box, counts: dict[str, int], reserve: dict[str, int] | None = None
) -> PositionPlayer:
    """A player whose Alhambra holds counts[type] buildings of each type. Majorities only: the
    tiles stand in a row far from the fountain (scored with score_position, which does not
    check the layout)."""
    tiles = [t for type_, n in counts.items() for t in box.take(type_, n)]
    placed = alhambra(*((t, 10 + i, 10) for i, t in enumerate(tiles)))
    kept = tuple(Tile(tile=t) for type_, n in (reserve or {}).items() for t in box.take(type_, n))
    return PositionPlayer(name=name, alhambra=placed, reserve=kept)


def majority(players: Sequence[PositionPlayer], round_: int) -> dict[str, dict[str, tuple[int | None, int]]]:
    """{player: {type: (place, points)}} of a scoring round."""
    breakdown = score_position(Position(round=round_, players=tuple(players), check_layout=False))
    return {
        p.name: {
            line.building: (line.place, line.points) for line in p.lines if isinstance(line, MajorityLine)
        }
        for p in breakdown.players
    }


def points(players: Sequence[PositionPlayer], round_: int, type_: str) -> list[int]:
    table = majority(players, round_)
    return [table[p.name][type_][1] for p in players]


def each(n: int) -> dict[str, int]:
    return dict.fromkeys(TYPES, n)


# --- base.score.majority: the three tables --------------------------------------------------


@pytest.mark.rule("base.score.majority")
def test_base_score_majority_allows_the_round_1_table() -> None:
    box = Box()
    table = majority([owner("Ana", box, each(2)), owner("Ben", box, each(1))], 1)
    assert {t: table["Ana"][t] for t in TYPES} == {
        "pavilion": (1, 1),
        "seraglio": (1, 2),
        "arcades": (1, 3),
        "chambers": (1, 4),
        "garden": (1, 5),
        "tower": (1, 6),
    }
    assert all(table["Ben"][t] == (2, 0) for t in TYPES)  # round 1 pays only 1st


@pytest.mark.rule("base.score.majority")
def test_base_score_majority_allows_the_round_2_table() -> None:
    box = Box()
    players = [owner("Ana", box, each(1)), owner("Ben", box, each(3)), owner("Cyd", box, each(2))]
    table = majority(players, 2)
    assert [table["Ben"][t] for t in TYPES] == [(1, 8), (1, 9), (1, 10), (1, 11), (1, 12), (1, 13)]
    assert [table["Cyd"][t] for t in TYPES] == [(2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (2, 6)]
    assert [table["Ana"][t] for t in TYPES] == [(3, 0)] * 6


@pytest.mark.rule("base.score.majority")
def test_base_score_majority_allows_the_round_3_table() -> None:
    box = Box()
    players = [owner("Ana", box, each(1)), owner("Ben", box, each(3)), owner("Cyd", box, each(2))]
    table = majority(players, 3)
    assert [table["Ben"][t][1] for t in TYPES] == [16, 17, 18, 19, 20, 21]
    assert [table["Cyd"][t][1] for t in TYPES] == [8, 9, 10, 11, 12, 13]
    assert [table["Ana"][t][1] for t in TYPES] == [1, 2, 3, 4, 5, 6]
    assert [sum(table[p.name][t][1] for t in TYPES) for p in players] == [21, 111, 63]


@pytest.mark.rule("base.score.majority")
def test_base_score_majority_allows_a_fourth_player_nothing_in_round_3() -> None:
    box = Box()
    players = [
        owner("Ana", box, {"garden": 4}),
        owner("Ben", box, {"garden": 3}),
        owner("Cyd", box, {"garden": 2}),
        owner("Dov", box, {"garden": 1}),
    ]
    assert points(players, 3, "garden") == [20, 12, 5, 0]


@pytest.mark.rule("base.score.majority")
def test_base_score_majority_refuses_reserve_tiles() -> None:
    box = Box()
    players = [owner("Ana", box, {"tower": 1}, reserve={"tower": 5}), owner("Ben", box, {"tower": 2})]
    table = majority(players, 2)
    assert table["Ben"]["tower"] == (1, 13) and table["Ana"]["tower"] == (2, 6)
    line = next(
        ln
        for ln in score_position(Position(round=2, players=tuple(players), check_layout=False))
        .players[0]
        .lines
        if isinstance(ln, MajorityLine) and ln.building == "tower"
    )
    assert line.count == 1


@pytest.mark.rule("base.score.majority")
def test_base_score_majority_refuses_a_place_to_a_player_without_the_type() -> None:
    box = Box()
    players = [owner("Ana", box, {"garden": 1}), owner("Ben", box, {})]
    table = majority(players, 2)
    assert table["Ana"]["garden"] == (1, 12)
    assert table["Ben"]["garden"] == (None, 0)  # not 2nd: no garden, no place
    assert table["Ana"]["tower"] == (None, 0)


# --- base.score.ties ------------------------------------------------------------------------


@pytest.mark.rule("base.score.ties")
def test_base_score_ties_allows_two_tied_first_in_round_2_to_share_1st_and_2nd() -> None:
    box = Box()
    players = [
        owner("Ana", box, {"tower": 2}),
        owner("Ben", box, {"tower": 2}),
        owner("Cyd", box, {"tower": 1}),
    ]
    table = majority(players, 2)
    assert table["Ana"]["tower"] == table["Ben"]["tower"] == (1, (13 + 6) // 2) == (1, 9)
    assert table["Cyd"]["tower"] == (3, 0)  # 3rd: nothing in round 2


@pytest.mark.rule("base.score.ties")
def test_base_score_ties_allows_three_tied_players() -> None:
    box = Box()
    three = [
        owner("Ana", box, {"garden": 1, "pavilion": 2}),
        owner("Ben", box, {"garden": 1, "pavilion": 2}),
        owner("Cyd", box, {"garden": 1, "pavilion": 2}),
    ]
    assert points(three, 3, "garden") == [(20 + 12 + 5) // 3] * 3 == [12, 12, 12]
    assert points(three, 2, "garden") == [(12 + 5) // 3] * 3 == [5, 5, 5]
    assert points(three, 1, "pavilion") == [0, 0, 0]  # 1 // 3


@pytest.mark.rule("base.score.ties")
def test_base_score_ties_allows_a_tie_for_second_and_rounds_down() -> None:
    box = Box()
    players = [
        owner("Ana", box, {"seraglio": 3}),
        owner("Ben", box, {"seraglio": 1}),
        owner("Cyd", box, {"seraglio": 1}),
    ]
    assert points(players, 3, "seraglio") == [17, (9 + 2) // 2, (9 + 2) // 2] == [17, 5, 5]
    assert points(players, 2, "seraglio") == [9, 1, 1]
    box = Box()
    tied = [owner("Ana", box, {"garden": 1}), owner("Ben", box, {"garden": 1})]
    assert points(tied, 1, "garden") == [5 // 2, 5 // 2] == [2, 2]


@pytest.mark.rule("base.score.ties")
def test_base_score_ties_refuses_sharing_without_a_tie() -> None:
    box = Box()
    players = [
        owner("Ana", box, {"tower": 3}),
        owner("Ben", box, {"tower": 2}),
        owner("Cyd", box, {"tower": 1}),
    ]
    assert points(players, 2, "tower") == [13, 6, 0]
    assert shared_places([3, 2, 2, 0], [21, 13, 6]) == [(1, 21), (2, 9), (2, 9), (None, 0)]
    assert shared_places([2, 2, 1], [13, 6]) == [(1, 9), (1, 9), (3, 0)]
    assert shared_places([1, 1, 1, 1], [21, 13, 6]) == [(1, 10)] * 4  # 40 // 4


@pytest.mark.rule("base.score.ties")
def test_base_score_ties_allows_shared_places_in_the_ranking() -> None:
    assert rank([("Ana", 10), ("Ben", 12), ("Cyd", 10), ("Dov", 3)]) == (
        RankEntry(name="Ben", place=1, score=12),
        RankEntry(name="Ana", place=2, score=10),
        RankEntry(name="Cyd", place=2, score=10),
        RankEntry(name="Dov", place=4, score=3),
    )


@pytest.mark.rule("base.end.final-scoring")
@pytest.mark.parametrize(("scores", "places"), [
    ([10, 10, 10, 3], [1, 1, 1, 4]),
    ([12, 10, 10, 10], [1, 2, 2, 2]),
    ([7, 7, 7, 7], [1, 1, 1, 1]),
    ([9, 5, 5, 5, 5, 2], [1, 2, 2, 2, 2, 6]),
])
def test_base_end_final_scoring_ranks_three_or_more_tied_players_on_one_place(
        scores: list[int], places: list[int]) -> None:
    """RULES.md base.end.final-scoring: "the state reports the ranking, ties included": every
    tied player shares the place of the first of them, the next takes the place after all of
    them (issue 30: with `place = pos` for a tie, 10/10/10/3 ranked 1, 1, 2, 4)."""
    names = ["Ana", "Ben", "Cyd", "Dov", "Eli", "Fay"][: len(scores)]
    ranking = rank(zip(names, scores, strict=True))
    assert [e.place for e in ranking] == places
    assert [e.score for e in ranking] == sorted(scores, reverse=True)


# --- base.score.wall ------------------------------------------------------------------------


def wall(*tiles: Spec) -> int:
    placed = alhambra(*tiles)
    assert check_layout(placed) == [], check_layout(placed)
    return longest_wall(layout_of(placed))


STRAIGHT = [("tower-11-N", -1, -1), ("pavilion-6-N", 0, -1), ("arcades-8-N", 1, -1)]
RING = [
    ("pavilion-5-NW", -1, -1),
    ("pavilion-6-N", 0, -1),
    ("seraglio-4-NE", 1, -1),
    ("pavilion-7-E", 1, 0),
    ("pavilion-4-ES", 1, 1),
    ("seraglio-8-S", 0, 1),
    ("pavilion-3-SW", -1, 1),
    ("seraglio-7-W", -1, 0),
]
# Three arms meet at the grid corner (2, 1): garden-12-S's wall (1 side) to the west, pavilion-5-NW and
# pavilion-6-N (2 sides) to the east, pavilion-5-NW and tower-10-W (2 sides) to the south.
BRANCH = [
    ("garden-12-S", 1, 0),
    ("pavilion-5-NW", 2, 1),
    ("pavilion-6-N", 3, 1),
    ("tower-10-W", 2, 2),
    ("garden-10-open", 0, 1),
    ("garden-11-open", 0, 2),
    ("tower-11-open", 0, 3),
    ("tower-12-open", 1, 3),
    ("chambers-10-open", 2, 3),
]


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_allows_a_straight_wall() -> None:
    assert wall(*STRAIGHT) == 3


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_allows_an_l_shape() -> None:
    # garden-8-NE turns the wall down the east side; pavilion-7-E carries it on.
    assert wall(("tower-11-N", -1, -1), ("pavilion-6-N", 0, -1), ("garden-8-NE", 1, -1)) == 4
    assert (
        wall(("tower-11-N", -1, -1), ("pavilion-6-N", 0, -1), ("garden-8-NE", 1, -1), ("pavilion-7-E", 1, 0))
        == 5
    )


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_allows_a_closed_ring_of_n_sides_to_score_n() -> None:
    assert wall(*RING) == 12
    assert longest_wall({(0, 0): 15}) == 4  # a lone walled square (geometry only)
    # Two rings touching at a corner: that corner is visited twice, every side counts.
    assert longest_wall({(0, 0): 15, (1, 1): 15}) == 8


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_allows_the_longest_trail_through_a_branch() -> None:
    layout = layout_of(alhambra(*BRANCH))
    assert len(outer_wall_sides(layout)) == 5
    assert wall(*BRANCH) == 4  # the two long arms; the short one is left out
    # A T of geometry only: arms of 2 (west), 2 (east) and 3 (north) meet at the corner (1, 0).
    t_shape = {(-1, 0): 1, (0, 0): 1, (1, -1): 4 | 8, (2, -1): 4, (1, -2): 8, (1, -3): 8}
    assert len(outer_wall_sides(t_shape)) == 7
    assert longest_wall(t_shape) == 5


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_refuses_inner_walls_between_two_tiles() -> None:
    # pavilion-7-E's E wall is outer alone, inner once tower-10-W stands against it.
    assert wall(("pavilion-7-E", 0, -1)) == 1
    assert wall(("pavilion-7-E", 0, -1), ("garden-10-open", 1, 0), ("tower-10-W", 1, -1)) == 0
    # garden-12-S's S wall and tower-11-N's N wall face each other: both inner.
    assert wall(("garden-12-S", 1, 0)) == 1
    assert wall(("garden-12-S", 1, 0), ("garden-10-open", 0, 1), ("tower-11-N", 1, 1)) == 0


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_refuses_to_add_up_two_separate_walls() -> None:
    # North: pavilion-6-N (1 side). South-east: garden-12-S and pavilion-4-ES (3 sides).
    tiles = [("pavilion-6-N", 0, -1), ("garden-12-S", 0, 1), ("pavilion-4-ES", 1, 1)]
    assert len(outer_wall_sides(layout_of(alhambra(*tiles)))) == 4
    assert wall(*tiles) == 3


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_allows_wall_points_in_every_round() -> None:
    for round_ in (1, 2, 3):
        others = tuple(PositionPlayer(name=n, alhambra=alhambra()) for n in ("Ben", "Cyd"))
        breakdown = score(
            Position(round=round_, players=(PositionPlayer(name="Ana", alhambra=alhambra(*RING)), *others))
        )
        assert WallLine(length=12, points=12) in breakdown.players[0].lines


@pytest.mark.rule("base.score.wall")
def test_base_score_wall_refuses_a_position_whose_layout_breaks_section_4() -> None:
    broken = alhambra(("pavilion-7-E", -1, 0))
    with pytest.raises(InconsistentState) as refused:
        score(Position(round=1, players=(PositionPlayer(name="Ana", alhambra=broken),)))
    assert any(
        v.rule == "base.place.sides-match" and "pavilion-7-E" in v.message for v in refused.value.violations
    )


# --- base.score.rounds ----------------------------------------------------------------------


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_allows_points_to_accumulate_round_after_round() -> None:
    state = arrange(
        game(),
        active="Ana",
        display=("yellow-1-a", "green-1-a", "blue-1-a", "orange-1-a"),
        deck_top=("scoring-1", "orange-9-c", "orange-8-c", "scoring-2", "orange-7-c"),
        alhambras={"Ben": [("tower-11-open", 1, 0), ("garden-12-S", 0, 1)]},
    )
    first = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    assert [b.round for b in first.scoring] == [1]
    assert first.state.players[1].score == 6 + 5 + 1  # tower 1st, garden 1st, wall 1
    second = play(first.state, TakeMoney(player="Ben", cards=("green-1-a",)))
    assert second.scoring == ()
    third = play(second.state, TakeMoney(player="Cyd", cards=("blue-1-a",)))
    assert [b.round for b in third.scoring] == [2]
    assert third.scoring[0].players[1].total == 13 + 12 + 1
    assert third.state.players[1].score == 12 + 26
    assert third.state.rounds_held == (1, 2)
    assert next((r.name, r.score) for r in third.scoring[0].ranking) == ("Ben", 38)


def after_round_1() -> GameState:
    """Ben scored 12 in round 1 (tower and garden first, a wall of 1); round 2 not held yet."""
    state = arrange(
        game(),
        active="Ana",
        display=("yellow-1-a", "green-1-a", "blue-1-a", "orange-1-a"),
        deck_top=("scoring-1", "orange-9-c"),
        alhambras={"Ben": [("tower-11-open", 1, 0), ("garden-12-S", 0, 1)]},
    )
    after = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",))).state
    assert after.rounds_held == (1,) and after.players[1].score == 12
    return after


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_allows_scoring_a_state_as_if_a_round_not_yet_held_were_held_now() -> None:
    """RULES.md base.score.rounds: "Points accumulate over the rounds." Round 2 asked of a state
    after round 1 adds its points to the score before it: Ben 12 + (13 + 12 + 1)."""
    breakdown = score_state(after_round_1(), 2)
    assert breakdown.players[1].total == 13 + 12 + 1
    assert next((r.name, r.score) for r in breakdown.ranking) == ("Ben", 12 + 26)


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_refuses_scoring_a_state_for_a_round_it_already_held() -> None:
    """RULES.md base.score.rounds: "round 1 when `scoring-1` comes up [...] Points accumulate
    over the rounds." Each round is held once: round 1 asked of a state that held it would add
    its points a second time to the scores that already hold them."""
    with pytest.raises(InconsistentState) as refused:
        score_state(after_round_1(), 1)
    [problem] = refused.value.violations
    assert problem.rule == "base.score.rounds" and "round 1 was already held" in problem.message


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_refuses_round_2_points_for_scoring_1() -> None:
    state = arrange(
        game(),
        active="Ana",
        display=("yellow-1-a", "green-1-a", "blue-1-a", "orange-1-a"),
        deck_top=("scoring-1", "orange-9-c"),
        alhambras={"Ben": [("tower-11-open", 1, 0)]},
    )
    outcome = play(state, TakeMoney(player="Ana", cards=("yellow-1-a",)))
    ben = outcome.scoring[0].players[1]
    assert MajorityLine(building="tower", count=1, place=1, points=6) in ben.lines
    assert MajorityLine(building="tower", count=1, place=1, points=13) not in ben.lines


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_refuses_calling_a_round_already_held() -> None:
    from msgspec.structs import replace

    from service.engine import check_consistency

    state = arrange(game(), rounds_held=(1,))
    problems = check_consistency(replace(state, scoring_called=(1,)))
    assert any(v.rule == "inconsistent-state" and "scoring_called" in v.message for v in problems), problems
    problems = check_consistency(replace(state, rounds_held=(2, 1)))
    assert any("rounds_held" in v.message for v in problems), problems


# --- base.score.rounds, base.setup.players: scores and tables that can occur (review C) -----


def rounds_problems(state: GameState) -> list[str]:
    return [v.message for v in check_consistency(state) if v.rule == "base.score.rounds"]


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_refuses_points_before_any_round_was_held() -> None:
    """RULES.md base.score.rounds: "round 1 when `scoring-1` comes up, round 2 when `scoring-2`
    comes up, round 3 at the end. Points accumulate over the rounds." No module scores between
    rounds: with no round held Ana's 7 or Dirk's 5 are refused; after round 1 they are allowed."""
    duel = game(2)
    assert duel.dirk is not None and rounds_problems(duel) == []
    ana = arrange(duel, scores={"Ana": 7}, check=False)
    assert any("Ana's score is 7" in m for m in rounds_problems(ana))
    dirk = replace(duel, dirk=replace(duel.dirk, score=5))
    assert any("Dirk's score is 5" in m for m in rounds_problems(dirk))
    after = arrange(duel, rounds_held=(1,), scores={"Ana": 7}, check=False)
    assert rounds_problems(replace(after, dirk=replace(after.dirk, score=5))) == []  # type: ignore[arg-type]


@pytest.mark.rule("base.score.rounds")
def test_base_score_rounds_refuses_a_round_1_position_with_points_before_it() -> None:
    """RULES.md base.score.rounds (API.md: `score` is "the player's points before this round"):
    before round 1 nobody has points: a round-1 position with Ana's score 3 is refused, the same
    in round 2 allowed."""
    players = tuple(PositionPlayer(name=n, alhambra=alhambra()) for n in ("Ana", "Ben", "Cyd"))
    ana = replace(players[0], score=3)
    with pytest.raises(InconsistentState, match=r"\$\.players\[0\]\.score is 3") as refused:
        score(Position(round=1, players=(ana, *players[1:])))
    assert {v.rule for v in refused.value.violations} == {"base.score.rounds"}
    assert score(Position(round=2, players=(ana, *players[1:]))).ranking[0].score == 3


@pytest.mark.rule("base.setup.players")
def test_base_setup_players_refuses_a_position_of_one_player_or_two_without_dirk() -> None:
    """RULES.md base.setup.players: "2 to 6 players; with 2 players the virtual third player Dirk
    joins (§9)": a position of 1 player, or of 2 without Dirk, is refused; 2 and Dirk, or 3,
    are allowed."""
    ana, ben, cyd = (PositionPlayer(name=n, alhambra=alhambra()) for n in ("Ana", "Ben", "Cyd"))
    six = ("pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES", "chambers-5-NSW", "garden-6-ESW",
           "tower-7-NEW")
    dirk = PositionPlayer(name="Dirk", dirk=True, tiles=tuple(Tile(tile=t) for t in six))
    for players in ((ana, ben, dirk), (ana, ben, cyd)):
        score(Position(round=1, players=players))
    for players, words in (((ana,), "1 player besides Dirk"), ((ana, ben), "Dirk joins"),
                           ((ana, dirk), "1 player besides Dirk")):
        with pytest.raises(InconsistentState, match=words) as refused:
            score(Position(round=1, players=players))
        assert "base.setup.players" in {v.rule for v in refused.value.violations}
