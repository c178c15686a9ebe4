"""One quick PING, for health checks and for waiting on a server to come up.

redis-py (>= 6) retries a failed connection three times with backoff by default, which turns a
"not up yet" or "down" answer into seconds of waiting. A probe wants the answer now.
"""

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry


def _ping(client):
    try:
        return bool(client.ping())
    except (redis.RedisError, OSError):
        return False
    finally:
        client.close()


def ping_url(url, timeout=1.0):
    client = redis.Redis.from_url(
        url, socket_timeout=timeout, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0)
    )
    return _ping(client)


def ping_socket(path, timeout=0.5):
    client = redis.Redis(
        unix_socket_path=str(path), socket_timeout=timeout, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0)
    )
    return _ping(client)
