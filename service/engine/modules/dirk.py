"""Two players: Dirk, the virtual third player (RULES.md §9)."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec
from msgspec.structs import replace

from ..actions import Action
from ..base.components import TILES
from ..base.placement import held_problem, sample_placement, take_held
from ..catalogue import CATALOGUE
from ..events import Event
from ..module import ActionRule, Context, Module, register
from ..places import Place
from ..records import Text
from ..rng import Generator
from ..state import GameState, Tile
from ..violations import Violation


class GiveToDirk(Action, tag="give-to-dirk"):
    """dirk.gift: a held building goes to Dirk instead of being placed."""

    tile: Text


class DirkReceivedTiles(Event, tag="dirk-received-tiles"):
    tiles: tuple[str, ...]


class BuildingGivenToDirk(Event, tag="building-given-to-dirk"):
    player: str
    tile: str


def give_from_bag(state: GameState, count: int, ctx: Context) -> GameState:
    assert state.dirk is not None
    tiles = state.bag[:count]
    if not tiles:
        return state
    ctx.events.append(DirkReceivedTiles(tiles=tiles))
    dirk = replace(state.dirk, tiles=(*state.dirk.tiles, *(Tile(tile=t) for t in tiles)))
    return replace(state, bag=state.bag[count:], dirk=dirk)


# dirk.setup: with two players one of the three copies of every money card stays in the box.
IN_THE_BOX = tuple(c.id for c in CATALOGUE.money.values()
                   if c.copy in CATALOGUE.dirk_money_copies_in_the_box)
_IN_THE_BOX = frozenset(IN_THE_BOX)


def leave_copies_in_the_box(state: GameState, ctx: Context) -> GameState:
    """dirk.setup: the money deck just shuffled loses the copies that stay in the box (72 cards
    are left), before any card is dealt."""
    return replace(state, deck=tuple(c for c in state.deck if c not in _IN_THE_BOX))


def withdrawn(state: GameState) -> tuple[str, ...]:
    """The money cards a two-player game never holds (the consistency check refuses them)."""
    return IN_THE_BOX


def setup(state: GameState, ctx: Context) -> GameState:
    """dirk.setup: 6 tiles from the bag."""
    return give_from_bag(state, CATALOGUE.dirk_tiles_at_setup, ctx)


def after_scoring_round(state: GameState, round_: int, ctx: Context) -> GameState:
    """dirk.refills: 6 more tiles after round 1, a third of the bag (rounded down) after round 2."""
    if round_ == 1:
        return give_from_bag(state, CATALOGUE.dirk_tiles_after_round_1, ctx)
    if round_ == 2:
        return give_from_bag(state, len(state.bag) // CATALOGUE.dirk_bag_share_after_round_2, ctx)
    return state


def least_tiles(state: GameState) -> int:
    """dirk.setup, dirk.refills: the fewest tiles Dirk can hold in `state`. He never loses a tile
    (gifts and a grounds site's building only add), the bag never grows, and the bag is full at
    setup. A refill takes what the bag holds when it runs short and empties it for good: with
    tiles still in the bag the refill after round 1 was whole, and the bag left after round 2
    held at least what is left now (`least_share`)."""
    least = CATALOGUE.dirk_tiles_at_setup
    if 1 in state.rounds_held and state.bag:
        least += CATALOGUE.dirk_tiles_after_round_1
    if 2 in state.rounds_held:
        least += least_share(len(state.bag))
    return least


def least_share(left: int) -> int:
    """dirk.refills: the fewest tiles Dirk took after round 2 when `left` tiles are in the bag
    now: the share of the smallest bag then that leaves at least `left` (a share of 2 or more
    leaves half the bag, so the bag then held at most twice `left`)."""
    share = CATALOGUE.dirk_bag_share_after_round_2
    return next((then // share for then in range(left, 2 * left + 1) if then - then // share >= left), 0)


def consistency(state: GameState) -> list[Violation]:
    """dirk.setup, dirk.refills: Dirk holds at least the tiles setup and refills gave him."""
    if state.dirk is None:
        return []
    least, held = least_tiles(state), len(state.dirk.tiles)
    if held >= least:
        return []
    rule = "dirk.refills" if state.rounds_held else "dirk.setup"
    return [Violation(rule, f"Dirk holds {held} tiles, but he holds at least {least}: "
                            f"{CATALOGUE.dirk_tiles_at_setup} from setup, then after scoring round 1 "
                            f"{CATALOGUE.dirk_tiles_after_round_1} more (fewer only when the bag runs "
                            f"out), after round 2 a third of the bag (rounds held "
                            f"{list(state.rounds_held)}, {len(state.bag)} tiles in the bag), and "
                            "he never loses one")]


def check_gift(state: GameState, action: GiveToDirk) -> list[Violation]:
    if state.phase != "play":
        return [Violation("dirk.gift", "leftover tiles at the end are placed, not given to Dirk")]
    return held_problem(state.players[state.turn.player], action.tile)


def apply_gift(state: GameState, action: GiveToDirk, ctx: Context) -> GameState:
    assert state.dirk is not None
    seat = state.turn.player
    state, tile = take_held(state, seat, action.tile)
    ctx.events.append(BuildingGivenToDirk(player=action.player, tile=action.tile))
    dirk = state.dirk
    assert dirk is not None
    return replace(state, dirk=replace(dirk, tiles=(*dirk.tiles, tile)))


def candidates_gift(state: GameState, seat: int) -> Iterator[GiveToDirk]:
    if state.phase != "play":
        return
    player = state.players[seat]
    for t in player.held:
        yield GiveToDirk(player=player.name, tile=t.tile)


def sample_gift(state: GameState, seat: int, rng: Generator) -> GiveToDirk | None:
    options = list(candidates_gift(state, seat))
    if not options or rng.below(4):  # now and then, so random games still build
        return None
    return rng.choice(options)


def located(state: GameState) -> Iterator[tuple[str, str]]:
    if state.dirk is not None:
        for t in state.dirk.tiles:
            yield t.tile, "Dirk's tiles"


def places(state: GameState) -> Iterator[Place]:
    if state.dirk is not None:
        yield Place("Dirk's tiles", tuple(t.tile for t in state.dirk.tiles), TILES,
                    "it holds only building tiles")


DIRK = register(Module(
    id="dirk",
    name="Two players: Dirk",
    rule_ids=("dirk.setup", "dirk.refills", "dirk.scores", "dirk.gift"),
    actions=(ActionRule(action=GiveToDirk, rule="dirk.gift", kind="placement", check=check_gift,
                        apply=apply_gift, candidates=candidates_gift, sample=sample_gift,
                        phases=("play",)),),
    # Right after the deck is shuffled (10), before starting money is dealt (50).
    setup=((12, leave_copies_in_the_box), (55, setup)),
    after_scoring_round=after_scoring_round,
    components=located,
    consistency=consistency,
    withdrawn=withdrawn,
    places=places,
    events=(DirkReceivedTiles, BuildingGivenToDirk),
    default_data={"money_copies_in_the_box": list(CATALOGUE.dirk_money_copies_in_the_box),
                  "tiles_at_setup": CATALOGUE.dirk_tiles_at_setup,
                  "tiles_after_round_1": CATALOGUE.dirk_tiles_after_round_1,
                  "bag_share_after_round_2": CATALOGUE.dirk_bag_share_after_round_2},
))

_ = (msgspec, sample_placement)
