"""The zoo's part in the rest of play: the animals shuffled at setup (zoo.setup), their arrival
on the gardens laid on the market (zoo.arrive), the decision to move them (zoo.move, taken by
`actions.MoveAnimals`) and the animals that reach Dirk (zoo.dirk)."""

from __future__ import annotations

from msgspec.structs import replace

from ...actions import Action
from ...module import Context, Pending
from ...state import GameState, Player
from ...text import t
from .actions import AnimalsArrived, AnimalsDiscarded, MoveAnimals
from .data import DATA, KINDS, MOVE_STEP, PER_KIND, is_garden
from .model import ZooState

ARRIVE_SETUP, ARRIVE_REFILL = 53, 31  # after the market is laid (52) and refilled (30)


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


# --- the decision to move them (zoo.move) ---------------------------------------------------

def has_animals(player: Player) -> bool:
    return any(p.animals for p in player.alhambra)


MOVE_WHAT = t("move animals (move-animals, with a card to discard or none)")


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
                   what=MOVE_WHAT,
                   actions=(MoveAnimals,), step=MOVE_STEP)


def move_step(state: GameState, ctx: Context) -> GameState:
    """zoo.move's place among the end-of-turn steps (RULES.md §H step 2): the turn's end stops
    here while the decision is `pending`; the step itself changes nothing."""
    return state


# --- animals that reach Dirk (zoo.dirk) -----------------------------------------------------

def discard_at_dirk(state: GameState, action: Action, ctx: Context) -> GameState:
    """zoo.dirk: animals that reach Dirk are discarded at once."""
    dirk, zoo = state.dirk, state.zoo
    if dirk is None or zoo is None or not any(t.animals for t in dirk.tiles):
        return state
    gone: list[str] = []
    tiles = []
    for tile in dirk.tiles:
        if tile.animals:
            gone += tile.animals
            ctx.events.append(AnimalsDiscarded(tile=tile.tile, animals=tile.animals))
            tile = replace(tile, animals=())
        tiles.append(tile)
    return replace(state, dirk=replace(dirk, tiles=tuple(tiles)),
                   zoo=replace(zoo, discarded=(*zoo.discarded, *gone)))
