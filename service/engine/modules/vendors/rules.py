"""Street Vendors and Inhabitants (RULES.md §V, seed 003): each player's vendor disc carries three
inhabitants; placing a building on the disc's space lets an inhabitant of its colour move in (or
swaps one with the supply); the disc is then put down next to the Alhambra. Inhabitants on
buildings score in sets of different colours.

Hidden information: the setup choices (the three inhabitants of a disc, its space, and so the
supply's colours) until every player has chosen (`model.seen`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Annotated, ClassVar

import msgspec
from msgspec.structs import replace

from ...actions import Action
from ...catalogue import FOUNTAIN, NEIGHBOURS, load_data
from ...events import Event
from ...flow import with_player
from ...module import ActionRule, Context, Module, Pending, TallyPart, ViewPart, register
from ...records import Text, counts_of, per_type
from ...rng import Generator
from ...scoring import Line, Position, PositionPlayer, building_type
from ...scoring.tally import Tally
from ...scoring.tally_checks import field, given, over_buildings, over_table
from ...state import GameState, PlacedTile, Player, Tile
from ...violations import Violation
from .model import Disc, InhabitantCount, OnDisc, Sets, VendorsSeen, VendorsState, VendorsTally

DATA = load_data("vendors")
COLOURS: tuple[str, ...] = tuple(DATA["colours"])
PER_COLOUR: int = DATA["per_colour"]
ON_DISC: int = DATA["on_disc"]
SET_POINTS: tuple[int, ...] = tuple(DATA["set_points"])
SETUP_STEP = 57  # after the deal (50), the market (52) and Dirk (55)
RELOCATE_STEP = 15  # RULES.md §H step 1: with the placement, before the animals (20)
_ORDER = {c: i for i, c in enumerate(COLOURS)}
Coord = Annotated[int, msgspec.Meta(ge=-64, le=64)]


class ChooseInhabitants(Action, tag="choose-inhabitants"):
    """vendors.setup: the three inhabitants (colours, all different) for the disc and the space
    next to the fountain where the disc stands."""

    inhabitants: OnDisc
    x: Coord
    y: Coord


class VisitVendor(Action, tag="visit-vendor"):
    """vendors.visit: `settle` the disc's inhabitant of the building's colour onto the building
    and `take` one from the supply onto the disc; or (no colour matches) swap `give` from the
    disc with `take` from the supply; all null: nothing."""

    settle: Text | None = None
    take: Text | None = None
    give: Text | None = None


class PlaceDisc(Action, tag="place-vendor-disc"):
    """vendors.relocate: put the lifted disc on the empty space (x, y) next to the Alhambra."""

    x: Coord
    y: Coord


class InhabitantsChosen(Event, tag="inhabitants-chosen"):
    """A player made the secret setup choice (not shown until every player has chosen)."""

    player: str


class DiscsRevealed(Event, tag="discs-revealed"):
    """Every player has chosen: the discs (by seat) and the supply are public."""

    discs: tuple[Disc, ...]
    supply: tuple[str, ...]


class DiscLifted(Event, tag="disc-lifted"):
    player: str
    tile: str
    x: int
    y: int


class VendorVisited(Event, tag="vendor-visited"):
    player: str
    settled: str | None
    taken: str | None
    given: str | None


class DiscPlaced(Event, tag="vendor-disc-placed"):
    player: str
    x: int
    y: int


class InhabitantsReturned(Event, tag="inhabitants-returned"):
    """vendors.one-per-building: inhabitants whose buildings left the Alhambra."""

    tiles: tuple[str, ...]
    inhabitants: tuple[str, ...]


class VendorsLine(Line, tag="vendors"):
    """vendors.score: the inhabitants on buildings and the sets they form (sizes)."""

    rule: ClassVar[str] = "vendors.score"

    inhabitants: InhabitantCount
    sets: Sets


def colour_of(tile: Tile) -> str | None:
    """The colour of inhabitant a tile may take: its building type; none for the fountain."""
    if tile.tile == FOUNTAIN:
        return None
    return building_type(tile)


def sorted_colours(colours: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(colours, key=lambda c: _ORDER.get(c, len(COLOURS))))


def _without(colours: tuple[str, ...], colour: str) -> tuple[str, ...]:
    out = list(colours)
    out.remove(colour)
    return tuple(out)


def _vendors(state: GameState) -> VendorsState:
    assert state.vendors is not None
    return state.vendors


def _with_disc(state: GameState, seat: int, **changes: object) -> GameState:
    vendors = _vendors(state)
    discs = list(vendors.discs)
    discs[seat] = replace(discs[seat], **changes)
    return replace(state, vendors=replace(vendors, discs=tuple(discs)))


# --- setup (vendors.setup) ------------------------------------------------------------------

def setup(state: GameState, ctx: Context) -> GameState:
    """Every player takes one inhabitant of each colour; the rest form the supply."""
    n = len(state.players)
    supply = sorted_colours([c for c in COLOURS for _ in range(PER_COLOUR - n)])
    discs = tuple(Disc(inhabitants=COLOURS) for _ in range(n))
    return replace(state, vendors=VendorsState(supply=supply, discs=discs))


FOUNTAIN_SIDES = tuple((dx, dy) for dx, dy, _, _ in NEIGHBOURS)


def check_choose(state: GameState, action: ChooseInhabitants) -> list[Violation]:
    rule = "vendors.setup"
    chosen = action.inhabitants
    out = [Violation(rule, f"{c!r} is no inhabitant colour ({', '.join(COLOURS)})")
           for c in chosen if c not in COLOURS]
    if len(chosen) != ON_DISC or len(set(chosen)) != len(chosen):
        out.append(Violation(rule, f"the disc takes {ON_DISC} inhabitants of different colours, "
                                   f"not {list(chosen)}"))
    if (action.x, action.y) not in FOUNTAIN_SIDES:
        out.append(Violation(rule, f"the disc stands next to the fountain, not at ({action.x}, {action.y})"))
    return out


def apply_choose(state: GameState, action: ChooseInhabitants, ctx: Context) -> GameState:
    seat = state.seat_of(action.player)
    vendors = _vendors(state)
    disc = vendors.discs[seat]
    rest = list(disc.inhabitants)
    for c in action.inhabitants:
        rest.remove(c)
    state = _with_disc(state, seat, inhabitants=sorted_colours(action.inhabitants), chosen=True,
                       x=action.x, y=action.y)
    vendors = _vendors(state)
    state = replace(state, vendors=replace(vendors, supply=sorted_colours([*vendors.supply, *rest])))
    ctx.events.append(InhabitantsChosen(player=action.player))
    vendors = _vendors(state)
    if all(d.chosen for d in vendors.discs):
        ctx.events.append(DiscsRevealed(discs=vendors.discs, supply=vendors.supply))
    return state


def candidates_choose(state: GameState, seat: int) -> Iterator[ChooseInhabitants]:
    name = state.players[seat].name
    for three in combinations(COLOURS, ON_DISC):
        for x, y in FOUNTAIN_SIDES:
            yield ChooseInhabitants(player=name, inhabitants=three, x=x, y=y)


def sample_choose(state: GameState, seat: int, rng: Generator) -> ChooseInhabitants:
    three = tuple(rng.shuffled(list(COLOURS))[:ON_DISC])
    x, y = rng.choice(list(FOUNTAIN_SIDES))
    return ChooseInhabitants(player=state.players[seat].name, inhabitants=sorted_colours(three), x=x, y=y)


# --- the visit (vendors.visit) --------------------------------------------------------------

def _building_at(player: Player, x: int, y: int) -> PlacedTile | None:
    return next((t for t in player.alhambra if t.x == x and t.y == y), None)


def matching_colour(state: GameState, seat: int) -> str | None:
    """The visited building's colour if the disc carries an inhabitant of it; None: no colour
    matches (only then a swap, vendors.visit)."""
    disc = _vendors(state).discs[seat]
    building = _building_at(state.players[seat], disc.x, disc.y)
    colour = None if building is None else colour_of(building)
    return colour if colour in disc.inhabitants else None


def can_settle(state: GameState, seat: int) -> str | None:
    """The colour the visited building takes from the disc: a colour matches and the building
    holds no inhabitant yet (vendors.one-per-building)."""
    disc = _vendors(state).discs[seat]
    building = _building_at(state.players[seat], disc.x, disc.y)
    return None if building is None or building.inhabitant else matching_colour(state, seat)


def check_visit(state: GameState, action: VisitVendor) -> list[Violation]:
    """vendors.visit: when a colour matches and the building is free, the inhabitant moves in
    (and the disc is restocked from the supply); otherwise nobody moves in, and a swap is
    allowed only when no colour matches at all."""
    seat = state.seat_of(action.player)
    match = can_settle(state, seat)
    if match is not None:
        return _settling_problems(state, action, match)
    if action.settle is not None:
        return _no_settling(state, seat, action.settle)
    return _swap_problems(state, seat, action)


def _settling_problems(state: GameState, action: VisitVendor, match: str) -> list[Violation]:
    """A colour matches a free building: no swap; the `match` inhabitant moves in or nobody
    does; once one moved in the disc is restocked from the supply, if it holds any."""
    rule = "vendors.visit"
    supply = _vendors(state).supply
    if action.give is not None:
        return [Violation(rule, f"the disc carries a {match} inhabitant for the {match} building: "
                                "no swap (only when no colour matches)")]
    if action.settle is None:
        if action.take is not None:
            return [Violation(rule, "an inhabitant is taken from the supply only after one moves "
                                    "onto the building")]
        return []
    if action.settle != match:
        return [Violation(rule, f"only a {match} inhabitant moves onto the {match} building, "
                                f"not a {action.settle} one")]
    if not supply:
        if action.take is not None:
            return [Violation("vendors.one-per-building",
                              f"the supply is empty: no {action.take} inhabitant to take")]
        return []
    if action.take is None:
        return [Violation(rule, "the disc is restocked: name an inhabitant of the supply in `take`")]
    if action.take not in supply:
        return [Violation(rule, f"the supply holds no {action.take} inhabitant")]
    return []


def _no_settling(state: GameState, seat: int, settle: str) -> list[Violation]:
    """Nobody moves in where no colour matches a free building: vendors.one-per-building if the
    building has its inhabitant already, else vendors.visit."""
    disc = _vendors(state).discs[seat]
    building = _building_at(state.players[seat], disc.x, disc.y)
    what = building.tile if building is not None else "the building"
    if building is not None and building.inhabitant:  # a building holds at most one
        return [Violation("vendors.one-per-building", f"{what} already has an inhabitant: no "
                                                      f"{settle} inhabitant moves in")]
    return [Violation("vendors.visit", f"{what} has no inhabitant of its colour on the disc: no "
                                       f"{settle} inhabitant moves in")]


def _swap_problems(state: GameState, seat: int, action: VisitVendor) -> list[Violation]:
    """vendors.visit's swap, only when no colour matches: one inhabitant of the disc (`give`)
    for one of the supply (`take`), both named, or none."""
    rule = "vendors.visit"
    vendors = _vendors(state)
    disc = vendors.discs[seat]
    matched = matching_colour(state, seat)
    if matched is not None and action.give is not None:  # its building already has one
        return [Violation(rule, f"the disc carries a {matched} inhabitant for the {matched} building, "
                                "which already has its inhabitant: no swap (only when no colour "
                                "matches)")]
    if (action.give is None) != (action.take is None):
        return [Violation(rule, "a swap names both `give` (from the disc) and `take` (from the supply)")]
    out = []
    if action.give is not None and action.give not in disc.inhabitants:
        out.append(Violation(rule, f"the disc carries no {action.give} inhabitant"))
    if action.take is not None and action.take not in vendors.supply:
        out.append(Violation(rule, f"the supply holds no {action.take} inhabitant"))
    return out


def apply_visit(state: GameState, action: VisitVendor, ctx: Context) -> GameState:
    seat = state.seat_of(action.player)
    vendors = _vendors(state)
    disc = vendors.discs[seat]
    on_disc, supply = disc.inhabitants, vendors.supply
    if action.settle is not None:
        on_disc = _without(on_disc, action.settle)
        player = state.players[seat]
        alhambra = tuple(replace(t, inhabitant=True) if (t.x, t.y) == (disc.x, disc.y) else t
                         for t in player.alhambra)
        state = with_player(state, seat, alhambra=alhambra)
    if action.give is not None:
        on_disc = _without(on_disc, action.give)
        supply = (*supply, action.give)
    if action.take is not None:
        supply = _without(supply, action.take)
        on_disc = (*on_disc, action.take)
    state = _with_disc(state, seat, inhabitants=sorted_colours(on_disc), visiting=False)
    state = replace(state, vendors=replace(_vendors(state), supply=sorted_colours(supply)))
    ctx.events.append(VendorVisited(player=action.player, settled=action.settle, taken=action.take,
                                    given=action.give))
    return state


def candidates_visit(state: GameState, seat: int) -> Iterator[VisitVendor]:
    name = state.players[seat].name
    vendors = _vendors(state)
    yield VisitVendor(player=name)
    match = can_settle(state, seat)
    supply = sorted(set(vendors.supply))
    if match is not None:
        if not supply:
            yield VisitVendor(player=name, settle=match)
        for take in supply:
            yield VisitVendor(player=name, settle=match, take=take)
        return
    if matching_colour(state, seat) is not None:  # a match on an inhabited building: nothing
        return
    for give in sorted(set(vendors.discs[seat].inhabitants)):
        for take in supply:
            yield VisitVendor(player=name, give=give, take=take)


def sample_visit(state: GameState, seat: int, rng: Generator) -> VisitVendor | None:
    options = list(candidates_visit(state, seat))
    return options[-1 - rng.below(len(options))] if rng.below(4) else options[0] if options else None


# --- putting the disc down (vendors.relocate) -----------------------------------------------

def free_spaces(player: Player) -> list[tuple[int, int]]:
    """The empty spaces sharing a side with a tile of the Alhambra."""
    taken = {(t.x, t.y) for t in player.alhambra}
    return sorted({(t.x + dx, t.y + dy) for t in player.alhambra for dx, dy in FOUNTAIN_SIDES}
                  - taken)


def check_place(state: GameState, action: PlaceDisc) -> list[Violation]:
    player = state.players[state.seat_of(action.player)]
    if (action.x, action.y) in {(t.x, t.y) for t in player.alhambra}:
        return [Violation("vendors.relocate", f"({action.x}, {action.y}) is not empty")]
    if (action.x, action.y) not in free_spaces(player):
        return [Violation("vendors.relocate", f"({action.x}, {action.y}) shares no side with a tile "
                                              f"of {player.name}'s Alhambra")]
    return []


def apply_place(state: GameState, action: PlaceDisc, ctx: Context) -> GameState:
    seat = state.seat_of(action.player)
    ctx.events.append(DiscPlaced(player=action.player, x=action.x, y=action.y))
    return _with_disc(state, seat, x=action.x, y=action.y, lifted=False)


def candidates_place(state: GameState, seat: int) -> Iterator[PlaceDisc]:
    name = state.players[seat].name
    for x, y in free_spaces(state.players[seat]):
        yield PlaceDisc(player=name, x=x, y=y)


def sample_place(state: GameState, seat: int, rng: Generator) -> PlaceDisc | None:
    spaces = free_spaces(state.players[seat])
    if not spaces:
        return None
    x, y = rng.choice(spaces)
    return PlaceDisc(player=state.players[seat].name, x=x, y=y)


# --- pending decisions ----------------------------------------------------------------------

def pending(state: GameState) -> Pending | None:
    vendors = state.vendors
    if vendors is None or state.phase == "over":
        return None
    for seat, disc in enumerate(vendors.discs):
        if not disc.chosen:
            return Pending(seat=seat, rule="vendors.setup",
                           what="choose the disc's inhabitants and space (choose-inhabitants)",
                           actions=(ChooseInhabitants,))
    for seat, disc in enumerate(vendors.discs):
        if disc.visiting:
            return Pending(seat=seat, rule="vendors.visit",
                           what="decide on the vendor's visit (visit-vendor)", actions=(VisitVendor,))
    turn = state.turn
    if state.phase != "play" or turn.actions or state.active.held:
        return None
    if vendors.discs[turn.player].lifted:
        return Pending(seat=turn.player, rule="vendors.relocate",
                       what="put the vendor disc down (place-vendor-disc)", actions=(PlaceDisc,))
    return None


# --- after every action: returns and lifts --------------------------------------------------

def after_action(state: GameState, action: Action, ctx: Context) -> GameState:
    """vendors.one-per-building: inhabitants off the Alhambra go back to the supply;
    vendors.visit: a building on a disc's space lifts the disc (the visit is pending)."""
    vendors = state.vendors
    if vendors is None:
        return state
    returned: list[str] = []
    tiles: list[str] = []

    def strip(ts: tuple[Tile, ...]) -> tuple[Tile, ...]:
        out = []
        for t in ts:
            if t.inhabitant:
                colour = colour_of(t)
                if colour is not None:
                    returned.append(colour)
                tiles.append(t.tile)
                t = replace(t, inhabitant=False)
            out.append(t)
        return tuple(out)

    for seat, p in enumerate(state.players):
        if any(t.inhabitant for t in (*p.reserve, *p.held)):
            state = with_player(state, seat, reserve=strip(p.reserve), held=strip(p.held))
    if any(t.inhabitant for t in state.removed):
        state = replace(state, removed=strip(state.removed))
    if state.dirk is not None and any(t.inhabitant for t in state.dirk.tiles):
        state = replace(state, dirk=replace(state.dirk, tiles=strip(state.dirk.tiles)))
    if returned:
        state = replace(state, vendors=replace(vendors, supply=sorted_colours([*vendors.supply, *returned])))
        ctx.events.append(InhabitantsReturned(tiles=tuple(tiles), inhabitants=tuple(returned)))
    for seat, disc in enumerate(_vendors(state).discs):
        if not disc.chosen or disc.lifted:
            continue
        building = _building_at(state.players[seat], disc.x, disc.y)
        if building is not None:
            state = _with_disc(state, seat, lifted=True, visiting=True)
            ctx.events.append(DiscLifted(player=state.players[seat].name, tile=building.tile,
                                         x=disc.x, y=disc.y))
    return state


