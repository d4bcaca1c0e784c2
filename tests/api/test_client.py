"""The Python client (`service.client`) against a live referee, and the bot of examples/bot.py:
a full 3-player game with zoo, walls and treasure, sealed, each move chosen by the player
`to_act` names from that player's view and legal actions."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import msgspec.structs
import pytest

from service.api import openapi
from service.api.bodies import Applied, GameAnswer, LegalActions, View
from service.client import OPERATIONS, AsyncReferee, Referee, RefereeError
from service.engine.actions import TakeMoney
from service.seal import new_key
from tests.support.fixtures import ROOT, live_server


@pytest.fixture(scope="module")
def sealed_url() -> Iterator[str]:
    with live_server(SEAL_KEYS=new_key("bot")) as url:
        yield url


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with live_server() as url:
        yield url


def _bot() -> Any:
    spec = importlib.util.spec_from_file_location("referee_bot", ROOT / "examples" / "bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_bot_plays_a_sealed_game_with_zoo_walls_and_treasure_to_its_end(sealed_url: str) -> None:
    bot = _bot()
    with Referee(sealed_url) as referee:
        game = bot.play(referee, ["Ana", "Ben", "Cyd"], ["zoo", "walls", "treasure"], seed=3)
    assert game.movers == {"Ana", "Ben", "Cyd"}
    assert 100 < game.actions < 1000, game.actions  # it prefers what ends the game sooner
    assert sorted(name for name, _, _ in game.ranking) == ["Ana", "Ben", "Cyd"]
    assert game.ranking[0][1] == 1


def test_a_sealed_game_shows_each_player_only_their_view(sealed_url: str) -> None:
    with Referee(sealed_url) as referee:
        game = referee.new_game(["Ana", "Ben", "Cyd"], ["zoo", "walls", "treasure"], seed=5)
        assert isinstance(game, GameAnswer)
        assert game.state.seal and game.state.deck == () and all(p.hand == () for p in game.state.players)
        seen = referee.view(game.state, "Ben")
        assert isinstance(seen, View) and seen.viewer == "Ben"
        assert [p.hand is None for p in seen.players] == [True, False, True]
        assert seen.to_act == game.to_act


def test_answers_are_the_servers_own_types_and_the_cache_outcome_is_kept(url: str) -> None:
    with Referee(url) as referee:
        game = referee.new_game(["Ana", "Ben"], seed=9)
        assert referee.last is not None and referee.last.status == 201 and referee.last.cache is None
        name = game.to_act.players[0]
        legal = referee.legal_actions(game.state, player=name, limit=3)
        assert isinstance(legal, LegalActions) and referee.last.cache in ("miss", "hit-memory")
        applied = referee.apply(game.state, legal.actions[0])
        assert isinstance(applied, Applied) and referee.last.cache == "miss"
        again = referee.apply(game.state, legal.actions[0])
        assert referee.last.cache == "hit-memory" and again == applied
        assert referee.validate(game.state, legal.actions[0]).valid
        assert referee.score(applied.state, 1).round == 1
        assert referee.render(applied.state, name).startswith("<?xml")
        assert referee.echo(game.state, legal.actions[0]).action == legal.actions[0]
        assert {m.id for m in referee.modules().modules} >= {"zoo", "walls", "treasure"}
        assert referee.health().status == "ok" and referee.ready().status == "ready"
        assert referee.cache_stats().memory.enabled
        assert "referee_requests_total" in referee.metrics()


def test_a_refusal_raises_with_its_error_code_and_violations(url: str) -> None:
    with Referee(url) as referee:
        game = referee.new_game(["Ana", "Ben", "Cyd"], seed=9)
        idle = next(p.name for p in game.state.players if p.name not in game.to_act.players)
        with pytest.raises(RefereeError) as refused:
            referee.apply(game.state, TakeMoney(player=idle, cards=(game.state.display[0],)))
        error = refused.value
        assert (error.status, error.error) == (422, "illegal-action")
        assert error.rules == ["base.turn.order"] and idle in error.violations[0].message
        with pytest.raises(RefereeError) as unknown:
            referee.view(game.state, "Zed")
        assert (unknown.value.status, unknown.value.error) == (422, "unknown-player")
        with pytest.raises(RefereeError, match=r"400 bad-request: .*\$\.limit"):
            referee.legal_actions(game.state, limit=20_000)  # past the schema's bound: 400


def test_the_async_client_plays_too(url: str) -> None:
    async def play() -> tuple[int, str | None]:
        async with AsyncReferee(url) as referee:
            game = await referee.new_game(["Ana", "Ben"], ["zoo"], seed=2)
            state, who = game.state, game.to_act
            for _ in range(10):
                legal = await referee.legal_actions(state, player=who.players[0], limit=1)
                applied = await referee.apply(state, legal.actions[0])
                state, who = applied.state, applied.to_act
            seen = await referee.view(state, "Ana")
            return len(seen.players), referee.last.cache if referee.last else "?"

    assert asyncio.run(play()) == (2, None)


def test_seat_tokens_are_sent_for_the_player_a_call_is_about() -> None:
    """Per seat (`tokens`), per call (`token=`) or for every call (the client's `token`)."""
    sent: list[tuple[str, str | None]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append((request.url.path, request.headers.get("authorization")))
        return httpx.Response(200, json={"actions": [], "truncated": False}, headers={"x-cache": "miss"})

    from service.engine import new_game

    state = new_game(["Ana", "Ben"], seed=1).state
    http = httpx.Client(transport=httpx.MockTransport(handler), base_url="http://referee")
    with Referee(client=http, tokens={"Ana": "t-ana"}, token="t-all") as referee:
        referee.legal_actions(state, player="Ana")
        referee.legal_actions(state, player="Ben")
        referee.legal_actions(state, player="Ana", token="t-once")
        referee.tokens["Ben"] = "t-ben"
        referee.legal_actions(state, player="Ben")
    assert [auth for _, auth in sent] == ["Bearer t-ana", "Bearer t-all", "Bearer t-once", "Bearer t-ben"]


def test_every_operation_of_the_contract_has_a_method() -> None:
    contract = json.loads(openapi.CONTRACT.read_bytes())
    operations = {op["operationId"] for ops in contract["paths"].values() for op in ops.values()}
    assert operations == set(OPERATIONS)
    for method in (*OPERATIONS.values(), "metrics"):
        assert callable(getattr(Referee, method))
        assert asyncio.iscoroutinefunction(getattr(AsyncReferee, method))


def test_the_readme_game_loop_plays_a_game_to_its_end(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The Python quickstart's example (docs/clients/python.md, once the README's), as printed
    there, against a live referee."""
    import re

    page = (ROOT / "docs" / "clients" / "python.md").read_text("utf-8")
    (code,) = [block for block in re.findall(r"```python\n(.*?)```", page, re.S) if "Referee(" in block]
    assert len(code.strip().splitlines()) <= 20  # issue 26: a quickstart is at most 20 lines
    exec(compile(code.replace("http://localhost:8000", url), "docs/clients/python.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.count("RankEntry(") == 3, printed


def test_a_recorder_records_a_sealed_game_that_replays_to_its_last_state(
        sealed_url: str, tmp_path: Path) -> None:
    """Issue 27: the client builds a record as a game is played (`apply` appends), writes and
    reads it, and the referee replays it to the last state the game handed out, seal and all;
    a record with an action left out raises RefereeError with the action's index and the state
    before it."""
    from service.client import Recorder, read_record, write_record
    from tests.support.play import PREFERENCE

    rnd = random.Random(4)
    with Referee(sealed_url) as referee:
        recorder = Recorder(referee)
        game = recorder.new_game(["Ana", "Ben", "Cyd"], ["walls"], seed=4)
        state, who = game.state, game.to_act
        while who.players:
            listed = referee.legal_actions(state, player=who.players[0], limit=60).actions
            action = min(listed, key=lambda a: (PREFERENCE.get(a.type, 2), rnd.random()))
            applied = recorder.apply(state, action)
            state, who = applied.state, applied.to_act
        record = recorder.record
        assert record.seal == game.state.seal and record.result == state.ranking
        assert record.setup.players == ("Ana", "Ben", "Cyd") and record.setup.modules == ("walls",)
        write_record(record, tmp_path / "game.json")
        again = read_record(tmp_path / "game.json")
        assert again == record
        replayed = referee.replay(again)
        assert msgspec.json.encode(replayed.state) == msgspec.json.encode(state)
        assert replayed.result.verdict == "agrees" and replayed.game_over
        dropped = msgspec.structs.replace(record, actions=record.actions[1:])
        with pytest.raises(RefereeError) as refused:
            referee.replay(dropped)
    assert refused.value.status == 422 and refused.value.index == 0
    assert refused.value.action == record.actions[1] and refused.value.state is not None
    assert refused.value.rules  # each violation's rule id


def test_suggest_plays_a_sealed_game_with_a_bot_for_every_seat(sealed_url: str) -> None:
    """POST /v1/suggest through the client: each seat the game waits for moved by a bot (its
    token sent as the player's), every suggestion applied, some turns of a sealed game; a seat
    with nothing to decide is RefereeError 422 `nothing-to-decide` (base.turn.order)."""
    from service.api.bodies import Suggested

    with Referee(sealed_url) as referee:
        game = referee.new_game(["Ana", "Ben", "Cyd"], ["zoo", "walls"], seed=28)
        referee.tokens.update({t.player: t.token for t in game.seat_tokens})
        state, who = game.state, game.to_act
        for turn in range(12):
            level = ("random", "basic", "strong")[turn % 3]
            move = referee.suggest(state, who.players[0], level, budget_ms=20)
            assert isinstance(move, Suggested) and move.level == level and move.action is not None
            assert referee.last is not None and referee.last.cache == "miss"
            applied = referee.apply(state, move.action)
            state, who = applied.state, applied.to_act
        idle = next(p.name for p in state.players if p.name not in who.players)
        with pytest.raises(RefereeError) as refused:
            referee.suggest(state, idle)
        assert refused.value.status == 422 and refused.value.error == "nothing-to-decide"
        assert refused.value.rules == ["base.turn.order"]
