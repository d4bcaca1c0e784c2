"""The zoo's action, zoo.move: at the end of a turn the active player may discard a money card
to walk the animals of the Alhambra up to its value in steps, never across a wall or onto an
empty space. Also the zoo's events, of this action and of the animals' other moves (`play`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from msgspec.structs import replace

from ...actions import Action
from ...catalogue import CATALOGUE, NEIGHBOURS
from ...events import Event
from ...flow import with_player
from ...grid import Layout, layout_of
from ...module import ActionRule, Context
from ...records import Text
from ...rng import Generator
from ...state import GameState, PlacedTile
from ...text import t, word
from ...violations import Violation
from .data import MOVE_STEP
from .model import AnimalStep, Steps

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


Herd = dict[tuple[int, int], list[str]]


def walk(alhambra: Iterable[PlacedTile], steps: Iterable[AnimalStep],
         layout: Layout | None = None) -> tuple[Herd, list[str]]:
    """The animals per position after the steps, and why any step is impossible (`layout`: the
    Alhambra's, if known: animals moving leave it as it is)."""
    tiles = list(alhambra)
    if layout is None:
        layout = layout_of(tiles)
    where = {(p.x, p.y): list(p.animals) for p in tiles}
    problems: list[str] = []
    for n, step in enumerate(steps, 1):
        pos = (step.x, step.y)
        dx, dy, bit, facing = _STEP[step.side]
        target = (step.x + dx, step.y + dy)
        if step.kind not in where.get(pos, []):
            problems.append(t("step {n}: no {kind} stands on a tile at ({x}, {y})", n=n, kind=word(step.kind),
                              x=step.x, y=step.y))
        elif target not in layout:
            problems.append(t("step {n}: ({x}, {y}) holds no tile (animals never go onto an empty space)",
                              n=n, x=target[0], y=target[1]))
        elif layout[pos] & bit or layout[target] & facing:
            problems.append(t("step {n}: the {side} side of ({x}, {y}) is walled (animals never cross a "
                              "wall)", n=n, side=step.side, x=step.x, y=step.y))
        else:
            where[pos].remove(step.kind)
            where[target].append(step.kind)
    return where, problems


def check_move(state: GameState, action: MoveAnimals) -> list[Violation]:
    player = state.players[state.turn.player]
    if action.card is None:
        if action.steps:
            return [Violation("zoo.move", t("steps need a money card to discard (name it in `card`)"))]
        return []
    if action.card not in player.hand:
        return [Violation("zoo.move", t("{card} is not in {player}'s hand", card=action.card,
                                        player=player.name))]
    value = CATALOGUE.money[action.card].value
    if len(action.steps) > value:
        return [Violation("zoo.move", t("{card} is worth {value} steps, not {steps}", card=action.card,
                                        value=value, steps=len(action.steps)))]
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


def _single_steps(alhambra: tuple[PlacedTile, ...], layout: Layout | None = None) -> Iterator[AnimalStep]:
    if layout is None:
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
    layout = layout_of(alhambra)  # the same at every step: only animals move
    steps: list[AnimalStep] = []
    for _ in range(CATALOGUE.money[card].value):
        options = list(_single_steps(alhambra, layout))
        if not options:
            break
        steps.append(rng.choice(options))
        where, _ = walk(alhambra, steps[-1:], layout)
        alhambra = tuple(replace(p, animals=tuple(where[(p.x, p.y)])) for p in alhambra)
    return MoveAnimals(player=player.name, card=card, steps=tuple(steps))


ACTIONS = (ActionRule(action=MoveAnimals, rule="zoo.move", kind="decision", check=check_move,
                      apply=apply_move, candidates=candidates_move, sample=sample_move,
                      # Its walks are made of steps each legal after the ones before.
                      exact_sample=True),)
