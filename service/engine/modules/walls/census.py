"""What The Walls owns and where (the wall cards out of the deck), where a wall card never lies
(walls.reveal), the consistency of the added walls with the used cards, and its view."""

from __future__ import annotations

from collections.abc import Iterator

from ...catalogue import parse_walls, walls_text
from ...module import ViewPart
from ...places import Place
from ...state import GameState
from ...text import t
from ...violations import Violation
from .data import CARDS, PRINTED, WALL_CARDS, WALLS, shapes, turnable, turning
from .model import UsedWall, WallsState


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
    yield Place(_ASIDE, walls.aside, WALL_CARDS, _ONLY_WALL_CARDS)
    yield Place(_USED, tuple(u.card for u in walls.used), WALL_CARDS, _ONLY_WALL_CARDS)
    yield Place(_DISPLAY, state.display, NO_WALL_CARD, _REVEAL, "walls.reveal")
    yield Place(_DISCARD, state.discard, NO_WALL_CARD, _REVEAL, "walls.reveal")
    for p in state.players:
        yield Place(t("{player}'s hand", player=p.name), p.hand, NO_WALL_CARD, _REVEAL, "walls.reveal")


_ASIDE, _USED = t("the wall cards set aside"), t("the wall cards used")
_ONLY_WALL_CARDS = t("it holds only wall cards")
_DISPLAY, _DISCARD = t("the money display"), t("the discard pile")
_REVEAL = t("a wall card drawn is set aside beside the display")
_SET_ASIDE = t("set aside beside the money display")


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
        yield card, _SET_ASIDE
    for u in walls.used:
        yield u.card, t("used on {player}'s {tile} (added walls)", player=u.player, tile=u.tile)


def consistency(state: GameState) -> list[Violation]:
    """The used wall cards each show their walls (walls.action) without overlap
    (walls.no-overlap), and the added walls of every tile are exactly what they put there
    (walls.fixed); wall cards in the display, the discard pile or a hand are refused by `places`."""
    walls = state.walls
    if walls is None:
        return [Violation("walls.setup", t("the walls module is on but the state has no `walls` part"))]
    out, on = _walls_of_cards(walls.used, turning(state.modules))
    out += _walls_against_cards(state, on)
    others = [*state.removed, *(state.dirk.tiles if state.dirk is not None else ())]
    out += [Violation("walls.fixed", t("{tile} out of the players' tiles carries added walls", tile=o.tile))
            for o in others if o.added_walls]
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
            out.append(Violation("walls.action", t("{card} used on {player}'s {tile} shows no walls {walls}",
                                                   card=u.card, player=u.player, tile=u.tile,
                                                   walls=repr(u.walls))))
            continue
        key = (u.player, u.tile)
        if on.get(key, 0) & mask:
            out.append(Violation("walls.no-overlap", t("two wall cards put a wall on the same side of "
                                                       "{player}'s {tile}", player=u.player, tile=u.tile)))
        on[key] = on.get(key, 0) | mask
    return out, on


def _walls_against_cards(state: GameState, on: dict[tuple[str, str], int]) -> list[Violation]:
    """walls.fixed: each Alhambra and reserve tile carries exactly the walls its cards put on it,
    none on a printed wall (walls.no-overlap); held tiles carry none; and every card was used on
    a tile of its player's Alhambra or reserve."""
    out = []
    left = dict(on)  # the cards' walls not yet found on a tile
    for p in state.players:
        for one in (*p.alhambra, *p.reserve):
            added = parse_walls(one.added_walls) if one.added_walls else 0
            want = left.pop((p.name, one.tile), 0)
            if added != want:
                out.append(Violation("walls.fixed", t("{player}'s {tile} carries added walls {added} but the "
                                                      "wall cards used on it show {shown}", player=p.name,
                                                      tile=one.tile, added=repr(one.added_walls or "none"),
                                                      shown=repr(walls_text(want)))))
            if added & PRINTED[one.tile]:
                out.append(Violation("walls.no-overlap", t("{player}'s {tile}: an added wall lies on a "
                                                           "printed wall", player=p.name, tile=one.tile)))
        out += [Violation("walls.fixed", t("{tile} held by {player} carries added walls: they are only ever "
                                           "added to Alhambra and reserve tiles", tile=h.tile, player=p.name))
                for h in p.held if h.added_walls]
    out += [Violation("walls.fixed", t("a wall card was used on {player}'s {tile}, which is not in "
                                       "{player}'s Alhambra or reserve", player=player, tile=tile))
            for player, tile in sorted(left)]
    return out


def seen(state: GameState, seat: int | None) -> WallsState:
    """walls.reveal: the cards set aside lie face up and used ones on tiles; those still in
    the deck are hidden with the deck."""
    walls = state.walls
    assert walls is not None
    return walls


VIEW = ViewPart(WallsState, seen)
