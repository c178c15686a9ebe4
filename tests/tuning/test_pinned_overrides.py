"""Each override in tuning/ (tuning/README.md) is pinned to the library version it was written
against, and the internals it relies on are checked to exist: a library upgrade fails here,
loudly, before it can change behaviour quietly. On a failure: read the library's changelog for
the internal named, re-measure with the benchmark the README names, then move the pin."""

import inspect
from importlib.metadata import version

import pytest

PINS = {
    "Django": "5.2.19",          # tuning/asgi_http.py, tuning/cache.py, config/sessions.py
    "asgiref": "3.13.0",         # tuning/asgi_http.py (ThreadSensitiveContext with an executor)
    "channels_redis": "4.3.0",   # tuning/channel_layer.py, config/logfilters.py RedisAwayFilter
    "psycopg-pool": "3.3.3",     # tuning/live_db.py
    "uvicorn": "0.54.0",         # config/logfilters.py ClientFaultFilter
}


@pytest.mark.parametrize("package, pinned", sorted(PINS.items()))
def test_each_overridden_library_is_the_version_its_override_was_written_against(package, pinned):
    assert version(package) == pinned, (
        f"{package} is {version(package)}, its override in tuning/ was written against {pinned}: "
        "see tuning/README.md before moving the pin")


def test_the_page_handler_still_finds_djangos_handler_internals():
    from asgiref.sync import ThreadSensitiveContext
    from django.core.handlers.asgi import ASGIHandler

    assert "is_async" in inspect.signature(ASGIHandler.load_middleware).parameters
    assert inspect.iscoroutinefunction(ASGIHandler.handle)
    assert inspect.iscoroutinefunction(ASGIHandler.get_response_async)
    assert "executor" in inspect.signature(ThreadSensitiveContext.__init__).parameters


def test_the_cache_still_finds_djangos_redis_client_internals():
    from django.core.cache.backends.redis import RedisCache, RedisCacheClient

    assert callable(getattr(RedisCacheClient, "_get_connection_pool"))
    assert callable(getattr(RedisCacheClient, "get_client"))
    cache = RedisCache("redis://127.0.0.1:1/0", {})
    assert cache._class is RedisCacheClient and cache._servers and isinstance(cache._options, dict)


def test_the_channel_layer_still_finds_channels_redis_shard_internals():
    from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection

    assert callable(getattr(RedisPubSubChannelLayer, "_get_layer"))
    assert callable(getattr(RedisSingleShardConnection, "_ensure_redis"))
    assert inspect.iscoroutinefunction(RedisSingleShardConnection.publish)
    shard_source = inspect.getsource(RedisSingleShardConnection)
    assert "self._redis" in shard_source and "self._lock" in shard_source  # the lock publishes no longer take


def test_the_loop_pool_still_finds_psycopg_pools_idle_deque():
    from psycopg_pool import AsyncConnectionPool

    assert "self._pool" in inspect.getsource(AsyncConnectionPool.__init__)


def test_the_redis_away_log_filter_still_matches_channels_redis_receiver():
    """config/logfilters.py RedisAwayFilter turns this logger's records of a lost Redis into one
    line: it relies on the receiver logging through `channels_redis.pubsub` with the exception."""
    from channels_redis import pubsub
    from channels_redis.pubsub import RedisSingleShardConnection

    assert pubsub.logger.name == "channels_redis.pubsub"
    assert "logger.exception(" in inspect.getsource(RedisSingleShardConnection._do_receiving)


def test_the_session_engine_still_finds_djangos_session_store_internals():
    """config/sessions.py overrides cached_db's four methods whole, on the db store's reader."""
    from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
    from django.contrib.sessions.backends.db import SessionStore as DBStore

    assert callable(getattr(DBStore, "_get_session_from_db"))
    assert CachedDBStore.cache_key_prefix and isinstance(CachedDBStore.cache_key, property)
    assert CachedDBStore.__mro__[1] is DBStore
