"""Street Vendors' actions: the secret choice of a disc's inhabitants and space (vendors.setup),
the visit of the vendor when a building is placed on the disc's space (vendors.visit), and
putting the lifted disc down (vendors.relocate); and the module's events."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Annotated

import msgspec
from msgspec.structs import replace

from ...actions import Action
from ...catalogue import NEIGHBOURS
from ...events import Event
from ...flow import with_player
from ...module import ActionRule, Context
from ...records import Text
from ...rng import Generator
from ...state import GameState, Player
from ...text import t, word
from ...violations import Violation
from .data import COLOURS, ON_DISC, _building_at, _vendors, _with_disc, colour_of, sorted_colours
from .model import Disc, OnDisc

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


def _without(colours: tuple[str, ...], colour: str) -> tuple[str, ...]:
    out = list(colours)
    out.remove(colour)
    return tuple(out)


def _colour(colour: str) -> str:
    """An inhabitant's colour as a detail: a building type (a game word) when it is one, else
    the text sent, as it is."""
    return word(colour) if colour in COLOURS else colour


# --- the choice (vendors.setup) -------------------------------------------------------------

FOUNTAIN_SIDES = tuple((dx, dy) for dx, dy, _, _ in NEIGHBOURS)


def check_choose(state: GameState, action: ChooseInhabitants) -> list[Violation]:
    rule = "vendors.setup"
    chosen = action.inhabitants
    out = [Violation(rule, t("{colour} is no inhabitant colour ({colours})", colour=repr(c), colours=COLOURS))
           for c in chosen if c not in COLOURS]
    if len(chosen) != ON_DISC or len(set(chosen)) != len(chosen):
        out.append(Violation(rule, t("the disc takes {count} inhabitants of different colours, not {chosen}",
                                     count=ON_DISC, chosen=tuple(_colour(c) for c in chosen))))
    if (action.x, action.y) not in FOUNTAIN_SIDES:
        out.append(Violation(rule, t("the disc stands next to the fountain, not at ({x}, {y})",
                                     x=action.x, y=action.y)))
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
        return [Violation(rule, t("the disc carries a {colour} inhabitant for the {colour} building: "
                                  "no swap (only when no colour matches)", colour=_colour(match)))]
    if action.settle is None:
        if action.take is not None:
            return [Violation(rule, t("an inhabitant is taken from the supply only after one moves "
                                      "onto the building"))]
        return []
    if action.settle != match:
        return [Violation(rule, t("only a {colour} inhabitant moves onto the {colour} building, "
                                  "not a {other} one", colour=_colour(match), other=_colour(action.settle)))]
    if not supply:
        if action.take is not None:
            return [Violation("vendors.one-per-building",
                              t("the supply is empty: no {colour} inhabitant to take",
                                colour=_colour(action.take)))]
        return []
    if action.take is None:
        return [Violation(rule, t("the disc is restocked: name an inhabitant of the supply in `take`"))]
    if action.take not in supply:
        return [Violation(rule, t("the supply holds no {colour} inhabitant", colour=_colour(action.take)))]
    return []


def _no_settling(state: GameState, seat: int, settle: str) -> list[Violation]:
    """Nobody moves in where no colour matches a free building: vendors.one-per-building if the
    building has its inhabitant already, else vendors.visit."""
    disc = _vendors(state).discs[seat]
    building = _building_at(state.players[seat], disc.x, disc.y)
    what = building.tile if building is not None else t("the building")
    if building is not None and building.inhabitant:  # a building holds at most one
        return [Violation("vendors.one-per-building", t("{tile} already has an inhabitant: no "
                                                        "{colour} inhabitant moves in",
                                                        tile=what, colour=_colour(settle)))]
    return [Violation("vendors.visit", t("{tile} has no inhabitant of its colour on the disc: no "
                                         "{colour} inhabitant moves in", tile=what, colour=_colour(settle)))]


def _swap_problems(state: GameState, seat: int, action: VisitVendor) -> list[Violation]:
    """vendors.visit's swap, only when no colour matches: one inhabitant of the disc (`give`)
    for one of the supply (`take`), both named, or none."""
    rule = "vendors.visit"
    vendors = _vendors(state)
    disc = vendors.discs[seat]
    matched = matching_colour(state, seat)
    if matched is not None and action.give is not None:  # its building already has one
        return [Violation(rule, t("the disc carries a {colour} inhabitant for the {colour} building, "
                                  "which already has its inhabitant: no swap (only when no colour "
                                  "matches)", colour=_colour(matched)))]
    if (action.give is None) != (action.take is None):
        return [Violation(rule, t("a swap names both `give` (from the disc) and `take` (from the supply)"))]
    out = []
    if action.give is not None and action.give not in disc.inhabitants:
        out.append(Violation(rule, t("the disc carries no {colour} inhabitant", colour=_colour(action.give))))
    if action.take is not None and action.take not in vendors.supply:
        out.append(Violation(rule, t("the supply holds no {colour} inhabitant", colour=_colour(action.take))))
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
        return [Violation("vendors.relocate", t("({x}, {y}) is not empty", x=action.x, y=action.y))]
    if (action.x, action.y) not in free_spaces(player):
        return [Violation("vendors.relocate", t("({x}, {y}) shares no side with a tile of {player}'s "
                                                "Alhambra", x=action.x, y=action.y, player=player.name))]
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


ACTIONS = (
    ActionRule(action=ChooseInhabitants, rule="vendors.setup", kind="decision", check=check_choose,
               apply=apply_choose, candidates=candidates_choose, sample=sample_choose),
    ActionRule(action=VisitVendor, rule="vendors.visit", kind="decision", check=check_visit,
               apply=apply_visit, candidates=candidates_visit, sample=sample_visit,
               phases=("play", "final-placement")),
    ActionRule(action=PlaceDisc, rule="vendors.relocate", kind="decision", check=check_place,
               apply=apply_place, candidates=candidates_place, sample=sample_place),
)
