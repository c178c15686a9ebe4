"""The live tables' database work outside Django's request cycle: the pool of threads that runs
synchronous service calls for the sockets, and the event loop's own asynchronous PostgreSQL
connections (psycopg_pool.AsyncConnectionPool) on which it writes plain moves itself, with no
thread hop.

A move's statement is one round trip; doing it on the loop instead of a thread saves the hop
there and back and the GIL hand-overs between the loop and the thread, which on one core cost
about as much as the statement itself (benchmarks/live_load.py). `in_batch` goes further: the
moves the loop's tables make while a statement is on its way go together in the next one, so
under load one round trip and one commit serve many tables.

Connections (docs/deploying.md): each database thread keeps one of Django's pooled connections
(DB_POOL_SIZE) while the process runs; the loop's pool opens at most LIVE_LOOP_CONNECTIONS and
is closed, tasks and connections, when its loop shuts down (or at the ASGI lifespan's end).
This module knows nothing of matches: gameplay.services builds on it.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import Error as DatabaseError
from django.db import close_old_connections, connections
from psycopg_pool import AsyncConnectionPool

_executor: ThreadPoolExecutor | None = None
_pools: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> (its pool, closer)
_all_pools: weakref.WeakSet = weakref.WeakSet()  # for close_all(), also once a loop is gone


def database_executor() -> ThreadPoolExecutor | None:
    """The process's pool of database threads, or None for Django's one synchronous thread."""
    global _executor
    if settings.LIVE_DATABASE_THREADS <= 1:
        return None
    if _executor is None:
        _check_pool_leaves_room_for_pages()
        _executor = ThreadPoolExecutor(settings.LIVE_DATABASE_THREADS, thread_name_prefix="chalk-db")
    return _executor


def _check_pool_leaves_room_for_pages() -> None:
    pool = connections["default"].settings_dict["OPTIONS"].get("pool")
    if pool and pool["max_size"] <= settings.LIVE_DATABASE_THREADS:
        raise ImproperlyConfigured("DB_POOL_SIZE must exceed LIVE_DATABASE_THREADS: each database "
                                   "thread keeps one of the pool's connections, pages need the rest.")


def call_clean(function, *args):
    """Run `function` on a database thread; after a database failure hand the thread's
    connection back (broken ones are dropped by the pool), so the next call gets a sound one
    (the client resends its act with the same ref)."""
    try:
        return function(*args)
    except DatabaseError:
        close_old_connections()
        raise


async def on_database_thread(function, *args):
    """Run `function` on a database thread (see LIVE_DATABASE_THREADS), the way
    database_sync_to_async does, but without its connection housekeeping around every call:
    with CONN_HEALTH_CHECKS that is an extra `SELECT 1` round trip per move. Work on one match
    stays in order: gameplay.services holds the match's lock while it reads or moves a table."""
    executor = database_executor()
    if executor is None:
        return await sync_to_async(call_clean, thread_sensitive=True)(function, *args)
    # Straight to the pool: sync_to_async's context plumbing costs more than the move itself here
    # (Django's connections are per thread, nothing else rides on the context).
    return await asyncio.get_running_loop().run_in_executor(executor, call_clean, function, *args)


@functools.cache
def loop_writes_enabled() -> bool:
    """The event loop writes moves itself with a pool of database threads beside it. Settled once
    per process: asked on every move."""
    return settings.LIVE_DATABASE_THREADS > 1 and settings.LIVE_LOOP_WRITES


def _connection_params() -> dict:
    """Django's own connection parameters (host, name, user, TLS options...), minus its cursor
    and its pool, in autocommit: each statement of the loop is a transaction of its own."""
    params = connections["default"].get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold", "pool"):
        params.pop(django_only, None)
    return {**params, "autocommit": True}


async def _loop_pool() -> AsyncConnectionPool:
    """This event loop's pool, opened on first use. Connections open on demand (min_size 0) and
    a broken one (a lost server, a statement cut off by a cancel) is discarded on return.

    The pool lives as long as its loop: the ASGI lifespan's shutdown closes it
    (close_loop_pool), and so does the loop's own shutdown in any runner (asyncio.run,
    asyncio.Runner, uvicorn, asgiref's loops), through an async generator started on the loop,
    which `loop.shutdown_asyncgens()` closes. Its worker and scheduler tasks never outlive it."""
    loop = asyncio.get_running_loop()
    entry = _pools.get(loop)
    if entry is None:
        pool = AsyncConnectionPool(
            kwargs=_connection_params(), min_size=0, max_size=settings.LIVE_LOOP_CONNECTIONS,
            open=False, name="chalk-loop", timeout=settings.DB_POOL_TIMEOUT)
        closer = _closed_with_loop(loop, pool)
        await closer.asend(None)  # now the loop tracks it, and closes it when it shuts down
        entry = _pools[loop] = (pool, closer)
        _all_pools.add(pool)
    await entry[0].open()  # no-op once open
    return entry[0]


