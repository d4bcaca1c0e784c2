"""How the four modules of seed 003 are used (its section "Com s'utilitza l'expansió", sentences
003.1 to 003.3, quoted in Catalan with an English translation): alone or together, on top of
the base game's rules, each bringing only its own components."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from service.api import endpoints, refusals
from service.engine import check_consistency, new_game, score
from service.engine.actions import PlaceBuilding, TakeMoney
from service.engine.modules.thieves.actions import Steal
from service.engine.modules.vendors.actions import ChooseInhabitants, VisitVendor
from service.engine.modules.walls.actions import AddWalls
from service.engine.scoring import MajorityLine, Position, PositionPlayer, WallLine
from service.engine.state import GameState, PlacedTile, Turn
from tests.support.helpers import NAMES, allowed, arrange, play, refused
from tests.support.play import play_random_game

FOUR = ("walls", "thieves", "change", "vendors")


def four_game(players: int = 3, seed: int = 1) -> GameState:
    """A game with the four modules, every vendor disc chosen: Ana's first turn."""
    state = new_game(NAMES[:players], list(FOUR), seed=seed).state
    for p in state.players:
        state = allowed(state, ChooseInhabitants(player=p.name, inhabitants=("garden", "tower", "pavilion"),
                                                 x=0, y=-1))
    return state


@pytest.mark.parametrize("players", [2, 5])
def test_the_four_modules_combined_play_complete_games(players: int) -> None:
    """seed 003.1: "Aquests quatre mòduls s'afegeixen al joc bàsic d'Alhambra, separadament o
    combinats." (These four modules are added to the base game of Alhambra, separately or
    combined.) Separately: each module's random games (test_walls.py, test_thieves.py,
    test_change.py, test_vendors.py); combined: here, each module doing its part."""
    game = play_random_game(1000 + players, players, FOUR, list_every=80)
    assert game.states[-1].phase == "over" and game.rounds[-1] == 3
    done = {type(a) for a in game.actions}
    assert {Steal, VisitVendor, AddWalls} <= done
    assert any(s.change is not None and any(s.change.coins) for s in game.states)


def test_each_module_prepares_only_its_own_components() -> None:
    """seed 003.3: "Prepareu només els components dels mòduls triats." (Prepare only the
    components of the chosen modules.)"""
    parts = {"walls": "walls", "thieves": "thieves", "change": "change", "vendors": "vendors"}
    for chosen in FOUR:
        state = new_game(NAMES[:3], [chosen], seed=2).state
        assert {m for m, part in parts.items() if getattr(state, part) is not None} == {chosen}, chosen
        walls_in_deck = any(c.startswith("wall-") for c in state.deck)
        assert walls_in_deck == (chosen == "walls"), chosen
    state = new_game(NAMES[:3], [], seed=2).state
    assert all(getattr(state, part) is None for part in parts.values())
    assert len(state.deck) + len(state.display) + sum(len(p.hand) for p in state.players) == 108 + 2


@pytest.mark.rule("base.place.sides-match")
def test_with_the_four_modules_the_base_rules_still_refuse_a_turn_or_building_they_forbid() -> None:
    """base.place.sides-match, base.turn.order, base.turn.one-action, seed 003.2: "Manteniu les
    regles normals de torn, construcció, majoria d'edificis i muralla exterior." (Keep the normal
    rules of the turn, of building, of the building majorities and of the outer wall.) With all
    four modules on: only the active player acts, once; a building must match its neighbours'
    sides."""
    state = four_game()
    refused(state, TakeMoney(player="Ben", cards=state.display[:1]), "base.turn.order", "Ana")
    taken = play(state, TakeMoney(player="Ana", cards=state.display[:1])).state
    assert taken.active.name == "Ben"
    state = arrange(state, held={"Ana": ["garden-6-ESW"]}, active="Ana",
                    turn=Turn(player=0, actions=0, acted=True, ending=0))
    refused(state, TakeMoney(player="Ana", cards=state.display[:1]), "base.turn.one-action")
    refused(state, PlaceBuilding(player="Ana", tile="garden-6-ESW", x=1, y=0), "base.place.sides-match",
            "garden-6-ESW")
    allowed(state, PlaceBuilding(player="Ana", tile="garden-6-ESW", x=0, y=1))


def test_with_the_four_modules_majorities_and_the_outer_wall_score_as_in_the_base_game() -> None:
    """base.score.majority, base.score.wall, seed 003.2: "Manteniu les regles normals de [...]
    majoria d'edificis i muralla exterior." (Keep the normal rules of the building majorities
    and of the outer wall.) The same table scores the same majority and wall lines with the
    four modules on as without them."""
    players = (
        PositionPlayer(name="Ana", alhambra=(PlacedTile(tile="fountain", x=0, y=0),
                                             PlacedTile(tile="garden-6-ESW", x=0, y=1),
                                             PlacedTile(tile="tower-11-open", x=1, y=0))),
        PositionPlayer(name="Ben", alhambra=(PlacedTile(tile="fountain", x=0, y=0),
                                             PlacedTile(tile="garden-10-open", x=-1, y=0),
                                             PlacedTile(tile="garden-11-open", x=0, y=-1))),
        PositionPlayer(name="Cyd", alhambra=(PlacedTile(tile="fountain", x=0, y=0),)),  # base.setup.players
    )
    for round_ in (1, 2, 3):
        plain = score(Position(round=round_, players=players))
        with_four = score(Position(round=round_, players=players, modules=FOUR))
        for a, b in zip(plain.players, with_four.players, strict=True):
            base_lines = [ln for ln in b.lines if isinstance(ln, (MajorityLine, WallLine))]
            assert base_lines == list(a.lines), round_
            assert b.total == a.total  # nothing on the table for the modules to score



ELEVEN = ("vendors", "extensions", "change", "zoo", "treasure", "thieves", "walls", "staff", "grounds",
          "craftsmen", "power")


@pytest.mark.parametrize("part", ELEVEN)
def test_a_state_carrying_the_part_of_a_module_that_is_off_is_refused(part: str) -> None:
    """seed 003.3: "Prepareu només els components dels mòduls triats." (Prepare only the
    components of the chosen modules.) RULES.md §H: a base game (modules []) has every module's
    part null; a part filled in (the review's coin held by Ana) cannot occur: 422
    inconsistent-state naming the field and the module, and /v1/apply hands nothing on."""
    full = new_game(NAMES[:3], list(ELEVEN), seed=5).state
    base = new_game(NAMES[:3], [], seed=5).state
    crafted = replace(base, **{part: getattr(full, part)})
    problems = check_consistency(crafted)
    assert [v.rule for v in problems] == ["inconsistent-state"], problems
    assert f"`{part}`" in problems[0].message and f"module {part} " in problems[0].message
    raw = b'{"state":%s,"action":%s}' % (msgspec.json.encode(crafted), msgspec.json.encode(
        TakeMoney(player=base.active.name, cards=base.display[:1])))
    with pytest.raises(refusals.RequestError) as refused_:
        endpoints.handle("apply", raw)
    assert refused_.value.status == 422 and refused_.value.error == "inconsistent-state"


def test_a_state_carrying_the_parts_of_its_chosen_modules_only_is_allowed() -> None:
    """seed 003.3 (Prepare only the components of the chosen modules): with all eleven modules
    on every part is filled in and the state is consistent; a base game with every part null
    is too."""
    assert check_consistency(new_game(NAMES[:3], list(ELEVEN), seed=5).state) == []
    assert check_consistency(new_game(NAMES[:3], [], seed=5).state) == []
