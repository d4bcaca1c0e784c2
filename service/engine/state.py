"""The game state: frozen msgspec Structs holding tuples, so a state is never changed in place.

A player's Alhambra is a list of placed tiles in the shape of API.md; reserve, held buildings
and Dirk's tiles are the same object without `x` and `y`. Lists are ordered: the deck and the
bag draw from their first element.
"""

from __future__ import annotations

import typing
from typing import Annotated, Literal

import msgspec

from .census import CENSUS
from .editions import EDITION
from .modules.change.model import ChangeState
from .modules.craftsmen.model import CraftsmenState
from .modules.extensions.model import ExtensionsState
from .modules.grounds.model import GroundsState
from .modules.power.model import PowerState
from .modules.staff.model import StaffState
from .modules.thieves.model import ThievesState
from .modules.treasure.model import TreasureState
from .modules.vendors.model import VendorsState
from .modules.walls.model import WallsState
from .modules.zoo.model import ZooState
from .records import HIDDEN, Int, Record, Text, hidden, up_to

Coord = Annotated[int, msgspec.Meta(ge=-64, le=64)]
# The generator state (64 bits) as 16 lowercase hex digits: JSON integers beyond 2^53 are lossy
# in many clients, and msgspec bounds stop at int64.
RngState = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{16}$", max_length=16)]


__all__ = ["Record"]


AddedWalls = Annotated[str, msgspec.Meta(pattern="^N?E?S?W?$", max_length=4)]
Pips = Annotated[int, msgspec.Meta(ge=1, le=CENSUS.die_faces)]
# The animals on one tile: the zoo sets no limit per tile (seeds 000.35-000.40), so as many as
# are in play (zoo.setup puts some back in the box unseen).
Animals = Annotated[tuple[Text, ...], up_to(CENSUS.animals_in_play)]
# Lists of components, each bounded by how many of them the box holds (census.py).
Cards = Annotated[tuple[Text, ...], up_to(CENSUS.deck)]  # money, scoring and wall cards
MoneyCards = Annotated[tuple[Text, ...], up_to(CENSUS.money_cards)]
TileIds = Annotated[tuple[Text, ...], up_to(CENSUS.building_tiles)]


class Tile(Record):
    """A building tile off the grid (reserve, held, Dirk's): its catalogue id and the tokens
    modules put on it (API.md). Tokens move with the tile; each belongs to one module, and a
    token of a module that is not on makes a state inconsistent."""

    tile: Text
    added_walls: AddedWalls = ""  # walls: extra walls in the tile's own frame
    animals: Animals = ()  # zoo
    chest: bool = False  # treasure
    servant: bool = False  # staff
    inhabitant: bool = False  # vendors
    extension: bool = False  # extensions
    die: Pips | None = None  # power: pips of the die on a strength or prosperity tile
    construction: Text | None = None  # grounds: the building type on a building site
    leftover: bool = False  # base.end.leftovers: received as a leftover market tile


class PlacedTile(Tile, kw_only=True):
    """A tile in an Alhambra at (x, y); the fountain is at (0, 0)."""

    x: Coord
    y: Coord
    rotation: Literal[0, 90, 180, 270] = 0  # craftsmen (Mosaic artist), clockwise


# The token fields of a tile (everything but its id and, when placed, its position).
TOKENS = tuple(f for f in Tile.__struct_fields__ if f != "tile")
_NO_TOKENS = msgspec.structs.astuple(Tile(tile=""))[1:]


def has_tokens(tile: Tile) -> bool:
    """Whether any module's token lies on the tile."""
    if type(tile) is Tile:  # one comparison of two structs, without a tuple of every field
        plain = _PLAIN.get(tile.tile)
        if plain is None:
            plain = Tile(tile=tile.tile)
            if len(_PLAIN) < 1024:  # the catalogue's ids, not every id a client may send
                _PLAIN[tile.tile] = plain
        return tile != plain
    return msgspec.structs.astuple(tile)[1:len(Tile.__struct_fields__)] != _NO_TOKENS


_PLAIN: dict[str, Tile] = {}  # a tile id's Tile without tokens


