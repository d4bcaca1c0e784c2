"""The committed contract read by the common client generators, as a backend team would.

- openapi-python-client, by the commands of docs/clients/generated.md, generates a client with no
  warning whose every operation takes a plain `Client`; it plays complete games of every module
  alone and all eleven together (2-6 players) against a referee that seals and requires seat
  tokens and one that does neither, and the page's quickstart runs as printed;
- datamodel-code-generator generates pydantic models (`--collapse-root-models`: a list of names
  is a list of strings) that read every answer and write every body.

openapi-typescript, with no flag, gives the types of the TypeScript client (clients/typescript),
which compiles with `tsc --strict` and plays complete games: tests/api/test_typescript_client.py.
"""

from __future__ import annotations

import importlib
import inspect
import os
import random
import re
import shutil
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from service.api import openapi
from service.engine.module import registered
from service.seal import new_key
from tests.support.fixtures import ROOT, live_server
from tests.support.play import PREFERENCE  # what ends a game sooner (examples/bot.py)

BIN = Path(sys.executable).parent
STEPS = 12


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with live_server() as url:
        yield url


GENERATED = ROOT / "docs" / "clients" / "generated.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", GENERATED.read_text("utf-8"), re.S)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    """The client openapi-python-client generates from the committed contract by the commands of
    docs/clients/generated.md, as printed there (no warning: nothing else need be installed),
    imported."""
    where = tmp_path_factory.mktemp("opc")
    shutil.copy(openapi.CONTRACT, where / "openapi.json")
    (commands,) = [b for b in _blocks("sh") if "openapi-python-client generate" in b]
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", commands], cwd=where, capture_output=True,
                          text=True, timeout=300, check=False,
                          env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"})
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "WARNING" not in output and "Unable to parse" not in output, output
    sys.path.insert(0, str(where))
    try:
        gen: Any = importlib.import_module("referee_client")
        api = {name: importlib.import_module(f"referee_client.api.{name}")
               for name in ("games.create_game", "referee.list_legal_actions", "referee.apply_action",
                            "referee.validate_action", "games.view_state", "games.render_picture",
                            "scoring.score_position")}
        models = importlib.import_module("referee_client.models")
    finally:
        sys.path.remove(str(where))
    return SimpleNamespace(gen=gen, api=api, models=models, where=where)


@pytest.fixture(scope="module")
def sealed_server() -> Iterator[str]:
    """A referee that seals its states and gives each seat a token it requires."""
    with live_server(SEAL_KEYS=new_key("generated"), CALLERS="players") as url:
        yield url


def test_every_operation_takes_a_plain_client(generated: SimpleNamespace) -> None:
    """Issue 26: the seat token is optional in a form that gives a plain `Client` (with the
    `[{}, {"seatToken": []}]` of each operation, openapi-python-client asked for an
    `AuthenticatedClient` on validate, apply, legal-actions, view and render)."""
    for name, module in generated.api.items():
        annotation = inspect.signature(module.sync).parameters["client"].annotation
        assert generated.gen.Client in typing.get_args(annotation), (name, annotation)


def test_openapi_python_client_generates_a_client_that_plays_a_game(
        generated: SimpleNamespace, server: str) -> None:
    api, models = generated.api, generated.models
    client = generated.gen.Client(base_url=server, raise_on_unexpected_status=True)

    def call(operation: str, body: Any) -> Any:
        return api[operation].sync(client=client, body=body)

    created = call("games.create_game", models.NewGame(players=["Ana", "Ben"], seed=4))
    assert isinstance(created, models.GameAnswer)
    state = created.state
    assert state.ranking == [] and state.turn.ending == 0  # always present: no Unset to test for
    who = created.to_act.players
    # A take-money built without naming a tag enum: the tag is filled in.
    card = state.display[0]
    take = models.TakeMoney(player=who[0], cards=[card])
    assert take.to_dict()["type"] == "take-money"
    verdict = call("referee.validate_action", models.Move(state=state, action=take))
    assert verdict.valid is True, verdict
    seen = call("games.view_state", models.ViewQuery(state=state, player="Ana"))
    assert seen.to_act.players == who and seen.players[1].hand is None
    breakdown = call("scoring.score_position", models.StateRound(state=state, round_=1))
    assert [p.name for p in breakdown.players] == ["Ana", "Ben", "Dirk"]
    picture = call("games.render_picture", models.RenderState(state=state))
    assert isinstance(picture, str) and picture.startswith("<?xml")


