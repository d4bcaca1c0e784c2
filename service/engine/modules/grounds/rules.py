"""New Building Grounds (RULES.md §G, seed 001): building sites in the bag; whoever buys one
chooses a building under construction from the column of the site's number, and the pair is one
tile of that building's type with the site's walls. A site that reaches Dirk takes the top
building of its column.

Where the rulebook is silent (gathered in docs/decisions.md, "New Building Grounds"):
- the top of a column is its first element (the building next to the number tile);
- a bought site's building is chosen before anything else happens (a pending decision of the
  buyer, so before an exact payment's extra action and before a gift to Dirk, which then takes
  the chosen building with the site);
- several leftover sites at the end are chosen for in seat order from the player whose turn
  ended the game; a leftover site removed from the game (tie) takes no building;
- a site without a building (its column was empty) is a tile of no type: it counts for no
  majority, and only its walls matter.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from msgspec.structs import replace

from ...actions import Action, BuyBuilding
from ...catalogue import CATALOGUE, load_data
from ...events import Event
from ...flow import with_player
from ...module import ActionRule, Context, Module, Pending, TallyPart, ViewPart, modules_of_ids, register
from ...records import Text, counts_of
from ...rng import Generator
from ...scoring import Position
from ...scoring.tally import Tally
from ...scoring.tally_checks import field, given, most_bonus, most_buildings, most_leftovers
from ...state import GameState, Tile
from ...violations import Violation
from .model import GroundsState

DATA = load_data("grounds")
SITE_NUMBER: dict[str, int] = {t["id"]: int(t["number"]) for t in DATA["tiles"]}
SITES: tuple[str, ...] = tuple(SITE_NUMBER)
NUMBERS: tuple[int, ...] = tuple(DATA["numbers"])
COLUMN_SIZE: int = DATA["column_size"]
CONSTRUCTIONS: tuple[str, ...] = tuple(c["type"] for c in DATA["constructions"])
PER_TYPE: Counter[str] = Counter(CONSTRUCTIONS)
SETUP_STEP = 11  # after the base game fills the bag (10), before the market is laid (52)
DIRK_STEP = 56  # after Dirk takes his tiles (55)
FINAL_ROUND = 3  # base.end.final-scoring: the round after the leftover tiles are handed out


def _check_data() -> None:
    if any(t not in CATALOGUE.building_types for t in CONSTRUCTIONS):
        raise ValueError("grounds.json: a building under construction of an unknown type")
    if len(CONSTRUCTIONS) != COLUMN_SIZE * len(NUMBERS):
        raise ValueError("grounds.json: the buildings under construction do not fill the columns")
    if set(SITE_NUMBER.values()) - set(NUMBERS) or any(s not in CATALOGUE.tiles for s in SITES):
        raise ValueError("grounds.json: a site with an unknown number, or not in the catalogue")


_check_data()


class ChooseConstruction(Action, tag="choose-construction"):
    """grounds.buy: put the building under construction of type `building`, taken from the
    column of the site's number, on the held building site `site`."""

    site: Text
    building: Text


class GroundLaid(Event, tag="ground-laid"):
    columns: tuple[tuple[str, ...], ...]


class ConstructionChosen(Event, tag="construction-chosen"):
    player: str
    site: str
    building: str
    column: int


class SiteBuiltForDirk(Event, tag="site-built-for-dirk"):
    """grounds.dirk: a site of Dirk's took the top building of its column."""

    site: str
    building: str


def is_site(tile: str) -> bool:
    return tile in SITE_NUMBER


def column_of(state: GameState, site: str) -> tuple[str, ...]:
    grounds = state.grounds
    assert grounds is not None
    return grounds.columns[NUMBERS.index(SITE_NUMBER[site])]


def with_column(state: GameState, site: str, column: tuple[str, ...]) -> GameState:
    grounds = state.grounds
    assert grounds is not None
    columns = list(grounds.columns)
    columns[NUMBERS.index(SITE_NUMBER[site])] = column
    return replace(state, grounds=replace(grounds, columns=tuple(columns)))


def waiting(tile: Tile) -> bool:
    """A site with no building on it yet."""
    return tile.construction is None and tile.tile in SITE_NUMBER


# --- setup and Dirk -------------------------------------------------------------------------

def setup(state: GameState, ctx: Context) -> GameState:
    """grounds.setup: the sites go into the bag, which is shuffled again; 3 random buildings
    under construction lie face up under each number tile."""
    bag = ctx.rng.shuffled((*state.bag, *SITES))
    shuffled = ctx.rng.shuffled(CONSTRUCTIONS)
    columns = tuple(shuffled[i * COLUMN_SIZE:(i + 1) * COLUMN_SIZE] for i in range(len(NUMBERS)))
    ctx.events.append(GroundLaid(columns=columns))
    return replace(state, bag=bag, grounds=GroundsState(columns=columns))


