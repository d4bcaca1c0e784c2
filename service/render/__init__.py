"""Pictures of the game: a game state, one player's view of it, or a scoring position as SVG.

    render_state(state) -> str          everything the state holds (hands included)
    render_view(view) -> str            what `engine.view.view(state, player)` lets that player see
    render_position(position, breakdown) -> str   a real table and its scoring round

Pure functions, like the engine: the same input gives the same bytes, nothing is read or
written. A player's view is drawn from the View struct alone, so what it hides cannot show.

The SVG is written by `svg.py`: the few elements the pictures use, written as drawsvg (PyPI
`drawsvg`, which drew them first) writes them, byte for byte, at a third of its cost (its
generic writer took over half of a picture's CPU; issue 23). It escapes text content, which
holds names chosen by clients; attribute values are written as given, so `layout.attrs`
escapes those.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.engine.flow import ToAct, to_act
from service.engine.scoring import Position
from service.engine.scoring.sheet import running_totals
from service.engine.state import GameState
from service.engine.text import t, tn
from service.engine.view import View

from .layout import Box, flow, framed, label, row, say, speaking
from .scene import (
    PAGE_WIDTH,
    Seat,
    alhambra_box,
    breakdown_panel,
    dirk_panel,
    display_panel,
    header,
    market_panel,
    module_panel,
    module_parts,
    page,
    per_seat,
    player_panel,
    ranking_panel,
    tiles_row,
    turn_text,
)
from .sheet import sheet_lines, sheet_panel, tally_box

__all__ = ["alhambra_box", "render_position", "render_sheet", "render_state", "render_view"]


def _modules_line(modules: tuple[str, ...]) -> str:
    return t("modules: {modules}", modules=tuple(modules)) if modules else t("base game, no modules")


def _rounds_line(called: tuple[int, ...], held: tuple[int, ...]) -> str:
    parts = []
    if called:
        parts.append(t("scoring called: {rounds}", rounds=tuple(map(str, called))))
    if held:
        parts.append(t("scoring rounds held: {rounds}", rounds=tuple(map(str, held))))
    return " \u00b7 ".join(say(p) for p in parts)


def _table(game: Any, title: str, seats: list[Seat], deck: int, bag: int, who: ToAct) -> str:
    """The picture of a state or a view (they share these fields)."""
    lines = [turn_text(who, game.phase), tn("bag {n} tile", "bag {n} tiles", bag),
             _rounds_line(game.scoring_called, game.rounds_held), _modules_line(game.modules)]
    parts = module_parts(game)
    common = [market_panel(game.market), display_panel(game.display, len(game.discard), deck)]
    extras: list[Box | None] = [module_panel(m, name, part) for m, name, part in parts]
    if game.dirk is not None:
        extras.insert(0, dirk_panel(game.dirk))
    if game.removed:
        extras.append(framed(tiles_row(game.removed, 400) or label("", 1),
                             label(t("Out of the game"), 13, bold=True)))
    return page([
        header(title, lines),
        row(common, 14),
        _flowed(extras),
        _flowed([player_panel(s) for s in seats]),
        ranking_panel(game.ranking, t("Final ranking") if game.phase == "over" else t("Ranking")),
    ])


def _flowed(boxes: Sequence[Box | None]) -> Box | None:
    present = [b for b in boxes if b is not None]
    return flow(present, PAGE_WIDTH, gap=14) if present else None


def render_state(state: GameState, language: str | None = None) -> str:
    """The whole state: every hand, every module's part (deck and bag by their sizes); its texts
    worded in `language` (by default i18n.LANGUAGE, the request's)."""
    with speaking(language):
        return _render_state(state)


def _render_state(state: GameState) -> str:
    parts = module_parts(state)
    extras, markers = per_seat(parts, len(state.players))
    who = to_act(state)
    seats = [
        Seat(index=i, name=p.name, score=p.score, alhambra=p.alhambra, reserve=p.reserve,
             held=p.held, hand=p.hand, hand_size=len(p.hand), active=_waited_for(who, i),
             extras=tuple(extras[i]), markers=tuple(markers[i]))
        for i, p in enumerate(state.players)
    ]
    return _table(state, t("Game state (everything)"), seats, len(state.deck), len(state.bag), who)


def _waited_for(who: ToAct, seat: int) -> bool:
    """The player the game waits for (the first who may act) is marked."""
    return bool(who.actors) and who.actors[0].seat == seat


def render_view(view: View, language: str | None = None) -> str:
    """What one player (or a spectator) sees: the others' hands as counts, and only the
    module parts the view holds; worded in `language` (by default i18n.LANGUAGE)."""
    with speaking(language):
        return _render_view(view)


def _render_view(view: View) -> str:
    parts = module_parts(view)
    extras, markers = per_seat(parts, len(view.players))
    seats = [
        Seat(index=i, name=p.name, score=p.score, alhambra=p.alhambra, reserve=p.reserve,
             held=p.held, hand=p.hand, hand_size=p.hand_size, active=_waited_for(view.to_act, i),
             extras=tuple(extras[i]), markers=tuple(markers[i]))
        for i, p in enumerate(view.players)
    ]
    title = (t("{player}'s view", player=view.viewer) if view.viewer is not None
             else t("A spectator's view"))
    return _table(view, title, seats, view.deck_size, view.bag_size, view.to_act)


def _dirk_name(name: str) -> str:
    return name if name == "Dirk" else t("{player} (Dirk)", player=name)


def render_position(position: Position, breakdown: Any | None = None,
                    previous: Sequence[Any] = (), language: str | None = None) -> str:
    """A scoring position (API.md): each player's Alhambra and reserve (or what was counted of
    them, a tally), Dirk's tiles, and with the breakdown of its scoring round the score sheet:
    the earlier rounds' totals (`previous`), the running totals and their chart by round;
    worded in `language` (by default i18n.LANGUAGE)."""
    with speaking(language):
        return _render_position(position, breakdown, previous)


def _render_position(position: Position, breakdown: Any | None, previous: Sequence[Any]) -> str:
    seats = [
        Seat(index=i, name=p.name, score=p.score, alhambra=p.alhambra, reserve=p.reserve,
             show_hand=False, before_round=True)
        for i, p in enumerate(position.players) if not p.dirk and p.tally is None
    ]
    dirks = [framed(tiles_row(p.tiles, 360) or label(t("no tiles"), 11),
                    label(tn("{player} \u00b7 {n} point before this round",
                             "{player} \u00b7 {n} points before this round", p.score,
                             player=_dirk_name(p.name)), 15, bold=True),
                    class_="player dirk")
             for p in position.players if p.dirk and p.tally is None]
    scores = [p.score for p in position.players]
    if previous:
        totals = running_totals(previous)
        scores = [totals.get(p.name, 0) for p in position.players]
    counted = [framed(tally_box(p.tally),
                      label(tn("{player} \u00b7 counted \u00b7 {n} point before this round",
                               "{player} \u00b7 counted \u00b7 {n} points before this round", score,
                               player=_dirk_name(p.name) if p.dirk else p.name), 15, bold=True),
                      class_="player tally", data_seat=i)
               for i, (p, score) in enumerate(zip(position.players, scores, strict=True))
               if p.tally is not None]
    return page([
        header(t("Scoring position \u00b7 round {round}", round=position.round),
               [_modules_line(position.modules)]),
        _flowed([player_panel(s) for s in seats] + dirks + counted),
        breakdown_panel(breakdown, scores) if breakdown is not None else None,
        _sheet(position, breakdown, previous) if breakdown is not None else None,
    ])


def render_sheet(position: Position, breakdown: Any, previous: Sequence[Any] = (),
                 language: str | None = None) -> str:
    """A score sheet alone: each round's points and running totals and their chart by round;
    worded in `language` (by default i18n.LANGUAGE)."""
    with speaking(language):
        return page([header(t("Score sheet \u00b7 after round {round}", round=position.round),
                            [_modules_line(position.modules)]),
                     _sheet(position, breakdown, previous)])


def _sheet(position: Position, breakdown: Any, previous: Sequence[Any]) -> Box:
    """The score sheet: the earlier rounds' totals and this one's; without them the points
    before this round stand for the running total after the round before."""
    names = [p.name for p in position.players]
    rounds = [(past.round, [p.total for p in past.players]) for past in previous]
    rounds.append((breakdown.round, [p.total for p in breakdown.players]))
    before = None if previous else {position.round - 1: [p.score for p in position.players]}
    return sheet_panel(sheet_lines(names, rounds, before))
