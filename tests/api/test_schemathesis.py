"""Schemathesis over every operation of the contract, in-process, with all default checks:
examples, coverage, fuzzing and the stateful phase that follows the contract's links
(create a game -> legal actions -> apply -> legal actions -> apply ...); once with sealing off
and once with it on (the stateful phase then plays sealed states). The hooks of st_hooks put
real states and actions, mutated, in the generated requests (issue 24)."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from service.api.app import create_app
from service.seal import new_key
from service.settings import Settings
from tests.support import st_hooks  # noqa: F401  (registers the hooks)

CONFIG = SchemathesisConfig.from_path(Path(__file__).with_name("schemathesis.toml"))
# Quiet: the schema is fetched from the app at import, before pytest captures output, and an
# access-log line written then (from the log queue's thread) lands in the progress dots.
app = create_app(Settings(cache_entries=256, log_level="warning"))
schema = schemathesis.openapi.from_asgi("/schema/openapi.json", app, config=CONFIG)


# In-process examples per operation (25; sealed 10): the suite's share of the fuzzing. The
# live run of .ci/run (.ci/live-schemathesis.sh) fuzzes a served referee with 40 per operation
# for up to 100 s, every case in a language of its own.
@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_meets_the_contract(case: schemathesis.Case) -> None:
    case.call_and_validate()


Workflow = schema.as_state_machine()
TestGameWorkflow = Workflow.TestCase
TestGameWorkflow.settings = settings(max_examples=25, stateful_step_count=6, deadline=None,
                                     suppress_health_check=list(HealthCheck))


sealed_app = create_app(Settings(cache_entries=256, seal_keys=new_key("st"), log_level="warning"))
sealed_schema = schemathesis.openapi.from_asgi("/schema/openapi.json", sealed_app, config=CONFIG)


@sealed_schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_meets_the_contract_with_sealing_on(case: schemathesis.Case) -> None:
    case.call_and_validate()


SealedWorkflow = sealed_schema.as_state_machine()
TestSealedGameWorkflow = SealedWorkflow.TestCase
TestSealedGameWorkflow.settings = settings(max_examples=10, stateful_step_count=6, deadline=None,
                                           suppress_health_check=list(HealthCheck))


def test_negative_data_refused_by_size_counts_as_refused() -> None:
    """A random oversized body is refused 413 before its content is read (every POST documents
    it); the negative-data check counted that as accepting bad data (a flaky CI failure)."""
    check = CONFIG.projects.default.checks.negative_data_rejection
    assert {"400", "413", "422"} <= set(check.expected_statuses)
