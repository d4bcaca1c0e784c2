"""Where Street Vendors' inhabitants are: every one the box holds (`expected`), where each lies
(`located`: the supply, the discs, then the tiles), the consistency of a state's vendors part,
and what a seat may see of it (`VIEW`: the choices stay hidden until every player has chosen)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from msgspec.structs import replace

from ...module import Unseen, ViewPart
from ...places import tokens_in_box, tokens_lying
from ...state import GameState, Player, Tile
from ...text import t
from ...violations import Violation
from .actions import FOUNTAIN_SIDES
from .data import COLOURS, ON_DISC, PER_COLOUR, _building_at, _vendors, colour_of, sorted_colours
from .model import Disc, VendorsSeen


def expected(state: GameState) -> Iterator[str]:
    return tokens_in_box("inhabitant", dict.fromkeys(COLOURS, PER_COLOUR))


def located(state: GameState) -> Iterator[tuple[str, str]]:
    vendors = state.vendors
    pools: list[tuple[str, tuple[str, ...]]] = []
    if vendors is not None:
        pools.append((t("the inhabitants' supply"), vendors.supply))
        for seat, disc in enumerate(vendors.discs):
            name = state.players[seat].name if seat < len(state.players) else t("seat {seat}", seat=seat)
            pools.append((t("{player}'s vendor disc", player=name), disc.inhabitants))
    return tokens_lying(state, "inhabitant", pools, _inhabitant_on)


def _inhabitant_on(tile: Tile) -> tuple[str, ...]:
    """The colour of the inhabitant a tile carries, if any; "None" on a tile of no colour (the
    fountain): the census names that token as no component of the game, `_inhabitants_astray`
    says why."""
    return (str(colour_of(tile)),) if tile.inhabitant else ()


def consistency(state: GameState) -> list[Violation]:
    """A vendors part with one disc per player (vendors.setup), each disc as its player's turn
    left it, and inhabitants only in coloured buildings of an Alhambra (vendors.one-per-building)."""
    vendors = state.vendors
    if vendors is None:
        return [Violation("vendors.setup", t("the vendors module is on but the state has no `vendors` part"))]
    if len(vendors.discs) != len(state.players):
        return [Violation("vendors.setup", t("{discs} vendor discs for {players} players",
                                             discs=len(vendors.discs), players=len(state.players)))]
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
            return [Violation("vendors.setup", t("{player} has not chosen yet, so holds one "
                                                 "inhabitant of each colour, before the first turn",
                                                 player=p.name))]
        return []
    out = []
    if len(disc.inhabitants) > ON_DISC:
        out.append(Violation("vendors.setup", t("{player}'s disc carries more than {most} inhabitants",
                                                player=p.name, most=ON_DISC)))
    building = _building_at(p, disc.x, disc.y)
    if disc.visiting and not disc.lifted:
        out.append(Violation("vendors.visit", t("{player}'s disc is visited but not lifted", player=p.name)))
    if not disc.lifted and building is not None:
        out.append(Violation("vendors.visit", t("{player}'s disc stands under {tile} at ({x}, {y}) without "
                                                "being lifted", player=p.name, tile=building.tile,
                                                x=disc.x, y=disc.y)))
    if disc.lifted:
        out += _lifted_problems(state, seat, disc, building is not None)
    return out


def _inhabitants_astray(state: GameState) -> list[Violation]:
    """vendors.one-per-building: an inhabitant lives only in a coloured building of an
    Alhambra, never on a tile of a reserve, held, out of the game or Dirk's."""
    out = []
    for p in state.players:
        out += [Violation("vendors.one-per-building", t("{player}'s {tile} off the Alhambra keeps an "
                                                        "inhabitant", player=p.name, tile=tile.tile))
                for tile in (*p.reserve, *p.held) if tile.inhabitant]
        out += [Violation("vendors.one-per-building", t("{tile} at ({x}, {y}) has no colour for an "
                                                        "inhabitant", tile=placed.tile, x=placed.x,
                                                        y=placed.y))
                for placed in p.alhambra if placed.inhabitant and colour_of(placed) is None]
    out += [Violation("vendors.one-per-building", t("{tile} off the table keeps an inhabitant",
                                                    tile=tile.tile))
            for tile in (*state.removed, *(state.dirk.tiles if state.dirk else ())) if tile.inhabitant]
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
        return [Violation("vendors.visit", t("{player}'s disc is lifted over the empty space ({x}, {y}): a "
                                             "disc is lifted only when a building is placed on its space",
                                             player=name, x=disc.x, y=disc.y))]
    if state.phase != "play" or (turn.player == seat and (turn.acted or builder)):
        return []
    return [Violation("vendors.relocate", t("{player}'s disc is lifted outside {player}'s construction: a "
                                            "disc lifted in its owner's turn is put down at the end of "
                                            "that turn's construction", player=name))]


def seen(state: GameState, seat: int | None) -> VendorsSeen:
    """vendors.setup: the choices stay hidden until every player has made them; until then a
    viewer sees only their own disc (the others' as null) and no supply (its colours would
    give the choices away)."""
    vendors = _vendors(state)
    if all(d.chosen for d in vendors.discs):
        return VendorsSeen(supply=vendors.supply, discs=vendors.discs)
    return VendorsSeen(supply=None, discs=tuple(d if i == seat else None
                                                for i, d in enumerate(vendors.discs)))


VIEW = ViewPart(VendorsSeen, seen)


def unseen(state: GameState, seat: int | None) -> Iterator[Unseen]:
    """vendors.setup: until every player has chosen, the others' choices (the inhabitants and
    the space), and so what went into the supply, are secret: each is made again by the dealer
    among every choice the rules allow."""
    vendors = state.vendors
    if vendors is None or all(d.chosen for d in vendors.discs):
        return
    # The supply and the discs not yet chosen hold colours as sets: their order tells nothing
    # in a game (the engine keeps them sorted), so a state sent with another order is read in
    # the engine's (issue 28's review found the order moved a bot's seed).
    yield Unseen("", (), lambda s, _, __: _in_order(s))
    for i, disc in enumerate(vendors.discs):
        if disc.chosen and i != seat:
            yield Unseen("", (), lambda s, _, dealer, i=i: _chosen_again(s, i, dealer.choose(CHOICES)))


# Every choice of vendors.setup: the inhabitants (sorted) and the space beside the fountain.
CHOICES = tuple((sorted_colours(three), side) for three in combinations(COLOURS, ON_DISC)
                for side in FOUNTAIN_SIDES)


def _in_order(state: GameState) -> GameState:
    vendors = _vendors(state)
    discs = tuple(d if d.chosen else replace(d, inhabitants=sorted_colours(d.inhabitants))
                  for d in vendors.discs)
    return replace(state, vendors=replace(vendors, supply=sorted_colours(vendors.supply), discs=discs))


def _chosen_again(state: GameState, seat: int, choice: tuple[tuple[str, ...], tuple[int, int]]) -> GameState:
    vendors = _vendors(state)
    disc = vendors.discs[seat]
    three, (x, y) = choice
    supply = [*vendors.supply, *disc.inhabitants]
    for c in three:
        supply.remove(c)
    discs = list(vendors.discs)
    discs[seat] = replace(disc, inhabitants=three, x=x, y=y)
    return replace(state, vendors=replace(vendors, supply=sorted_colours(supply), discs=tuple(discs)))
