"""Issue 28 item 1: POST /v1/suggest, a bot's move for a seat, through HTTP.

- every level answers an action /v1/validate accepts, for the seat the game waits for, on
  states of every module alone and all eleven (sealed states too);
- the same body gives the same bytes (cached, and computed again with `Cache-Control: no-cache`);
- the refusals: a name not at the table, a seat with nothing to decide (naming whom the game
  waits for), a level or budget out of the contract (400 naming the path), CALLERS=players
  without the seat's token;
- no peeking: two states that differ only in what the seat may not see get the same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.api.endpoints import BY_NAME
from service.bots.model import LEAST_BUDGET_MS, LEVELS, MOST_BUDGET_MS, MOST_CONSIDERED
from service.cache import code_digest
from service.engine import GameState, check_consistency, to_act
from service.engine.module import registered
from service.seal import new_key
from tests.support import hidden
from tests.support.fixtures import referee
from tests.support.play import NAMES, after_steps

KEY = new_key("suggest")
MODULES = sorted({m.id for m in registered()} - {"base", "dirk"})
CONFIGS = [(), *((m,) for m in MODULES), tuple(MODULES)]
QUICK = 20  # the strong level's budget in these tests (ms of simulated work): its search, shorter


def _json(state: GameState) -> Any:
    return msgspec.json.decode(msgspec.json.encode(state))


@pytest.fixture(scope="module")
def plain() -> Iterator[TestClient[Any]]:
    with referee() as client:
        yield client


@pytest.fixture(scope="module")
def sealed() -> Iterator[TestClient[Any]]:
    with referee(seal_keys=KEY) as client:
        yield client


@pytest.fixture(scope="module")
def players() -> Iterator[TestClient[Any]]:
    """A referee players call themselves (CALLERS=players): seat tokens needed."""
    with referee(seal_keys=KEY, callers="players") as client:
        yield client


def _body(state: Any, player: str, level: str, **more: Any) -> dict[str, Any]:
    body = {"state": state, "player": player, "level": level, **more}
    if level == "strong" and "budget_ms" not in more:
        body["budget_ms"] = QUICK
    return body


def _states(configs: list[tuple[str, ...]] = CONFIGS) -> Iterator[tuple[tuple[str, ...], GameState]]:
    """A state of a random game of each configuration (2 to 6 players), some steps in."""
    for i, modules in enumerate(configs):
        yield modules, after_steps(modules, 2 + i % 5, 100 + i, 5 + 7 * i)


def _assert_legal(client: TestClient[Any], state: Any, answer: dict[str, Any], headers: Any = None) -> None:
    action = answer["action"]
    assert action is not None, answer  # a seat the game waits for on its turn: never "wait"
    valid = client.post("/v1/validate", json={"state": state, "action": action}, headers=headers)
    assert valid.status_code == 200, valid.text
    assert valid.json() == {"valid": True, "violations": []}, (action, valid.text)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_suggests_an_action_validate_accepts(plain: TestClient[Any], level: str) -> None:
    """On a state of every module alone, none and all eleven, for the first seat the game waits
    for: a legal action of that seat, the level named, at most MOST_CONSIDERED options weighed
    (the chosen one first, but at the random level, which weighs none)."""
    for modules, state in _states():
        player = to_act(state).players[0]
        wire = _json(state)
        got = plain.post("/v1/suggest", json=_body(wire, player, level))
        assert got.status_code == 200, (modules, got.text)
        answer = got.json()
        assert (answer["player"], answer["level"]) == (player, level)
        assert answer["action"]["player"] == player
        _assert_legal(plain, wire, answer)
        assert answer["legal"] >= 1 and len(answer["considered"]) <= MOST_CONSIDERED
        if level == "random":
            assert answer["considered"] == [] and answer["simulated"] == 0
        else:
            assert answer["considered"][0]["action"] == answer["action"]


def test_the_same_body_gives_the_same_bytes(plain: TestClient[Any], state: Any) -> None:
    """Deterministic: cached (the second answer a hit) and, computed again (`Cache-Control:
    no-cache`), the same bytes; each level its own answer under the strong level's budget too."""
    player = to_act(msgspec.convert(state, GameState)).players[0]
    for level in LEVELS:
        body = _body(state, player, level)
        first = plain.post("/v1/suggest", json=body)
        again = plain.post("/v1/suggest", json=body)
        fresh = plain.post("/v1/suggest", json=body, headers={"cache-control": "no-cache"})
        assert first.status_code == 200, first.text
        assert first.content == again.content == fresh.content, level
        assert (first.headers["x-cache"], again.headers["x-cache"], fresh.headers["x-cache"]) == (
            "miss", "hit-memory", "miss")