# --- scoring --------------------------------------------------------------------------------

def sets_of(colours: list[str]) -> list[int]:
    """The sizes of the sets of different colours that score the most: with points growing
    faster than the set size (convex), taking one of every colour left each time is best."""
    counts = Counter(colours)
    sizes = []
    while counts:
        sizes.append(len(counts))
        counts = Counter({c: n - 1 for c, n in counts.items() if n > 1})
    return sizes


def set_points(size: int) -> int:
    return SET_POINTS[size - 1]


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    """vendors.score: the inhabitants on buildings of the Alhambra in sets of different colours."""
    out: dict[str, list[Line]] = {}
    for p in position.players:
        colours = [] if p.dirk else settled(p.alhambra)
        out[p.name] = [line_of(colours)]
    return out


def settled(alhambra: Sequence[PlacedTile]) -> list[str]:
    """The colours of the inhabitants on buildings of the Alhambra."""
    return [c for t in alhambra if t.inhabitant and (c := colour_of(t)) is not None]


def line_of(colours: list[str]) -> VendorsLine:
    sizes = sets_of(colours)
    return VendorsLine(points=sum(set_points(s) for s in sizes), inhabitants=sum(sizes),
                       sets=tuple(sizes))


# --- a tally: the settled inhabitants per colour, counted -----------------------------------

