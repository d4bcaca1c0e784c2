"""What a viewer may not see (RULES.md §8): perturbations that change only that in a state,
and the ids of the secrets a view must not hold. Shared by the view tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import msgspec
from msgspec.structs import replace

from service.engine import GameState, check_consistency
from service.engine.catalogue import CATALOGUE
from service.engine.modules.craftsmen.data import DATA as CRAFTSMEN_DATA
from service.engine.modules.craftsmen.data import MARK
from service.engine.modules.vendors.data import COLOURS, ON_DISC, sorted_colours
from service.engine.view import view
from service.i18n import encode


def encoded(state: GameState, seat: int | None) -> bytes:
    return encode(view(state, None if seat is None else state.players[seat].name))  # as the edge: English


# --- what a viewer may not see, changed ------------------------------------------------------
# Each perturbation changes only what the viewer at `seat` (None: a spectator) may not see, in
# a way that keeps the state consistent (the tests check that too).

Perturbation = Callable[[GameState, "int | None", random.Random], GameState]


def _redealt(groups: list[tuple[str, ...]], eligible: Callable[[str], bool],
             rnd: random.Random) -> list[tuple[str, ...]]:
    """The eligible items of all groups shuffled together and dealt back into their places."""
    pool = [c for g in groups for c in g if eligible(c)]
    rnd.shuffle(pool)
    deal = iter(pool)
    return [tuple(next(deal) if eligible(c) else c for c in g) for g in groups]


def new_generator(state: GameState, seat: int | None, rnd: random.Random) -> GameState:
    return replace(state, rng=f"{(int(state.rng, 16) + 1 + rnd.getrandbits(63)) % 2**64:016x}")


def _unseen_power(state: GameState, seat: int | None) -> tuple[bool, list[int]]:
    """Whether what a power drew is unseen by `seat`; which hidden tiles are not its own."""
    power = state.power
    if power is None:
        return False, []
    name = None if seat is None else state.players[seat].name
    return (state.turn.player != seat,
            [i for i, h in enumerate(power.hidden) if h.owner != name])


def other_money(state: GameState, seat: int | None, rnd: random.Random) -> GameState:
    """The money cards of the deck, of the other players' hands and drawn by another player's
    wisdom power, dealt anew (scoring and wall cards stay where they are)."""
    others = [i for i in range(len(state.players)) if i != seat]
    drawn_unseen, _ = _unseen_power(state, seat)
    groups = [state.deck, *(state.players[i].hand for i in others)]
    if drawn_unseen:
        groups.append(state.power.drawn)  # type: ignore[union-attr]
    dealt = _redealt(groups, lambda c: c in CATALOGUE.money, rnd)
    players = list(state.players)
    for i, hand in zip(others, dealt[1:1 + len(others)], strict=True):
        players[i] = replace(players[i], hand=hand)
    state = replace(state, deck=dealt[0], players=tuple(players))
    if drawn_unseen:
        state = replace(state, power=replace(state.power, drawn=dealt[-1]))
    return state


def other_tiles(state: GameState, seat: int | None, rnd: random.Random) -> GameState:
    """The tiles of the bag, drawn by another player's architecture power and hidden under the
    market by another player, dealt anew."""
    drawn_unseen, hidden = _unseen_power(state, seat)
    power = state.power
    groups = [state.bag]
    if power is not None:
        groups += [power.drawn if drawn_unseen else (), tuple(power.hidden[i].tile for i in hidden)]
    dealt = _redealt(groups, lambda t: t in CATALOGUE.tiles, rnd)
    state = replace(state, bag=dealt[0])
    if power is not None:
        tiles = dict(zip(hidden, dealt[2], strict=True))
        moved = tuple(replace(h, tile=tiles.get(i, h.tile)) for i, h in enumerate(power.hidden))
        state = replace(state, power=replace(power, drawn=dealt[1] if drawn_unseen else power.drawn,
                                             hidden=moved))
    return state


def other_craftsmen(state: GameState, seat: int | None, rnd: random.Random) -> GameState:
    """The cards out of the game (in a new order) and the others' face-down card, dealt anew
    among the cards of the marks in play."""
    cs = state.craftsmen
    if cs is None:
        return state
    marks = CRAFTSMEN_DATA["marks_in_play"][str(len(state.players))]
    out = list(cs.out)
    rnd.shuffle(out)
    others = [i for i, c in enumerate(cs.face_down) if c is not None and i != seat]
    dealt = _redealt([tuple(out), *((cs.face_down[i],) for i in others)],  # type: ignore[misc]
                     lambda c: MARK[c] in marks, rnd)
    face_down = list(cs.face_down)
    for i, (card,) in zip(others, dealt[1:], strict=True):
        face_down[i] = card
    return replace(state, craftsmen=replace(cs, out=dealt[0], face_down=tuple(face_down)))


def face_down_piles(state: GameState, seat: int | None, rnd: random.Random) -> GameState:
    """The animals' supply with those put back unseen, the servant pile, the chests' bag."""
    if state.zoo is not None:
        supply, removed = _redealt([state.zoo.supply, state.zoo.removed], lambda _: True, rnd)
        state = replace(state, zoo=replace(state.zoo, supply=supply, removed=removed))
    if state.staff is not None:
        state = replace(state, staff=replace(state.staff, pile=_redealt([state.staff.pile], bool, rnd)[0]))
    if state.treasure is not None:
        state = replace(state, treasure=replace(state.treasure,
                                                bag=_redealt([state.treasure.bag], bool, rnd)[0]))
    return state


def other_choices(state: GameState, seat: int | None, rnd: random.Random) -> GameState:
    """vendors.setup: before everyone has chosen, the others' choices made differently."""
    vendors = state.vendors
    if vendors is None or all(d.chosen for d in vendors.discs):
        return state
    supply, discs = list(vendors.supply), list(vendors.discs)
    for i, disc in enumerate(discs):
        if i == seat or not disc.chosen:
            continue
        choice = disc.inhabitants
        while choice == disc.inhabitants:  # another choice, so the perturbation shows
            choice = sorted_colours(rnd.sample(COLOURS, ON_DISC))
        supply += disc.inhabitants
        for c in choice:
            supply.remove(c)
        x, y = rnd.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
        discs[i] = replace(disc, inhabitants=choice, x=x, y=y)
    return replace(state, vendors=replace(vendors, supply=sorted_colours(supply), discs=tuple(discs)))


