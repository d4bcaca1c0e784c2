"""Bounds from the box (issue 22): the census counts every component from the data files, and
every bound of the contract on a count of components (a list's `maxItems`, a count's `maximum`)
is the census's count of what that list or count can hold: none below what the box allows, none
above what a table can have. Every other bound is listed below with what it bounds instead, so
a new bound that is neither fails the walk."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.engine.census import CENSUS, Census
from service.engine.state import GameState
from tests.support.play import play_random_game

CONTRACT = json.loads((Path(__file__).parents[2] / "openapi" / "openapi.json").read_text("utf-8"))
SCHEMAS = CONTRACT["components"]["schemas"]

# What each bound counts: a census expression -> the bounds it gives (`Schema.field`, `[]` for
# the items of a list). The expressions read only the census.
BY_CENSUS: dict[str, tuple[Callable[[Census], int], tuple[str, ...]]] = {
    "seats": (lambda c: c.players, (
        "GameState.players", "GameState.ranking", "Position.players", "RenderPosition.players",
        "PastRound.players", "PastRound.ranking", "ChangeState.coins", "CraftsmenState.face_up",
        "CraftsmenState.face_down", "CraftsmenSeen.face_up", "CraftsmenSeen.face_down",
        "StaffState.marshals", "StaffSeen.marshals", "ThievesState.hands", "VendorsState.discs",
        "VendorsSeen.discs", "GameRecord.result")),
    "a seat's index": (lambda c: c.players - 1, ("ThievesState.ended", "ThievesState.last")),
    "market spaces": (lambda c: c.market, ("GameState.market",)),
    "one player's leftover tiles: one of each market space but one": (
        lambda c: c.leftovers_each, ("StaffTally.leftover",)),
    "modules": (lambda c: c.modules, ("GameState.modules", "Position.modules", "RenderPosition.modules")),
    "scoring rounds": (lambda c: c.rounds, (
        "GameState.rounds_held", "Position.round", "RenderPosition.round", "PastRound.round",
        "StateRound.round")),
    "earlier scoring rounds": (lambda c: c.rounds - 1, ("Position.previous", "RenderPosition.previous")),
    "scoring cards": (lambda c: c.scoring_cards, ("GameState.scoring_called",)),
    "money cards": (lambda c: c.money_cards, (
        "Player.hand", "GameState.display", "TakeMoney.cards", "BuyBuilding.payment",
        "BuyBuilding.from_display", "BuyExtension.payment", "BuyTreasure.payment")),
    "cards of the money deck: money, scoring and wall cards": (lambda c: c.deck, (
        "GameState.deck", "GameState.discard")),
    "a money card's value: the steps of zoo.move": (lambda c: c.money_value, ("MoveAnimals.steps",)),
    "building tiles": (lambda c: c.building_tiles, (
        "GameState.bag", "GameState.removed", "Player.reserve", "Player.held", "Dirk.tiles",
        "PositionPlayer.reserve", "PositionPlayer.tiles", "PowerState.hidden", "PowerState.choices",
        "PowerSeen.hidden", "PowerSeen.choices", "StaffTally.unserved", "StaffLine.unserved")),
    "building tiles and the fountain": (lambda c: c.alhambra, ("Player.alhambra", "PositionPlayer.alhambra")),
    "an outline of every tile and the fountain": (lambda c: c.wall_length, (
        "Tally.wall", "WallLine.length", "PowerTally.second_wall")),
    "buildings of one type": (lambda c: c.of_one_type, tuple(
        f"PerType.{kind}" for kind in ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower"))),
    "buildings of one type, an extended one counting 2": (lambda c: c.counted_of_one_type,
                                                          ("MajorityLine.count",)),
    "animals": (lambda c: c.animals, ("ZooState.supply", "ZooSeen.supply_size")),
    "animals put back unseen": (lambda c: c.animals_removed, ("ZooState.removed", "ZooSeen.removed_size")),
    "animals in play": (lambda c: c.animals_in_play, (
        "Tile.animals", "PlacedTile.animals", "MarketSpace.animals", "ZooState.discarded",
        "ZooSeen.discarded", "ZooTally.animals", "ZooLine.animals")),
    "chests": (lambda c: c.chests, ("TreasureState.bag", "TreasureSeen.bag_size", "TreasureLine.count")),
    "rooms": (lambda c: c.rooms, ("TreasureState.rooms", "TreasureSeen.rooms")),
    "chests of a room": (lambda c: c.room_size, (
        "TreasureState.rooms[]", "TreasureSeen.rooms[]", "TreasureState.passing", "TreasureSeen.passing",
        "BuyTreasure.buildings", "PlaceChests.buildings")),
    "thief cards": (lambda c: c.thieves, ("ThievesState.hands[]", "ThievesState.played", "ThievesState.out")),
    "columns of the extension board": (lambda c: c.extension_columns, ("ExtensionsState.board",)),
    "spaces of a column": (lambda c: c.extension_spaces, ("ExtensionsState.board[]",)),
    "servants": (lambda c: c.servants, (
        "StaffState.pile", "StaffState.display", "StaffSeen.display", "StaffSeen.pile_size")),
    "the marshal's steps": (lambda c: c.marshal_steps, (
        "StaffState.steps", "StaffSeen.steps", "MoveMarshal.path")),
    "coins": (lambda c: c.coins, ("ChangeState.bag", "ChangeState.coins[]", "BuyBuilding.coins",
                                  "BuyTreasure.coins")),
    "craftsmen": (lambda c: c.craftsmen, (
        "CraftsmenState.face_up[]", "CraftsmenSeen.face_up[]", "CraftsmenState.out",
        "CraftsmenSeen.out_size")),
    "inhabitants": (lambda c: c.inhabitants, (
        "VendorsState.supply", "VendorsSeen.supply", "VendorsLine.inhabitants")),
    "inhabitants of one colour: sets": (lambda c: c.per_colour, ("VendorsLine.sets",)),
    "colours: a player's six, a set's size": (lambda c: c.colours,
                                              ("Disc.inhabitants", "VendorsLine.sets[]")),
    "inhabitants on the disc": (lambda c: c.on_disc, ("ChooseInhabitants.inhabitants",)),
    "columns of the building ground": (lambda c: c.ground_columns, ("GroundsState.columns",)),
    "buildings under construction of a column": (lambda c: c.column_size, ("GroundsState.columns[]",)),
    "white dice": (lambda c: c.white_dice, (
        "PowerState.white", "PowerState.white_out", "PowerSeen.white", "PowerSeen.white_out")),
    "black dice": (lambda c: c.black_dice, ("PowerState.black", "PowerSeen.black")),
    "a die's faces: pips, what a power draws": (lambda c: c.die_faces, (
        "Tile.die", "PlacedTile.die", "PowerState.roll", "PowerSeen.roll", "PowerState.drawn",
        "PowerSeen.drawn", "PowerSeen.drawn_size", "HideTile.order", "KeepCard.order")),
    "the black dice's pips": (lambda c: c.black_dice * c.die_faces,
                              ("PowerTally.black_pips", "PowerLine.dice")),
    "special tiles": (lambda c: c.power_tiles, (
        "PowerState.due", "PowerSeen.due", "PowerState.used_white", "PowerSeen.used_white")),
    "wall cards": (lambda c: c.wall_cards, ("WallsState.aside", "WallsState.used")),
}

COORDINATES = tuple(f"{schema}.{axis}" for schema in (
    "AnimalStep", "BuilderRedesign", "ChooseInhabitants", "Disc", "PlaceBuilding", "PlaceDisc",
    "PlaceFromReserve", "PlacedTile", "Spot") for axis in "xy")
# Bounds that count no component: what each bounds, and why it stays as it is.
NOT_COUNTS: dict[str, tuple[str, ...]] = {
    "a coordinate of the grid (±64 holds a row of every tile and the fountain)": (
        *COORDINATES, "ToAlhambra.x", "ToAlhambra.y"),
    "a pair (fixed shape)": ("EndChoice.options",),
    "a score or points (generic Int)": (
        "Player.score", "Dirk.score", "RankEntry.score", "PastPlayer.total", "PositionPlayer.score",
        *(f"{line}.points" for line in ("MajorityLine", "WallLine", "ZooLine", "TreasureLine",
                                        "StaffLine", "PowerLine", "VendorsLine"))),
    "a place in a ranking (generic Int)": ("RankEntry.place", "MajorityLine.place", "TreasureLine.place"),
    "a seat, a room's number or a turn's counters (generic Int)": (
        "Turn.player", "Turn.actions", "Turn.ending", "EndChoice.chooser", "EndChoice.second",
        "TreasureState.receiver", "TreasureSeen.receiver", "TreasureState.room", "TreasureSeen.room",
        "BuyTreasure.room"),
    "a round's number (generic Int)": ("GameState.scoring_called[]", "GameState.rounds_held[]"),
    "a setup request: base.setup.players and the module ids are refused 422 naming them": (
        "NewGame.players", "NewGame.modules"),
    "request parameters": ("NewGame.seed", "LegalActionsQuery.limit", "GameState.edition",
                           "GameRecord.edition"),
    "a record's actions: MAX_RECORD_ACTIONS, 3.5 times the longest game measured (engine/replay.py)": (
        "GameRecord.actions", "ReplayQuery.upto"),
    "lines of a breakdown read back (a score sheet), not components": ("PastPlayer.lines",),
    "a bot's (issue 28): the strong level's budget (bots/model.py), the options a seat has and the "
    "best it weighed, the work simulated, a value ahead of the others (api/bodies.py)": (
        "SuggestQuery.budget_ms", "Suggested.legal", "Suggested.considered", "Suggested.simulated",
        "Considered.simulations", "Considered.value"),
}
BOTS = NOT_COUNTS["a bot's (issue 28): the strong level's budget (bots/model.py), the options a seat has "
                  "and the best it weighed, the work simulated, a value ahead of the others (api/bodies.py)"]


def _bounds(schema: Any, path: str) -> Iterator[tuple[str, str, int]]:
    """(path, key, value) of every maxItems and maximum under `schema` (references not followed:
    each schema is walked once under its own name)."""
    if not isinstance(schema, dict):
        return
    for sub in (*schema.get("anyOf", ()), *schema.get("oneOf", ()), *schema.get("allOf", ())):
        yield from _bounds(sub, path)
    for key in ("maxItems", "maximum"):
        if key in schema:
            yield path, key, schema[key]
    for sub in (schema.get("items"), *schema.get("prefixItems", ())):
        yield from _bounds(sub, path + "[]")
    for name, sub in schema.get("properties", {}).items():
        yield from _bounds(sub, f"{path}.{name}")


def contract_bounds() -> dict[str, int]:
    out: dict[str, int] = {}
    for name, schema in SCHEMAS.items():
        for path, _, value in _bounds(schema, name):
            assert out.get(path, value) == value, f"{path}: two bounds"
            out[path] = value
    return out


def test_every_bound_on_a_count_of_components_is_the_census_count() -> None:
    """Each bound the census gives is exactly its count (none below what the box allows, none
    above what a table can have); every other bound is classified; nothing is left over."""
    bounds = contract_bounds()
    expected = {path: count(CENSUS) for count, paths in BY_CENSUS.values() for path in paths}
    skipped = {path for paths in NOT_COUNTS.values() for path in paths}
    assert not set(expected) & skipped
    wrong = {path: (bounds.get(path), want) for path, want in expected.items() if bounds.get(path) != want}
    assert not wrong, f"bounds that are not the census's count (contract, census): {wrong}"
    unclassified = sorted(set(bounds) - set(expected) - skipped)
    assert not unclassified, f"bounds neither counted by the census nor classified: {unclassified}"
    stale = sorted(skipped - set(bounds))
    assert not stale, f"classified bounds the contract no longer has: {stale}"


def test_the_generic_bounds_left_count_no_component() -> None:
    """What NOT_COUNTS keeps are generic bounds of their kind, not a bound a count could hide
    behind: coordinates ±64, Int ±1,000,000, the fixed pairs, the setup's 16."""
    bounds = contract_bounds()
    kinds = {bounds[path] for paths in NOT_COUNTS.values() for path in paths
             if path not in {"NewGame.seed", "LegalActionsQuery.limit", "GameState.edition",
                             "PastPlayer.lines", "PositionPlayer.score", "GameRecord.edition",
                             "GameRecord.actions", "ReplayQuery.upto", *BOTS}}
    assert kinds == {64, 2, 1_000_000, 16}