def build_for_dirk(state: GameState, ctx: Context) -> GameState:
    """grounds.dirk: each site that reached Dirk takes the top building of its column (an empty
    column: it stays a bare site, counting for nothing)."""
    dirk = state.dirk
    if dirk is None or state.grounds is None:
        return state
    if not any(waiting(t) and column_of(state, t.tile) for t in dirk.tiles):
        return state
    tiles = []
    for t in dirk.tiles:
        column = column_of(state, t.tile) if waiting(t) else ()
        if column:
            state = with_column(state, t.tile, column[1:])
            t = replace(t, construction=column[0])
            ctx.events.append(SiteBuiltForDirk(site=t.tile, building=column[0]))
        tiles.append(t)
    return replace(state, dirk=replace(dirk, tiles=tuple(tiles)))


def after_action(state: GameState, action: Action, ctx: Context) -> GameState:
    """grounds.dirk: a site given to Dirk (or reaching him any other way) is built at once."""
    return build_for_dirk(state, ctx)


def after_scoring_round(state: GameState, round_: int, ctx: Context) -> GameState:
    """grounds.dirk: sites among the tiles Dirk draws after a scoring round (dirk.refills)."""
    return build_for_dirk(state, ctx)


# --- buying and choosing --------------------------------------------------------------------

def check_buy(state: GameState, action: BuyBuilding) -> list[Violation]:
    """grounds.buy (Decision): a site whose column is empty cannot be bought."""
    if not is_site(action.tile) or state.grounds is None:
        return []
    if not any(s.tile == action.tile for s in state.market) or column_of(state, action.tile):
        return []
    return [Violation("grounds.buy", f"{action.tile} cannot be bought: column "
                                     f"{SITE_NUMBER[action.tile]} holds no building under construction")]


def _choosers(state: GameState) -> Iterator[int]:
    """Who may hold a site waiting for its building: the active player during play; at the end
    of the game the recipients of leftovers, from the active seat round the table."""
    if state.phase == "play":
        yield state.turn.player
    elif state.phase == "final-placement":
        n = len(state.players)
        for k in range(n):
            yield (state.turn.player + k) % n


def pending(state: GameState) -> Pending | None:
    """A held site waiting for its building, with buildings left in its column."""
    if state.grounds is None:
        return None
    for seat in _choosers(state):
        for t in state.players[seat].held:
            if waiting(t) and column_of(state, t.tile):
                return Pending(seat=seat, rule="grounds.buy",
                               what=f"choose the building for {t.tile} from column "
                                    f"{SITE_NUMBER[t.tile]} {list(column_of(state, t.tile))} "
                                    "(choose-construction)",
                               actions=(ChooseConstruction,))
    return None


def _held_site(state: GameState, seat: int, site: str) -> Tile | None:
    for t in state.players[seat].held:
        if t.tile == site and waiting(t):
            return t
    return None


def check_choose(state: GameState, action: ChooseConstruction) -> list[Violation]:
    seat = state.seat_of(action.player)
    if _held_site(state, seat, action.site) is None:
        waiting_sites = [t.tile for t in state.players[seat].held if waiting(t)]
        return [Violation("grounds.buy", f"{action.player} holds no building site {action.site!r} "
                                         f"waiting for its building (waiting: {waiting_sites})")]
    column = column_of(state, action.site)
    if action.building not in column:
        return [Violation("grounds.buy", f"column {SITE_NUMBER[action.site]} holds no "
                                         f"{action.building!r} under construction: it holds "
                                         f"{list(column)}")]
    return []


def apply_choose(state: GameState, action: ChooseConstruction, ctx: Context) -> GameState:
    seat = state.seat_of(action.player)
    site = _held_site(state, seat, action.site)
    assert site is not None
    column = list(column_of(state, action.site))
    column.remove(action.building)
    state = with_column(state, action.site, tuple(column))
    held = tuple(replace(t, construction=action.building) if t is site else t
                 for t in state.players[seat].held)
    ctx.events.append(ConstructionChosen(player=action.player, site=action.site,
                                         building=action.building, column=SITE_NUMBER[action.site]))
    return with_player(state, seat, held=held)


def candidates_choose(state: GameState, seat: int) -> Iterator[ChooseConstruction]:
    name = state.players[seat].name
    for t in state.players[seat].held:
        if waiting(t):
            for building in dict.fromkeys(column_of(state, t.tile)):
                yield ChooseConstruction(player=name, site=t.tile, building=building)


def sample_choose(state: GameState, seat: int, rng: Generator) -> ChooseConstruction | None:
    options = list(candidates_choose(state, seat))
    return rng.choice(options) if options else None


# --- components and consistency -------------------------------------------------------------

def expected(state: GameState) -> Iterator[str]:
    yield from SITES
    for building in CONSTRUCTIONS:
        yield f"construction:{building}"


