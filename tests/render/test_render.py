"""The pictures of service.render: well-formed SVG, every tile and wall of a known position where
it lies, every token, and a player's view that hides what RULES.md §8 hides."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable

import drawsvg
import msgspec
import pytest

from service.engine import apply, new_game, score
from service.engine.modules.vendors.actions import ChooseInhabitants
from service.engine.scoring import Position
from service.engine.state import TOKENS, GameState
from service.engine.view import view
from service.render import (
    layout,
    pieces,
    render_position,
    render_sheet,
    render_state,
    render_view,
    scene,
    sheet,
)
from tests.support.play import after_steps

SVG = "{http://www.w3.org/2000/svg}"
ALL_MODULES = ["craftsmen", "zoo", "power", "grounds", "extensions", "staff", "walls", "treasure",
               "thieves", "vendors", "change"]

# A scoring position with every kind of token, a turned tile and added walls (on a turned tile
# and on a reserve tile).
POSITION = {
    "modules": ["zoo", "treasure", "staff", "power", "walls", "extensions", "vendors", "craftsmen"],
    "round": 2,
    "players": [
        {"name": "Ana", "score": 12, "alhambra": [
            {"x": 0, "y": 0, "tile": "fountain"},
            {"x": 1, "y": 0, "tile": "garden-10-open", "animals": ["monkey", "pigeon"],
             "chest": True, "servant": True},
            {"x": 0, "y": 1, "tile": "tower-9-NE-strength", "die": 3, "rotation": 90,
             "added_walls": "S", "extension": True, "inhabitant": True},
            {"x": -1, "y": 0, "tile": "pavilion-8-open"},
            {"x": -1, "y": -1, "tile": "seraglio-4-NE-prosperity"},
        ], "reserve": [{"tile": "chambers-7-SW", "added_walls": "N"}]},
        {"name": "Ben", "alhambra": [
            {"x": 0, "y": 0, "tile": "fountain"},
            {"x": 0, "y": -1, "tile": "arcades-5-NW-strength", "added_walls": "E"},
        ]},
        {"name": "Dirk", "dirk": True,
         "tiles": [{"tile": "arcades-9-open"}, {"tile": "tower-13-E", "chest": True},
                   # his 6 of setup at least (dirk.setup)
                   *({"tile": t} for t in ("pavilion-2-NEW", "seraglio-3-ESW", "arcades-4-NES",
                                           "chambers-5-NSW"))]},
    ],
}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode())
    assert root.tag == f"{SVG}svg"
    return root


def random_state(modules: list[str], players: int = 3, steps: int = 60, seed: int = 5) -> GameState:
    return after_steps(modules, players, seed, steps)


def _turned(sides: str, rotation: int) -> set[str]:
    """Sides turned clockwise by `rotation` degrees (N -> E -> S -> W), from the id's letters."""
    order = "NESW"
    return {order[(order.index(s) + rotation // 90) % 4] for s in sides}


def _printed(tile_id: str) -> str:
    if tile_id == "fountain":
        return ""
    walls = tile_id.split("-")[2]  # <type>-<price>-<walls>[-<power>], RULES.md §1
    return "" if walls == "open" else walls


def tile_groups(root: ET.Element, seat: int) -> dict[str, ET.Element]:
    panel = next(g for g in root.iter(f"{SVG}g") if "player" in g.get("class", "").split()
                 and g.get("data-seat") == str(seat))
    return {g.get("data-tile", ""): g for g in panel.iter(f"{SVG}g") if g.get("class") == "tile"}


def walls_drawn(group: ET.Element) -> set[tuple[str, str]]:
    return {(line.get("class", "").split()[1], line.get("data-side", ""))
            for line in group.iter(f"{SVG}path") if "wall" in line.get("class", "")}


def test_position_svg_is_well_formed_and_shows_every_tile_and_wall_where_it_lies() -> None:
    position = msgspec.convert(POSITION, Position)
    root = parse(render_position(position, score(position)))
    for seat, player in enumerate(p for p in POSITION["players"] if not p.get("dirk")):
        groups = tile_groups(root, seat)
        placed = player["alhambra"] + player.get("reserve", [])
        assert set(groups) == {t["tile"] for t in placed}
        for tile in placed:
            group = groups[tile["tile"]]
            if "x" in tile:
                assert (group.get("data-x"), group.get("data-y")) == (str(tile["x"]), str(tile["y"]))
            rotation = tile.get("rotation", 0)
            expected = {("printed", s) for s in _turned(_printed(tile["tile"]), rotation)}
            expected |= {("added", s) for s in _turned(tile.get("added_walls", ""), rotation)}
            assert walls_drawn(group) == expected, tile


def test_position_shows_every_token_and_the_breakdown() -> None:
    position = msgspec.convert(POSITION, Position)
    svg = render_position(position, score(position))
    root = parse(svg)
    groups = tile_groups(root, 0)
    for tile in POSITION["players"][0]["alhambra"]:
        tokens = [g.get("data-token") for g in groups[tile["tile"]].iter(f"{SVG}g")
                  if g.get("class") == "token"]
        expected = []
        for field in TOKENS:
            value = tile.get(field)
            if field in ("added_walls",) or not value:
                continue
            expected += [field] * (len(value) if isinstance(value, list) else 1)
        assert sorted(tokens) == sorted(expected), tile["tile"]
    texts = "".join(root.itertext())
    assert "Scoring round 2" in texts and "running score" in texts
    breakdown = score(position)
    for player in breakdown.players:
        assert player.name in texts
    dirk = [g for g in root.iter(f"{SVG}g") if g.get("class") == "player dirk"]
    dirks_tiles = {t["tile"] for t in POSITION["players"][2]["tiles"]}
    assert len(dirk) == 1 and {g.get("data-tile") for g in dirk[0].iter(f"{SVG}g")
                               if g.get("class") == "tile"} == dirks_tiles


@pytest.mark.parametrize("modules", [[], ["zoo", "walls"], ALL_MODULES])
def test_state_svg_is_well_formed_and_holds_every_tile_of_the_state(modules: list[str]) -> None:
    state = random_state(modules)
    root = parse(render_state(state))
    drawn = [g.get("data-tile") for g in root.iter(f"{SVG}g") if g.get("class") == "tile"]
    expected = [t.tile for p in state.players for t in (*p.alhambra, *p.reserve, *p.held)]
    expected += [s.tile for s in state.market if s.tile is not None]
    expected += [t.tile for t in state.dirk.tiles] if state.dirk else []
    expected += [t.tile for t in state.removed]
    assert sorted(drawn) == sorted(expected)  # type: ignore[type-var]
    cards = {g.get("data-card") for g in root.iter(f"{SVG}g") if g.get("class") == "card"}
    assert set(state.display) <= cards
    for p in state.players:
        assert set(p.hand) <= cards  # the whole state shows every hand


def test_state_draws_each_module_part() -> None:
    state = random_state(ALL_MODULES, steps=30)
    root = parse(render_state(state))
    panels = {g.get("data-module") for g in root.iter(f"{SVG}g") if g.get("class") == "module"}
    # Every module whose part holds something beyond per-seat fields has a panel.
    assert {"zoo", "treasure", "change", "extensions", "grounds", "staff"} <= panels
    marshals = [g for g in root.iter(f"{SVG}g") if g.get("class") == "marker"
                and g.get("data-module") == "staff"]
    assert len(marshals) == len(state.players)


def test_a_players_view_hides_the_other_hands() -> None:
    """RULES.md §8: the others' hands show as a number of card backs; one's own is shown."""
    state = random_state(["change"], steps=20)
    ana, ben = state.players[0], state.players[1]
    assert ana.hand and ben.hand
    full = render_state(state)
    seen = render_view(view(state, "Ana"))
    root = parse(seen)
    for card in ben.hand:
        assert card in full and card not in seen
    for card in ana.hand:
        assert f'data-card="{card}"' in seen
    panel = next(g for g in root.iter(f"{SVG}g") if g.get("data-seat") == "1")
    backs = [g for g in panel.iter(f"{SVG}g") if g.get("class") == "card-back"]
    assert len(backs) == len(ben.hand)
    assert f"{len(ben.hand)} cards (hidden)" in "".join(panel.itertext())


def test_a_players_view_hides_the_others_secret_vendor_choices() -> None:
    """RULES.md §8: the inhabitants and the space a player chose stay secret until all chose."""
    state = new_game(["Ana", "Ben", "Cyd"], ["vendors"], seed=1).state
    state = apply(state, ChooseInhabitants(player="Ana", inhabitants=("garden", "tower", "pavilion"),
                                           x=0, y=-1)).state

    def vendor_markers(svg: str, seat: int) -> int:
        panel = next(g for g in parse(svg).iter(f"{SVG}g") if g.get("data-seat") == str(seat))
        return sum(1 for g in panel.iter(f"{SVG}g") if g.get("class") == "marker")

    assert vendor_markers(render_view(view(state, "Ana")), 0) == 1
    bens = render_view(view(state, "Ben"))
    assert vendor_markers(bens, 0) == 0
    assert "vendor disc" not in "".join(
        next(g for g in parse(bens).iter(f"{SVG}g") if g.get("data-seat") == "0").itertext())
    assert vendor_markers(render_state(state), 0) == 1


def test_names_are_escaped_and_rendering_is_deterministic() -> None:
    state = new_game(["<b>&Ana", 'Ben "B"'], seed=3).state
    first = render_state(state)
    assert first == render_state(state)
    texts = "".join(parse(first).itertext())
    assert "<b>&Ana" in texts and 'Ben "B"' in texts
    assert "<b>&Ana" in "".join(parse(render_view(view(state, "<b>&Ana"))).itertext())


def _late_games() -> list[GameState]:
    """Issue 23's worst pictures: 6-player games of every module played to their end (every
    Alhambra at its largest, every module's part full)."""
    return [after_steps(ALL_MODULES, 6, seed, 3000) for seed in range(3)]


def test_the_svg_writer_writes_what_drawsvg_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """service/render/svg.py writes the pictures drawsvg wrote, byte for byte (issue 23: the
    writer was replaced for speed, the pictures kept): each picture kind drawn with both."""
    position = msgspec.convert(POSITION, Position)
    breakdown = score(position)
    tricky = new_game(["<b>&Ana", 'Ben "B"\U0001d160', "Cyd\u00e9"], ["vendors", "craftsmen"], seed=3).state
    pictures: list[Callable[[], str]] = [
        lambda: render_position(position, breakdown),
        lambda: render_position(position, breakdown, [breakdown]),
        lambda: render_sheet(position, breakdown, [breakdown]),
        lambda: render_state(tricky),
        lambda: render_view(view(tricky, "<b>&Ana")),
        # pieces no game above may show: a card that is no money card (its id on two lines),
        # text with a line break
        lambda: scene.page([pieces.card_box("thief-orange-2"), layout.label("a\nb <&>", 12, bold=True)]),
    ]
    for state in _late_games()[:1]:
        pictures += [lambda state=state: render_state(state),
                     lambda state=state: render_view(view(state, None))]
    ours = [draw() for draw in pictures]
    for module in (layout, pieces, scene, sheet):
        monkeypatch.setattr(module, "draw", drawsvg)
    assert [draw() for draw in pictures] == ours