def test_the_generated_client_quickstart_plays_a_sealed_game_as_printed(
        generated: SimpleNamespace, sealed_server: str, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/clients/generated.md's quickstart (at most 20 lines), as printed, against a referee that
    seals and requires seat tokens: the game reaches its end."""
    (code,) = _blocks("python")
    assert len(code.strip().splitlines()) <= 20
    sys.path.insert(0, str(generated.where))
    try:
        exec(compile(code.replace("http://localhost:8000", sealed_server), str(GENERATED), "exec"), {})
    finally:
        sys.path.remove(str(generated.where))
    ranking = eval(capsys.readouterr().out)  # a list of (place, name, score) literals
    assert sorted(name for _, name, _ in ranking) == ["Ana", "Ben", "Cyd"]


MODULES = sorted({m.id for m in registered()} - {"base", "dirk"})
GAMES = [(m,) for m in MODULES] + [tuple(MODULES)]
NAMES = ("Ana", "Ben", "Cyd", "Dov", "Eli", "Fay")


@pytest.mark.parametrize("sealed", [False, True], ids=["unsealed", "sealed-seat-tokens"])
def test_generated_python_client_plays_complete_games_of_every_module(
        generated: SimpleNamespace, server: str, sealed_server: str, sealed: bool) -> None:
    """Issue 26: complete games through the generated client, each module alone and all eleven
    together, 2-6 players, against a referee that seals and requires seat tokens and one that
    does neither. (On the contract before issue 26 it died in craftsmen games: `displaced` was
    `anyOf [const "reserve", array, null]`, an unguarded const check for any `[x, y]`.)"""
    api, models, gen = generated.api, generated.models, generated.gen
    url = sealed_server if sealed else server
    plain = gen.Client(base_url=url, raise_on_unexpected_status=True)
    ended = []
    for number, modules in enumerate(GAMES):
        players = list(NAMES[:2 + (number + sealed) % 5])
        rnd = random.Random(number)
        created = api["games.create_game"].sync(
            client=plain, body=models.NewGame(players=players, modules=list(modules), seed=number))
        assert isinstance(created, models.GameAnswer), created
        tokens = {seat.player: seat.token for seat in created.seat_tokens}
        assert sorted(tokens) == (sorted(players) if sealed else [])
        # A seat's calls carry its token: a plain client with the header (no AuthenticatedClient).
        seats = {name: gen.Client(base_url=url, raise_on_unexpected_status=True,
                                  headers={"Authorization": f"Bearer {tokens[name]}"} if sealed else {})
                 for name in players}
        state, who, actions = created.state, created.to_act.players, 0
        if sealed:  # the token is needed, not only sent
            query = models.LegalActionsQuery(state=state, player=who[0], limit=1)
            refused = api["referee.list_legal_actions"].sync(client=plain, body=query)
            assert isinstance(refused, models.ErrorBody) and refused.error == "forbidden", refused
        while who:
            actions += 1
            assert actions < 3000, (modules, len(players))
            seat = seats[who[0]]
            legal = api["referee.list_legal_actions"].sync(
                client=seat, body=models.LegalActionsQuery(state=state, player=who[0], limit=60))
            assert isinstance(legal, models.LegalActions) and legal.actions, legal
            action = min(legal.actions, key=lambda a: (PREFERENCE.get(a.to_dict()["type"], 2),
                                                       rnd.random()))
            move = models.Move(state=state, action=action)
            applied = api["referee.apply_action"].sync(client=seat, body=move)
            assert isinstance(applied, models.Applied), applied
            state, who = applied.state, applied.to_act.players
        assert applied.game_over is True and [r.name for r in state.ranking], modules
        ended.append((modules, len(players), actions))
    assert len(ended) == len(GAMES)


def test_datamodel_code_generator_models_read_every_answer_and_write_every_body(
        tmp_path_factory: pytest.TempPathFactory, server: str) -> None:
    where = tmp_path_factory.mktemp("dcg")
    done = subprocess.run(
        [str(BIN / "datamodel-codegen"), "--input", str(openapi.CONTRACT), "--input-file-type", "openapi",
         "--output", str(where / "referee_models.py"), "--output-model-type", "pydantic_v2.BaseModel",
         "--target-python-version", "3.11", "--collapse-root-models"],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(where))
    try:
        m: Any = importlib.import_module("referee_models")
    finally:
        sys.path.remove(str(where))

    def post(path: str, body: Any, answer: Any) -> Any:
        sent = body.model_dump(mode="json", by_alias=True, exclude_unset=True)
        response = httpx.post(f"{server}{path}", json=sent, timeout=30)
        assert response.status_code in (200, 201), response.text
        return answer.model_validate(response.json())

    game = m.NewGame(players=["Ana", "Ben", "Cyd"], modules=["zoo"], seed=2)
    created = post("/v1/games", game, m.GameAnswer)
    state, who = created.state, created.to_act.players
    for _ in range(STEPS):
        query = m.LegalActionsQuery(state=state, player=who[0], limit=3)
        legal = post("/v1/legal-actions", query, m.LegalActions)
        applied = post("/v1/apply", m.Move(state=state, action=legal.actions[0]), m.Applied)
        state, who = applied.state, applied.to_act.players
        assert state.ranking == [] and isinstance(state.turn.ending, int)
    take = m.TakeMoney(type="take-money", player=who[0], cards=[state.display[0]])
    verdict = post("/v1/validate", m.Move(state=state, action=take), m.Validity)
    assert isinstance(verdict.valid, bool)
    post("/v1/view", m.ViewQuery(state=state, player="Cyd"), m.View)
