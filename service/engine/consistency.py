"""Refuse states that cannot occur in a game: every component exactly once, nothing off the
catalogue, every Alhambra obeying §4, and each module's own checks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from msgspec.structs import astuple

from .catalogue import CATALOGUE, FOUNTAIN
from .module import Module, modules_of, registered
from .places import Place, lying
from .scoring.tally_checks import leftovers_over, most_leftovers
from .state import MARKET_TOKENS, MODULE_PARTS, TOKENS, GameState, MarketSpace, PlacedTile, Tile, has_tokens
from .text import Text, t, tn, word
from .violations import INCONSISTENT, Violation

LEFTOVERS = "base.end.leftovers"
_KNOWN_LIMIT = 12  # list at most this many places per problem, so messages stay readable


def _all_tiles(state: GameState) -> Iterator[tuple[Tile | MarketSpace, str]]:
    for tile, zone, owner in lying(state, market=True):
        if isinstance(tile, PlacedTile):
            yield tile, t("{player}'s Alhambra at {pos}", player=owner, pos=str((tile.x, tile.y)))
        elif isinstance(tile, MarketSpace):
            yield tile, t("the {currency} market space", currency=word(tile.currency))
        else:
            yield tile, _where(zone, owner)


def _where(zone: str, owner: str) -> Text:
    if zone == "reserve":
        return t("{player}'s reserve", player=owner)
    if zone == "held":
        return t("{player}'s held buildings", player=owner)
    return t("Dirk's tiles") if zone == "dirk" else t("out of the game")


_BARE = astuple(Tile(tile=""))[1:]
_N = len(Tile.__struct_fields__)


def _any_token(state: GameState) -> bool:
    """Whether any tile of the state carries a token (the common answer, no, found fast)."""
    groups: list[tuple[Tile, ...]] = [state.removed]
    if state.dirk is not None:
        groups.append(state.dirk.tiles)
    for p in state.players:
        groups += (p.alhambra, p.reserve, p.held)
    for group in groups:
        for tile in group:
            if astuple(tile)[1:_N] != _BARE or (isinstance(tile, PlacedTile) and tile.rotation):
                return True
    return any(getattr(space, token) for space in state.market for token in MARKET_TOKENS)


def token_problems(state: GameState, modules: tuple[Module, ...]) -> list[Violation]:
    """A token may lie on a tile only while the module it belongs to is on; the leftover token
    only as base.end.leftovers hands it out (`leftover_problems`)."""
    if not _any_token(state):
        return []
    tiles = list(_all_tiles(state))
    return foreign_tokens(tiles, modules) + leftover_problems(state, tiles, modules)


def leftover_problems(state: GameState, tiles: list[tuple[Tile | MarketSpace, str]],
                      modules: tuple[Module, ...]) -> list[Violation]:
    """base.end.leftovers: the market tiles left when the game ends go to the richest player of
    each currency, marked leftover. So no tile is marked before the game has ended, none at
    Dirk's (he holds no money) or out of the game (a tile nobody wins leaves unmarked); one
    player receives at most one of each market space, the table `most_leftovers`; and a leftover
    tile carries no token that only a turn of play puts on a tile (`play_leftover_tokens`)."""
    marked = [(tile, where) for tile, where in tiles if getattr(tile, "leftover", False)]
    if not marked:
        return []
    if state.phase == "play":
        return [Violation(LEFTOVERS, t("{tile} in {where} is marked leftover before the game has ended: "
                                       "leftover tiles are handed out when it ends", tile=tile.tile,
                                       where=where))
                for tile, where in marked]
    dirk = state.dirk.tiles if state.dirk is not None else ()
    out = [Violation(LEFTOVERS, t("{tile} in {where} is marked leftover: {why}", tile=m.tile, where=where,
                                  why=why))
           for group, where, why in ((dirk, t("Dirk's tiles"), t("Dirk holds no money and receives no "
                                                                 "leftover tile (dirk.scores)")),
                                     (state.removed, t("out of the game"),
                                      t("a leftover tile nobody wins leaves the game unmarked")))
           for m in group if m.leftover]
    counts = [(p.name, len(named), named) for p in state.players
              if (named := [t.tile for t in (*p.alhambra, *p.reserve, *p.held) if t.leftover])]
    out += leftovers_over(counts, most_leftovers(modules))
    return out + play_leftover_tokens(marked, modules)


def play_leftover_tokens(marked: Iterable[tuple[Tile | MarketSpace, str]],
                         modules: tuple[Module, ...]) -> list[Violation]:
    """base.end.leftovers: a leftover tile is handed out after the last turn, so it carries no
    token that only a turn of play puts on a tile (`Module.play_tokens`: a servant, a chest, an
    extension, added walls, a rotation, a die), each named with the rule that puts it there."""
    rules = {token: rule for m in modules for token, rule in m.play_tokens.items()}
    return [Violation(LEFTOVERS, t("{tile} in {where} is a leftover tile but carries the token '{token}', "
                                   "which only a turn of play puts on a tile ({rule}); leftover tiles are "
                                   "handed out after the last turn", tile=tile.tile, where=where,
                                   token=token, rule=rule))
            for tile, where in marked for token, rule in rules.items() if getattr(tile, token, None)]


def foreign_parts(state: GameState, modules: tuple[Module, ...]) -> list[Violation]:
    """A module's part of the state (the field named after it) while the module is off: seed
    003.3, only the chosen modules' components are prepared, so the part is null (RULES.md §H)."""
    on = {m.id for m in modules}
    return [Violation(INCONSISTENT, t("`{module}` holds the part of the module {module} ({name}), which is "
                                      "not on in this game (modules ({modules})): only the chosen modules' "
                                      "components are prepared; leave `{module}` null", module=m.id,
                                      name=m.name, modules=tuple(state.modules)))
            for m in registered() if m.id in MODULE_PARTS and m.id not in on
            and getattr(state, m.id) is not None]


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
                owner = owners.get(token) or t("a module not supported yet")
                rule = "base.place.orientation" if token == "rotation" else INCONSISTENT
                out.append(Violation(rule, t("{tile} in {where} carries the token '{token}' of {module}, "
                                             "which is not on in this game", tile=tile.tile, where=where,
                                             token=token, module=owner)))
    return out


