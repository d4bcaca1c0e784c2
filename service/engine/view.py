"""What one player (or a spectator) may see of a state (RULES.md §8).

Hidden: the cards in another player's hand (only their number shows), the order of the deck
and of the bag (only their sizes), and the generator's state.
"""

from __future__ import annotations

from .modules.change.model import ChangeState
from .modules.treasure.model import TreasureSeen, seen
from .modules.vendors.model import VendorsSeen
from .modules.vendors.model import seen as vendors_seen
from .modules.walls.model import WallsState
from .state import Dirk, GameState, MarketSpace, PlacedTile, RankEntry, Record, Tile, Turn


class PlayerSeen(Record):
    name: str
    hand_size: int
    hand: tuple[str, ...] | None = None  # only in the viewer's own entry
    alhambra: tuple[PlacedTile, ...] = ()
    reserve: tuple[Tile, ...] = ()
    held: tuple[Tile, ...] = ()
    score: int = 0


class View(Record):
    viewer: str | None
    players: tuple[PlayerSeen, ...]
    turn: Turn
    market: tuple[MarketSpace, ...]
    modules: tuple[str, ...] = ()
    phase: str = "play"
    display: tuple[str, ...] = ()
    deck_size: int = 0
    bag_size: int = 0
    discard: tuple[str, ...] = ()
    dirk: Dirk | None = None
    scoring_called: tuple[int, ...] = ()
    rounds_held: tuple[int, ...] = ()
    removed: tuple[Tile, ...] = ()
    ranking: tuple[RankEntry, ...] = ()
    walls: WallsState | None = None  # the wall cards set aside and used (public)
    treasure: TreasureSeen | None = None  # the rooms and the bag's size (its order is hidden)
    # The vendor discs and the supply; before every player has chosen, only the viewer's own disc.
    vendors: VendorsSeen | None = None
    change: ChangeState | None = None  # the coin bag (sorted) and every player's coins (public)


class UnknownViewer(ValueError):
    pass


def view(state: GameState, viewer: str | None) -> View:
    """The state as `viewer` sees it; None is a spectator, who sees only what is public."""
    if viewer is not None and state.seat_of(viewer) < 0:
        raise UnknownViewer(f"no player is named {viewer!r}")
    players = tuple(
        PlayerSeen(name=p.name, hand_size=len(p.hand),
                   hand=p.hand if p.name == viewer else None,
                   alhambra=p.alhambra, reserve=p.reserve, held=p.held, score=p.score)
        for p in state.players
    )
    return View(viewer=viewer, players=players, turn=state.turn, market=state.market,
                modules=state.modules, phase=state.phase, display=state.display,
                deck_size=len(state.deck), bag_size=len(state.bag), discard=state.discard,
                dirk=state.dirk, scoring_called=state.scoring_called,
                rounds_held=state.rounds_held, removed=state.removed, ranking=state.ranking,
                walls=state.walls,
                treasure=None if state.treasure is None else seen(state.treasure),
                vendors=None if state.vendors is None else vendors_seen(
                    state.vendors, -1 if viewer is None else state.seat_of(viewer)),
                change=state.change)