def _tiles(state: GameState) -> Iterator[tuple[Tile, str, str]]:
    """Every tile off the market and out of the bag: (tile, where, zone)."""
    for p in state.players:
        for placed in p.alhambra:
            yield placed, f"{p.name}'s Alhambra at ({placed.x}, {placed.y})", "owned"
        for t in p.reserve:
            yield t, f"{p.name}'s reserve", "owned"
        for t in p.held:
            yield t, f"{p.name}'s held buildings", "held"
    if state.dirk is not None:
        for t in state.dirk.tiles:
            yield t, "Dirk's tiles", "dirk"
    for t in state.removed:
        yield t, "out of the game", "removed"


def located(state: GameState) -> Iterator[tuple[str, str]]:
    """The buildings under construction (the sites are tiles, which the base game locates)."""
    if state.grounds is not None:
        for number, column in zip(NUMBERS, state.grounds.columns, strict=False):
            for building in column:
                yield f"construction:{building}", f"column {number} of the building ground"
    for t, where, _ in _tiles(state):
        if t.construction is not None:
            yield f"construction:{t.construction}", f"on {t.tile} in {where}"


def consistency(state: GameState) -> list[Violation]:
    grounds = state.grounds
    if grounds is None:
        return [Violation("grounds.setup", "the grounds module is on but the state has no `grounds` part")]
    out = []
    if len(grounds.columns) != len(NUMBERS):
        return [Violation("grounds.setup", f"the building ground has {len(NUMBERS)} columns, "
                                           f"not {len(grounds.columns)}")]
    built = Counter(SITE_NUMBER[t.tile] for t, _, _ in _tiles(state)
                    if t.construction is not None and is_site(t.tile))
    for number, column in zip(NUMBERS, grounds.columns, strict=True):
        # Seeds 001.5, 001.7, 001.12: a column is laid with COLUMN_SIZE buildings, and only a
        # site of its number takes one (its buyer's choice, or Dirk's top one).
        left = COLUMN_SIZE - built[number]
        if len(column) != left:
            out.append(Violation("grounds.setup", f"column {number} holds {len(column)} buildings under "
                                                  f"construction, but it was laid with {COLUMN_SIZE} and "
                                                  f"{built[number]} sites numbered {number} took one: "
                                                  f"{max(left, 0)} must be left"))
        out += [Violation("grounds.setup", f"column {number} holds {b!r}, which is no building type")
                for b in column if b not in PER_TYPE]
    for t, where, zone in _tiles(state):
        out += _token_problems(t, where)
        # A held site waits for its buyer's choice; a site out of the game takes no building.
        if waiting(t) and zone in ("owned", "dirk") and column_of(state, t.tile):
            rule = "grounds.dirk" if zone == "dirk" else "grounds.buy"
            out.append(Violation(rule, f"{t.tile} in {where} has no building on it though column "
                                       f"{SITE_NUMBER[t.tile]} still holds {list(column_of(state, t.tile))}"))
    return out


def _token_problems(t: Tile, where: str) -> list[Violation]:
    if t.construction is None:
        return []
    if not is_site(t.tile):
        return [Violation("grounds.buy", f"{t.tile} in {where} carries the building under construction "
                                         f"{t.construction!r}, but only a building site can")]
    if t.construction not in PER_TYPE:
        return [Violation("grounds.setup", f"{t.tile} in {where} carries {t.construction!r}, which is "
                                           f"no building type ({', '.join(PER_TYPE)})")]
    return []


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: a `construction` only on a site, of a known type, at most 2 a type;
    bare sites only where they can be (`bare_sites`)."""
    out = []
    counts: Counter[str] = Counter()
    for p in position.players:
        for t in (*p.alhambra, *p.reserve, *p.tiles):
            out += _token_problems(t, f"{p.name}'s tiles")
            if t.construction is not None and t.construction in PER_TYPE:
                counts[t.construction] += 1
    out += [Violation("grounds.setup", f"{n} buildings under construction of type {b}: there are "
                                       f"only {PER_TYPE[b]}")
            for b, n in sorted(counts.items()) if n > PER_TYPE[b]]
    return out + _bare_in_position(position)


# The sites that can find their column empty: a column loses a building only to a site of its
# number (seeds 001.5, 001.7, 001.12), so only the sites of a number beyond its column's size.
# With the default data (2 sites a number, columns of 3) none.
EMPTIABLE = sum(max(0, n - COLUMN_SIZE) for n in Counter(SITE_NUMBER.values()).values())


def bare_sites(round_: int, modules: Sequence[Module]) -> int:
    """The bare sites (no building on them) the Alhambras can hold in scoring round `round_`. A
    site is bought only while its column holds a building and is built before it is placed
    (grounds.buy), so before round 3 none; only a leftover site at the game's end can find its
    column empty, so in round 3 at most the leftover tiles the market hands out, and only as
    many as the columns can run out for (EMPTIABLE)."""
    if round_ < FINAL_ROUND:
        return 0
    return min(EMPTIABLE, most_leftovers(modules))


def _bare_in_position(position: Position) -> list[Violation]:
    """grounds.buy: the bare sites of players' Alhambras and reserves, at most `bare_sites`."""
    bare = [f"$.players[{i}].{where}[{j}]" for i, p in enumerate(position.players) if not p.dirk
            for where, tiles in (("alhambra", p.alhambra), ("reserve", p.reserve))
            for j, t in enumerate(tiles) if waiting(t)]
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    most = bare_sites(position.round, modules)
    if len(bare) <= most:
        return []
    early = position.round < FINAL_ROUND
    when = (f"in round {position.round} none: a site is built before it is placed" if early
            else f"at most {most}: only leftover sites at the game's end can find their column empty, "
                 f"and a column of {COLUMN_SIZE} runs out for no more than {EMPTIABLE} of them")
    return [Violation("grounds.buy", f"{', '.join(bare)}: {len(bare)} building sites without a building, "
                                     f"but {when}")]


