"""Refuse states that cannot occur in a game: every component exactly once, nothing off the
catalogue, every Alhambra obeying §4, and each module's own checks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from .catalogue import CATALOGUE, FOUNTAIN
from .rules import Module, modules_of, registered
from .state import TOKENS, GameState, MarketSpace, Tile, has_tokens
from .violations import Violation

INCONSISTENT = "inconsistent-state"
_KNOWN_LIMIT = 12  # list at most this many places per problem, so messages stay readable


def _all_tiles(state: GameState) -> Iterator[tuple[Tile | MarketSpace, str]]:
    for p in state.players:
        for placed in p.alhambra:
            yield placed, f"{p.name}'s Alhambra at ({placed.x}, {placed.y})"
        for t in p.reserve:
            yield t, f"{p.name}'s reserve"
        for t in p.held:
            yield t, f"{p.name}'s held buildings"
    if state.dirk is not None:
        for t in state.dirk.tiles:
            yield t, "Dirk's tiles"
    for space in state.market:
        if space.tile is not None:
            yield space, f"the {space.currency} market space"
    for t in state.removed:
        yield t, "out of the game"


def token_problems(state: GameState, modules: tuple[Module, ...]) -> list[Violation]:
    """A token may lie on a tile only while the module it belongs to is on."""
    out = foreign_tokens(_all_tiles(state), modules)
    for tile, where in _all_tiles(state):
        if getattr(tile, "leftover", False) and state.phase == "play":
            out.append(Violation(INCONSISTENT, f"{tile.tile} in {where} is marked leftover "
                                               "before the game has ended"))
    return out


def foreign_tokens(tiles: Iterable[tuple[Tile | MarketSpace, str]],
                   modules: tuple[Module, ...]) -> list[Violation]:
    """Tokens of modules that are not on (API.md: refused, naming the tile and the token)."""
    allowed = {token for m in modules for token in m.tokens}
    owners = {token: m.id for m in registered() for token in m.tokens}
    out = []
    for tile, where in tiles:
        if isinstance(tile, Tile) and not has_tokens(tile) and not getattr(tile, "rotation", 0):
            continue  # the common case: a bare tile
        for token in (*TOKENS, "rotation"):
            value = getattr(tile, token, None)
            if value and token not in allowed:
                owner = owners.get(token, "a module not supported yet")
                rule = "base.place.orientation" if token == "rotation" else INCONSISTENT
                out.append(Violation(rule, f"{tile.tile} in {where} carries the token "
                                                   f"{token!r} of {owner}, which is not on in this game"))
    return out


def unknown_ids(state: GameState) -> list[Violation]:
    """Tile and card ids that are in no catalogue (RULES.md §1 and the modules' data)."""
    out = []
    for tile, where in _all_tiles(state):
        if tile.tile is not None and tile.tile != FOUNTAIN and tile.tile not in CATALOGUE.tiles:
            out.append(Violation(INCONSISTENT, f"{tile.tile!r} in {where} is not a tile of the catalogue"))
    for tile in state.bag:
        if tile not in CATALOGUE.tiles:
            out.append(Violation(INCONSISTENT, f"{tile!r} in the bag is not a tile of the catalogue"))
    cards = (*state.deck, *state.discard, *state.display, *(c for p in state.players for c in p.hand))
    for card in cards:
        if card not in CATALOGUE.money and card not in CATALOGUE.scoring_cards:
            out.append(Violation(INCONSISTENT, f"{card!r} is not a money or scoring card"))
    return out[:_KNOWN_LIMIT]


def check_consistency(state: GameState) -> list[Violation]:
    """The violations that make `state` impossible (empty when it could occur in play)."""
    known = {m.id for m in registered()}
    bad = [m for m in state.modules if m not in known or m in ("base", "dirk")]
    if bad:
        return [Violation(INCONSISTENT, f"unknown modules {bad}; supported: "
                                        f"{sorted(known - {'base', 'dirk'})}")]
    if len(set(state.modules)) != len(state.modules):
        return [Violation(INCONSISTENT, f"a module is named twice in {list(state.modules)}")]
    unknown = unknown_ids(state)
    if unknown:  # nothing else can be judged about components that do not exist
        return unknown
    modules = modules_of(state)
    out: list[Violation] = token_problems(state, modules)
    for m in modules:
        if m.consistency is not None:
            out += m.consistency(state)
    expected: Counter[str] = Counter()
    for m in modules:
        if m.expected is not None:
            expected.update(m.expected(state))
    for m in modules:
        if m.withdrawn is not None:
            expected.subtract(m.withdrawn(state))
    expected = +expected  # drop what is withdrawn
    census: Counter[str] = Counter()
    for m in modules:
        if m.components is not None:
            census.update(component for component, _ in m.components(state))
    if census == expected:
        return out
    return out + _census_problems(state, modules, expected)


def _census_problems(state: GameState, modules: tuple[Module, ...],
                     expected: Counter[str]) -> list[Violation]:
    """Which components are unknown, doubled or missing, naming where they were found."""
    out = []
    places: dict[str, list[str]] = {}
    for m in modules:
        if m.components is not None:
            for component, where in m.components(state):
                places.setdefault(component, []).append(where)
    for component, found_in in places.items():
        want = expected.get(component, 0)
        if want == 0:
            out.append(Violation(INCONSISTENT, f"{component!r} is not a component of this game "
                                               f"(found in {found_in[0]})"))
        elif len(found_in) > want:
            listed = "; ".join(found_in[:_KNOWN_LIMIT])
            out.append(Violation(INCONSISTENT, f"{component} appears {len(found_in)} times, "
                                               f"expected {want}: {listed}"))
    missing = sorted(c for c, n in expected.items() if len(places.get(c, ())) < n)
    if missing:
        shown = ", ".join(missing[:_KNOWN_LIMIT]) + (" ..." if len(missing) > _KNOWN_LIMIT else "")
        out.append(Violation(INCONSISTENT, f"{len(missing)} components are missing: {shown}"))
    return out
