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
from ..text import t, tn
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
    out += foreign_tokens(((x, t("{player}'s tiles", player=p.name)) for p in position.players
                           for x in _all_tiles(p)), modules)
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
    out = [Violation("modules.unknown", t("unknown module {module}", module=repr(m)))
           for m in position.modules if m not in known]
    names = [p.name for p in position.players]
    out += [Violation(INCONSISTENT, problem) for problem in map(stored_problem, names) if problem]
    out += [Violation(INCONSISTENT, problem) for problem in table_problems(names)]
    dirks = [p for p in position.players if p.dirk]
    if len(dirks) > 1:
        out.append(Violation("dirk.setup", t("there is at most one Dirk")))
    if dirks and len(position.players) != 3:
        out.append(Violation("dirk.setup", t("Dirk joins only a two-player game")))
    return out + _seats(position, len(dirks))


def _unknown_tiles(position: Position) -> list[Violation]:
    """Tiles not in the catalogue (the fountain aside)."""
    return [Violation(INCONSISTENT, t("{player}: {tile} is not a tile of the catalogue", player=p.name,
                                      tile=repr(x.tile)))
            for p in position.players for x in _all_tiles(p)
            if x.tile != "fountain" and x.tile not in CATALOGUE.tiles]


def _player_problems(position: Position, p: PositionPlayer) -> list[Violation]:
    """One player's holdings: where Dirk's and the others' tiles go, each tile's module on, the
    fountain in the Alhambra, and the layout (unless the player is a tally)."""
    out = _holding_problems(p)
    out += [Violation(INCONSISTENT, t("{player}: {tile} belongs to the module '{module}', which is not on",
                                      player=p.name, tile=x.tile, module=CATALOGUE.tiles[x.tile].module))
            for x in _all_tiles(p) if x.tile != "fountain" and not _module_on(position, x.tile)]
    if any(x.tile == "fountain" for x in (*p.reserve, *p.tiles)):
        out.append(Violation("base.place.fountain-fixed",
                             t("{player}: the fountain never leaves the Alhambra", player=p.name)))
    if p.tally is not None:
        return out  # counted, not laid out: tally_problems checks it
    return out + _layout_problems(position, p)


def _holding_problems(p: PositionPlayer) -> list[Violation]:
    """dirk.scores: Dirk only collects buildings (`tiles`); the others build and keep a reserve."""
    out = []
    if p.dirk and (p.alhambra or p.reserve):
        out.append(Violation("dirk.scores", t("Dirk ({player}) builds no Alhambra and has no reserve: give "
                                              "his buildings as `tiles`", player=p.name)))
    if not p.dirk and p.tiles:
        out.append(Violation(INCONSISTENT, t("{player}: `tiles` is only for Dirk; use `alhambra` and "
                                             "`reserve`", player=p.name)))
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
        return [Violation(v.rule, t("{player}'s Alhambra: {why}", player=p.name, why=v.message))
                for v in check_layout(p.alhambra)]
    if len([x for x in p.alhambra if x.tile == "fountain"]) > 1:
        return [Violation("base.place.fountain-fixed", t("{player} has two fountains", player=p.name))]
    return []


def _tiles_twice(position: Position) -> list[Violation]:
    """Each tile exists once: counted over every player, only tiles of modules that are on (a
    tile of a module not on is reported already)."""
    seen = Counter(x.tile for p in position.players for x in _all_tiles(p)
                   if x.tile != "fountain" and _module_on(position, x.tile))
    return [Violation(INCONSISTENT, t("{tile} appears {n} times; it exists once", tile=tile, n=n))
            for tile, n in sorted(seen.items()) if n > 1]


def _seats(position: Position, dirks: int) -> list[Violation]:
    """base.setup.players: 2 to 6 players, and with 2 the virtual third player Dirk joins (§9);
    base.score.rounds: points come only from scoring rounds, so none before round 1."""
    out = []
    players = len(position.players) - dirks
    if players < CENSUS.players_at_least:
        out.append(Violation("base.setup.players", tn(
            "the position has {n} player besides Dirk, but Alhambra is played by {fewest} to {most}",
            "the position has {n} players besides Dirk, but Alhambra is played by {fewest} to {most}",
            players, fewest=CENSUS.players_at_least, most=CENSUS.players)))
    elif players == 2 and not dirks:
        out.append(Violation("base.setup.players", t("with two players the virtual third player Dirk "
                                                     "joins (§9): add him (`dirk: true`)")))
    if position.round == 1:
        out += [Violation("base.score.rounds", t("$.players[{i}].score is {score}, but before scoring round "
                                                 "1 nobody has points: they come only from scoring rounds",
                                                 i=i, score=p.score))
                for i, p in enumerate(position.players) if p.score]
    return out + dirk_least(position)


def _leftovers(position: Position, modules: tuple[Module, ...]) -> list[Violation]:
    """base.end.leftovers: how many leftover tiles, where and when (`position_leftovers`), and
    no token on one that only a turn of play puts there (`play_leftover_tokens`)."""
    tiles = ((x, f"$.players[{i}].{where}[{j}]") for i, p in enumerate(position.players)
             for where, group in (("alhambra", p.alhambra), ("reserve", p.reserve), ("tiles", p.tiles))
             for j, x in enumerate(group) if x.leftover)

    return position_leftovers(position, modules) + play_leftover_tokens(tiles, modules)


