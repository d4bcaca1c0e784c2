"""Scoring positions that cannot occur (API.md's scoring position, RULES.md §7): the table
(modules, names, Dirk, seats), the tiles (foreign tokens, unknown tiles, each player's holdings,
tiles twice), the leftovers, each module's own checks, and the tallies (`tally_checks`)."""

from __future__ import annotations

from collections import Counter

from ..catalogue import CATALOGUE
from ..census import CENSUS
from ..consistency import foreign_tokens, play_leftover_tokens
from ..grid import check_layout
from ..module import Module, modules_of_ids, registered
from ..names import stored_problem, table_problems
from ..state import Tile
from ..violations import INCONSISTENT, Violation
from .round import Position, PositionPlayer
from .tally_checks import dirk_least, position_leftovers, tally_problems


def position_problems(position: Position) -> list[Violation]:
    """Every reason `position` could not occur in a game, in a fixed order: the table (modules,
    names, Dirk, seats), then the tiles (foreign tokens, unknown tiles, each player's holdings,
    tiles twice), then the leftovers and each module's own checks, and last the tallies."""
    known = {m.id for m in registered()} - {"base", "dirk"}
    out = _table_problems(position, known)
    modules = modules_of_ids(tuple(m for m in position.modules if m in known),
                             any(p.dirk for p in position.players))
    out += foreign_tokens(((t, f"{p.name}'s tiles") for p in position.players
                           for t in _all_tiles(p)), modules)
    unknown = _unknown_tiles(position)
    if unknown:  # nothing else can be judged about tiles that do not exist
        return out + unknown
    for p in position.players:
        out += _player_problems(position, p)
    out += _tiles_twice(position)
    out += _leftovers(position, modules)
    for module in modules:
        if module.check_position is not None:
            out += module.check_position(position)
    if not out:  # players given by tiles are counted for the table's totals: only sound tiles
        out += tally_problems(position, modules)
    return out


def _all_tiles(p: PositionPlayer) -> tuple[Tile, ...]:
    """A player's tiles wherever they lie: Alhambra, reserve, and Dirk's `tiles`."""
    return (*p.alhambra, *p.reserve, *p.tiles)


def _table_problems(position: Position, known: set[str]) -> list[Violation]:
    """The table before any tile: modules known, names storable and distinct, Dirk's seat
    (dirk.setup), the players' count and scores (`_seats`)."""
    out = [Violation("modules.unknown", f"unknown module {m!r}")
           for m in position.modules if m not in known]
    names = [p.name for p in position.players]
    out += [Violation(INCONSISTENT, problem) for problem in map(stored_problem, names) if problem]
    out += [Violation(INCONSISTENT, problem) for problem in table_problems(names)]
    dirks = [p for p in position.players if p.dirk]
    if len(dirks) > 1:
        out.append(Violation("dirk.setup", "there is at most one Dirk"))
    if dirks and len(position.players) != 3:
        out.append(Violation("dirk.setup", "Dirk joins only a two-player game"))
    return out + _seats(position, len(dirks))


def _unknown_tiles(position: Position) -> list[Violation]:
    """Tiles not in the catalogue (the fountain aside)."""
    return [Violation(INCONSISTENT, f"{p.name}: {t.tile!r} is not a tile of the catalogue")
            for p in position.players for t in _all_tiles(p)
            if t.tile != "fountain" and t.tile not in CATALOGUE.tiles]


def _player_problems(position: Position, p: PositionPlayer) -> list[Violation]:
    """One player's holdings: where Dirk's and the others' tiles go, each tile's module on, the
    fountain in the Alhambra, and the layout (unless the player is a tally)."""
    out = _holding_problems(p)
    out += [Violation(INCONSISTENT, f"{p.name}: {t.tile} belongs to the module "
                                    f"{CATALOGUE.tiles[t.tile].module!r}, which is not on")
            for t in _all_tiles(p) if t.tile != "fountain" and not _module_on(position, t.tile)]
    if any(t.tile == "fountain" for t in (*p.reserve, *p.tiles)):
        out.append(Violation("base.place.fountain-fixed",
                             f"{p.name}: the fountain never leaves the Alhambra"))
    if p.tally is not None:
        return out  # counted, not laid out: tally_problems checks it
    return out + _layout_problems(position, p)


def _holding_problems(p: PositionPlayer) -> list[Violation]:
    """dirk.scores: Dirk only collects buildings (`tiles`); the others build and keep a reserve."""
    out = []
    if p.dirk and (p.alhambra or p.reserve):
        out.append(Violation("dirk.scores", f"Dirk ({p.name}) builds no Alhambra and has no "
                                            "reserve: give his buildings as `tiles`"))
    if not p.dirk and p.tiles:
        out.append(Violation(INCONSISTENT, f"{p.name}: `tiles` is only for Dirk; use "
                                           "`alhambra` and `reserve`"))
    return out


def _module_on(position: Position, tile: str) -> bool:
    """Whether a (catalogue) tile belongs to the base game or to a module of the position."""
    return CATALOGUE.tiles[tile].module in ("base", *position.modules)


def _layout_problems(position: Position, p: PositionPlayer) -> list[Violation]:
    """A laid-out player's Alhambra: the whole layout when the position asks for it
    (`check_layout`), otherwise only base.place.fountain-fixed's one fountain; none for Dirk."""
    if p.dirk:
        return []
    if position.check_layout:
        return [Violation(v.rule, f"{p.name}'s Alhambra: {v.message}") for v in check_layout(p.alhambra)]
    if len([t for t in p.alhambra if t.tile == "fountain"]) > 1:
        return [Violation("base.place.fountain-fixed", f"{p.name} has two fountains")]
    return []


def _tiles_twice(position: Position) -> list[Violation]:
    """Each tile exists once: counted over every player, only tiles of modules that are on (a
    tile of a module not on is reported already)."""
    seen = Counter(t.tile for p in position.players for t in _all_tiles(p)
                   if t.tile != "fountain" and _module_on(position, t.tile))
    return [Violation(INCONSISTENT, f"{tile} appears {n} times; it exists once")
            for tile, n in sorted(seen.items()) if n > 1]


def _seats(position: Position, dirks: int) -> list[Violation]:
    """base.setup.players: 2 to 6 players, and with 2 the virtual third player Dirk joins (§9);
    base.score.rounds: points come only from scoring rounds, so none before round 1."""
    out = []
    players = len(position.players) - dirks
    if players < CENSUS.players_at_least:
        out.append(Violation("base.setup.players", f"the position has {players} player(s) besides "
                                                   f"Dirk, but Alhambra is played by "
                                                   f"{CENSUS.players_at_least} to {CENSUS.players}"))
    elif players == 2 and not dirks:
        out.append(Violation("base.setup.players", "with two players the virtual third player Dirk "
                                                   "joins (§9): add him (`dirk: true`)"))
    if position.round == 1:
        out += [Violation("base.score.rounds", f"$.players[{i}].score is {p.score}, but before "
                                               "scoring round 1 nobody has points: they come only "
                                               "from scoring rounds")
                for i, p in enumerate(position.players) if p.score]
    return out + dirk_least(position)


def _leftovers(position: Position, modules: tuple[Module, ...]) -> list[Violation]:
    """base.end.leftovers: how many leftover tiles, where and when (`position_leftovers`), and
    no token on one that only a turn of play puts there (`play_leftover_tokens`)."""
    tiles = ((t, f"$.players[{i}].{where}[{j}]") for i, p in enumerate(position.players)
             for where, group in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles))
             for j, t in enumerate(group) if t.leftover)
    return position_leftovers(position, modules) + play_leftover_tokens(tiles, modules)