# Every tile and card id of every catalogue (the base game's and the modules' data).
KNOWN_IDS = frozenset({*CATALOGUE.tiles, *CATALOGUE.money, *CATALOGUE.scoring_cards, *CATALOGUE.cards,
                       FOUNTAIN})


def _ids(module: Module, state: GameState) -> Iterable[str]:
    if module.census is not None:
        return module.census(state)
    if module.components is not None:
        return [component for component, _ in module.components(state)]
    return ()


_EXPECTED: dict[tuple[tuple[str, ...], int, bool], Counter[str]] = {}


def expected_components(state: GameState, modules: tuple[Module, ...]) -> Counter[str]:
    """Each component the game must hold, and how many times. It depends only on the modules,
    the number of players and Dirk, so it is worked out once for each of those."""
    key = (state.modules, len(state.players), state.dirk is not None)
    found = _EXPECTED.get(key)
    if found is None:
        counts: Counter[str] = Counter()
        for m in modules:
            if m.expected is not None:
                counts.update(m.expected(state))
        for m in modules:
            if m.withdrawn is not None:
                counts.subtract(m.withdrawn(state))
        found = _EXPECTED[key] = +counts  # drop what is withdrawn
    return found


def check_consistency(state: GameState) -> list[Violation]:
    """The violations that make `state` impossible (empty when it could occur in play)."""
    known = {m.id for m in registered()}
    bad = [m for m in state.modules if m not in known or m in ("base", "dirk")]
    if bad:
        return [Violation(INCONSISTENT, t("unknown modules ({modules}); supported: {known}",
                                          modules=tuple(bad),
                                          known=tuple(sorted(known - {'base', 'dirk'}))))]
    if len(set(state.modules)) != len(state.modules):
        return [Violation(INCONSISTENT, tn("the module {module} is named {n} time in ({modules}): a game "
                                           "names each module once",
                                           "the module {module} is named {n} times in ({modules}): a game "
                                           "names each module once", n, module=repr(m),
                                           modules=tuple(state.modules)))
                for m, n in Counter(state.modules).items() if n > 1]
    if not 0 <= state.turn.player < len(state.players):
        # Checked first: every other check may read the active player's seat.
        return [Violation(INCONSISTENT, t("turn.player {seat} is not a seat of this game (seats 0 to {last})",
                                          seat=state.turn.player, last=len(state.players) - 1))]
    modules = modules_of(state)
    expected = expected_components(state, modules)
    census: Counter[str] = Counter()
    for m in modules:
        census.update(_ids(m, state))
        if m.id == "base" and not KNOWN_IDS.issuperset(census) and not all(
                c in KNOWN_IDS or c in expected for c in census):
            # Nothing else can be judged about tiles or cards that do not exist: name only them
            # (the modules' components were not counted yet, so none is "missing"). A module's
            # component in a base place (a coin in a hand) exists: `places` names it below.
            return _unknown_problems(state, m, expected)
    misplaced = misplaced_components(state, modules)
    if misplaced:  # the other checks read places by their kind: judge nothing more
        return misplaced
    out: list[Violation] = foreign_parts(state, modules) + token_problems(state, modules)
    for m in modules:
        if m.consistency is not None:
            out += m.consistency(state)
    if not dict.__eq__(census, expected):  # dict's (C) equality: Counter's is a Python loop
        out += _census_problems(state, modules, expected)
    return out


