"""What Buildings of Power owns and where (the special tiles, the dice, the tiles hidden and
drawn), the consistency of its state, and what a seat sees of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from msgspec.structs import replace

from ...base.components import TILES, deck_cards
from ...catalogue import CATALOGUE
from ...module import Unseen, ViewPart
from ...places import Place, tokens_in_box
from ...state import GameState
from ...violations import Violation
from .data import DATA, DIE_OF, REPLACED, SPECIAL, _power, power_of
from .model import HiddenTileSeen, PowerSeen, PowerState


def expected(state: GameState) -> Iterator[str]:
    yield from SPECIAL
    yield from tokens_in_box("die", {die: n for die, n in DATA["dice"].items() if die != "red"})


def withdrawn(state: GameState) -> Iterator[str]:
    yield from REPLACED


def located(state: GameState) -> Iterator[tuple[str, str]]:
    """Its own loop, not `places.tokens_lying`: the dice are counted on the players' tiles only,
    each worded "on <tile>" (a die on Dirk's tile `consistency` refuses on its own: power.dirk)."""
    power = state.power
    if power is None:
        return
    for die in ("white", "black"):
        for _ in range(getattr(power, die)):
            yield f"die:{die}", "the dice supply"
    for _ in range(power.white_out):
        yield "die:white", "out of the game"
    for h in power.hidden:
        yield h.tile, f"hidden under {h.above} on the {h.currency} market space"
    for t in power.drawn if power.using and power_of(power.using) == "architecture" else ():
        yield t, "drawn by an architecture power"
    for c in power.drawn if power.using and power_of(power.using) == "wisdom" else ():
        yield c, "drawn by a wisdom power"
    tiles = [tile for p in state.players for tile in (*p.alhambra, *p.reserve, *p.held)]
    for tile in tiles:
        if tile.die is not None:
            yield f"die:{DIE_OF.get(power_of(tile.tile) or '', 'none')}", f"on {tile.tile}"


def places(state: GameState) -> Iterator[Place]:
    """Tiles hidden under the market; what a power drew: tiles (architecture) or cards of the
    money deck (wisdom)."""
    power = state.power
    if power is None:
        return
    yield Place("the tiles hidden under the market", tuple(h.tile for h in power.hidden), TILES,
                "it holds only building tiles")
    if power.using is not None and power_of(power.using) == "architecture":
        yield Place("what an architecture power drew", power.drawn, TILES, "it holds only building tiles")
    elif power.using is not None and power_of(power.using) == "wisdom":
        yield Place("what a wisdom power drew", power.drawn, deck_cards(),
                    "it holds only cards of the money deck")


def consistency(state: GameState) -> list[Violation]:
    power = state.power
    if power is None:
        return [Violation("power.setup", "the power module is on but the state has no `power` part")]
    out = []
    for t in (*(t for p in state.players for t in (*p.alhambra, *p.reserve, *p.held)),
              *(state.dirk.tiles if state.dirk else ())):
        if t.die is not None and power_of(t.tile) not in DIE_OF:
            out.append(Violation("power.strength", f"{t.tile} carries a die but is no strength or "
                                                   "prosperity tile"))
    if state.dirk is not None and any(t.die for t in state.dirk.tiles):
        out.append(Violation("power.dirk", "Dirk keeps no dice"))
    out += _hidden_problems(state, power)
    if power.drawn and power.using is None:
        out.append(Violation("power.end-of-turn", "cards or tiles are drawn but no power is in use"))
    return out + _use_problems(state, power)


def _hidden_problems(state: GameState, power: PowerState) -> list[Violation]:
    """power.architecture (seeds 000.53-000.55): a hidden tile lies under a market tile, at most
    one under each, at that tile's space, and belongs to a player; once its tile was bought
    (`above` absent) it waits, alone, on that emptied space to be turned up this turn."""
    rule = "power.architecture"
    spaces = {s.currency: s.tile for s in state.market}
    at = {tile: currency for currency, tile in spaces.items() if tile is not None}
    names = [p.name for p in state.players]
    out = []
    for h in power.hidden:
        where = f"{h.tile} (hidden under {h.above})" if h.above else f"{h.tile} (its market tile bought)"
        if h.owner not in names:
            out.append(Violation(rule, f"{where} belongs to {h.owner!r}, who is not at the table {names}"))
        if h.currency not in spaces:
            out.append(Violation(rule, f"{where} lies at the {h.currency} market space, but the "
                                       f"market's spaces are {list(spaces)}"))
        elif h.above is not None and h.above not in at:
            out.append(Violation(rule, f"{where}: {h.above} is not on the market"))
        elif h.above is not None and at[h.above] != h.currency:
            out.append(Violation(rule, f"{where} lies at the {h.currency} market space, but "
                                       f"{h.above} lies at the {at[h.above]} one"))
        elif h.above is None and spaces.get(h.currency, "") is not None:
            out.append(Violation(rule, f"{where} waits to be turned up at the {h.currency} market "
                                       "space, but no tile was bought from such a space"))
    keys = Counter(h.above or f"the bought tile of the {h.currency} space" for h in power.hidden)
    out += [Violation(rule, f"{n} tiles are hidden under {key}: no more than one tile may be "
                            "underneath a tile (seed 000.55)")
            for key, n in keys.items() if n > 1]
    return out


def _use_problems(state: GameState, power: PowerState) -> list[Violation]:
    """power.end-of-turn: powers due and in use are architecture or wisdom tiles, used only at
    the end of a turn; the red die is rolled once a power is used, and the draw holds at most
    that many tiles, or money and scoring cards (a card a module takes is set aside)."""
    rule = "power.end-of-turn"
    out = [Violation(rule, f"{t} is no architecture or wisdom tile: it has no power to use at the "
                           "end of the turn") for t in (*power.due, *filter(None, (power.using,)))
           if power_of(t) not in ("architecture", "wisdom")]
    if power.roll and not power.drawn:
        out.append(Violation(rule, f"the red die shows {power.roll}, but no power is drawing"))
    if len(power.drawn) > power.roll:
        out.append(Violation(rule, f"{len(power.drawn)} drawn with the red die showing {power.roll}"))
    if power.using is None:
        return out
    if state.phase != "play" or state.turn.actions or state.active.held:
        out.append(Violation(rule, f"the power of {power.using} is in use, but powers are used only "
                                   "at the end of a turn, once its buildings are placed"))
    if power_of(power.using) == "wisdom":
        out += [Violation("power.wisdom", f"{c} is among the cards a wisdom power drew, but it is no "
                                          "money or scoring card (a card a module takes as it turns "
                                          "up is set aside, the draw going on)")
                for c in power.drawn if c not in CATALOGUE.money and c not in CATALOGUE.scoring_cards]
    elif power_of(power.using) == "architecture":
        out += [Violation("power.architecture", f"{t} is among the tiles an architecture power drew, "
                                                "but it is no building tile")
                for t in power.drawn if t not in CATALOGUE.tiles]
    return out


def seen(state: GameState, seat: int | None) -> PowerSeen:
    """power.architecture, power.wisdom: what a power drew only the player using it sees (the
    active player); a tile hidden under a market tile only its owner."""
    power = _power(state)
    viewer = None if seat is None else state.players[seat].name
    hidden = tuple(HiddenTileSeen(tile=h.tile if h.owner == viewer else None, above=h.above,
                                  currency=h.currency, owner=h.owner) for h in power.hidden)
    return PowerSeen(white=power.white, black=power.black, white_out=power.white_out, due=power.due,
                     using=power.using, roll=power.roll, drawn_size=len(power.drawn),
                     drawn=power.drawn if seat == state.turn.player and power.drawn else None,
                     hidden=hidden, used_white=power.used_white, choices=power.choices)


VIEW = ViewPart(PowerSeen, seen)


def unseen(state: GameState, seat: int | None) -> Iterator[Unseen]:
    """power.architecture, power.wisdom: what a power drew, unless the seat is the one using it
    (the active player): tiles of the bag's pool, or money cards of the money's; the tiles
    hidden under market tiles by others, of the bag's pool too."""
    power = state.power
    if power is None:
        return
    if power.drawn and seat != state.turn.player:
        pool = "money" if power.drawn[0] in CATALOGUE.money else "tiles"
        yield Unseen(pool, power.drawn, lambda s, d, _: replace(s, power=replace(s.power, drawn=d)))
    viewer = None if seat is None else state.players[seat].name
    others = [i for i, h in enumerate(power.hidden) if h.owner != viewer]
    if others:
        yield Unseen("tiles", tuple(power.hidden[i].tile for i in others),
                     lambda s, tiles, _: _hidden(s, dict(zip(others, tiles, strict=True))))


def _hidden(state: GameState, tiles: dict[int, str]) -> GameState:
    power = _power(state)
    moved = tuple(replace(h, tile=tiles.get(i, h.tile)) for i, h in enumerate(power.hidden))
    return replace(state, power=replace(power, hidden=moved))