def count_tally(p: PositionPlayer) -> VendorsTally | None:
    return None if p.dirk else VendorsTally(inhabitants=per_type(Counter(settled(p.alhambra))))


def score_tally(position: Position, round_: int, tallies: Sequence[Tally]) -> dict[str, list[Line]]:
    """vendors.score from the counts per colour: the same sets (seed 003.39: 1, 3, 6, 10, 15, 21)."""
    out: dict[str, list[Line]] = {}
    for p, t in zip(position.players, tallies, strict=True):
        counts = counts_of(t.vendors.inhabitants) if t.vendors is not None else {}
        out[p.name] = [line_of([c for c, n in counts.items() for _ in range(n)])]
    return out


def tally_of_lines(p: PositionPlayer, lines: Sequence[Line]) -> VendorsTally | None:
    """The inhabitants as an earlier round's vendors line carries them: its sets (sizes) give the
    number of each colour but not which colour (the n-th colour is in every set of more than n
    colours), and the sets formed from that are the same; Dirk has none (vendors.one-per-building)."""
    if p.dirk:
        return None
    sizes = next(line.sets for line in lines if isinstance(line, VendorsLine))
    return VendorsTally(inhabitants=per_type({c: sum(1 for s in sizes if s > n)
                                              for n, c in enumerate(COLOURS)}))


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """One inhabitant a building, of its colour (vendors.one-per-building), none at Dirk's;
    at most 7 of a colour (vendors.setup)."""
    out = [Violation("vendors.one-per-building", f"{field(i, 'vendors.inhabitants')}: Dirk has no "
                                                 "Alhambra, so no inhabitant settles with him")
           for i, p, t in given(position) if p.dirk and t.vendors is not None and t.vendors != VendorsTally()]
    out += over_buildings(position, lambda t: t.vendors.inhabitants if t.vendors else None,
                          "vendors.inhabitants", "vendors.one-per-building", "one inhabitant a")
    for colour in COLOURS:
        out += over_table(position, tallies,
                          lambda t, c=colour: getattr(t.vendors.inhabitants, c) if t.vendors else 0,  # type: ignore[misc]
                          f"vendors.inhabitants.{colour}", PER_COLOUR, "vendors.setup",
                          f"{colour} inhabitants settled")
    return out


