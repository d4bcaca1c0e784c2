"""What The Walls owns and where (the wall cards out of the deck), where a wall card never lies
(walls.reveal), the consistency of the added walls with the used cards, and its view."""

from __future__ import annotations

from collections.abc import Iterator

from ...catalogue import parse_walls, walls_text
from ...module import ViewPart
from ...places import Place
from ...state import GameState
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
            if added & PRINTED[t.tile]:
                out.append(Violation("walls.no-overlap", f"{p.name}'s {t.tile}: an added wall lies on a "
                                                         "printed wall"))
        out += [Violation("walls.fixed", f"{t.tile} held by {p.name} carries added walls: they are "
                                         "only ever added to Alhambra and reserve tiles")
                for t in p.held if t.added_walls]
    out += [Violation("walls.fixed", f"a wall card was used on {player}'s {tile}, which is not in "
                                     f"{player}'s Alhambra or reserve")
            for player, tile in sorted(left)]
    return out


def seen(state: GameState, seat: int | None) -> WallsState:
    """walls.reveal: the cards set aside lie face up and used ones on tiles; those still in
    the deck are hidden with the deck."""
    walls = state.walls
    assert walls is not None
    return walls


VIEW = ViewPart(WallsState, seen)