def place_tile(tile: Tile, x: int, y: int, rotation: int = 0) -> PlacedTile:
    """The tile put at (x, y) with its tokens."""
    if not has_tokens(tile):
        return PlacedTile(tile=tile.tile, x=x, y=y, rotation=rotation)  # type: ignore[arg-type]
    fields = {f: getattr(tile, f) for f in Tile.__struct_fields__}
    return PlacedTile(x=x, y=y, rotation=rotation, **fields)  # type: ignore[arg-type]


def lift_tile(placed: Tile) -> Tile:
    """The tile off the grid with its tokens; a rotation does not stay (craftsmen decision)."""
    if type(placed) is Tile:
        return placed
    if not has_tokens(placed):
        return Tile(tile=placed.tile)
    return Tile(**{f: getattr(placed, f) for f in Tile.__struct_fields__})


# GameState, Player, Turn and Dirk have no defaults: every field is in every state the referee
# writes and required in every state it reads, so a client reads one shape (a generated client
# gets no "unset" fields). Tiles and market spaces keep optional tokens; modules' parts keep
# their defaults (left out when they hold them).


class Player(Record):
    name: Text
    hand: Annotated[MoneyCards, HIDDEN]
    alhambra: Annotated[tuple[PlacedTile, ...], up_to(CENSUS.alhambra)]  # every tile and the fountain
    reserve: Annotated[tuple[Tile, ...], up_to(CENSUS.building_tiles)]
    # Bought this turn (base.buy.hold) or received as a leftover (base.end.leftovers): to place.
    held: Annotated[tuple[Tile, ...], up_to(CENSUS.building_tiles)]
    score: Int

    @classmethod
    def new(cls, name: str) -> Player:
        """A player at the start: the fountain alone in the Alhambra, nothing else."""
        from .catalogue import FOUNTAIN

        return cls(name=name, hand=(), alhambra=(PlacedTile(x=0, y=0, tile=FOUNTAIN),), reserve=(),
                   held=(), score=0)


class Dirk(Record):
    """The virtual third player of a two-player game (RULES.md §9)."""

    name: Text
    tiles: Annotated[tuple[Tile, ...], up_to(CENSUS.building_tiles)]
    score: Int

    @classmethod
    def new(cls, name: str) -> Dirk:
        return cls(name=name, tiles=(), score=0)


class MarketSpace(Record):
    """A market space: its currency, the tile on it and the tokens lying on that tile."""

    currency: Text
    tile: Text | None = None
    animals: Animals = ()  # zoo


# The tile tokens that can lie on a tile on the market.
MARKET_TOKENS = tuple(f for f in MarketSpace.__struct_fields__ if f in TOKENS)
_EMPTY_SPACE = {f: getattr(MarketSpace(currency=""), f) for f in MARKET_TOKENS}


def market_tile(space: MarketSpace) -> Tile:
    """The tile of a market space with the tokens on it, as a buyer or a recipient takes it."""
    assert space.tile is not None
    return Tile(tile=space.tile, **{f: getattr(space, f) for f in MARKET_TOKENS})


def emptied(space: MarketSpace) -> MarketSpace:
    """The space once its tile (and what lies on it) is taken."""
    return msgspec.structs.replace(space, tile=None, **{f: _EMPTY_SPACE[f] for f in MARKET_TOKENS})


class Turn(Record):
    """Whose turn it is and what they may still do. Who must act now is not always that player
    (a decision may wait for another, other players may act out of turn): answers say it in
    `to_act`.

    `player` is the seat (index in `players`) whose turn it is. `actions` is 1 while the player
    may take an action (at the start of a turn, or after an exact payment,
    `base.buy.exact-bonus`) and 0 once their actions are over; `acted` says whether they have
    taken one this turn. `ending` is 0 while the turn is played; when the end of the turn
    (RULES.md §H) stops for a decision (moving animals, passing a craftsman, ...), it is the
    position in the end-of-turn order to resume at once the decision is taken.
    """

    player: Int
    actions: Int
    acted: bool
    # While the end of the turn waits for a decision: the end-of-turn step to resume at.
    ending: Int

    @classmethod
    def start(cls, player: int, actions: int = 1) -> Turn:
        """The turn of `player` as it starts (`actions` 0: placing tiles, not acting)."""
        return cls(player=player, actions=actions, acted=False, ending=0)