def check_of_lines(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """`check_tally` on an earlier round's vendors lines (a score sheet), which carry the sets'
    sizes but no colours. An inhabitant settles on a building of its colour, one a building
    (vendors.one-per-building, seed 003.35), so the colours the sets hold (seeds 003.38-003.40)
    need as many types with a building, and the colours with n inhabitants or more as many types
    with n buildings or more: at most the buildings the majority lines count (which extensions
    only raise), no set of more colours than types counted. And the 42 inhabitants that exist
    (vendors.setup) at most on the table."""
    out = [v for i, _, t in given(position) if (v := _unsettled(i, t)) is not None]
    return out + over_table(position, tallies, _settled_count, "vendors.inhabitants",
                            PER_COLOUR * len(COLOURS), "vendors.setup", "inhabitants settled")


def _settled_count(t: Tally) -> int:
    return sum(counts_of(t.vendors.inhabitants).values()) if t.vendors is not None else 0


def _unsettled(i: int, t: Tally) -> Violation | None:
    """Player i's inhabitants that its buildings counted cannot hold, one a building of its colour:
    for some n, more colours with n inhabitants or more than types with n buildings or more."""
    if t.vendors is None:
        return None
    colours = [n for n in counts_of(t.vendors.inhabitants).values() if n]
    types = counts_of(t.buildings).values()
    for n in sorted(set(colours)):
        want, have = sum(1 for c in colours if c >= n), sum(1 for b in types if b >= n)
        if want > have:
            sets = sets_of([str(k) for k, c in enumerate(colours) for _ in range(c)])
            counted = f"{have} type{'s' * (have != 1)}"
            return Violation("vendors.one-per-building", f"{field(i, 'vendors.inhabitants')}: the sets "
                                                         f"{sets} hold {n} or more inhabitants of each of "
                                                         f"{want} colours, but {field(i, 'buildings')} "
                                                         f"counts {counted} with {n} or more buildings: "
                                                         "one inhabitant a building, of its colour")
    return None


# --- components and consistency -------------------------------------------------------------

def expected(state: GameState) -> Iterator[str]:
    for colour in COLOURS:
        for _ in range(PER_COLOUR):
            yield f"inhabitant:{colour}"


def located(state: GameState) -> Iterator[tuple[str, str]]:
    vendors = state.vendors
    if vendors is not None:
        for colour in vendors.supply:
            yield f"inhabitant:{colour}", "the inhabitants' supply"
        for seat, disc in enumerate(vendors.discs):
            name = state.players[seat].name if seat < len(state.players) else f"seat {seat}"
            for colour in disc.inhabitants:
                yield f"inhabitant:{colour}", f"{name}'s vendor disc"
    for p in state.players:
        for t in (*p.alhambra, *p.reserve, *p.held):
            if t.inhabitant:
                yield f"inhabitant:{colour_of(t)}", f"{p.name}'s {t.tile}"
    for t in (*state.removed, *(state.dirk.tiles if state.dirk else ())):
        if t.inhabitant:
            yield f"inhabitant:{colour_of(t)}", f"{t.tile} off the table"


def consistency(state: GameState) -> list[Violation]:
    """A vendors part with one disc per player (vendors.setup), each disc as its player's turn
    left it, and inhabitants only in coloured buildings of an Alhambra (vendors.one-per-building)."""
    vendors = state.vendors
    if vendors is None:
        return [Violation("vendors.setup", "the vendors module is on but the state has no `vendors` part")]
    if len(vendors.discs) != len(state.players):
        return [Violation("vendors.setup", f"{len(vendors.discs)} vendor discs for "
                                           f"{len(state.players)} players")]
    out = []
    for seat, (p, disc) in enumerate(zip(state.players, vendors.discs, strict=True)):
        out += _disc_problems(state, seat, p, disc)
    return out + _inhabitants_astray(state)


def _disc_problems(state: GameState, seat: int, p: Player, disc: Disc) -> list[Violation]:
    """One player's disc: before the choice, one inhabitant of each colour and nothing done
    (vendors.setup); after it, at most ON_DISC inhabitants, and lifted while it is visited or
    stands under a building (vendors.visit)."""
    if not disc.chosen:
        if sorted_colours(disc.inhabitants) != COLOURS or state.turn.acted or disc.lifted:
            return [Violation("vendors.setup", f"{p.name} has not chosen yet, so holds one "
                                               "inhabitant of each colour, before the first turn")]
        return []
    out = []
    if len(disc.inhabitants) > ON_DISC:
        out.append(Violation("vendors.setup", f"{p.name}'s disc carries more than {ON_DISC} inhabitants"))
    building = _building_at(p, disc.x, disc.y)
    if disc.visiting and not disc.lifted:
        out.append(Violation("vendors.visit", f"{p.name}'s disc is visited but not lifted"))
    if not disc.lifted and building is not None:
        out.append(Violation("vendors.visit", f"{p.name}'s disc stands under {building.tile} at "
                                              f"({disc.x}, {disc.y}) without being lifted"))
    if disc.lifted:
        out += _lifted_problems(state, seat, disc, building is not None)
    return out


def _inhabitants_astray(state: GameState) -> list[Violation]:
    """vendors.one-per-building: an inhabitant lives only in a coloured building of an
    Alhambra, never on a tile of a reserve, held, out of the game or Dirk's."""
    out = []
    for p in state.players:
        out += [Violation("vendors.one-per-building", f"{p.name}'s {t.tile} off the Alhambra "
                                                      "keeps an inhabitant")
                for t in (*p.reserve, *p.held) if t.inhabitant]
        out += [Violation("vendors.one-per-building", f"{placed.tile} at ({placed.x}, {placed.y}) "
                                                      "has no colour for an inhabitant")
                for placed in p.alhambra if placed.inhabitant and colour_of(placed) is None]
    out += [Violation("vendors.one-per-building", f"{t.tile} off the table keeps an inhabitant")
            for t in (*state.removed, *(state.dirk.tiles if state.dirk else ())) if t.inhabitant]
    return out


def _lifted_problems(state: GameState, seat: int, disc: Disc, built: bool) -> list[Violation]:
    """vendors.visit (seed 003.31): a disc is lifted only by a building placed on its space, so
    one stands there; vendors.relocate (seed 003.34): it is put down at the end of that turn's
    construction. So during play a lifted disc is the active player's, once they have acted
    (never at the start of a turn). After the last turn nothing is put down: the leftovers'
    placement may leave discs lifted. The builder's redesign (craftsmen.builder, usable the whole
    turn, craftsmen.use-one) may lift it before the first action, or move the building away."""
    name = state.players[seat].name
    turn = state.turn
    builder = state.craftsmen is not None and state.craftsmen.used == "builder"
    if not built and not builder:
        return [Violation("vendors.visit", f"{name}'s disc is lifted over the empty space ({disc.x}, "
                                           f"{disc.y}): a disc is lifted only when a building is placed "
                                           "on its space")]
    if state.phase != "play" or (turn.player == seat and (turn.acted or builder)):
        return []
    return [Violation("vendors.relocate", f"{name}'s disc is lifted outside {name}'s construction: a "
                                          "disc lifted in its owner's turn is put down at the end of "
                                          "that turn's construction")]


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: inhabitants only on buildings of an Alhambra, at most 7 a colour."""
    out = []
    counts: Counter[str] = Counter()
    for p in position.players:
        for t in (*p.reserve, *p.tiles):
            if t.inhabitant:
                out.append(Violation("vendors.one-per-building",
                                     f"{p.name}'s {t.tile} is not in an Alhambra and holds no inhabitant"))
        for placed in p.alhambra:
            if placed.inhabitant:
                colour = colour_of(placed)
                if colour is None:
                    out.append(Violation("vendors.one-per-building",
                                         f"{p.name}'s {placed.tile} is no building and holds no inhabitant"))
                else:
                    counts[colour] += 1
    out += [Violation("vendors.setup", f"{n} inhabitants of colour {c}: there are only {PER_COLOUR}")
            for c, n in sorted(counts.items()) if n > PER_COLOUR]
    return out


def seen(state: GameState, seat: int | None) -> VendorsSeen:
    """vendors.setup: the choices stay hidden until every player has made them; until then a
    viewer sees only their own disc (the others' as null) and no supply (its colours would
    give the choices away)."""
    vendors = _vendors(state)
    if all(d.chosen for d in vendors.discs):
        return VendorsSeen(supply=vendors.supply, discs=vendors.discs)
    return VendorsSeen(supply=None, discs=tuple(d if i == seat else None
                                                for i, d in enumerate(vendors.discs)))


VENDORS = register(Module(
    id="vendors",
    name="Street Vendors and Inhabitants",
    rule_ids=("vendors.setup", "vendors.visit", "vendors.relocate", "vendors.one-per-building",
              "vendors.score"),
    actions=(
        ActionRule(action=ChooseInhabitants, rule="vendors.setup", kind="decision", check=check_choose,
                   apply=apply_choose, candidates=candidates_choose, sample=sample_choose),
        ActionRule(action=VisitVendor, rule="vendors.visit", kind="decision", check=check_visit,
                   apply=apply_visit, candidates=candidates_visit, sample=sample_visit,
                   phases=("play", "final-placement")),
        ActionRule(action=PlaceDisc, rule="vendors.relocate", kind="decision", check=check_place,
                   apply=apply_place, candidates=candidates_place, sample=sample_place),
    ),
    setup=((SETUP_STEP, setup),),
    end_of_turn=((RELOCATE_STEP, lambda state, ctx: state),),
    after_action=after_action,
    pending=pending,
    scoring=score,
    components=located,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    tally=TallyPart(type=VendorsTally, of_tiles=count_tally, score=score_tally, check=check_tally,
                    of_lines=tally_of_lines, check_of_lines=check_of_lines),
    events=(InhabitantsChosen, DiscsRevealed, DiscLifted, VendorVisited, DiscPlaced, InhabitantsReturned),
    lines=(VendorsLine,),
    tokens=("inhabitant",),
    view=ViewPart(VendorsSeen, seen),
    default_data=DATA,
))
