"""Hand-built game states for the rule tests.

`arrange` starts from a real new game and moves named components where a test wants them,
keeping every card and tile exactly once: whatever a named location held before goes back to
the deck (cards) or the bag (tiles), and the result must pass `check_consistency`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from msgspec.structs import replace

from service.engine import Outcome, apply, check_consistency, new_game, validate
from service.engine.actions import Action
from service.engine.catalogue import CATALOGUE, FOUNTAIN
from service.engine.modules.dirk.census import least_tiles
from service.engine.scoring import Position, PositionPlayer
from service.engine.state import GameState, MarketSpace, PlacedTile, Player, Tile, Turn
from service.engine.violations import Violation

NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eli", "Fay")
SCORING_CARDS = tuple(CATALOGUE.scoring_cards)

# A placed tile as (tile id, x, y), or a PlacedTile.
Spec = tuple[str, int, int] | PlacedTile


def game(players: int = 3, seed: int = 1) -> GameState:
    """A new game of `players` players (Ana, Ben, ...)."""
    return new_game(NAMES[:players], seed=seed).state


def alhambra(*tiles: Spec) -> tuple[PlacedTile, ...]:
    """The fountain at (0, 0) and the given tiles."""
    out = [t if isinstance(t, PlacedTile) else PlacedTile(tile=t[0], x=t[1], y=t[2]) for t in tiles]
    if not any(p.tile == FOUNTAIN for p in out):
        out.insert(0, PlacedTile(tile=FOUNTAIN, x=0, y=0))
    return tuple(out)


def _is_card(component: str) -> bool:
    return component in CATALOGUE.money or component in CATALOGUE.scoring_cards


def arrange(
    state: GameState,
    *,
    hands: Mapping[str, Sequence[str]] | None = None,
    display: Sequence[str] | None = None,
    deck_top: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    discard: Sequence[str] | None = None,
    market: Mapping[str, str | None] | None = None,
    bag_top: Sequence[str] = (),
    bag: Sequence[str] | None = None,
    alhambras: Mapping[str, Sequence[Spec]] | None = None,
    reserves: Mapping[str, Sequence[str]] | None = None,
    held: Mapping[str, Sequence[str]] | None = None,
    dirk: Sequence[str] | None = None,
    active: str | None = None,
    turn: Turn | None = None,
    rounds_held: Sequence[int] | None = None,
    scores: Mapping[str, int] | None = None,
    check: bool = True,
) -> GameState:
    """`state` with the named components moved to the named places.

    Locations not mentioned keep what they hold (less what was moved away). Cards displaced
    from a named location go to the bottom of the deck (or to the discard pile when the deck is
    given); tiles go to the bottom of the bag (or out of the game when the bag is given). A
    market space whose tile was taken elsewhere is refilled from the bag, and a display card
    taken elsewhere is replaced from the deck (below `deck_top`). With `rounds_held`,
    the scoring cards of those rounds are set aside.
    """
    hands = dict(hands or {})
    market = dict(market or {})
    alhambras = dict(alhambras or {})
    reserves = dict(reserves or {})
    held = dict(held or {})
    rounds = tuple(rounds_held) if rounds_held is not None else state.rounds_held
    set_aside = {c for c in SCORING_CARDS if CATALOGUE.scoring_round_of(c) in rounds}
    new_deck = list(deck) if deck is not None else None

    named: list[str] = [*deck_top, *bag_top, *set_aside]
    for cards in hands.values():
        named += cards
    named += display or ()
    named += new_deck or ()
    named += discard or ()
    named += [t for t in market.values() if t]
    named += bag or ()
    for specs in alhambras.values():
        named += [p.tile for p in alhambra(*specs) if p.tile != FOUNTAIN]
    for tiles in (*reserves.values(), *held.values(), dirk or ()):
        named += tiles
    assert len(named) == len(set(named)), f"a component is named twice: {named}"
    gone = set(named)
    spare_cards: list[str] = []
    spare_tiles: list[str] = []

    def keep(items: Iterable[str], spare: list[str]) -> list[str]:
        return [i for i in items if i not in gone]

    def displaced(items: Iterable[str], spare: list[str]) -> None:
        spare.extend(i for i in items if i not in gone)

    players = []
    for p in state.players:
        changes: dict[str, object] = {}
        if p.name in hands:
            displaced(p.hand, spare_cards)
            changes["hand"] = tuple(hands[p.name])
        else:
            changes["hand"] = tuple(keep(p.hand, spare_cards))
        if p.name in alhambras:
            displaced((t.tile for t in p.alhambra if t.tile != FOUNTAIN), spare_tiles)
            changes["alhambra"] = alhambra(*alhambras[p.name])
        else:
            changes["alhambra"] = tuple(t for t in p.alhambra if t.tile not in gone)
        for field, given in (("reserve", reserves), ("held", held)):
            old: tuple[Tile, ...] = getattr(p, field)
            if p.name in given:
                displaced((t.tile for t in old), spare_tiles)
                changes[field] = tuple(Tile(tile=t) for t in given[p.name])
            else:
                changes[field] = tuple(t for t in old if t.tile not in gone)
        if scores and p.name in scores:
            changes["score"] = scores[p.name]
        players.append(replace(p, **changes))

    if display is not None:
        displaced(state.display, spare_cards)
        new_display = list(display)
    else:
        new_display = keep(state.display, spare_cards)
    if discard is not None:
        displaced(state.discard, spare_cards)
        new_discard = list(discard)
    else:
        new_discard = keep(state.discard, spare_cards)

    spaces = []
    refill = []
    for i, space in enumerate(state.market):
        if space.currency in market:
            if space.tile is not None:
                displaced([space.tile], spare_tiles)
            spaces.append(replace(space, tile=market[space.currency]))
        elif space.tile is not None and space.tile in gone:
            spaces.append(replace(space, tile=None))
            refill.append(i)
        else:
            spaces.append(space)

    refill = _leave_empty_for_held(state, players, spaces, refill, market, spare_tiles)

    new_dirk = state.dirk
    if state.dirk is not None:
        if dirk is not None:
            displaced((t.tile for t in state.dirk.tiles), spare_tiles)
            new_dirk = replace(state.dirk, tiles=tuple(Tile(tile=t) for t in dirk))
        else:
            new_dirk = replace(state.dirk, tiles=tuple(t for t in state.dirk.tiles if t.tile not in gone))
    else:
        assert dirk is None, "Dirk plays only with two players"

    removed = list(state.removed)
    if bag is not None:
        displaced(state.bag, spare_tiles)
        new_bag = list(bag_top) + list(bag)
        removed += [Tile(tile=t) for t in spare_tiles]
    else:
        new_bag = [*bag_top, *keep(state.bag, spare_tiles), *spare_tiles]
    for i in refill:  # from below the tiles put on top
        assert len(new_bag) > len(bag_top), "no tile left in the bag to refill the market"
        spaces[i] = replace(spaces[i], tile=new_bag.pop(len(bag_top)))
    if new_dirk is not None and dirk is None:  # Dirk never holds fewer than dirk.setup/refills give
        while len(new_bag) > len(bag_top) and len(new_dirk.tiles) < least_tiles(
                replace(state, bag=tuple(new_bag), rounds_held=rounds)):
            new_dirk = replace(new_dirk, tiles=(*new_dirk.tiles, Tile(tile=new_bag.pop())))

    if new_deck is not None:
        displaced(state.deck, spare_cards)
        money = [c for c in spare_cards if c in CATALOGUE.money]
        new_deck = [*deck_top, *new_deck, *(c for c in spare_cards if c not in CATALOGUE.money)]
        new_discard += money
    else:
        new_deck = [*deck_top, *keep(state.deck, spare_cards), *spare_cards]
    new_deck = [c for c in new_deck if c not in set_aside or c in deck_top]
    if display is None:  # base.turn.refill: cards taken elsewhere are replaced from the deck
        while len(new_display) < len(state.display):
            card = next((c for c in new_deck[len(deck_top):] if c in CATALOGUE.money and c not in gone), None)
            if card is None:
                break
            new_deck.remove(card)
            new_display.append(card)

    if turn is None and active is not None:
        turn = Turn.start([p.name for p in players].index(active))
    if turn is not None and not turn.acted and any(held.values()) and state.phase == "play":
        turn = replace(turn, acted=True)  # base.buy.hold: the held buildings were bought this turn
    craftsmen = state.craftsmen
    if craftsmen is not None and turn is not None and any(craftsmen.face_down):
        # craftsmen.flip: during play the face-down craftsman lies before the active player.
        down = next(c for c in craftsmen.face_down if c is not None)
        craftsmen = replace(craftsmen, face_down=tuple(down if seat == turn.player else None
                                                       for seat in range(len(players))))
    state = replace(
        state,
        craftsmen=craftsmen,
        players=tuple(players),
        display=tuple(new_display),
        discard=tuple(new_discard),
        deck=tuple(new_deck),
        market=tuple(spaces),
        bag=tuple(new_bag),
        dirk=new_dirk,
        removed=tuple(removed),
        turn=turn or state.turn,
        rounds_held=rounds,
    )
    if check:
        problems = check_consistency(state)
        assert problems == [], problems
    return state


def _leave_empty_for_held(state: GameState, players: list[Player], spaces: list[MarketSpace],
                          refill: list[int], named: Mapping[str, str | None],
                          spare_tiles: list[str]) -> list[int]:
    """base.buy.hold: in play each held building was bought this turn and left its market space
    empty (no refill during the turn). Spaces emptied by the arrangement stay empty first, then
    unnamed spaces are emptied (their tiles displaced). Returns the spaces still to refill."""
    if state.phase != "play":
        return refill
    empty = sum(1 for i, s in enumerate(spaces) if s.tile is None and i not in refill)
    need = sum(len(p.held) for p in players) - empty
    if need <= 0:
        return refill
    keep_empty, refill = refill[:need], refill[need:]
    need -= len(keep_empty)
    for i in reversed(range(len(spaces))):
        tile = spaces[i].tile
        if need > 0 and tile is not None and spaces[i].currency not in named:
            spare_tiles.append(tile)
            spaces[i] = replace(spaces[i], tile=None)
            need -= 1
    return refill


def play(state: GameState, *actions: Action) -> Outcome:
    """Apply the actions in turn (each must be legal); the last outcome, all events kept."""
    assert actions
    events = []
    scoring = []
    outcome = None
    for action in actions:
        problems = validate(state, action)
        assert problems == [], f"{action} refused: {problems}"
        outcome = apply(state, action)
        events += outcome.events
        scoring += outcome.scoring
        state = outcome.state
        assert check_consistency(state) == [], check_consistency(state)
    assert outcome is not None
    return replace(outcome, events=tuple(events), scoring=tuple(scoring))


def refused(state: GameState, action: Action, rule: str, *names: str) -> list[Violation]:
    """`action` is refused citing `rule`, in a message naming each of `names`."""
    problems = validate(state, action)
    assert problems, f"{action} was allowed"
    matching = [v for v in problems if v.rule == rule]
    assert matching, f"expected {rule}, got {problems}"
    for name in names:
        assert any(name in v.message for v in matching), f"{name!r} not named in {matching}"
    return matching


def allowed(state: GameState, action: Action) -> GameState:
    """`action` is legal; the state after it (consistent)."""
    return play(state, action).state


def money(*cards: str) -> int:
    return sum(CATALOGUE.money[c].value for c in cards)


def event_types(outcome: Outcome) -> list[str]:
    return [type(e).__name__ for e in outcome.events]


SEAT_NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eli", "Fay")


def seated(position: Position) -> Position:
    """`position` with players of a bare fountain added at the end up to a table that can occur
    (base.setup.players: 2 to 6 players, Dirk joining 2): for tests of one player's lines."""
    names = {p.name for p in position.players}
    dirk = any(p.dirk for p in position.players)
    missing = (2 if dirk else 3) - sum(not p.dirk for p in position.players)
    free = [n for n in SEAT_NAMES if n not in names][:max(0, missing)]
    fountain = (PlacedTile(tile=FOUNTAIN, x=0, y=0),)
    return replace(position, players=(*position.players, *(PositionPlayer(name=n, alhambra=fountain)
                                                            for n in free)))