def test_the_census_counts_what_the_seeds_and_rules_say() -> None:
    """The census is counted from the data files; the counts are those of the texts: RULES.md §1
    ("108 money cards", "54 building tiles"), base.setup.players ("2 to 6 players"), seeds
    000.29-000.30 ("the 24 animal tiles", two put back unseen), 000.45 ("the 12 base tiles" the
    special tiles replace: no tile more), 001.2 ("12 Buildings under construction (2 tiles of
    each building type)"), 001.3 ("the 8 building site tiles"), 001.14 ("12 Extension tiles"),
    002.2 ("54 Servant tiles"), 004.1 ("42 treasure chests"), 004.4 (3 rooms of 4 chests)."""
    assert (CENSUS.money_cards, CENSUS.players_at_least, CENSUS.players) == (108, 2, 6)
    assert CENSUS.building_tiles == 54 + 8 and CENSUS.alhambra == 54 + 8 + 1
    assert CENSUS.of_one_type == 11 + 2  # 11 gardens or towers (§1) and 2 under construction
    assert (CENSUS.animals, CENSUS.animals_in_play) == (24, 22)
    assert (CENSUS.extensions, CENSUS.servants, CENSUS.chests) == (12, 54, 42)
    assert (CENSUS.rooms, CENSUS.room_size) == (3, 4)
    assert CENSUS.power_tiles == 12


