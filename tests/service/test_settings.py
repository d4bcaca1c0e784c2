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
    ({"REDIS_URL": "http://x"}, "REDIS_URL='http://x': must be a redis://, rediss://, unix://, "
                                "redis+cluster:// or redis+sentinel:// URL"),
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


@pytest.mark.parametrize(("env", "message"), [
    ({"HOST": "my host"}, "HOST='my host': must be an IP address or a host name"),
    ({"HOST": "-bad.example"}, "HOST='-bad.example': must be an IP address or a host name"),
    ({"WORKERS": "0"}, "WORKERS=0: must be between 1 and 256"),
    ({"REDIS_URL": "redis://h:abc/0"},
     "REDIS_URL='redis://h:abc/0': not a usable Redis URL "
     "(Port could not be cast to integer value as 'abc')"),
    ({"REDIS_URL": "redis://h:6379/zero"}, "REDIS_URL='redis://h:6379/zero': the database (the path) "
                                           "must be a number"),
    ({"REDIS_URL": "unix://"}, "REDIS_URL='unix://': a unix:// URL needs the socket's path"),
    ({"REDIS_URL": "redis://"}, "REDIS_URL='redis://': needs a host"),
    ({"REDIS_BREAKER_SECONDS": "nan"}, "REDIS_BREAKER_SECONDS=nan: must be between 0 and 3600"),
    ({"SHUTDOWN_TIMEOUT_SECONDS": "0"}, "SHUTDOWN_TIMEOUT_SECONDS=0: must be between 1 and 3600"),
    ({"WRITE_TIMEOUT_SECONDS": "0"}, "WRITE_TIMEOUT_SECONDS=0.0: must be between 0.1 and 600"),
    ({"CACHE_ENTRIES": "-1"}, "CACHE_ENTRIES=-1: must be between 0 and 10000000"),
    ({"REDIS_KEY_PREFIX": "k" * 65}, f"REDIS_KEY_PREFIX={'k' * 65!r}: must be at most 64 characters"),
])
def test_more_bad_values_name_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as e:
        Settings.from_env(env)
    assert str(e.value) == message


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "127.0.0.1", "localhost", "referee.svc.cluster.local"])
def test_good_hosts_are_accepted(host: str) -> None:
    assert Settings.from_env({"HOST": host}).host == host


def test_a_bad_redis_url_is_shown_without_its_password() -> None:
    with pytest.raises(SettingsError) as e:
        Settings.from_env({"REDIS_URL": "redis://user:s3cret@h:6379/db"})
    assert "s3cret" not in str(e.value) and "user:***@h:6379" in str(e.value)


@pytest.mark.parametrize("url", [
    "redis+cluster://10.0.0.1:7000,10.0.0.2:7000,10.0.0.3",
    "rediss+cluster://user:pw@redis-cluster.referee.svc:6379?ssl_cert_reqs=none",
    "redis+cluster://[::1]:7000,localhost:7001/0",
    "redis+sentinel://s1:26379,s2:26379,s3/mymaster",
    "rediss+sentinel://:pw@sentinel.svc/referee/2",
])
def test_cluster_and_sentinel_urls_are_accepted(url: str) -> None:
    assert Settings.from_env({"REDIS_URL": url}).redis_url == url


@pytest.mark.parametrize(("url", "problem"), [
    ("redis+cluster://", "needs at least one host:port"),
    ("redis+cluster://a:7000,b:port", "'b:port' is not host:port"),
    ("redis+cluster://a:7000/2", "a cluster has no database to choose: no path after the hosts"),
    ("redis+cluster://a:7000?no_such_option=1", "not a usable Redis URL (TypeError: "),
    ("redis+sentinel://s1:26379", "needs the Sentinel service's name as its path (/mymaster)"),
    ("redis+sentinel://s1:26379/mymaster/zero", "the path must be /service or /service/db (a number)"),
    ("redis+shard://a:7000", "must be a redis://, rediss://, unix://, redis+cluster:// or "
                             "redis+sentinel:// URL"),
])
def test_bad_cluster_and_sentinel_urls_name_the_variable(url: str, problem: str) -> None:
    with pytest.raises(SettingsError) as e:
        Settings.from_env({"REDIS_URL": url})
    assert str(e.value).startswith(f"REDIS_URL={url!r}: {problem}")


@pytest.mark.parametrize("url", ["redis+cluster://admin:s3cret@a:7000,b:7000/9",
                                 "redis+sentinel://:s3cret@s1,s2/svc/x", "redis://h/0?password=s3cret&db=x",
                                 "redis://:s3/cr@t@h:6379/db"])
def test_a_bad_cluster_or_sentinel_url_is_shown_without_its_password(url: str) -> None:
    with pytest.raises(SettingsError) as e:
        Settings.from_env({"REDIS_URL": url})
    assert "s3cret" not in str(e.value) and "s3/cr@t" not in str(e.value) and "***" in str(e.value)


def test_one_future_replicas_is_checked() -> None:
    assert Settings.from_env({"ONE_FUTURE_REPLICAS": "1"}).one_future_replicas == 1
    with pytest.raises(SettingsError, match="ONE_FUTURE_REPLICAS=17: must be between 0 and 16"):
        Settings.from_env({"ONE_FUTURE_REPLICAS": "17"})


def test_every_setting_has_a_check() -> None:
    """A setting added without a check could start the server with a value it cannot use."""
    from dataclasses import fields

    from service import settings as module

    assert {f.name for f in fields(Settings)} == set(module._CHECKS)
    numeric = {f.name for f in fields(Settings) if f.type in ("int", "float")}
    assert numeric <= set(module._PARSERS)
