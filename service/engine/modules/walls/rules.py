"""The Walls (RULES.md §W, seed 003): eight wall cards are shuffled into the money piles 2 to 5.
A wall card turned up by any draw is set aside face up beside the display (drawing goes on).
As their action a player takes a set-aside card and adds its walls, as shown, to one tile of
their Alhambra or reserve: never on a printed wall, and the Alhambra must still obey §4. The added
walls stay on that tile for good and count as walls for every purpose.

Added walls lie on a tile as its `added_walls` token, in the tile's own frame (a tile placed
turned by a Mosaic artist shows them turned with it). Everything of this module is public.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import TypeVar

from msgspec.structs import replace

from ...actions import Action
from ...base.setup import PILES
from ...catalogue import CATALOGUE, FOUNTAIN, SIDES, load_data, parse_walls, walls_text
from ...events import Event
from ...flow import spend_action, with_player
from ...grid import check_layout, rotate
from ...module import ActionRule, Context, Module, TallyPart, ViewPart, register, registered
from ...places import Place
from ...records import Text
from ...rng import Generator
from ...scoring import Position
from ...state import GameState, PlacedTile, Player, Tile
from ...violations import Violation
from .model import UsedWall, WallsState

DATA = load_data("walls")
WALLS: dict[str, int] = {c["id"]: parse_walls(c["walls"]) for c in DATA["cards"]}  # card -> mask
CARDS: tuple[str, ...] = tuple(WALLS)
WALL_CARDS = frozenset(CARDS)
ADDED_AT_MOST = sum(bin(mask).count("1") for mask in WALLS.values())  # wall pieces of all cards
_PRINTED = {FOUNTAIN: 0, **{t.id: t.walls for t in CATALOGUE.tiles.values()}}


class AddWalls(Action, tag="add-walls"):
    """walls.action: take the set-aside wall card `card` and add its walls, as shown (in the
    Alhambra's frame), to the tile `tile` of the player's Alhambra or reserve."""

    card: Text
    tile: Text


class WallCardSetAside(Event, tag="wall-card-set-aside"):
    card: str


class WallsAdded(Event, tag="walls-added"):
    player: str
    card: str
    tile: str
    walls: str  # as shown (N, E, S, W of the Alhambra)


def _walls(state: GameState) -> WallsState:
    assert state.walls is not None
    return state.walls


# --- setup and reveal -----------------------------------------------------------------------

def setup(state: GameState, ctx: Context) -> GameState:
    """The module's part of the state, before the piles take the wall cards (60)."""
    return replace(state, walls=WallsState())


def pile_cards(state: GameState, ctx: Context) -> Iterator[tuple[int, str]]:
    """walls.setup: the wall cards shuffled, two each into the piles 2 to 5."""
    cards = ctx.rng.shuffled(CARDS)
    per = DATA["per_pile"]
    for i, pile in enumerate(DATA["piles"]):
        for card in cards[i * per:(i + 1) * per]:
            yield pile, card


def take_drawn(state: GameState, card: str, ctx: Context) -> GameState | None:
    """walls.reveal: a wall card turned up by any draw (the display's refill, a wisdom power's
    draw) is set aside face up beside the display; the draw goes on without it."""
    if card not in WALLS or state.walls is None:
        return None
    ctx.events.append(WallCardSetAside(card=card))
    return replace(state, walls=replace(state.walls, aside=(*state.walls.aside, card)))


# --- the action ------------------------------------------------------------------------------

def _tile_of(player: Player, tile: str) -> Tile | None:
    for t in (*player.alhambra, *player.reserve):
        if t.tile == tile:
            return t
    return None


def own_frame(tile: Tile, shown: int) -> int:
    """Walls shown in the Alhambra's frame, in the tile's own frame (undoing its rotation)."""
    rotation = getattr(tile, "rotation", 0)
    return rotate(shown, 360 - rotation) if rotation else shown


T = TypeVar("T", bound=Tile)


def with_added(tile: T, own: int) -> T:
    mask = parse_walls(tile.added_walls) if tile.added_walls else 0
    return replace(tile, added_walls=walls_text(mask | own))


def _sides(mask: int) -> str:
    return ", ".join(side for side in SIDES if mask & parse_walls(side))


def problems(state: GameState, player: Player, card: str, tile_id: str) -> list[Violation]:
    walls = _walls(state)
    if card not in walls.aside:
        return [Violation("walls.action", f"{card} is not a wall card set aside beside the display "
                                          f"(set aside: {list(walls.aside)})")]
    tile = _tile_of(player, tile_id)
    if tile is None:
        return [Violation("walls.action", f"{tile_id} is not a tile of {player.name}'s Alhambra or "
                                          "reserve")]
    own = own_frame(tile, WALLS[card])
    existing = _PRINTED[tile.tile] | (parse_walls(tile.added_walls) if tile.added_walls else 0)
    overlap = own & existing
    if overlap:
        shown = rotate(overlap, getattr(tile, "rotation", 0))
        return [Violation("walls.no-overlap", f"{card} would put a wall on the {_sides(shown)} side of "
                                              f"{tile_id}, which already has a wall there")]
    if not isinstance(tile, PlacedTile):
        return []
    after = tuple(with_added(t, own) if t.tile == tile_id else t for t in player.alhambra)
    return [Violation("walls.no-overlap", f"{card} on {tile_id} at ({tile.x}, {tile.y}): the "
                                          f"Alhambra would break {v.rule}: {v.message}")
            for v in check_layout(after)]


def check_add(state: GameState, action: AddWalls) -> list[Violation]:
    return problems(state, state.players[state.turn.player], action.card, action.tile)


def apply_add(state: GameState, action: AddWalls, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    tile = _tile_of(player, action.tile)
    assert tile is not None
    own = own_frame(tile, WALLS[action.card])

    def added(t: Tile) -> Tile:
        return with_added(t, own) if t.tile == action.tile else t

    state = with_player(state, seat, alhambra=tuple(added(t) for t in player.alhambra),
                        reserve=tuple(added(t) for t in player.reserve))
    walls = _walls(state)
    used = UsedWall(card=action.card, player=player.name, tile=action.tile, walls=walls_text(own))
    walls = replace(walls, aside=tuple(c for c in walls.aside if c != action.card),
                    used=(*walls.used, used))
    ctx.events.append(WallsAdded(player=player.name, card=action.card, tile=action.tile,
                                 walls=walls_text(WALLS[action.card])))
    return spend_action(replace(state, walls=walls), another=False)


def candidates_add(state: GameState, seat: int) -> Iterator[AddWalls]:
    player = state.players[seat]
    for card in sorted(set(_walls(state).aside)):
        for t in (*player.alhambra, *player.reserve):
            if not problems(state, player, card, t.tile):
                yield AddWalls(player=player.name, card=card, tile=t.tile)


def sample_add(state: GameState, seat: int, rng: Generator) -> AddWalls | None:
    """A few random (card, tile) pairs; the first legal one (None if none was found)."""
    aside = _walls(state).aside
    if not aside:
        return None
    player = state.players[seat]
    tiles = [t.tile for t in (*player.alhambra, *player.reserve)]
    for _ in range(8):
        card, tile = rng.choice(sorted(aside)), rng.choice(tiles)
        if not problems(state, player, card, tile):
            return AddWalls(player=player.name, card=card, tile=tile)
    return None


# --- components and consistency ---------------------------------------------------------------

def expected(state: GameState) -> Iterator[str]:
    yield from CARDS


def census(state: GameState) -> list[str]:
    walls = state.walls
    if walls is None:
        return []
    return [*walls.aside, *(u.card for u in walls.used)]


def places(state: GameState) -> Iterator[Place]:
    """The wall cards out of the deck; and walls.reveal: a wall card drawn never stays in the
    display, nor reaches a hand or the discard pile (refused under that rule)."""
    walls = state.walls
    if walls is None:
        return
    yield Place("the wall cards set aside", walls.aside, WALL_CARDS, "it holds only wall cards")
    yield Place("the wall cards used", tuple(u.card for u in walls.used), WALL_CARDS,
                "it holds only wall cards")
    reveal = "a wall card drawn is set aside beside the display"
    yield Place("the money display", state.display, NO_WALL_CARD, reveal, "walls.reveal")
    yield Place("the discard pile", state.discard, NO_WALL_CARD, reveal, "walls.reveal")
    for p in state.players:
        yield Place(f"{p.name}'s hand", p.hand, NO_WALL_CARD, reveal, "walls.reveal")


class _NoWallCard:
    """Every id but a wall card's (what the display, the discard pile and hands may hold as far
    as this module is concerned)."""

    def __contains__(self, card: object) -> bool:
        return card not in WALL_CARDS


NO_WALL_CARD = _NoWallCard()


def located(state: GameState) -> Iterator[tuple[str, str]]:
    walls = state.walls
    if walls is None:
        return
    for card in walls.aside:
        yield card, "set aside beside the money display"
    for u in walls.used:
        yield u.card, f"used on {u.player}'s {u.tile} (added walls)"


def turning(modules: Iterable[str]) -> bool:
    """Whether a module on may turn tiles (the `rotation` token: craftsmen.mosaic-artist)."""
    on = set(modules)
    return any("rotation" in m.tokens for m in registered() if m.id in on)


def turnable(tile: str, turned: bool) -> bool:
    """Whether `tile` may have been turned: a building, in a game where a module turns tiles
    (base.place.orientation: only by a Mosaic artist, never the fountain)."""
    return turned and tile != FOUNTAIN


def shapes(card: str, turns: bool) -> frozenset[int]:
    """walls.action: the walls `card` can have put on a tile, in the tile's own frame. They lie
    as shown in the Alhambra's frame, so on a tile never turned they are the card's; a tile
    that may have been turned (`turns`) could have been at any turn when the card was used."""
    if not turns:
        return frozenset((WALLS[card],))
    return frozenset(rotate(WALLS[card], degrees) for degrees in (0, 90, 180, 270))


def consistency(state: GameState) -> list[Violation]:
    """The used wall cards each show their walls (walls.action) without overlap
    (walls.no-overlap), and the added walls of every tile are exactly what they put there
    (walls.fixed); wall cards in the display, the discard pile or a hand are refused by `places`."""
    walls = state.walls
    if walls is None:
        return [Violation("walls.setup", "the walls module is on but the state has no `walls` part")]
    out, on = _walls_of_cards(walls.used, turning(state.modules))
    out += _walls_against_cards(state, on)
    others = [*state.removed, *(state.dirk.tiles if state.dirk is not None else ())]
    out += [Violation("walls.fixed", f"{t.tile} out of the players' tiles carries added walls")
            for t in others if t.added_walls]
    return out


def _walls_of_cards(used: tuple[UsedWall, ...],
                    turned: bool) -> tuple[list[Violation], dict[tuple[str, str], int]]:
    """What the used cards put on each tile, per (player, tile), and the cards that show no such
    walls (walls.action) or put two walls on one side (walls.no-overlap)."""
    out = []
    on: dict[tuple[str, str], int] = {}
    for u in used:
        try:
            mask = parse_walls(u.walls) if u.walls and u.walls != "open" else 0
        except ValueError:  # no walls text at all (a crafted state)
            mask = -1
        if u.card not in WALLS or mask not in shapes(u.card, turnable(u.tile, turned)):
            out.append(Violation("walls.action", f"{u.card} used on {u.player}'s {u.tile} shows no "
                                                 f"walls {u.walls!r}"))
            continue
        key = (u.player, u.tile)
        if on.get(key, 0) & mask:
            out.append(Violation("walls.no-overlap", f"two wall cards put a wall on the same side of "
                                                     f"{u.player}'s {u.tile}"))
        on[key] = on.get(key, 0) | mask
    return out, on


def _walls_against_cards(state: GameState, on: dict[tuple[str, str], int]) -> list[Violation]:
    """walls.fixed: each Alhambra and reserve tile carries exactly the walls its cards put on it,
    none on a printed wall (walls.no-overlap); held tiles carry none; and every card was used on
    a tile of its player's Alhambra or reserve."""
    out = []
    left = dict(on)  # the cards' walls not yet found on a tile
    for p in state.players:
        for t in (*p.alhambra, *p.reserve):
            added = parse_walls(t.added_walls) if t.added_walls else 0
            want = left.pop((p.name, t.tile), 0)
            if added != want:
                out.append(Violation("walls.fixed", f"{p.name}'s {t.tile} carries added walls "
                                                    f"{t.added_walls or 'none'!r} but the wall cards used "
                                                    f"on it show {walls_text(want)!r}"))
            if added & _PRINTED[t.tile]:
                out.append(Violation("walls.no-overlap", f"{p.name}'s {t.tile}: an added wall lies on a "
                                                         "printed wall"))
        out += [Violation("walls.fixed", f"{t.tile} held by {p.name} carries added walls: they are "
                                         "only ever added to Alhambra and reserve tiles")
                for t in p.held if t.added_walls]
    out += [Violation("walls.fixed", f"a wall card was used on {player}'s {tile}, which is not in "
                                     f"{player}'s Alhambra or reserve")
            for player, tile in sorted(left)]
    return out


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: added walls never on printed walls, no more pieces than the cards
    show, and (unless the position is a drawing, `check_layout: false`, like §4) only what the
    wall cards can have put there together (walls.action)."""
    out = []
    total = 0
    walled: list[tuple[str, str, int]] = []  # (field path, tile, added walls) of the players' tiles
    for i, p in enumerate(position.players):
        for zone, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles)):
            walled += [(f"$.players[{i}].{zone}[{j}].added_walls", t.tile, parse_walls(t.added_walls))
                       for j, t in enumerate(tiles) if t.added_walls and not p.dirk]
        for t in (*p.alhambra, *p.reserve, *p.tiles):
            if not t.added_walls:
                continue
            added = parse_walls(t.added_walls)
            total += bin(added).count("1")
            if p.dirk:
                out.append(Violation("walls.fixed", f"{p.name}: Dirk's {t.tile} carries added walls"))
            overlap = added & _PRINTED.get(t.tile, 0)
            if overlap:
                out.append(Violation("walls.no-overlap", f"{p.name}'s {t.tile}: the added walls on its "
                                                         f"{_sides(overlap)} side lie on printed walls "
                                                         "(in the tile's own frame)"))
    if total > ADDED_AT_MOST:
        out.append(Violation("walls.action", f"{total} added wall pieces: the wall cards show only "
                                             f"{ADDED_AT_MOST}"))
    elif position.check_layout:  # a drawing (`check_layout: false`) may show any walls
        out += _beyond_the_cards(walled, turning(position.modules))
    return out


def _beyond_the_cards(walled: list[tuple[str, str, int]], turned: bool) -> list[Violation]:
    """walls.action: each wall card is used once, on one tile, so the added walls of all tiles
    must be shared out among the cards, each tile's walls being exactly the shapes of its cards
    (turned only where `shapes` allows). The first tile that no sharing of the cards can reach
    together with the tiles before it is named."""
    tiles = tuple((tile, mask) for _, tile, mask in walled)

    def fits(k: int) -> bool:  # the first k tiles can be shared out (so can fewer)
        return _share(tiles[:k], frozenset(CARDS), turned, {})

    if fits(len(tiles)):
        return []
    good, bad = 0, len(tiles)
    while bad - good > 1:  # bisect for the shortest beginning that cannot
        mid = (good + bad) // 2
        good, bad = (mid, bad) if fits(mid) else (good, mid)
    path, tile, mask = walled[good]
    before = {0: "", 1: ", besides those of the tile before it"}.get(
        good, f", besides those of the {good} tiles before it")
    turn = "as shown, turned only on a building a Mosaic artist may have turned"
    return [Violation("walls.action", f"{path} is {walls_text(mask)!r} on {tile}: no wall cards show "
                                      f"these walls{before} (each of the {len(CARDS)} cards "
                                      f"{', '.join(CARDS)} adds its walls once, {turn})")]


def _share(tiles: tuple[tuple[str, int], ...], cards: frozenset[str], turned: bool,
           seen: dict[tuple[int, frozenset[str]], bool]) -> bool:
    """Whether `cards` can make up the added walls of `tiles` (each card on at most one tile)."""
    if not tiles:
        return True
    key = (len(tiles), cards)
    if key not in seen:
        tile, mask = tiles[0]
        seen[key] = any(_share(tiles[1:], cards - used, turned, seen)
                        for used in _covers(mask, cards, turnable(tile, turned)))
    return seen[key]


@cache  # at most 16 masks x 256 sets of cards x 2: bounded
def _covers(mask: int, cards: frozenset[str], turns: bool) -> frozenset[frozenset[str]]:
    """Each set of `cards` whose walls, as they can lie on a tile (`shapes`), make up `mask`
    exactly (no two on the same side: walls.no-overlap)."""
    if not mask:
        return frozenset((frozenset(),))
    first = mask & -mask  # some card must cover the lowest side left
    return frozenset(rest | {card} for card in cards for shape in shapes(card, turns)
                     if shape & first and shape & mask == shape
                     for rest in _covers(mask & ~shape, cards - {card}, turns))


def seen(state: GameState, seat: int | None) -> WallsState:
    """walls.reveal: the cards set aside lie face up and used ones on tiles; those still in
    the deck are hidden with the deck."""
    walls = state.walls
    assert walls is not None
    return walls


WALLS_MODULE = register(Module(
    id="walls",
    name="The Walls",
    rule_ids=("walls.setup", "walls.reveal", "walls.action", "walls.no-overlap", "walls.fixed"),
    actions=(ActionRule(action=AddWalls, rule="walls.action", kind="action", check=check_add,
                        apply=apply_add, candidates=candidates_add, sample=sample_add),),
    setup=((PILES - 1, setup),),
    pile_cards=pile_cards,
    take_drawn=take_drawn,
    components=located,
    places=places,
    census=census,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    # A tally's wall may run along the fountain too, which takes added walls (walls.action).
    tally=TallyPart(fountain_walls=4),
    events=(WallCardSetAside, WallsAdded),
    tokens=("added_walls",),
    play_tokens={"added_walls": "walls.action"},  # never on a leftover tile (base.end.leftovers)
    view=ViewPart(WallsState, seen),
    default_data=DATA,
))
