"""The committed contract read by the common client generators, as a backend team would: the
generated code plays a short game against a live referee.

- openapi-python-client generates a client with no warning (the only non-JSON answer, the
  SVG of /v1/render, is mapped to text by its `content_type_overrides` setting), and its models
  build a take-money action without naming a tag enum;
- datamodel-code-generator generates pydantic models (`--collapse-root-models`: a list of names
  is a list of strings) that read every answer and write every body.

openapi-typescript, with no flag, gives the types of the TypeScript client (clients/typescript),
which compiles with `tsc --strict` and plays complete games: tests/api/test_typescript_client.py.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.api import openapi
from tests.support.fixtures import live_server

BIN = Path(sys.executable).parent
STEPS = 12


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with live_server() as url:
        yield url


def _generate_python_client(where: Path) -> str:
    config = where / "config.json"
    config.write_text(json.dumps({"content_type_overrides": {"image/svg+xml": "text/plain"},
                                  "post_hooks": []}))
    done = subprocess.run(
        [str(BIN / "openapi-python-client"), "generate", "--path", str(openapi.CONTRACT), "--meta", "none",
         "--output-path", str(where / "referee_generated"), "--config", str(config)],
        capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return output


def test_openapi_python_client_generates_a_client_that_plays_a_game(
        tmp_path_factory: pytest.TempPathFactory, server: str) -> None:
    where = tmp_path_factory.mktemp("opc")
    output = _generate_python_client(where)
    assert "WARNING" not in output and "Unable to parse" not in output, output
    sys.path.insert(0, str(where))
    try:
        gen: Any = importlib.import_module("referee_generated")
        api = {name: importlib.import_module(f"referee_generated.api.{name}")
               for name in ("games.create_game", "referee.list_legal_actions", "referee.apply_action",
                            "referee.validate_action", "games.view_state", "games.render_picture",
                            "scoring.score_position")}
        models = importlib.import_module("referee_generated.models")
    finally:
        sys.path.remove(str(where))
    client = gen.Client(base_url=server, raise_on_unexpected_status=True)

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
    for _ in range(STEPS):
        query = models.LegalActionsQuery(state=state, player=who[0], limit=5)
        legal = call("referee.list_legal_actions", query)
        assert legal.actions and {a.player for a in legal.actions} == {who[0]}
        applied = call("referee.apply_action", models.Move(state=state, action=legal.actions[0]))
        assert isinstance(applied, models.Applied), applied
        state, who = applied.state, applied.to_act.players
    seen = call("games.view_state", models.ViewQuery(state=state, player="Ana"))
    assert seen.to_act.players == who and seen.players[1].hand is None
    breakdown = call("scoring.score_position", models.StateRound(state=state, round_=1))
    assert [p.name for p in breakdown.players] == ["Ana", "Ben", "Dirk"]
    picture = call("games.render_picture", models.RenderState(state=state))
    assert isinstance(picture, str) and picture.startswith("<?xml")


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
