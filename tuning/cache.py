"""The cache backend: Django's Redis cache with one client, and so one connection pool, per process.

Django keeps a cache object per thread and per asynchronous context (its `caches` is an
asgiref Local that is not thread-critical): under ASGI every request is a context of its own,
so every request made a RedisCache with a client and a connection pool of its own, and opened a
new connection to Redis for its first cache call, left open until the garbage collector freed
the pool. Under benchmarks/pages.py one `cache.get` cost 1.7 ms that way (a page served from the
cache ran at the speed of a view that only does that `get`), and the connections were bounded
by nothing. Here every RedisCache of a process with the same servers and options shares one
client, whose pools (redis-py's, thread-safe) are capped by OPTIONS["max_connections"].

Django's client also made a `redis.Redis` for every call (`get_client`), whose constructor fills
a table of some 170 response callbacks: a fifth of the function calls of a signed-in home,
which makes two cache calls (benchmarks/page_cpu.py --profile). Here each pool has one
`redis.Redis`, made once (it is thread-safe: each command borrows a connection from the pool).
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict = {}
_clients_lock = threading.Lock()


class OneRedisPerPool(RedisCacheClient):
    """Django's cache client, with one redis.Redis per connection pool for every call."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._redis_of_pool: dict = {}  # connection pool -> its redis.Redis

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._redis_of_pool.get(pool)
        if client is None:
            client = self._redis_of_pool.setdefault(pool, self._client(connection_pool=pool))
        return client


class ProcessRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = OneRedisPerPool

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), tuple(sorted((name, repr(value)) for name, value in self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
            return client