class RankEntry(Record):
    name: Text
    place: Int
    score: Int


Phase = Literal["play", "final-placement", "over"]


# The rules edition a state was made under (engine/editions.py).
RulesEdition = Annotated[int, msgspec.Meta(
    ge=1, le=EDITION,
    description=f"The edition of the rules this state was made under; the referee sets it. This "
                f"referee plays edition {EDITION}; a state of another edition, or one without "
                f"`edition` (made before editions existed: edition 1), is refused with 422 "
                f"`outdated-state` naming what changed since.")]


class GameState(Record):
    players: Annotated[tuple[Player, ...], up_to(CENSUS.players)]
    turn: Turn
    market: Annotated[tuple[MarketSpace, ...], up_to(CENSUS.market)]
    modules: Annotated[tuple[Text, ...], up_to(CENSUS.modules)]
    phase: Phase
    display: MoneyCards
    deck: Annotated[Cards, HIDDEN]
    discard: Cards
    bag: Annotated[TileIds, HIDDEN]
    dirk: Dirk | None
    # Scoring rounds called by a scoring card and not yet held (base.turn.scoring-card).
    scoring_called: Annotated[tuple[Int, ...], up_to(CENSUS.scoring_cards)]
    rounds_held: Annotated[tuple[Int, ...], up_to(CENSUS.rounds)]
    # Tiles out of the game (leftovers nobody wins, base.end.leftovers).
    removed: Annotated[tuple[Tile, ...], up_to(CENSUS.building_tiles)]
    # The players and Dirk (2 players only).
    ranking: Annotated[tuple[RankEntry, ...], up_to(CENSUS.players)]
    rng: Annotated[RngState, hidden("0000000000000000")]
    # The state of each module that keeps one (None while the module is off).
    zoo: ZooState | None
    grounds: GroundsState | None
    power: PowerState | None
    extensions: ExtensionsState | None
    staff: StaffState | None
    craftsmen: CraftsmenState | None
    walls: WallsState | None
    treasure: TreasureState | None
    thieves: ThievesState | None
    vendors: VendorsState | None
    change: ChangeState | None
    edition: RulesEdition
    # Set by the HTTP referee when sealing is on (service/seal.py): this whole state, encrypted
    # and authenticated; the fields above then hold only its public part. The engine ignores it.
    seal: Annotated[str, msgspec.Meta(min_length=1, max_length=65_536)] | None = None

    @classmethod
    def new(cls, players: tuple[Player, ...], modules: tuple[str, ...], turn: Turn,
            market: tuple[MarketSpace, ...], dirk: Dirk | None, edition: int) -> GameState:
        """A state before any setup step: nothing dealt, every module's part absent."""
        empty = {f: None for f in cls.__struct_fields__ if f in MODULE_PARTS}
        return cls(players=players, modules=modules, turn=turn, market=market, phase="play",
                   display=(), deck=(), discard=(), bag=(), dirk=dirk, scoring_called=(),
                   rounds_held=(), removed=(), ranking=(), rng="0000000000000000", edition=edition,
                   **empty)

    def player_named(self, name: str) -> Player | None:
        for player in self.players:
            if player.name == name:
                return player
        return None

    def seat_of(self, name: str) -> int:
        for seat, player in enumerate(self.players):
            if player.name == name:
                return seat
        return -1

    @property
    def active(self) -> Player:
        return self.players[self.turn.player]


def _module_part(annotation: object) -> bool:
    """Whether a field's type is a module's part: `XState | None`, XState from a module's model."""
    return any(getattr(t, "__module__", "").startswith("service.engine.modules.")
               for t in typing.get_args(annotation))


# The fields of GameState that hold a module's part (named after the module), read off the
# fields themselves: a module's state needs only its field here.
MODULE_PARTS = tuple(f.name for f in msgspec.structs.fields(GameState) if _module_part(f.type))
