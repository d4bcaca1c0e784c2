"""The size every seal of a game is padded to, fixed when the game is set up (issue 23 item 2).

A seal's length must tell nothing of the hidden parts: not the deck's order, not a hand, not
which tiles the bag still holds. So every seal of a game has one length, the game's bucket,
fixed from what is public when it is set up (the names and the modules; the player count is
the number of names) and at least the longest JSON any state of that game can have. The bound
is derived, never measured:

- Every list of a state holds components of the box (census.py counts them from the data
  files), and a component lies in one place at a time: a tile is in the bag, on the market, in
  an Alhambra, a reserve, held, Dirk's, removed or hidden under a market tile; a card in the
  deck, the display, the discard, a hand or set aside; a token (an animal, a chest, a servant,
  an inhabitant, an extension, a die, a building under construction, added walls) on one tile
  or in its module's supply. So the lists hold at most as many elements as the box has
  components of their kind, each counted once at its largest encoding in any place; the few
  lists that refer to components held elsewhere (a power's tiles due and used, what it drew,
  used wall cards) are counted again, each at its own census bound; the tiles hidden under
  market tiles and their end-of-game choices at two per market space (power.architecture hides
  a tile under a market tile "that has none under it"; one turned up awaits its refill).
- Every other part is a struct whose size the type walker below bounds: its fields present,
  numbers at their widest (the bounds of the contract), every string at the longest encoding it
  can have: a name at the longest of the game's own names (public, known at setup), any other
  string (ids, colours, currencies, module names) at the longest id of the data files.

For 6 players with every module and names of 64 four-byte characters that is 34,355 bytes,
where the largest state of random such games is some 14.6 kB: a bound, not an estimate.

Deflating cannot lower that bound (deflate's worst case is larger than its input), so a v4 seal
holds the JSON itself, padded to the bucket. The bucket is carried in the seal's header, so a
game keeps its length even if a later referee would derive another.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import msgspec
from msgspec import inspect

from service.engine.catalogue import CATALOGUE, FOUNTAIN
from service.engine.census import CENSUS
from service.engine.modules.power.model import EndChoice, HiddenTile
from service.engine.modules.staff.model import Spot
from service.engine.modules.vendors.model import Disc
from service.engine.modules.walls.model import UsedWall
from service.engine.state import MODULE_PARTS, GameState, MarketSpace, Player, RankEntry

# The longest header a seal can have (`<32 hex> <key id of 32> <0|1> <bucket> <length>\n`).
HEADER = 32 + 1 + 32 + 1 + 1 + 1 + 9 + 1 + 9 + 1
# Buckets are whole multiples of this (the bound is exact to the byte; rounding it keeps the
# lengths of games few).
ROUND = 256


def _data_strings(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [*node, *(s for v in node.values() for s in _data_strings(v))]
    if isinstance(node, list):
        return [s for v in node for s in _data_strings(v)]
    return []


@functools.cache
def longest_id() -> int:
    """The longest encoding (quotes included) of any string a state holds but a name: every
    string of every data file, and the ids the catalogue makes from them (money cards)."""
    files = resources.files("service.engine").joinpath("data").iterdir()
    data = [json.loads(f.read_text("utf-8")) for f in files if f.name.endswith(".json")]
    strings = [s for d in data for s in _data_strings(d) if " " not in s]  # spaces: a description
    strings += [*CATALOGUE.tiles, *CATALOGUE.money, *CATALOGUE.scoring_cards, FOUNTAIN, *MODULE_PARTS, "NESW"]
    return max(len(msgspec.json.encode(s)) for s in strings)


# The fields that hold a player's name (or Dirk's): Player, Dirk and RankEntry's `name`, a
# hidden tile's `owner` (power), a used wall card's `player` (walls). Every other string is an id.
NAME_FIELDS = frozenset({"name", "owner", "player"})


def _shallow(t: Any, text: tuple[int, int], field: str = "") -> int:
    """The longest encoding of a value of type `t` with every list in it empty, every field
    present and every string as long as `text` says: (an id, a name), by its field's name."""
    if isinstance(t, inspect.Metadata):
        return _shallow(t.type, text, field)
    if isinstance(t, inspect.StructType):
        return 1 + sum(len(f.encode_name) + 4 + _shallow(f.type, text, f.name) for f in t.fields)
    if isinstance(t, (inspect.ListType, inspect.VarTupleType)):
        return 2
    if isinstance(t, inspect.TupleType):
        return 1 + sum(_shallow(x, text) + 1 for x in t.item_types)
    if isinstance(t, inspect.UnionType):
        return max(_shallow(x, text, field) for x in t.types)
    if isinstance(t, inspect.IntType):
        return max(len(str(t.ge)), len(str(t.le)))
    if isinstance(t, inspect.StrType):
        return text[field in NAME_FIELDS]
    if isinstance(t, inspect.LiteralType):
        return max(len(msgspec.json.encode(v)) for v in t.values)
    return {inspect.NoneType: 4, inspect.BoolType: 5}[type(t)]


