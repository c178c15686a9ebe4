"""One Redis cache client per process (tuning/cache.py): Django makes a cache object per thread
and per request context, and with the stock backend each of them opened its own connection
pool, so every page request opened a new connection to Redis."""

import asyncio
import threading

from django.core.cache import caches


def test_every_thread_and_request_context_shares_one_cache_client_and_its_pools():
    clients = [caches["default"]._cache]

    def in_a_thread():
        clients.append(caches["default"]._cache)

    async def in_a_request_context():
        clients.append(caches["default"]._cache)

    worker = threading.Thread(target=in_a_thread)
    worker.start()
    worker.join()
    asyncio.run(in_a_request_context())
    assert len(clients) == 3 and all(client is clients[0] for client in clients)
    caches["default"].set("shared-client-check", 1, 5)
    assert caches["default"].get("shared-client-check") == 1


def test_every_cache_call_of_the_process_uses_one_redis_client_from_any_thread():
    # Django's stock client builds a redis.Redis (and its table of response callbacks) per call.
    backend = caches["default"]._cache
    seen, errors = [], []

    def calls():
        try:
            for number in range(50):
                caches["default"].set(f"one-redis-{number}", number, 5)
                assert caches["default"].get(f"one-redis-{number}") == number
                seen.append(backend.get_client(write=False))
                seen.append(backend.get_client(write=True))
        except Exception as error:  # noqa: BLE001 - reported below, from the test's thread
            errors.append(error)

    workers = [threading.Thread(target=calls) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert errors == []
    assert len({id(client) for client in seen}) == 1