# --- a tally: the buildings under construction are among the buildings counted --------------

def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """grounds.setup (seeds 001.3, 001.7): each building under construction stands on one of
    the 8 building sites, so the buildings of the types on the table beyond the other tiles of
    each type are at most 8 (though 2 of each type, 12, exist)."""
    return _beyond_sites(position, tallies, Counter(), "")


def check_of_lines(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """`check_tally` on an earlier round's majority lines (a score sheet), whose counts may
    exceed the buildings by what modules add (extensions.score: an extended building counts
    twice): beyond that too."""
    spare = most_bonus(modules_of_ids(position.modules, any(p.dirk for p in position.players)))
    return _beyond_sites(position, tallies, spare, " and the most modules add to the counts "
                                                   "(extensions)" if spare else "")


def _beyond_sites(position: Position, tallies: Sequence[Tally], spare: Counter[str],
                  besides_tiles: str) -> list[Violation]:
    """The table's buildings of each type beyond its other tiles (and `spare`) are buildings
    under construction, on at most one site each."""
    modules = modules_of_ids(position.modules, any(p.dirk for p in position.players))
    others = most_buildings(modules) - PER_TYPE
    table: Counter[str] = Counter()
    for t in tallies:
        table.update(counts_of(t.buildings))
    beyond = {k: n for k in CATALOGUE.building_types if (n := table[k] - others[k] - spare[k]) > 0}
    if sum(beyond.values()) <= len(SITES):
        return []
    named = [f"{field(i, f'buildings.{k}')} = {n}" for i, _, t in given(position)
             for k in beyond if (n := getattr(t.buildings, k))]
    tiles = [p.name for p, t in zip(position.players, tallies, strict=True)
             if p.tally is None and any(getattr(t.buildings, k) for k in beyond)]
    besides = f" and {', '.join(tiles)}'s tiles" if tiles else ""
    listed = ", ".join(f"{n} {k}" for k, n in beyond.items())
    return [Violation("grounds.setup", f"{', '.join(named)}{besides}: {listed} beyond the other tiles of the "
                                       f"type{besides_tiles} are {sum(beyond.values())} buildings under "
                                       f"construction on the table, but each stands on a building site "
                                       f"and there are only {len(SITES)}")]


def seen(state: GameState, seat: int | None) -> GroundsState:
    """grounds.setup: the columns lie face up; the sites in the bag are hidden with the bag."""
    grounds = state.grounds
    assert grounds is not None
    return grounds


GROUNDS = register(Module(
    id="grounds",
    name="New Building Grounds",
    rule_ids=("grounds.setup", "grounds.buy", "grounds.score", "grounds.dirk"),
    actions=(ActionRule(action=ChooseConstruction, rule="grounds.buy", kind="decision",
                        check=check_choose, apply=apply_choose, candidates=candidates_choose,
                        sample=sample_choose, phases=("play", "final-placement")),),
    checks=((BuyBuilding, check_buy),),
    setup=((SETUP_STEP, setup), (DIRK_STEP, build_for_dirk)),
    after_action=after_action,
    after_scoring_round=after_scoring_round,
    pending=pending,
    components=located,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    # A tally counts a site by its building (grounds.score): the buildings under construction
    # add to the buildings of each type, and a bare site is a tile of no type (its walls count).
    tally=TallyPart(more_buildings=PER_TYPE, more_tiles=bare_sites, check=check_tally,
                    check_of_lines=check_of_lines),
    events=(GroundLaid, ConstructionChosen, SiteBuiltForDirk),
    tokens=("construction",),
    view=ViewPart(GroundsState, seen),
    default_data=DATA,
))