@pytest.mark.rule("base.setup.players")
def test_base_setup_players_refuses_more_players_than_the_census_seats(client: TestClient) -> None:
    """base.setup.players: "2 to 6 players". NewGame's list keeps its wider bound so that the
    setup answers with the rule (422), at the census's counts: 2 and 6 are seated, 1 and 7
    refused."""
    names = [f"P{i}" for i in range(CENSUS.players + 1)]
    for n, status in ((CENSUS.players_at_least - 1, 422), (CENSUS.players_at_least, 201),
                      (CENSUS.players, 201), (CENSUS.players + 1, 422)):
        answer = client.post("/v1/games", json={"players": names[:n]})
        assert answer.status_code == status, (n, answer.text)
        if status == 422:
            assert answer.json()["violations"][0]["rule"] == "base.setup.players", answer.text


MODULES = ("zoo", "grounds", "power", "extensions", "staff", "craftsmen", "walls", "treasure",
           "thieves", "vendors", "change")


@pytest.mark.parametrize("modules", [(m,) for m in MODULES] + [MODULES], ids=lambda m: "+".join(m))
def test_every_state_of_random_games_decodes_under_the_contract(modules: tuple[str, ...]) -> None:
    """Every state a random game hands out (each module alone and all together, with 2, 4 and 6
    players) is read back by the contract's decoder: no legal action passes a bound."""
    decoder = msgspec.json.Decoder(GameState)
    for seed, players in ((1, 2), (2, 4), (3, 6)):
        game = play_random_game(seed, players, modules, check_every=1000)
        for state in game.states:
            decoder.decode(msgspec.json.encode(state))
