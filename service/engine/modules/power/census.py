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
from ...text import t, word
from ...violations import Violation
from .data import DATA, DIE_OF, REPLACED, SPECIAL, _power, power_of
from .model import HiddenTileSeen, PowerSeen, PowerState


def expected(state: GameState) -> Iterator[str]:
    yield from SPECIAL
    yield from tokens_in_box("die", {die: n for die, n in DATA["dice"].items() if die != "red"})


def withdrawn(state: GameState) -> Iterator[str]:
    yield from REPLACED


_SUPPLY, _OUT = t("the dice supply"), t("out of the game")
_BY_ARCHITECTURE, _BY_WISDOM = t("drawn by an architecture power"), t("drawn by a wisdom power")
_HIDDEN = t("the tiles hidden under the market")
_ONLY_TILES, _ONLY_CARDS = t("it holds only building tiles"), t("it holds only cards of the money deck")


def located(state: GameState) -> Iterator[tuple[str, str]]:
    """Its own loop, not `places.tokens_lying`: the dice are counted on the players' tiles only,
    each worded "on <tile>" (a die on Dirk's tile `consistency` refuses on its own: power.dirk)."""
    power = state.power
    if power is None:
        return
    for die in ("white", "black"):
        for _ in range(getattr(power, die)):
            yield f"die:{die}", _SUPPLY
    for _ in range(power.white_out):
        yield "die:white", _OUT
    for h in power.hidden:
        yield h.tile, t("hidden under {above} on the {currency} market space", above=str(h.above),
                        currency=word(h.currency))
    for drawn in power.drawn if power.using and power_of(power.using) == "architecture" else ():
        yield drawn, _BY_ARCHITECTURE
    for c in power.drawn if power.using and power_of(power.using) == "wisdom" else ():
        yield c, _BY_WISDOM
    tiles = [tile for p in state.players for tile in (*p.alhambra, *p.reserve, *p.held)]
    for tile in tiles:
        if tile.die is not None:
            yield f"die:{DIE_OF.get(power_of(tile.tile) or '', 'none')}", t("on {tile}", tile=tile.tile)


def places(state: GameState) -> Iterator[Place]:
    """Tiles hidden under the market; what a power drew: tiles (architecture) or cards of the
    money deck (wisdom)."""
    power = state.power
    if power is None:
        return
    yield Place(_HIDDEN, tuple(h.tile for h in power.hidden), TILES, _ONLY_TILES)
    if power.using is not None and power_of(power.using) == "architecture":
        yield Place(t("what an architecture power drew"), power.drawn, TILES, _ONLY_TILES)
    elif power.using is not None and power_of(power.using) == "wisdom":
        yield Place(t("what a wisdom power drew"), power.drawn, deck_cards(), _ONLY_CARDS)


def consistency(state: GameState) -> list[Violation]:
    power = state.power
    if power is None:
        return [Violation("power.setup", t("the power module is on but the state has no `power` part"))]
    out = []
    for one in (*(x for p in state.players for x in (*p.alhambra, *p.reserve, *p.held)),
                *(state.dirk.tiles if state.dirk else ())):
        if one.die is not None and power_of(one.tile) not in DIE_OF:
            out.append(Violation("power.strength", t("{tile} carries a die but is no strength or prosperity "
                                                     "tile", tile=one.tile)))
    if state.dirk is not None and any(x.die for x in state.dirk.tiles):
        out.append(Violation("power.dirk", t("Dirk keeps no dice")))
    out += _hidden_problems(state, power)
    if power.drawn and power.using is None:
        out.append(Violation("power.end-of-turn", t("cards or tiles are drawn but no power is in use")))
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
        where = (t("{tile} (hidden under {above})", tile=h.tile, above=h.above) if h.above else
                 t("{tile} (its market tile bought)", tile=h.tile))
        if h.owner not in names:
            out.append(Violation(rule, t("{where} belongs to {owner}, who is not at the table {names}",
                                         where=where, owner=repr(h.owner), names=tuple(names))))
        if h.currency not in spaces:
            out.append(Violation(rule, t("{where} lies at the {currency} market space, but the market's "
                                         "spaces are {spaces}", where=where, currency=word(h.currency),
                                         spaces=tuple(word(s) for s in spaces))))
        elif h.above is not None and h.above not in at:
            out.append(Violation(rule, t("{where}: {above} is not on the market", where=where,
                                         above=h.above)))
        elif h.above is not None and at[h.above] != h.currency:
            out.append(Violation(rule, t("{where} lies at the {currency} market space, but {above} lies at "
                                         "the {other} one", where=where, currency=word(h.currency),
                                         above=h.above, other=word(at[h.above]))))
        elif h.above is None and spaces.get(h.currency, "") is not None:
            out.append(Violation(rule, t("{where} waits to be turned up at the {currency} market space, but "
                                         "no tile was bought from such a space", where=where,
                                         currency=word(h.currency))))
    keys = Counter(h.above or t("the bought tile of the {currency} space", currency=word(h.currency))
                   for h in power.hidden)
    out += [Violation(rule, t("{n} tiles are hidden under {key}: no more than one tile may be underneath "
                              "a tile (seed 000.55)", n=n, key=key))
            for key, n in keys.items() if n > 1]
    return out


def _use_problems(state: GameState, power: PowerState) -> list[Violation]:
    """power.end-of-turn: powers due and in use are architecture or wisdom tiles, used only at
    the end of a turn; the red die is rolled once a power is used, and the draw holds at most
    that many tiles, or money and scoring cards (a card a module takes is set aside)."""
    rule = "power.end-of-turn"
    out = [Violation(rule, t("{tile} is no architecture or wisdom tile: it has no power to use at the end "
                             "of the turn", tile=tile))
           for tile in (*power.due, *filter(None, (power.using,)))
           if power_of(tile) not in ("architecture", "wisdom")]
    if power.roll and not power.drawn:
        out.append(Violation(rule, t("the red die shows {roll}, but no power is drawing", roll=power.roll)))
    if len(power.drawn) > power.roll:
        out.append(Violation(rule, t("{n} drawn with the red die showing {roll}", n=len(power.drawn),
                                     roll=power.roll)))
    if power.using is None:
        return out
    if state.phase != "play" or state.turn.actions or state.active.held:
        out.append(Violation(rule, t("the power of {tile} is in use, but powers are used only at the end of "
                                     "a turn, once its buildings are placed", tile=power.using)))
    if power_of(power.using) == "wisdom":
        out += [Violation("power.wisdom", t("{card} is among the cards a wisdom power drew, but it is no "
                                            "money or scoring card (a card a module takes as it turns up is "
                                            "set aside, the draw going on)", card=c))
                for c in power.drawn if c not in CATALOGUE.money and c not in CATALOGUE.scoring_cards]
    elif power_of(power.using) == "architecture":
        out += [Violation("power.architecture", t("{tile} is among the tiles an architecture power drew, but "
                                                  "it is no building tile", tile=tile))
                for tile in power.drawn if tile not in CATALOGUE.tiles]
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
