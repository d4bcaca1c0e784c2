"""Random legal play for the property tests and the many-games suite."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from service.engine import (
    GameState,
    Generator,
    apply,
    check_consistency,
    legal_actions,
    new_game,
    random_action,
    validate,
)
from service.engine.actions import Action
from service.engine.module import modules_of

NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eli", "Fay")
# A bound against a game that never ends, not a length: with a craftsman's ability also taken at
# the player's own end-of-turn decisions, a random 2-player game of the six designers' modules
# (seed 702) takes 3,192 actions.
MAX_ACTIONS = 5000


def component_counts(state: GameState) -> Counter[str]:
    """Every component wherever it is, as each module on locates its own."""
    counts: Counter[str] = Counter()
    for module in modules_of(state):
        if module.components is not None:
            counts.update(component for component, _ in module.components(state))
    return counts


@dataclass
class Game:
    seed: int
    players: int
    modules: tuple[str, ...] = ()
    actions: list[Action] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)


def play_random_game(seed: int, players: int, modules: tuple[str, ...] = (), *,
                     check_every: int = 1, list_every: int = 0) -> Game:
    """Play to the end; assert the invariants after every `check_every`-th step.

    With `list_every`, every listed legal action of every such state is also validated.
    """
    game = Game(seed, players, modules)
    state = new_game(NAMES[:players], modules, seed=seed).state
    game.states.append(state)
    total = component_counts(state)
    rng = Generator(seed ^ 0x5EED)
    for step in range(MAX_ACTIONS):
        if list_every and step % list_every == 0:
            listed, _ = legal_actions(state, 300)
            assert listed, f"no legal action at step {step}"
            for action in listed:
                assert validate(state, action) == [], action
        action = random_action(state, rng)
        assert action is not None, f"stuck at step {step}"
        assert validate(state, action) == [], action
        outcome = apply(state, action)
        game.actions.append(action)
        game.rounds += [b.round for b in outcome.scoring]
        state = outcome.state
        game.states.append(state)
        if step % check_every == 0 or outcome.game_over:
            problems = check_consistency(state)
            assert problems == [], (step, action, problems)
            assert component_counts(state) == total
        if outcome.game_over:
            return game
    raise AssertionError(f"game {seed} with {players} players did not end in {MAX_ACTIONS} actions")


def play_until(modules: tuple[str, ...], players: int, seed: int,
               wanted: Callable[[GameState], object]) -> GameState:
    """The first state of a random game (from its setup on) for which `wanted` is true."""
    state = new_game(NAMES[:players], modules, seed=seed).state
    rng = Generator(seed ^ 0x5EED)
    for _ in range(MAX_ACTIONS):
        if wanted(state):
            return state
        action = random_action(state, rng)
        assert action is not None and state.phase != "over"
        state = apply(state, action).state
    raise AssertionError(f"no wanted state in game {seed} with {players} players")


def after_steps(modules: tuple[str, ...] | list[str], players: int, seed: int, steps: int) -> GameState:
    """A game after up to `steps` random actions from its setup (fewer if it ends)."""
    state = new_game(NAMES[:players], modules, seed=seed).state
    rng = Generator(seed)
    for _ in range(steps):
        action = random_action(state, rng)
        if action is None:
            break
        state = apply(state, action).state
    return state


def replay(game: Game) -> list[bytes]:
    state = new_game(NAMES[:game.players], game.modules, seed=game.seed).state
    out = [msgspec.json.encode(state)]
    for action in game.actions:
        state = apply(state, action).state
        out.append(msgspec.json.encode(state))
    return out


# What ends a game sooner, for quick complete games (a uniform choice among the legal actions
# redesigns and moves animals for thousands of actions: examples/bot.py): building first,
# redesigning, moving animals, buying treasure and the like last.
PREFERENCE = {"buy-building": 0, "place-building": 1, "reserve-building": 1.5, "take-money": 3,
              "place-from-reserve": 4, "move-animals": 4, "buy-treasure": 4, "exchange-money": 4,
              "buy-extension": 4, "swap-market-tiles": 4, "remove-to-reserve": 5, "swap-with-reserve": 5,
              "builder-redesign": 5}


def preferred_action(state: GameState, rnd: random.Random, limit: int = 60) -> Action:
    """A legal action that tends to end the game soon (PREFERENCE; ties broken by `rnd`): 6
    players with every module end in some 530 to 860 actions."""
    actions, _ = legal_actions(state, limit)
    assert actions, "no legal action"
    return min(actions, key=lambda a: (PREFERENCE.get(a.type, 2), rnd.random()))


def first_illegal(record: dict[str, Any]) -> tuple[int, GameState, list[str]] | None:
    """A record (as builtins) judged here, action by action, without service.engine.replay: the
    index of its first illegal action, the state before it and the rule ids of its violations
    (None when every action is legal). The tests' independent answer to a replay."""
    from service.api.bodies import AnyAction

    setup = record["setup"]
    state = new_game(setup["players"], setup.get("modules", ()), seed=setup.get("seed", 0)).state
    for index, wire in enumerate(record["actions"]):
        action = msgspec.convert(wire, AnyAction)
        violations = validate(state, action)
        if violations:
            return index, state, [v.rule for v in violations]
        state = apply(state, action).state
    return None
