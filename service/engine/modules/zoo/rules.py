"""Alhambra Zoo (RULES.md §Z, seed 000): animals arrive on gardens laid on the market, go with
the garden to its buyer, may walk through the Alhambra at the end of a turn for a discarded money
card, and score on gardens that hold a single kind."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import ClassVar

from msgspec.structs import replace

from ...actions import Action
from ...catalogue import CATALOGUE, NEIGHBOURS, load_data
from ...events import Event
from ...flow import with_player
from ...grid import layout_of
from ...module import ActionRule, Context, Module, Pending, TallyPart, ViewPart, register
from ...records import Text
from ...rng import Generator
from ...scoring import Line, Position, PositionPlayer
from ...scoring.tally import Tally
from ...scoring.tally_checks import field, given, over_table
from ...state import GameState, PlacedTile, Player
from ...violations import Violation
from .model import AnimalCount, AnimalStep, Steps, ZooSeen, ZooState, ZooTally

DATA = load_data("zoo")
KINDS: tuple[str, ...] = tuple(DATA["kinds"])
PER_KIND: int = DATA["per_kind"]
IN_PLAY = len(KINDS) * PER_KIND - DATA["removed_unseen_at_setup"]  # zoo.setup: 2 put back unseen
MOVE_STEP = 20  # RULES.md §H: animals move after placement (10s), before the refills (30)
ARRIVE_SETUP, ARRIVE_REFILL = 53, 31  # after the market is laid (52) and refilled (30)
_STEP = {side: (dx, dy, bit, facing) for side, (dx, dy, bit, facing) in zip("NESW", NEIGHBOURS, strict=True)}


class MoveAnimals(Action, tag="move-animals"):
    """zoo.move: discard `card` from the hand to take up to its value in `steps`; without a
    card the animals stay where they are."""

    card: Text | None = None
    steps: Steps = ()


class AnimalsArrived(Event, tag="animals-arrived"):
    tile: str
    animals: tuple[str, ...]


class AnimalsMoved(Event, tag="animals-moved"):
    player: str
    card: str | None
    steps: tuple[AnimalStep, ...]


class AnimalsDiscarded(Event, tag="animals-discarded"):
    tile: str
    animals: tuple[str, ...]


class ZooLine(Line, tag="zoo"):
    """zoo.score: animals on gardens that hold a single kind."""

    rule: ClassVar[str] = "zoo.score"

    animals: AnimalCount


def is_garden(tile: str) -> bool:
    found = CATALOGUE.tiles.get(tile)
    return found is not None and found.type == "garden"


# --- setup and arrivals ---------------------------------------------------------------------

def setup(state: GameState, ctx: Context) -> GameState:
    """zoo.setup: shuffle the animals face down; two go back in the box unseen."""
    animals = ctx.rng.shuffled([k for k in KINDS for _ in range(PER_KIND)])
    removed = DATA["removed_unseen_at_setup"]
    state = replace(state, zoo=ZooState(supply=animals[removed:], removed=animals[:removed]))
    return arrive(state, ctx)


def arrive(state: GameState, ctx: Context) -> GameState:
    """zoo.arrive: a garden newly laid on the market takes 2 animals (as many as are left).

    A garden lies on the market with no animals only when it has just been laid, or when the
    supply was empty as it arrived (and the supply never grows again).
    """
    zoo = state.zoo
    assert zoo is not None
    if not zoo.supply:
        return state
    spaces = list(state.market)
    supply = zoo.supply
    for i, space in enumerate(spaces):
        if space.tile is None or space.animals or not is_garden(space.tile) or not supply:
            continue
        drawn, supply = supply[:DATA["arrive_per_garden"]], supply[DATA["arrive_per_garden"]:]
        spaces[i] = replace(space, animals=drawn)
        ctx.events.append(AnimalsArrived(tile=space.tile, animals=drawn))
    return replace(state, market=tuple(spaces), zoo=replace(zoo, supply=supply))


# --- moving animals (zoo.move) --------------------------------------------------------------

def has_animals(player: Player) -> bool:
    return any(p.animals for p in player.alhambra)


def pending(state: GameState) -> Pending | None:
    """After the held buildings are placed, a player with animals in the Alhambra and a money
    card decides whether to move them (one `move-animals`, with or without a card)."""
    turn = state.turn
    if state.phase != "play" or turn.actions or state.active.held or turn.ending > MOVE_STEP + 1:
        return None
    player = state.active
    if not player.hand or not has_animals(player):
        return None
    # RULES.md §H step 2: after a decision of the turn's action (staff.move after a take).
    return Pending(seat=turn.player, rule="zoo.move",
                   what="move animals (move-animals, with a card to discard or none)",
                   actions=(MoveAnimals,), step=MOVE_STEP)


Herd = dict[tuple[int, int], list[str]]


def walk(alhambra: Iterable[PlacedTile], steps: Iterable[AnimalStep]) -> tuple[Herd, list[str]]:
    """The animals per position after the steps, and why any step is impossible."""
    tiles = list(alhambra)
    layout = layout_of(tiles)
    where = {(p.x, p.y): list(p.animals) for p in tiles}
    problems = []
    for n, step in enumerate(steps, 1):
        pos = (step.x, step.y)
        dx, dy, bit, facing = _STEP[step.side]
        target = (step.x + dx, step.y + dy)
        if step.kind not in where.get(pos, []):
            problems.append(f"step {n}: no {step.kind} stands on a tile at {pos}")
        elif target not in layout:
            problems.append(f"step {n}: {target} holds no tile (animals never go onto an empty space)")
        elif layout[pos] & bit or layout[target] & facing:
            problems.append(f"step {n}: the {step.side} side of {pos} is walled (animals never cross a wall)")
        else:
            where[pos].remove(step.kind)
            where[target].append(step.kind)
    return where, problems


def check_move(state: GameState, action: MoveAnimals) -> list[Violation]:
    player = state.players[state.turn.player]
    if action.card is None:
        if action.steps:
            return [Violation("zoo.move", "steps need a money card to discard (name it in `card`)")]
        return []
    if action.card not in player.hand:
        return [Violation("zoo.move", f"{action.card} is not in {player.name}'s hand")]
    value = CATALOGUE.money[action.card].value
    if len(action.steps) > value:
        return [Violation("zoo.move", f"{action.card} is worth {value} steps, not {len(action.steps)}")]
    _, problems = walk(player.alhambra, action.steps)
    return [Violation("zoo.move", p) for p in problems]


def apply_move(state: GameState, action: MoveAnimals, ctx: Context) -> GameState:
    seat = state.turn.player
    player = state.players[seat]
    if action.card is not None:
        where, _ = walk(player.alhambra, action.steps)
        alhambra = tuple(replace(p, animals=tuple(where[(p.x, p.y)])) for p in player.alhambra)
        hand = tuple(c for c in player.hand if c != action.card)
        state = with_player(state, seat, hand=hand, alhambra=alhambra)
        state = replace(state, discard=(*state.discard, action.card))
    ctx.events.append(AnimalsMoved(player=player.name, card=action.card, steps=action.steps))
    return replace(state, turn=replace(state.turn, ending=MOVE_STEP + 2))


def candidates_move(state: GameState, seat: int) -> Iterator[MoveAnimals]:
    """Letting the animals be, and every single step with each distinct card value (longer
    walks are legal too; they are not listed, there are too many)."""
    player = state.players[seat]
    yield MoveAnimals(player=player.name)
    cards: dict[int, str] = {}
    for card in sorted(player.hand):
        cards.setdefault(CATALOGUE.money[card].value, card)
    steps = list(_single_steps(player.alhambra))
    for card in cards.values():
        yield MoveAnimals(player=player.name, card=card)
        for step in steps:
            yield MoveAnimals(player=player.name, card=card, steps=(step,))


def _single_steps(alhambra: tuple[PlacedTile, ...]) -> Iterator[AnimalStep]:
    layout = layout_of(alhambra)
    for p in alhambra:
        for kind in sorted(set(p.animals)):
            for side, (dx, dy, bit, facing) in _STEP.items():
                target = layout.get((p.x + dx, p.y + dy))
                if target is not None and not layout[(p.x, p.y)] & bit and not target & facing:
                    yield AnimalStep(kind=kind, x=p.x, y=p.y, side=side)  # type: ignore[arg-type]


def sample_move(state: GameState, seat: int, rng: Generator) -> MoveAnimals | None:
    """Mostly let the animals be (a discarded card slows the game); else a random walk."""
    player = state.players[seat]
    if rng.below(4) or not player.hand:
        return MoveAnimals(player=player.name)
    card = rng.choice(sorted(player.hand))
    alhambra = player.alhambra
    steps: list[AnimalStep] = []
    for _ in range(CATALOGUE.money[card].value):
        options = list(_single_steps(alhambra))
        if not options:
            break
        steps.append(rng.choice(options))
        where, _ = walk(alhambra, steps[-1:])
        alhambra = tuple(replace(p, animals=tuple(where[(p.x, p.y)])) for p in alhambra)
    return MoveAnimals(player=player.name, card=card, steps=tuple(steps))


# --- Dirk, scoring, components --------------------------------------------------------------

def discard_at_dirk(state: GameState, action: Action, ctx: Context) -> GameState:
    """zoo.dirk: animals that reach Dirk are discarded at once."""
    dirk, zoo = state.dirk, state.zoo
    if dirk is None or zoo is None or not any(t.animals for t in dirk.tiles):
        return state
    gone: list[str] = []
    tiles = []
    for t in dirk.tiles:
        if t.animals:
            gone += t.animals
            ctx.events.append(AnimalsDiscarded(tile=t.tile, animals=t.animals))
            t = replace(t, animals=())
        tiles.append(t)
    return replace(state, dirk=replace(dirk, tiles=tuple(tiles)),
                   zoo=replace(zoo, discarded=(*zoo.discarded, *gone)))


def scoring_animals(alhambra: Iterable[PlacedTile]) -> int:
    """zoo.score: the animals on gardens of the Alhambra that hold animals of one kind only."""
    return sum(len(t.animals) for t in alhambra
               if t.animals and len(set(t.animals)) == 1 and _garden_of(t))


def score(position: Position, round_: int) -> dict[str, list[Line]]:
    """zoo.score: each garden of the Alhambra with animals of exactly one kind scores 1 each."""
    out: dict[str, list[Line]] = {}
    for p in position.players:
        scored = 0 if p.dirk else scoring_animals(p.alhambra)
        out[p.name] = [ZooLine(points=scored, animals=scored)]
    return out


# --- a tally: the animals that score, counted -----------------------------------------------

def count_tally(p: PositionPlayer) -> ZooTally | None:
    return None if p.dirk else ZooTally(animals=scoring_animals(p.alhambra))


def held_tally(p: PositionPlayer) -> ZooTally:
    """For the table's total (zoo.setup, seeds 000.29-000.30: 22 animals in play): every animal
    a player given by tiles holds, wherever it stands: on gardens of several kinds, on other
    tiles, in the reserve (zoo.buy: animals stay on their tile)."""
    return ZooTally(animals=sum(len(t.animals) for t in (*p.alhambra, *p.reserve, *p.tiles)))


def score_tally(position: Position, round_: int, tallies: Sequence[Tally]) -> dict[str, list[Line]]:
    """zoo.score from the counted animals: 1 point each."""
    out: dict[str, list[Line]] = {}
    for p, t in zip(position.players, tallies, strict=True):
        n = t.zoo.animals if t.zoo is not None else 0
        out[p.name] = [ZooLine(points=n, animals=n)]
    return out


def tally_of_lines(p: PositionPlayer, lines: Sequence[Line]) -> ZooTally | None:
    """The animals that scored, as an earlier round's zoo line carries them; Dirk keeps none
    (zoo.dirk)."""
    if p.dirk:
        return None
    return ZooTally(animals=next(line.animals for line in lines if isinstance(line, ZooLine)))


def check_tally(position: Position, tallies: Sequence[Tally]) -> list[Violation]:
    """Animals that score stand on gardens of one kind, so at most 3 a garden (3 of each kind
    exist); at most 22 are in play (zoo.setup); Dirk keeps none (zoo.dirk)."""
    out = []
    for i, p, t in given(position):
        n = t.zoo.animals if t.zoo is not None else 0
        if p.dirk and n:
            out.append(Violation("zoo.dirk", f"{field(i, 'zoo.animals')} is {n}: animals that reach "
                                             "Dirk are discarded"))
        elif n > PER_KIND * t.buildings.garden:
            out.append(Violation("zoo.score", f"{field(i, 'zoo.animals')} is {n}, but "
                                              f"{field(i, 'buildings.garden')} is {t.buildings.garden}: "
                                              f"a garden holding one kind holds at most {PER_KIND}"))
    return out + over_table(position, tallies, lambda t: t.zoo.animals if t.zoo else 0, "zoo.animals",
                            IN_PLAY, "zoo.setup", "animals")


def _garden_of(tile: PlacedTile) -> bool:
    return tile.construction == "garden" if tile.construction else is_garden(tile.tile)


def expected(state: GameState) -> Iterator[str]:
    for kind in KINDS:
        for _ in range(PER_KIND):
            yield f"animal:{kind}"


def located(state: GameState) -> Iterator[tuple[str, str]]:
    zoo = state.zoo
    if zoo is not None:
        for zone, animals in (("the animal supply", zoo.supply), ("the box", zoo.removed),
                              ("the discarded animals", zoo.discarded)):
            for kind in animals:
                yield f"animal:{kind}", zone
    for space in state.market:
        for kind in space.animals:
            yield f"animal:{kind}", f"{space.tile} on the {space.currency} market space"
    tiles = [(t, f"{p.name}'s {t.tile}") for p in state.players
             for t in (*p.alhambra, *p.reserve, *p.held)]
    tiles += [(t, f"{t.tile}, out of the game") for t in state.removed]
    if state.dirk is not None:
        tiles += [(t, f"Dirk's {t.tile}") for t in state.dirk.tiles]
    for t, where in tiles:
        for kind in t.animals:
            yield f"animal:{kind}", where


def consistency(state: GameState) -> list[Violation]:
    if state.zoo is None:
        return [Violation("zoo.setup", "the zoo module is on but the state has no `zoo` part")]
    out = []
    for space in state.market:
        if space.animals and not (space.tile and is_garden(space.tile)):
            out.append(Violation("zoo.arrive", f"animals lie on {space.tile} on the "
                                               f"{space.currency} market space, which is no garden"))
        if len(space.animals) > DATA["arrive_per_garden"]:
            out.append(Violation("zoo.arrive", f"{space.tile} on the market carries more than "
                                               f"{DATA['arrive_per_garden']} animals"))
    if state.dirk is not None and any(t.animals for t in state.dirk.tiles):
        out.append(Violation("zoo.dirk", "Dirk keeps no animals: they are discarded"))
    return out + _setup_problems(state.zoo) + _bare_gardens(state, state.zoo)


def _setup_problems(zoo: ZooState) -> list[Violation]:
    """zoo.setup (seed 000.30): exactly two animals went back in the box unseen, for good."""
    n = DATA["removed_unseen_at_setup"]
    if len(zoo.removed) == n:
        return []
    return [Violation("zoo.setup", f"zoo.removed holds {len(zoo.removed)} animals: at setup {n} are "
                                   "placed back in the box unseen, and none ever join or leave them")]


def _bare_gardens(state: GameState, zoo: ZooState) -> list[Violation]:
    """zoo.arrive (seed 000.31): a garden takes its animals as it turns up on the market, in the
    same step as the refill, and nothing takes them off it but its buyer; the supply never grows.
    So a market garden with fewer than 2 means the supply ran out as it arrived."""
    if not zoo.supply:
        return []
    n = DATA["arrive_per_garden"]
    return [Violation("zoo.arrive", f"{s.tile} on the {s.currency} market space carries "
                                    f"{len(s.animals)} animals while the supply still holds "
                                    f"{len(zoo.supply)}: a garden laid on the market takes {n}")
            for s in state.market if s.tile and is_garden(s.tile) and len(s.animals) < n]


def seen(state: GameState, seat: int | None) -> ZooSeen:
    """What everyone sees (RULES.md §8): the supply and the animals put back unseen as counts."""
    zoo = state.zoo
    assert zoo is not None
    return ZooSeen(supply_size=len(zoo.supply), removed_size=len(zoo.removed), discarded=zoo.discarded)


def check_position(position: Position) -> list[Violation]:
    """Scoring positions: known kinds, at most 3 of each on the table, none at Dirk's (zoo.dirk)."""
    counts: Counter[str] = Counter(
        kind for p in position.players for t in (*p.alhambra, *p.reserve, *p.tiles) for kind in t.animals)
    out = [Violation("zoo.setup", f"{kind!r} is not an animal of the zoo ({', '.join(KINDS)})")
           for kind in sorted(counts) if kind not in KINDS]
    out += [Violation("zoo.setup", f"{n} animals of kind {kind}: there are only {PER_KIND}")
            for kind, n in sorted(counts.items()) if kind in KINDS and n > PER_KIND]
    total = sum(counts.values())
    if total > IN_PLAY:
        out.append(Violation("zoo.setup", f"{total} animals on the table: {DATA['removed_unseen_at_setup']} "
                                          f"of the {len(KINDS) * PER_KIND} were put back unseen, so only "
                                          f"{IN_PLAY} are in play"))
    out += [Violation("zoo.dirk", f"$.players[{i}].tiles[{j}]: Dirk's {t.tile} carries "
                                  f"{len(t.animals)} animals, but animals that reach Dirk are discarded")
            for i, p in enumerate(position.players) if p.dirk for j, t in enumerate(p.tiles) if t.animals]
    return out


ZOO = register(Module(
    id="zoo",
    name="Alhambra Zoo",
    rule_ids=("zoo.setup", "zoo.arrive", "zoo.buy", "zoo.move", "zoo.score", "zoo.dirk"),
    actions=(ActionRule(action=MoveAnimals, rule="zoo.move", kind="decision", check=check_move,
                        apply=apply_move, candidates=candidates_move, sample=sample_move),),
    setup=((ARRIVE_SETUP, setup),),
    end_of_turn=((MOVE_STEP, lambda state, ctx: state), (ARRIVE_REFILL, arrive)),
    after_action=discard_at_dirk,
    pending=pending,
    scoring=score,
    components=located,
    expected=expected,
    consistency=consistency,
    check_position=check_position,
    # zoo.score: its checks hold for counts read from lines (more gardens only allow more
    # animals; the animals are the line's).
    tally=TallyPart(type=ZooTally, of_tiles=count_tally, held=held_tally, score=score_tally,
                    check=check_tally, check_of_lines=check_tally, of_lines=tally_of_lines),
    events=(AnimalsArrived, AnimalsMoved, AnimalsDiscarded),
    lines=(ZooLine,),
    tokens=("animals",),
    view=ViewPart(ZooSeen, seen),
    default_data=DATA,
))