def test_the_cache_key_holds_the_bots_code() -> None:
    """A change of service/bots (a stronger bot) is a new key: no suggestion of the old code is
    served from a shared Redis."""
    assert BY_NAME["suggest"].code == code_digest("bots") != ""
    assert BY_NAME["suggest"].threaded and BY_NAME["suggest"].cached


def test_a_sealed_state_is_suggested_for(sealed: TestClient[Any]) -> None:
    """With sealing on, the state as the referee handed it out (its public part and seal): the
    suggestion is the one for the whole state behind the seal, and legal in it."""
    created = sealed.post("/v1/games", json={"players": list(NAMES[:3]), "modules": ["zoo", "vendors"],
                                             "seed": 28})
    assert created.status_code == 201, created.text
    state = created.json()["state"]
    assert state["seal"]
    for level in LEVELS:
        player = created.json()["to_act"]["players"][0]
        got = sealed.post("/v1/suggest", json=_body(state, player, level))
        assert got.status_code == 200, got.text
        _assert_legal(sealed, state, got.json())
        unsealed = sealed.post("/v1/suggest", json=_body({**state, "seal": None}, player, level))
        assert unsealed.status_code == 422 and unsealed.json()["error"] == "unsealed-state"


@pytest.mark.rule("base.turn.order")
def test_base_turn_order_refuses_a_suggestion_for_a_name_not_at_the_table(plain: TestClient[Any],
                                                                          state: Any) -> None:
    got = plain.post("/v1/suggest", json={"state": state, "player": "Zed"})
    assert got.status_code == 422, got.text
    assert got.json()["error"] == "unknown-player" and "'Zed'" in got.json()["message"]
    assert got.json()["violations"][0]["rule"] == "base.turn.order"


@pytest.mark.rule("base.turn.order")
def test_base_turn_order_refuses_a_suggestion_for_a_seat_with_nothing_to_decide(
        plain: TestClient[Any]) -> None:
    """A seat the game does not wait for: 422 `nothing-to-decide`, naming whom it waits for; the
    seat it waits for gets its move (`_allows_`'s side)."""
    state = after_steps((), 3, 5, 10)
    waiting = to_act(state).players
    idle = next(p.name for p in state.players if p.name not in waiting)
    wire = _json(state)
    got = plain.post("/v1/suggest", json={"state": wire, "player": idle})
    assert got.status_code == 422, got.text
    body = got.json()
    assert body["error"] == "nothing-to-decide"
    assert body["violations"][0]["rule"] == "base.turn.order"
    assert idle in body["message"] and all(name in body["message"] for name in waiting), body["message"]
    assert plain.post("/v1/suggest", json={"state": wire, "player": waiting[0]}).status_code == 200


@pytest.mark.rule("base.turn.order")
def test_base_turn_order_allows_a_suggestion_only_for_a_seat_the_game_waits_for(
        plain: TestClient[Any]) -> None:
    """Over every seat of states of every module: a suggestion exactly for the seats `to_act`
    names (they have something to decide), `nothing-to-decide` for the others."""
    for modules, state in _states():
        wire = _json(state)
        waiting = set(to_act(state).players)
        for p in state.players:
            got = plain.post("/v1/suggest", json={"state": wire, "player": p.name, "level": "random"})
            assert got.status_code == (200 if p.name in waiting else 422), (modules, p.name, got.text)


