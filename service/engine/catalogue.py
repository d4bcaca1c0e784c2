"""The components of RULES.md §1 as data: loaded from `data/base.json` and checked once at import.

Nothing here decides a rule; it only says what exists (tiles, money, scoring cards) and the
numbers the rules use (prices, walls, points), so a corrected value is a one-line data change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from importlib import resources
from types import MappingProxyType
from typing import Any

SIDES = ("N", "E", "S", "W")
# Walls are a 4-bit mask: one bit per side, in N, E, S, W order.
SIDE_BIT = MappingProxyType({"N": 1, "E": 2, "S": 4, "W": 8})
OPPOSITE_BIT = MappingProxyType({1: 4, 2: 8, 4: 1, 8: 2})
# (dx, dy, bit of this tile's side, bit of the neighbour's facing side); y grows to the south.
NEIGHBOURS = ((0, -1, 1, 4), (1, 0, 2, 8), (0, 1, 4, 1), (-1, 0, 8, 2))
FOUNTAIN = "fountain"


def walls_text(mask: int) -> str:
    """The walls of a mask as letters in N, E, S, W order, or `open` (the id convention of §1)."""
    letters = "".join(side for side in SIDES if mask & SIDE_BIT[side])
    return letters or "open"


def parse_walls(text: str) -> int:
    """A walls text (`NE`, `open`) as a mask; raises ValueError on anything else."""
    if text == "open":
        return 0
    mask = 0
    for letter in text:
        bit = SIDE_BIT.get(letter)
        if bit is None or mask & bit:
            raise ValueError(f"bad walls {text!r}")
        mask |= bit
    return mask


@dataclass(frozen=True, slots=True)
class BuildingTile:
    """One printed building tile (§1), or a module's (a building site has no type of its own)."""

    id: str
    type: str | None
    price: int
    walls: int
    module: str = "base"
    replaces: str | None = None  # a module tile that takes a base tile's place in the bag


@dataclass(frozen=True, slots=True)
class MoneyCard:
    id: str
    currency: str
    value: int
    copy: str  # `a`, `b`, `c`: the three copies of every card (dirk.setup leaves some in the box)