async def _closed_with_loop(loop: asyncio.AbstractEventLoop, pool: AsyncConnectionPool):
    """Suspended at its `yield` while the loop runs; closed by `shutdown_asyncgens` (or by
    close_loop_pool), its `finally` closes the pool on the loop, before the loop closes."""
    try:
        yield
    finally:
        if _pools.get(loop, (None,))[0] is pool:
            del _pools[loop]
        await pool.close()


async def close_loop_pool() -> None:
    """Close this event loop's pool, if it has one: its connections, workers and scheduler
    (the ASGI lifespan's shutdown, and tests whose loop ends without a runner)."""
    entry = _pools.pop(asyncio.get_running_loop(), None)
    if entry is not None:
        await entry[1].aclose()  # its finally closes the pool


async def fetch_all(sql: str, params) -> list[tuple]:
    """Run one prepared statement on a connection of this loop's pool; all its rows."""
    pool = await _loop_pool()
    async with pool.connection() as connection, connection.cursor() as cursor:
        await cursor.execute(sql, params, prepare=True)
        return await cursor.fetchall()


async def in_batch(sql: str, row: tuple, key) -> bool:
    """Send `row` with the other rows this loop's callers hand over for `sql` meanwhile, as one
    statement; True when the statement returned `key` (it acted on the row).

    `sql` takes one array per column (the rows transposed, for `unnest`) and returns the key of
    each row it acted on. One batch of a statement is on its way at a time: a row handed over
    while none is goes at the loop's next turn, with every row handed over in the same turn;
    rows handed over while one is on its way go together once it is back. Alone, a row waits
    one loop turn; under load the batches grow, and one round trip and one commit serve many
    rows. Rows go in the order of their keys, so that two processes' statements take the rows
    they both touch in the same order. If the statement fails, it changed nothing, and every
    row of it gets the error."""
    loop = asyncio.get_running_loop()
    batches = _batches.setdefault(loop, {})
    batch = batches.get(sql)
    if batch is None:
        batch = batches[sql] = _Batch(sql)
    return await batch.add(loop, row, key)


_batches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> {sql: _Batch}


class _Batch:
    def __init__(self, sql: str):
        self.sql = sql
        self.waiting: list[tuple[tuple, object, asyncio.Future]] = []
        self.sending: asyncio.Task | None = None  # held here: the loop keeps only a weak reference

    def add(self, loop: asyncio.AbstractEventLoop, row: tuple, key) -> asyncio.Future:
        future = loop.create_future()
        self.waiting.append((row, key, future))
        if self.sending is None:
            self.sending = loop.create_task(self._send(), name="chalk-loop-batch")
        return future

    async def _send(self) -> None:
        """Send what waits, until nothing does. Never raises: every error goes to the rows'
        callers; a caller that gave up (its future cancelled) is skipped."""
        try:
            while self.waiting:
                rows, self.waiting = sorted(self.waiting, key=lambda waiting: waiting[1]), []
                columns = [list(column) for column in zip(*(row for row, _, _ in rows))]  # arrays, not records
                try:
                    done = {returned[0] for returned in await fetch_all(self.sql, columns)}
                except asyncio.CancelledError:  # the loop is shutting down
                    for _, _, future in rows:
                        future.cancel()
                    raise
                except Exception as error:
                    for _, _, future in rows:
                        if not future.done():
                            future.set_exception(error)
                    continue
                for _, key, future in rows:
                    if not future.done():
                        future.set_result(key in done)
        finally:
            self.sending = None


def _close_now(pool: AsyncConnectionPool) -> None:
    """Close a pool's idle connections from any thread, without its loop (which may be gone)."""
    for connection in list(getattr(pool, "_pool", ())):  # psycopg_pool's idle deque
        try:
            connection.pgconn.finish()
        except Exception:  # already closed
            pass


def close_all() -> None:
    """Close every loop's connections and forget the pools (tests, before the test database
    goes). A loop that is still open and idle closes its pool on itself, workers included; a
    loop already closed without shutting down can no longer run them (tests must not do that:
    tests/gameplay/test_loop_pool.py), so only its idle connections are closed."""
    for loop in list(_pools):
        if not loop.is_closed() and not loop.is_running():
            loop.run_until_complete(close_loop_pool())
    for pool in list(_all_pools):
        _close_now(pool)
    _all_pools.clear()
    _pools.clear()
