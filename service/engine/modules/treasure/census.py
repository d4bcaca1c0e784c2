"""The Treasure Chamber's census: the chests the box holds and where each lies, the consistency
of its state, and what a seat sees of it."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...module import Unseen, ViewPart
from ...places import tiles_in_play, tokens_in_box, tokens_lying
from ...state import GameState, Tile
from ...text import t, tn, word
from ...violations import Violation
from .data import CHESTS, PER_ROOM, ROOMS, chest_colour
from .model import TreasureSeen, TreasureState


def expected(state: GameState) -> Iterator[str]:
    return tokens_in_box("chest", CHESTS)


def located(state: GameState) -> Iterator[tuple[str, str]]:
    treasure = state.treasure
    pools = [] if treasure is None else [
        (t("the treasure bag"), treasure.bag),
        *((t("room {room} of the treasure chamber", room=i), room)
          for i, room in enumerate(treasure.rooms, 1)),
        (t("passed on to a player, to be placed"), treasure.passing),
    ]
    return tokens_lying(state, "chest", pools, chest_on)


def chest_on(tile: Tile) -> tuple[str, ...]:
    """The chest a tile carries, by its colour (none without a chest or a colour)."""
    colour = chest_colour(tile) if tile.chest else None
    return () if colour is None else (colour,)


def consistency(state: GameState) -> list[Violation]:
    treasure = state.treasure
    if treasure is None:
        return [Violation("treasure.setup", t("the treasure module is on but the state has no "
                                              "`treasure` part"))]
    out = []
    if len(treasure.rooms) != ROOMS:
        out.append(Violation("treasure.setup", t("the treasure chamber has {rooms} rooms, not {count}",
                                                 rooms=ROOMS, count=len(treasure.rooms))))
    for i, room in enumerate(treasure.rooms, 1):
        if len(room) not in (0, PER_ROOM):
            out.append(Violation("treasure.refill", tn("room {room} holds {n} chest: a room holds {per}, or "
                                                       "none once it is not refilled",
                                                       "room {room} holds {n} chests: a room holds {per}, or "
                                                       "none once it is not refilled",
                                                       len(room), room=i, per=PER_ROOM)))
        elif not room and not treasure.closed and i != treasure.room:
            out.append(Violation("treasure.refill", t("room {room} is empty, but the rooms are still "
                                                      "refilled", room=i)))
    out += _closed_problems(treasure)
    out += _passing_problems(state, treasure)
    known = [c for room in treasure.rooms for c in room] + list(treasure.bag) + list(treasure.passing)
    out += [Violation("treasure.setup", t("{colour} is not a chest colour ({colours})", colour=repr(c),
                                          colours=tuple(word(k) for k in CHESTS)))
            for c in sorted(set(known) - set(CHESTS))]
    for tile, where, zone in tiles_in_play(state):
        if not tile.chest:
            continue
        if chest_colour(tile) is None:
            out.append(Violation("treasure.place", t("{where} carries a chest but is no building of a "
                                                     "colour", where=where)))
        elif zone in ("reserve", "removed"):
            out.append(Violation("treasure.removed", t("{where} carries a chest: a chest whose building "
                                                       "leaves the Alhambra goes back in the bag",
                                                       where=where)))
        elif zone == "held" and state.phase != "play":
            out.append(Violation("treasure.place", t("{where} carries a chest, but chests are bought only "
                                                     "during play", where=where)))
    return out


def _closed_problems(treasure: TreasureState) -> list[Violation]:
    """treasure.refill, seeds 004.22-004.23: only a refill that found too few chests in the bag
    closes the chamber, and the room it left empty stays empty for good; so a closed chamber
    has an empty room besides the one whose chests are passing (awaiting its refill)."""
    emptied = [i for i, room in enumerate(treasure.rooms, 1) if not room and i != treasure.room]
    if not treasure.closed or emptied:
        return []
    return [Violation("treasure.refill", t("the rooms are no longer refilled (`closed`), but no room is "
                                           "empty for good: only a refill that found fewer than {per} "
                                           "chests in the bag stops the refills, and it leaves its room "
                                           "empty", per=PER_ROOM))]


def _passing_problems(state: GameState, treasure: TreasureState) -> list[Violation]:
    """treasure.pass: chests pass on only during play, in the buyer's turn, to another player,
    from the room emptied by the purchase (refilled once the passing is over)."""
    rule = "treasure.pass"
    if not treasure.passing:
        if treasure.receiver is not None or treasure.room:
            return [Violation(rule, t("no chests are passing, but a receiver or a room is named"))]
        return []
    n = len(state.players)
    if state.phase != "play":
        return [Violation(rule, t("chests pass on only during play"))]
    if treasure.receiver is None or not 0 <= treasure.receiver < n or treasure.receiver == state.turn.player:
        return [Violation(rule, t("chests are passing to seat {seat}, which is no player other than the "
                                  "buyer ({player})", seat=str(treasure.receiver), player=state.active.name))]
    if not 1 <= treasure.room <= len(treasure.rooms) or treasure.rooms[treasure.room - 1]:
        return [Violation(rule, t("chests are passing from room {room}, which is not a room emptied by "
                                  "the purchase", room=treasure.room))]
    return []


def seen(state: GameState, seat: int | None) -> TreasureSeen:
    """treasure.setup: the chests in the bag are seen as a count (their order is hidden)."""
    treasure = state.treasure
    assert treasure is not None
    return TreasureSeen(rooms=treasure.rooms, bag_size=len(treasure.bag), closed=treasure.closed,
                        passing=treasure.passing, receiver=treasure.receiver, room=treasure.room)


VIEW = ViewPart(TreasureSeen, seen)


def unseen(state: GameState, seat: int | None) -> Iterator[Unseen]:
    """The bag of chests: its order."""
    if state.treasure is not None:
        yield Unseen("treasure.chests", state.treasure.bag,
                     lambda s, bag, _: replace(s, treasure=replace(s.treasure, bag=bag)))