def misplaced_components(state: GameState, modules: tuple[Module, ...]) -> list[Violation]:
    """Components lying where their kind never goes (each module's `places`)."""
    found: list[tuple[Place, list[str]]] = []
    specific: set[tuple[str, str]] = set()  # (place, id) refused under a module's own rule
    for m in modules:
        if m.places is None:
            continue
        for place in m.places(state):
            holds = place.holds
            if holds.issuperset(place.ids) if isinstance(holds, frozenset) else all(
                    i in holds for i in place.ids):
                continue
            wrong = [i for i in place.ids if i not in holds]
            found.append((place, wrong))
            if place.rule != INCONSISTENT:
                specific.update((place.where, i) for i in wrong)
    out = []
    for place, wrong in found:
        if place.rule == INCONSISTENT:
            wrong = [i for i in wrong if (place.where, i) not in specific]
        if wrong:
            listed = ", ".join(wrong[:_KNOWN_LIMIT]) + (" ..." if len(wrong) > _KNOWN_LIMIT else "")
            out.append(Violation(place.rule, t("{ids} cannot be in {where}: {why}", ids=listed,
                                               where=place.where, why=place.why)))
    return out


def _unknown_problems(state: GameState, base: Module, expected: Counter[str]) -> list[Violation]:
    """The ids in the base game's places that are neither the catalogue's nor this game's."""
    assert base.components is not None
    return [Violation(INCONSISTENT, t("{component} is not a tile or card of any catalogue (found in "
                                      "{where})", component=repr(component), where=where))
            for component, where in base.components(state)
            if component not in KNOWN_IDS and component not in expected]


def _census_problems(state: GameState, modules: tuple[Module, ...],
                     expected: Counter[str]) -> list[Violation]:
    """Which components are unknown, doubled or missing, naming where they were found."""
    out = []
    places: dict[str, list[str]] = {}
    for m in modules:
        if m.components is not None:
            for component, where in m.components(state):
                places.setdefault(component, []).append(where)
    withdrawn = {c: m.name for m in modules if m.withdrawn is not None for c in m.withdrawn(state)}
    for component, found_in in places.items():
        want = expected.get(component, 0)
        if want == 0 and component in withdrawn:
            out.append(Violation(INCONSISTENT, t("{component} stays in the box in this game ({module}), but "
                                                 "it is in {where}", component=repr(component),
                                                 module=withdrawn[component], where=found_in[0])))
        elif want == 0:
            what = (t("a component of this game") if component in KNOWN_IDS
                    else t("a tile or card of any catalogue"))
            out.append(Violation(INCONSISTENT, t("{component} is not {what} (found in {where})",
                                                 component=repr(component), what=what, where=found_in[0])))
        elif len(found_in) > want:
            listed = found_in[0]
            for where in found_in[1:_KNOWN_LIMIT]:
                listed = t("{first}; {then}", first=listed, then=where)
            out.append(Violation(INCONSISTENT, t("{component} appears {n} times, expected {want}: {places}",
                                                 n=len(found_in), component=component, want=want,
                                                 places=listed)))
    missing = sorted(c for c, n in expected.items() if len(places.get(c, ())) < n)
    if missing:
        shown = ", ".join(missing[:_KNOWN_LIMIT]) + (" ..." if len(missing) > _KNOWN_LIMIT else "")
        out.append(Violation(INCONSISTENT, tn("{n} component is missing: {ids}",
                                              "{n} components are missing: {ids}", len(missing), ids=shown)))

    return out
