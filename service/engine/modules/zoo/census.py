"""Where the zoo's animals are: every one the box holds (`expected`), where each lies (`located`: the
supply, the box, the discarded, the market's gardens, then the tiles), the consistency of a state's
zoo part, and what every seat sees of it (`VIEW`)."""

from __future__ import annotations

from collections.abc import Iterator

from msgspec.structs import replace

from ...module import Unseen, ViewPart
from ...places import tokens_in_box, tokens_lying
from ...state import GameState
from ...text import t, word
from ...violations import Violation
from .data import DATA, KINDS, PER_KIND, is_garden
from .model import ZooSeen, ZooState


def expected(state: GameState) -> Iterator[str]:
    return tokens_in_box("animal", dict.fromkeys(KINDS, PER_KIND))


SUPPLY, BOX, DISCARDED = t("the animal supply"), t("the box"), t("the discarded animals")


def located(state: GameState) -> Iterator[tuple[str, str]]:
    zoo = state.zoo
    pools = [] if zoo is None else [(SUPPLY, zoo.supply), (BOX, zoo.removed), (DISCARDED, zoo.discarded)]
    pools += [(t("{tile} on the {currency} market space", tile=str(space.tile),
                 currency=word(space.currency)), space.animals)
              for space in state.market if space.animals]
    return tokens_lying(state, "animal", pools, lambda tile: tile.animals)


def consistency(state: GameState) -> list[Violation]:
    if state.zoo is None:
        return [Violation("zoo.setup", t("the zoo module is on but the state has no `zoo` part"))]
    out = []
    for space in state.market:
        if space.animals and not (space.tile and is_garden(space.tile)):
            out.append(Violation("zoo.arrive", t("animals lie on {tile} on the {currency} market space, "
                                                 "which is no garden", tile=str(space.tile),
                                                 currency=word(space.currency))))
        if len(space.animals) > DATA["arrive_per_garden"]:
            out.append(Violation("zoo.arrive", t("{tile} on the market carries more than {most} animals",
                                                 tile=str(space.tile), most=DATA["arrive_per_garden"])))
    if state.dirk is not None and any(tile.animals for tile in state.dirk.tiles):
        out.append(Violation("zoo.dirk", t("Dirk keeps no animals: they are discarded")))
    return out + _setup_problems(state.zoo) + _bare_gardens(state, state.zoo)


def _setup_problems(zoo: ZooState) -> list[Violation]:
    """zoo.setup (seed 000.30): exactly two animals went back in the box unseen, for good."""
    n = DATA["removed_unseen_at_setup"]
    if len(zoo.removed) == n:
        return []
    return [Violation("zoo.setup", t("zoo.removed holds {held} animals: at setup {n} are placed back in the "
                                     "box unseen, and none ever join or leave them", held=len(zoo.removed),
                                     n=n))]


def _bare_gardens(state: GameState, zoo: ZooState) -> list[Violation]:
    """zoo.arrive (seed 000.31): a garden takes its animals as it turns up on the market, in the
    same step as the refill, and nothing takes them off it but its buyer; the supply never grows.
    So a market garden with fewer than 2 means the supply ran out as it arrived."""
    if not zoo.supply:
        return []
    n = DATA["arrive_per_garden"]
    return [Violation("zoo.arrive", t("{tile} on the {currency} market space carries {animals} animals "
                                      "while the supply still holds {supply}: a garden laid on the market "
                                      "takes {n}", tile=str(s.tile), currency=word(s.currency),
                                      animals=len(s.animals), supply=len(zoo.supply), n=n))
            for s in state.market if s.tile and is_garden(s.tile) and len(s.animals) < n]


def seen(state: GameState, seat: int | None) -> ZooSeen:
    """What everyone sees (RULES.md §8): the supply and the animals put back unseen as counts."""
    zoo = state.zoo
    assert zoo is not None
    return ZooSeen(supply_size=len(zoo.supply), removed_size=len(zoo.removed), discarded=zoo.discarded)


VIEW = ViewPart(ZooSeen, seen)


def unseen(state: GameState, seat: int | None) -> Iterator[Unseen]:
    """zoo.setup: the face-down supply of animals and those put back unseen, one pool."""
    zoo = state.zoo
    if zoo is None:
        return
    yield Unseen("zoo.animals", zoo.supply, lambda s, a, _: replace(s, zoo=replace(s.zoo, supply=a)))
    yield Unseen("zoo.animals", zoo.removed, lambda s, a, _: replace(s, zoo=replace(s.zoo, removed=a)))