PERTURBATIONS: tuple[Perturbation, ...] = (
    new_generator, other_money, other_tiles, other_craftsmen, face_down_piles, other_choices,
)


def all_of(state: GameState, seat: int | None, rnd: random.Random) -> GameState:
    for perturb in PERTURBATIONS:
        state = perturb(state, seat, rnd)
    return state


# --- what a viewer may not see, searched for -------------------------------------------------

def secrets(state: GameState, seat: int | None) -> set[str]:
    """The ids of every unique thing the viewer may not see: the deck's cards, the bag's tiles,
    the other hands, what another player's power drew, tiles hidden by others, the others'
    face-down craftsmen and the craftsmen out of the game."""
    out = {*state.deck, *state.bag}
    out.update(c for i, p in enumerate(state.players) if i != seat for c in p.hand)
    drawn_unseen, hidden = _unseen_power(state, seat)
    if state.power is not None:
        out.update(state.power.drawn if drawn_unseen else ())
        out.update(state.power.hidden[i].tile for i in hidden)
    if state.craftsmen is not None:
        out.update(c for i, c in enumerate(state.craftsmen.face_down) if c is not None and i != seat)
        out.update(state.craftsmen.out)
    return out


def strings_of(node: object) -> Iterator[str]:
    """Every string of a decoded JSON document, keys included."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from strings_of(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from strings_of(value)


def assert_holds_no_secret(state: GameState, seat: int | None) -> None:
    """No id of a secret of `seat`'s, no generator state, no others' vendor choices."""
    seen = encoded(state, seat)
    leaked = sorted(secrets(state, seat) & set(strings_of(msgspec.json.decode(seen))))
    assert not leaked, f"the view of seat {seat} shows {leaked}"
    assert state.rng.encode() not in seen and b'"rng"' not in seen
    if state.vendors is not None and not all(d.chosen for d in state.vendors.discs):
        vendors = view(state, None if seat is None else state.players[seat].name).vendors
        assert vendors is not None and vendors.supply is None
        assert all(d is None for i, d in enumerate(vendors.discs) if i != seat)


def assert_views_unchanged(state: GameState, seat: int | None, rnd: random.Random) -> None:
    """All perturbations together (a consistent state that differs from `state`) leave the view
    of `seat` byte-identical; a failure names the perturbations that change it."""
    before = encoded(state, seat)
    changed = all_of(state, seat, rnd)
    assert changed != state
    assert check_consistency(changed) == [], (seat, check_consistency(changed))
    if encoded(changed, seat) != before:
        culprits = [p.__name__ for p in PERTURBATIONS if encoded(p(state, seat, rnd), seat) != before]
        raise AssertionError(f"the view of seat {seat} changes with {culprits or 'their combination'}")
