"""What one player (or a spectator) may see of a state (RULES.md §8).

Hidden: the cards in another player's hand (only their number shows), the order of the deck
and of the bag (only their sizes), and the generator's state; and whatever each module hides,
which its `view` hook leaves out (see `module.ViewPart`). A client forwards views to players,
never the state itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

import msgspec

from .flow import ToAct, to_act
from .module import modules_of, registered
from .modules import register_all
from .records import Record
from .state import Dirk, GameState, MarketSpace, PlacedTile, RankEntry, Tile, Turn
from .text import t

register_all()  # the view has a field per registered module


# A view is an answer only: every field is written, defaults too (required in the contract).


class PlayerSeen(Record, omit_defaults=False):
    name: str
    hand_size: int
    hand: tuple[str, ...] | None = None  # only in the viewer's own entry
    alhambra: tuple[PlacedTile, ...] = ()
    reserve: tuple[Tile, ...] = ()
    held: tuple[Tile, ...] = ()
    score: int = 0


class BaseView(Record, omit_defaults=False):
    """The base game's part of every view: the state without the hands of the others, the deck,
    the bag and the generator."""

    viewer: str | None
    players: tuple[PlayerSeen, ...]
    turn: Turn
    # Who must act next and why (the same for every viewer, but a decision the viewer owes may
    # name what only the viewer sees).
    to_act: ToAct
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


def _view_type() -> Any:
    """The view: the base game's part and one optional field per module that has a `view` hook,
    named after the module and of its public part's type (null while the module is off). Built
    from the registry, as the API's unions are, so this file knows no module."""
    fields = [(m.id, m.view.type | None, None) for m in registered() if m.view is not None]
    clash = [name for name, _, _ in fields if name in BaseView.__struct_fields__]
    assert not clash, f"modules named like fields of the view: {clash}"
    return msgspec.defstruct(
        "View", fields, bases=(BaseView,), module=__name__,
        namespace={"__doc__": "What one player (or a spectator) may see of a game state (RULES.md §8): "
                              "hidden information is left out or replaced by counts."},
        frozen=True, gc=False, forbid_unknown_fields=True, omit_defaults=False, kw_only=True)


if TYPE_CHECKING:
    View: TypeAlias = BaseView  # for the type checker; the module fields come from the registry
else:
    View = _view_type()


class UnknownViewer(ValueError):
    """A view asked for a player the game does not have; `message` says so (a Text)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def view(state: GameState, viewer: str | None) -> View:
    """The state as `viewer` sees it; None is a spectator, who sees only what is public."""
    seat = None if viewer is None else state.seat_of(viewer)
    if seat is not None and seat < 0:
        raise UnknownViewer(t("no player is named {player}", player=repr(viewer)))
    players = tuple(
        PlayerSeen(name=p.name, hand_size=len(p.hand),
                   hand=p.hand if i == seat else None,
                   alhambra=p.alhambra, reserve=p.reserve, held=p.held, score=p.score)
        for i, p in enumerate(state.players)
    )
    parts = {m.id: m.view.seen(state, seat) for m in modules_of(state) if m.view is not None}
    return View(viewer=viewer, players=players, turn=state.turn, to_act=to_act(state, seat),
                market=state.market, modules=state.modules, phase=state.phase, display=state.display,
                deck_size=len(state.deck), bag_size=len(state.bag), discard=state.discard,
                dirk=state.dirk, scoring_called=state.scoring_called,
                rounds_held=state.rounds_held, removed=state.removed, ranking=state.ranking,
                **parts)
