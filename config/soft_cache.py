"""Cache calls for what the cache only shortens: when Redis cannot be reached they log a warning
and act as if nothing were kept (a read finds nothing, a write or a delete is dropped), and the
caller does the work itself. Visitors' pages (config/public_cache.py), the signed-in user's row
(clubs/auth_backends.py), the sessions (config/sessions.py), a player's home (home/queries.py:
its kept parts and page) and a finished match's replay timeline (gameplay/replay_cache.py) are
kept this way; none of
them calls the cache but through here (tests/foundation/test_soft_cache.py). `make run` seeds
its demo data before the embedded Redis starts.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from redis.exceptions import RedisError

logger = logging.getLogger("chalk.cache")
UNREACHABLE = (RedisError, OSError)


def _unreached(call: str, key: str, error: Exception) -> None:
    logger.warning("cache not reached (%s) for %s %s: done without it", type(error).__name__, call, key)


def get(key: str):
    """The kept value, or None when nothing is kept or the cache cannot be reached."""
    try:
        return cache.get(key)
    except UNREACHABLE as error:
        _unreached("get", key, error)
        return None


def set(key: str, value, seconds: int) -> None:  # noqa: A001  (the cache's own word)
    try:
        cache.set(key, value, seconds)
    except UNREACHABLE as error:
        _unreached("set", key, error)


def set_many(values: dict, seconds: int) -> None:
    try:
        cache.set_many(values, seconds)
    except UNREACHABLE as error:
        _unreached("set", ", ".join(values), error)


def delete_many(keys: list[str]) -> None:
    """Forget these keys; when the cache cannot be reached, what they hold expires by itself."""
    try:
        cache.delete_many(keys)
    except UNREACHABLE as error:
        _unreached("delete", ", ".join(keys), error)
