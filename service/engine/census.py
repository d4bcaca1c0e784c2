"""How many of each component the box holds, counted from the data files (RULES.md §1 and each
module's components), never typed in: the contract's bounds on counts of components derive from
it, so a legal action never hands out a state the contract refuses, and no bound is wider than a
table can have (issue 22, "Bounds from the box").

A component added or removed in `data/*.json` moves every bound that counts it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from importlib import resources

from .catalogue import CATALOGUE, load_data


def _modules() -> int:
    """The modules: one data file each besides the base game's."""
    files = resources.files("service.engine").joinpath("data").iterdir()
    return sum(1 for f in files if f.name.endswith(".json") and f.name != "base.json")


@dataclass(frozen=True, slots=True)
class Census:
    # The table (base.setup.players) and the board of the base game (RULES.md §1).
    players: int
    players_at_least: int
    modules: int
    market: int
    rounds: int
    money_cards: int
    money_value: int  # the highest value of a money card
    scoring_cards: int
    building_tiles: int  # every tile that can be in one game: the base game's and the sites
    # The most buildings of one type: its tiles and its buildings under construction (grounds).
    of_one_type: int
    # Modules' components.
    animals: int
    animals_removed: int  # zoo.setup: put back in the box unseen
    chests: int
    rooms: int
    room_size: int
    thieves: int
    extensions: int
    extensions_of_one_type: int
    extension_columns: int
    extension_spaces: int
    servants: int
    marshal_steps: int
    coins: int
    craftsmen: int
    inhabitants: int
    colours: int  # inhabitant colours: one of each per player at vendors.setup
    per_colour: int  # inhabitants of one colour
    on_disc: int  # inhabitants chosen for the vendor disc (vendors.setup)
    ground_columns: int
    column_size: int
    white_dice: int
    black_dice: int
    die_faces: int
    power_tiles: int
    wall_cards: int

    @property
    def animals_in_play(self) -> int:
        return self.animals - self.animals_removed

    @property
    def counted_of_one_type(self) -> int:
        """The most buildings of one type a majority counts: an extended building counts as 2
        (extensions.score)."""
        return self.of_one_type + self.extensions_of_one_type

    @property
    def leftovers_each(self) -> int:
        """The most tiles one player receives at the game's end (base.end.leftovers,
        power.end-hidden): at most one of each market space (the tile hidden under a market tile
        goes to another player than the one who takes the tile above it), and the game ends
        when a refill leaves a space empty."""
        return self.market - 1

    @property
    def leftovers(self) -> int:
        """The most tiles handed out at the game's end (base.end.leftovers): every space but one
        holds a tile, and each takes along the tile hidden under it (power.end-hidden;
        power.architecture: one under each)."""
        return self.leftovers_each * 2

    @property
    def deck(self) -> int:
        """Every card the money deck can hold: money, scoring and wall cards (walls.setup)."""
        return self.money_cards + self.scoring_cards + self.wall_cards

    @property
    def alhambra(self) -> int:
        """Every building tile and the fountain."""
        return self.building_tiles + 1

    @property
    def wall_length(self) -> int:
        """The longest outer wall the most tiles could make: n tiles have an outline of at most
        2n + 2 sides (base.score.wall)."""
        return 2 * self.alhambra + 2


def _count() -> Census:
    base, zoo, treasure, extensions = (load_data(m) for m in ("base", "zoo", "treasure", "extensions"))
    staff, vendors, grounds, power = (load_data(m) for m in ("staff", "vendors", "grounds", "power"))
    # A module tile that replaces a base tile (power) takes its place: it adds none.
    in_game = [t for t in CATALOGUE.tiles.values() if t.replaces is None]
    of_type = {kind: sum(1 for t in in_game if t.type == kind)
               + sum(1 for c in grounds["constructions"] if c["type"] == kind)
               for kind in CATALOGUE.building_types}
    return Census(
        players=base["players"]["at_most"],
        players_at_least=base["players"]["at_least"],
        modules=_modules(),
        market=CATALOGUE.market_size,
        rounds=len(CATALOGUE.majority_points),
        money_cards=len(CATALOGUE.money),
        money_value=max(card.value for card in CATALOGUE.money.values()),
        scoring_cards=len(CATALOGUE.scoring_cards),
        building_tiles=len(in_game),
        of_one_type=max(of_type.values()),
        animals=len(zoo["kinds"]) * zoo["per_kind"],
        animals_removed=zoo["removed_unseen_at_setup"],
        chests=sum(treasure["chests"].values()),
        rooms=treasure["rooms"],
        room_size=treasure["chests_per_room"],
        thieves=len(load_data("thieves")["cards"]),
        extensions=len(extensions["extensions"]),
        extensions_of_one_type=max(Counter(e["type"] for e in extensions["extensions"]).values()),
        extension_columns=len(extensions["columns"]),
        extension_spaces=len(extensions["amounts"]),
        servants=sum(staff["servants"].values()),
        marshal_steps=staff["marshal_steps"],
        coins=len(load_data("change")["coins"]),
        craftsmen=len(load_data("craftsmen")["cards"]),
        inhabitants=len(vendors["colours"]) * vendors["per_colour"],
        colours=len(vendors["colours"]),
        per_colour=vendors["per_colour"],
        on_disc=vendors["on_disc"],
        ground_columns=len(grounds["numbers"]),
        column_size=grounds["column_size"],
        white_dice=power["dice"]["white"],
        black_dice=power["dice"]["black"],
        die_faces=power["die_faces"],
        power_tiles=len(power["tiles"]),
        wall_cards=len(load_data("walls")["cards"]),
    )


CENSUS = _count()