@functools.cache  # msgspec's type_info takes milliseconds: once per struct and lengths
def shallow(struct: type, text: tuple[int, int]) -> int:
    """`_shallow` of a struct type, with a comma after it (as a list element)."""
    return _shallow(inspect.type_info(struct), text) + 1


def _tokens(modules: frozenset[str], item: int) -> int:
    """Every token that can lie on tiles, each once at its longest (`,"field":value`): the box
    holds so many of each (a tile carries a token or its module's supply does)."""
    def field(name: str, value: int) -> int:
        return len(name) + 4 + value
    counts = {
        "zoo": CENSUS.animals * (field("animals", 2) + item),  # a tile's list and each animal
        "treasure": CENSUS.chests * field("chest", 4),
        "staff": CENSUS.servants * field("servant", 4),
        "vendors": CENSUS.inhabitants * field("inhabitant", 4),
        "extensions": CENSUS.extensions * field("extension", 4),
        "power": (CENSUS.white_dice + CENSUS.black_dice) * field("die", len(str(CENSUS.die_faces))),
        "grounds": CENSUS.ground_columns * CENSUS.column_size * field("construction", item),
        "walls": CENSUS.wall_cards * field("added_walls", len('"NESW"')),
    }
    leftover = CENSUS.leftovers * field("leftover", 4)
    return leftover + sum(n for module, n in counts.items() if module in modules)


def _module_lists(modules: frozenset[str], seats: int, item: int, text: tuple[int, int]) -> int:
    """Every element of the modules' own lists: components (each once), lists by seat, and the
    lists that refer to components held elsewhere (each at its census bound)."""
    per_seat = seats * 3  # `[],` for each seat's list
    counts = {
        "zoo": CENSUS.animals * item,  # supply, put back, discarded (and on tiles: _tokens)
        "change": CENSUS.coins * item + per_seat,
        "craftsmen": CENSUS.craftsmen * item + per_seat + seats * item,
        "grounds": CENSUS.ground_columns * CENSUS.column_size * item + CENSUS.ground_columns * 3,
        "power": (2 * CENSUS.power_tiles + CENSUS.die_faces) * item
        + 2 * CENSUS.market * (shallow(HiddenTile, text) + shallow(EndChoice, text)),
        "staff": CENSUS.servants * item + seats * shallow(Spot, text),
        "thieves": CENSUS.thieves * item + per_seat,
        "treasure": (CENSUS.chests + CENSUS.room_size) * item + CENSUS.rooms * 3,
        "vendors": CENSUS.inhabitants * item + seats * shallow(Disc, text),
        "walls": CENSUS.wall_cards * shallow(UsedWall, text),
        "extensions": CENSUS.extension_columns * (3 + CENSUS.extension_spaces * item),
    }
    return sum(n for module, n in counts.items() if module in modules)


@functools.cache
def _skeleton(modules: frozenset[str], text: tuple[int, int]) -> int:
    """GameState with every list empty: the parts of the modules off are null, and there is no
    `seal` (what is sealed is a whole state, which carries none)."""
    fields = [f for f in inspect.type_info(GameState).fields if f.name != "seal"]
    return 1 + sum(len(f.encode_name) + 4 + (_shallow(f.type, text, f.name) if f.name not in MODULE_PARTS
                                             or f.name in modules else 4) for f in fields)


def largest_state(names: tuple[str, ...], modules: tuple[str, ...]) -> int:
    """The most bytes the JSON of a state of the game of `names` and `modules` can have."""
    name = max(len(msgspec.json.encode(n)) for n in (*names, CATALOGUE.dirk_name))
    text = (longest_id(), name)
    item = longest_id() + 1  # an id in a list, and its comma
    seats = len(names)
    on = frozenset(modules)
    tile = len('{"tile":,"x":-64,"y":-64,"rotation":270},') + longest_id()  # its tokens apart
    base = (
        _skeleton(on, text)
        + seats * shallow(Player, text)
        + (seats + 1) * shallow(RankEntry, text)  # the players and Dirk
        + CENSUS.market * shallow(MarketSpace, text)
        + (CENSUS.building_tiles + seats) * tile  # every tile and each fountain, at its largest
        + CENSUS.deck * item  # every card: deck, display, discard, hands, set aside
        + (CENSUS.scoring_cards + CENSUS.rounds) * (len("-1000000") + 1)
        + len(modules) * item
    )
    return base + _tokens(on, item) + _module_lists(on, seats, item, text)


@functools.lru_cache(maxsize=1024)  # a game's seals after a v3 one or an unsealed one ask again
def bucket(names: tuple[str, ...], modules: tuple[str, ...]) -> int:
    """The plaintext size of every seal of that game: the longest header and the largest state,
    rounded up to a multiple of ROUND."""
    size = HEADER + largest_state(names, modules)
    return -(-size // ROUND) * ROUND
