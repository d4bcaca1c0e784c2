"""Where the components of a game lie, for the consistency checks of the base game and the
modules: `Place`, a place holding components by their bare ids (a hand, the bag), and the one
walk over every tile a state holds off the bag (`lying`), which every check that looks at all
tiles reads, each wording its place its own way (`tiles_in_play` words it for most)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from typing import NamedTuple

from .catalogue import FOUNTAIN
from .state import GameState, MarketSpace, PlacedTile, Tile
from .text import Text, t
from .violations import INCONSISTENT, Violation


class Place(NamedTuple):
    """A place of the state that holds components by their bare catalogue ids (a hand, the bag,
    the market): `ids` lie there, and it may hold only the ids in `holds`; `why` says what it
    holds ("it holds only money cards"), `rule` the rule a misplaced id breaks. The consistency
    check refuses a component of the wrong kind before any other check reads the place, so no
    module ever meets, say, a money card where a tile must lie. A module may name its own rule
    for a place of another (walls: no wall card in a hand): that refusal is given instead."""

    where: str  # a Text (a str)
    ids: tuple[str, ...]
    holds: Container[str]
    why: str  # a Text (a str)
    rule: str = INCONSISTENT


class Lying(NamedTuple):
    """A tile of the state and where it lies: `zone` is alhambra, reserve, held (a player's, who
    is `owner`), dirk (Dirk's tiles, `owner` "Dirk"), market (a market space, the `tile` is
    the space) or removed (out of the game; `owner` "")."""

    tile: Tile | MarketSpace
    zone: str
    owner: str


def lying(state: GameState, market: bool = False) -> Iterator[Lying]:
    """Every tile off the bag: the players' first (in seat order: Alhambra, reserve, held), then
    Dirk's, then (with `market`) the market spaces holding one, and last those out of the game."""
    for p in state.players:
        for placed in p.alhambra:
            yield Lying(placed, "alhambra", p.name)
        for x in p.reserve:
            yield Lying(x, "reserve", p.name)
        for x in p.held:
            yield Lying(x, "held", p.name)
    if state.dirk is not None:
        for x in state.dirk.tiles:
            yield Lying(x, "dirk", "Dirk")
    if market:
        for space in state.market:
            if space.tile is not None:
                yield Lying(space, "market", "")
    for x in state.removed:
        yield Lying(x, "removed", "")


def tiles_in_play(state: GameState) -> Iterator[tuple[Tile, Text, str]]:
    """(tile, where, zone) for every tile off the market and out of the bag (`lying`)."""
    for tile, zone, owner in lying(state):
        if isinstance(tile, PlacedTile):
            yield tile, t("{player}'s {tile} at {pos}", player=owner, tile=tile.tile,
                          pos=str((tile.x, tile.y))), zone
        elif isinstance(tile, Tile):
            yield tile, _where(zone, owner, tile.tile), zone


def _where(zone: str, owner: str, tile: str) -> Text:
    if zone == "reserve":
        return t("{player}'s {tile} in the reserve", player=owner, tile=tile)
    if zone == "held":
        return t("{player}'s held {tile}", player=owner, tile=tile)
    return t("{tile}, out of the game", tile=tile) if zone == "removed" else t("Dirk's {tile}", tile=tile)


def beyond_supply(counts: Mapping[str, int], supply: Mapping[str, int], rule: str,
                  says: Callable[[str, int, int], str]) -> list[Violation]:
    """A violation for each kind counted more often than the game holds of it (positions);
    `says(kind, counted, held)` words the message."""
    return [Violation(rule, says(kind, n, supply.get(kind, 0)))
            for kind, n in sorted(counts.items()) if n > supply.get(kind, 0)]


# --- a module's token census: the tokens the box holds and where each lies -------------------

def tokens_in_box(kind: str, counts: Mapping[str, int]) -> Iterator[str]:
    """`kind:colour` once for each token of each colour the box holds (a module's `expected`:
    servants, chests, inhabitants, animals)."""
    for colour, n in counts.items():
        for _ in range(n):
            yield f"{kind}:{colour}"


def tokens_lying(state: GameState, kind: str, pools: Iterable[tuple[str, Iterable[str]]],
                 on_tile: Callable[[Tile], Iterable[str]]) -> Iterator[tuple[str, str]]:
    """(`kind:colour`, where) for every token of a kind (a module's `located`): those of the
    module's own pools first, each (where, colours), then those on tiles (`tiles_in_play`),
    `on_tile(tile)` giving the colours a tile carries."""
    for where, colours in pools:
        for colour in colours:
            yield f"{kind}:{colour}", where
    for tile, where, _ in tiles_in_play(state):
        for colour in on_tile(tile):
            yield f"{kind}:{colour}", where


def tokens_per_kind(held: Iterable[tuple[str, Tile]], carries: Callable[[Tile], bool],
                    kind_of: Callable[[Tile], str | None],
                    no_kind: Callable[[str, str], Violation]) -> tuple[list[Violation], Counter[str]]:
    """A scoring position's tokens that lie on a building of a kind (a chest on its colour, an
    extension on its type): `held` gives (owner, tile) pairs; each token on a tile of no kind
    is refused, `no_kind(owner, what)` with `what` the fountain or the tile, and the others are
    counted per kind (for `beyond_supply`)."""
    out: list[Violation] = []
    counts: Counter[str] = Counter()
    for owner, tile in held:
        if not carries(tile):
            continue
        kind = kind_of(tile)
        if kind is None:
            out.append(no_kind(owner, t("the fountain") if tile.tile == FOUNTAIN else tile.tile))
        else:
            counts[kind] += 1
    return out, counts

