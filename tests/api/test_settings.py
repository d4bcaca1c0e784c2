"""Settings come from the environment once, each checked with a message naming the variable."""

from __future__ import annotations

import pytest

from service.settings import Settings, SettingsError


def test_defaults() -> None:
    s = Settings.from_env({})
    assert (s.port, s.host, s.redis_url, s.max_body_bytes) == (8000, "127.0.0.1", None, 256 * 1024)


def test_values_are_read_and_parsed() -> None:
    s = Settings.from_env({"PORT": "9001", "REDIS_URL": "redis://127.0.0.1:6379/0", "LOG_LEVEL": "DEBUG",
                           "REDIS_BREAKER_SECONDS": "0.5"})
    assert (s.port, s.redis_url, s.log_level, s.redis_breaker_seconds) == (
        9001, "redis://127.0.0.1:6379/0", "debug", 0.5)


@pytest.mark.parametrize(("env", "message"), [
    ({"PORT": "eighty"}, "PORT='eighty': expected an integer"),
    ({"PORT": "70000"}, "PORT=70000: must be between 1 and 65535"),
    ({"REDIS_URL": "http://x"}, "REDIS_URL='http://x': must be a redis://, rediss:// or unix:// URL"),
    ({"LOG_LEVEL": "loud"}, "LOG_LEVEL='loud': must be one of critical, error, warning, info, debug"),
    ({"MAX_BODY_BYTES": "10"}, "MAX_BODY_BYTES=10: must be between 1024 and 67108864"),
])
def test_bad_values_name_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as e:
        Settings.from_env(env)
    assert str(e.value) == message


def test_settings_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Settings().port = 1  # type: ignore[misc]
