"""The fixtures every directory of tests shares (`client`, `state`, `redis_url`), defined in
tests/support/fixtures.py with the helpers they use."""

from tests.support.fixtures import client, redis_url, state  # noqa: F401  (fixtures, found by name)