@dataclass(frozen=True, slots=True)
class Catalogue:
    currencies: tuple[str, ...]
    building_types: tuple[str, ...]
    tiles: MappingProxyType[str, BuildingTile]  # every tile: the base game's and the modules'
    money: MappingProxyType[str, MoneyCard]
    scoring_cards: MappingProxyType[str, int]  # card id -> the money pile (1-based) it goes into
    money_piles: int
    starting_money_at_least: int
    display_size: int
    market_size: int
    take_money_total_at_most: int
    majority_points: MappingProxyType[int, MappingProxyType[str, tuple[int, ...]]]
    dirk_name: str
    # dirk.setup: the copies of every money card left in the box with two players (e.g. "c").
    dirk_money_copies_in_the_box: tuple[str, ...]
    dirk_tiles_at_setup: int
    dirk_tiles_after_round_1: int
    dirk_bag_share_after_round_2: int
    # Cards that modules shuffle into the money piles (card id -> module), e.g. wall cards.
    cards: MappingProxyType[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def scoring_round_of(self, card: str) -> int:
        """The scoring round a scoring card calls for (`base.score.rounds`)."""
        return int(card.rsplit("-", 1)[1])


def _load(raw: dict[str, Any]) -> Catalogue:
    currencies = tuple(raw["currencies"])
    types = tuple(raw["building_types"])
    tiles: dict[str, BuildingTile] = {}
    for type_, entries in raw["tiles"].items():
        if type_ not in types:
            raise ValueError(f"tiles of unknown building type {type_!r}")
        for entry in entries:
            price, walls = entry.split(":")
            mask = parse_walls(walls)
            tile = BuildingTile(f"{type_}-{int(price)}-{walls_text(mask)}", type_, int(price), mask)
            if tile.id in tiles:
                raise ValueError(f"tile id {tile.id} appears twice")
            tiles[tile.id] = tile
    money = {
        f"{currency}-{value}-{copy}": MoneyCard(f"{currency}-{value}-{copy}", currency, value, copy)
        for currency in currencies
        for value in raw["money"]["values"]
        for copy in raw["money"]["copies"]
    }
    points = {
        int(round_): MappingProxyType({t: tuple(p) for t, p in table.items()})
        for round_, table in raw["majority_points"].items()
    }
    dirk = raw["dirk"]
    return Catalogue(
        currencies=currencies,
        building_types=types,
        tiles=MappingProxyType(tiles),
        money=MappingProxyType(money),
        scoring_cards=MappingProxyType(dict(raw["scoring_cards"])),
        money_piles=raw["money_piles"],
        starting_money_at_least=raw["starting_money_at_least"],
        display_size=raw["display_size"],
        market_size=raw["market_size"],
        take_money_total_at_most=raw["take_money_total_at_most"],
        majority_points=MappingProxyType(points),
        dirk_name=dirk["name"],
        dirk_money_copies_in_the_box=tuple(dirk["money_copies_in_the_box"]),
        dirk_tiles_at_setup=dirk["tiles_at_setup"],
        dirk_tiles_after_round_1=dirk["tiles_after_round_1"],
        dirk_bag_share_after_round_2=dirk["bag_share_after_round_2"],
    )


def _check(cat: Catalogue) -> None:
    """The counts RULES.md §1 states; a data edit that breaks them fails at import."""
    per_type = {t: sum(1 for tile in cat.tiles.values() if tile.type == t and tile.module == "base")
                for t in cat.building_types}
    expected = {"pavilion": 7, "seraglio": 7, "arcades": 9, "chambers": 9, "garden": 11, "tower": 11}
    if per_type != expected or len(cat.tiles) != 54:
        raise ValueError(f"the catalogue must hold the 54 tiles of §1, got {per_type}")
    if len(cat.money) != 108:
        raise ValueError(f"the catalogue must hold 108 money cards, got {len(cat.money)}")
    for round_, table in cat.majority_points.items():
        if set(table) != set(cat.building_types) or any(len(p) != round_ for p in table.values()):
            raise ValueError(f"majority points of round {round_} do not cover every type")
    if not set(cat.dirk_money_copies_in_the_box) < {card.copy for card in cat.money.values()}:
        raise ValueError("Dirk's game must leave some, not all, copies of the money cards in the box")
    if sorted(cat.scoring_round_of(c) for c in cat.scoring_cards) != [1, 2]:
        raise ValueError("there must be the scoring cards of rounds 1 and 2")


def load_data(name: str) -> dict[str, Any]:
    """A component data file of `data/` (the base game's or a module's default data)."""
    text = resources.files("service.engine").joinpath(f"data/{name}.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _module_tiles(types: tuple[str, ...]) -> dict[str, BuildingTile]:
    """The tiles that modules' data files add: `"tiles": [{"id", "type", "price", "walls"}]`."""
    out: dict[str, BuildingTile] = {}
    for entry in sorted(resources.files("service.engine").joinpath("data").iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json") or entry.name == "base.json":
            continue
        module = entry.name.removesuffix(".json")
        for raw in json.loads(entry.read_text("utf-8")).get("tiles", []):
            if raw["type"] is not None and raw["type"] not in types:
                raise ValueError(f"{entry.name}: tile {raw['id']} of unknown type {raw['type']!r}")
            out[raw["id"]] = BuildingTile(raw["id"], raw["type"], int(raw["price"]),
                                          parse_walls(raw["walls"]), module, raw.get("replaces"))
    return out


def _module_cards() -> dict[str, str]:
    """The cards that modules' data files add to the money deck: `"cards": [{"id", ...}]`,
    card id -> module (e.g. the wall cards)."""
    out: dict[str, str] = {}
    for entry in sorted(resources.files("service.engine").joinpath("data").iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json") or entry.name == "base.json":
            continue
        for raw in json.loads(entry.read_text("utf-8")).get("cards", []):
            if raw["id"] in out:
                raise ValueError(f"{entry.name}: card id {raw['id']} appears twice")
            out[raw["id"]] = entry.name.removesuffix(".json")
    return out


def load_catalogue() -> Catalogue:
    cat = _load(load_data("base"))
    _check(cat)
    cards = _module_cards()
    clash_cards = sorted(set(cards) & {*cat.money, *cat.scoring_cards})
    if clash_cards:
        raise ValueError(f"module cards reuse base ids: {clash_cards}")
    cat = replace(cat, cards=MappingProxyType(cards))
    extra = _module_tiles(cat.building_types)
    clash = sorted(set(extra) & set(cat.tiles))
    if clash:
        raise ValueError(f"module tiles reuse base ids: {clash}")
    for tile in extra.values():
        if tile.replaces is not None and tile.replaces not in cat.tiles:
            raise ValueError(f"{tile.id} replaces {tile.replaces}, which is no base tile")
    return replace(cat, tiles=MappingProxyType({**cat.tiles, **extra}))


def base_tiles(cat: Catalogue) -> tuple[str, ...]:
    """The 54 tiles of the base game, in catalogue order."""
    return tuple(t.id for t in cat.tiles.values() if t.module == "base")


CATALOGUE = load_catalogue()