def test_a_game_over_has_nothing_to_decide(plain: TestClient[Any]) -> None:
    from tests.support.play import play_random_game

    final = play_random_game(3, 2, (), check_every=1000).states[-1]
    assert final.phase == "over"
    got = plain.post("/v1/suggest", json={"state": _json(final), "player": final.players[0].name})
    assert got.status_code == 422 and got.json()["error"] == "nothing-to-decide"
    assert "the game is over" in got.json()["message"]


@pytest.mark.parametrize(("field", "value"), [
    ("level", "expert"), ("level", None), ("level", 1), ("budget_ms", LEAST_BUDGET_MS - 1),
    ("budget_ms", MOST_BUDGET_MS + 1), ("budget_ms", "200"), ("budget_ms", 200.5), ("player", ""),
    ("player", "x" * 65), ("advice", True)])
def test_a_body_out_of_the_contract_is_400_naming_the_path(plain: TestClient[Any], state: Any,
                                                           field: str, value: Any) -> None:
    body = {"state": state, "player": "Ana", field: value}
    got = plain.post("/v1/suggest", json=body)
    assert got.status_code == 400, got.text
    answer = got.json()
    assert answer["error"] == "bad-request"
    assert (f"`$.{field}`" if field != "advice" else "unknown field `advice`") in answer["message"], answer


def test_the_budget_bounds_are_accepted(plain: TestClient[Any], state: Any) -> None:
    player = to_act(msgspec.convert(state, GameState)).players[0]
    for budget in (LEAST_BUDGET_MS, 10 * LEAST_BUDGET_MS):
        got = plain.post("/v1/suggest", json=_body(state, player, "strong", budget_ms=budget))
        assert got.status_code == 200, got.text


def test_callers_players_needs_the_seats_own_token(players: TestClient[Any]) -> None:
    """CALLERS=players: a suggestion depends on the seat's secrets, so without a token, or with
    another seat's, 403 `forbidden` (referee.seat-token); with the seat's own, its move."""
    created = players.post("/v1/games", json={"players": list(NAMES[:3]), "seed": 2828}).json()
    state, tokens = created["state"], {t["player"]: t["token"] for t in created["seat_tokens"]}
    player = created["to_act"]["players"][0]
    other = next(name for name in tokens if name != player)
    body = {"state": state, "player": player}
    for headers in (None, {"authorization": f"Bearer {tokens[other]}"}, {"authorization": "Bearer nonsense"}):
        got = players.post("/v1/suggest", json=body, headers=headers)
        assert got.status_code == 403, (headers, got.text)
        assert got.json()["error"] == "forbidden"
        assert got.json()["violations"][0]["rule"] == "referee.seat-token"
    own = {"authorization": f"Bearer {tokens[player]}"}
    got = players.post("/v1/suggest", json=body, headers=own)
    assert got.status_code == 200, got.text
    _assert_legal(players, state, got.json(), own)
    # A seat with nothing to decide is told so, with its own token (and only with it).
    idle = {"state": state, "player": other}
    assert players.post("/v1/suggest", json=idle).status_code == 403
    got = players.post("/v1/suggest", json=idle, headers={"authorization": f"Bearer {tokens[other]}"})
    assert got.status_code == 422 and got.json()["error"] == "nothing-to-decide"


@pytest.mark.parametrize("level", LEVELS)
def test_no_peeking_what_the_seat_may_not_see_changes_no_suggestion(plain: TestClient[Any],
                                                                    level: str) -> None:
    """Issue 28 item 3, through HTTP: every state of a configuration below and the same state
    with everything its seat may not see dealt anew (the deck's order, the others' hands, the
    bag, face-down piles, the others' craftsmen and secret choices, the generator) get the same
    bytes, for every seat the game waits for."""
    rnd = random.Random(level)
    for modules, state in _states():
        for player in to_act(state).players:
            seat = state.seat_of(player)
            changed = hidden.all_of(state, seat, rnd)
            assert check_consistency(changed) == [], (modules, check_consistency(changed))
            assert changed != state
            first = plain.post("/v1/suggest", json=_body(_json(state), player, level))
            other = plain.post("/v1/suggest", json=_body(_json(changed), player, level))
            assert first.status_code == 200, first.text
            assert first.content == other.content, (modules, player)
