"""New Building Grounds' action: choosing the building under construction for a bought site
(grounds.buy), and the module's events."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...actions import Action
from ...events import Event
from ...flow import with_player
from ...module import ActionRule, Context
from ...records import Text
from ...rng import Generator
from ...state import GameState, Tile
from ...text import t
from ...violations import Violation
from .data import SITE_NUMBER, building_word, column_of, waiting, with_column


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


def _held_site(state: GameState, seat: int, site: str) -> Tile | None:
    for tile in state.players[seat].held:
        if tile.tile == site and waiting(tile):
            return tile
    return None


def check_choose(state: GameState, action: ChooseConstruction) -> list[Violation]:
    seat = state.seat_of(action.player)
    if _held_site(state, seat, action.site) is None:
        waiting_sites = tuple(tile.tile for tile in state.players[seat].held if waiting(tile))
        return [Violation("grounds.buy", t("{player} holds no building site {site} waiting for its building "
                                           "(waiting: {waiting})", player=action.player,
                                           site=repr(action.site), waiting=waiting_sites or t("none")))]
    column = column_of(state, action.site)
    if action.building not in column:
        return [Violation("grounds.buy", t("column {number} holds no {building} under construction: it "
                                           "holds {column}", number=SITE_NUMBER[action.site],
                                           building=building_word(action.building),
                                           column=tuple(building_word(b) for b in column) or t("none")))]
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
    for tile in state.players[seat].held:
        if waiting(tile):
            for building in dict.fromkeys(column_of(state, tile.tile)):
                yield ChooseConstruction(player=name, site=tile.tile, building=building)


def sample_choose(state: GameState, seat: int, rng: Generator) -> ChooseConstruction | None:
    options = list(candidates_choose(state, seat))
    return rng.choice(options) if options else None


ACTIONS: tuple[ActionRule, ...] = (
    ActionRule(action=ChooseConstruction, rule="grounds.buy", kind="decision", check=check_choose,
               apply=apply_choose, candidates=candidates_choose, sample=sample_choose,
               phases=("play", "final-placement")),
)
