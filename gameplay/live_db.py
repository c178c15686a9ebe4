"""The live tables' database work outside Django's request cycle: the pool of threads that runs
synchronous service calls for the sockets, and a few asynchronous PostgreSQL connections on which
the event loop writes a plain move itself (services.asubmit_move), with no thread hop.

A move's statement is one round trip; doing it on the loop instead of a thread saves the hop
there and back and the GIL hand-overs between the loop and the thread, which on one core cost
about as much as the statement itself (benchmarks/live_load.py).
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from concurrent.futures import ThreadPoolExecutor

import psycopg
from django.conf import settings
from django.db import close_old_connections, connections

ASYNC_CONNECTIONS = 4

_executor: ThreadPoolExecutor | None = None
_pools: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> _Pool
_opened: weakref.WeakSet = weakref.WeakSet()  # every async connection, for close_all()


def database_executor() -> ThreadPoolExecutor | None:
    """The process's pool of database threads, or None for Django's one synchronous thread."""
    global _executor
    if settings.LIVE_DATABASE_THREADS <= 1:
        return None
    if _executor is None:
        _executor = ThreadPoolExecutor(settings.LIVE_DATABASE_THREADS, thread_name_prefix="chalk-db")
    return _executor


def call_clean(function, *args):
    """Run `function` on a database thread; after a failure drop the thread's connection as
    Channels would, so the next call reconnects (the client resends its act with the same ref)."""
    from gameplay.services import ActionRejected

    try:
        return function(*args)
    except ActionRejected:
        raise
    except Exception:
        close_old_connections()
        raise


@functools.cache
def loop_writes_enabled() -> bool:
    """The event loop writes moves itself on PostgreSQL with a pool of database threads beside it
    (SQLite has one writer and keeps everything on Django's thread). Settled once per process:
    asked on every move."""
    return (connections["default"].vendor == "postgresql" and settings.LIVE_DATABASE_THREADS > 1
            and settings.LIVE_LOOP_WRITES)


class _Pool:
    """A handful of autocommit connections for one event loop, each running one statement at a
    time; more are opened on demand up to ASYNC_CONNECTIONS."""

    def __init__(self):
        self.idle: list[psycopg.AsyncConnection] = []
        self.waiters: list[asyncio.Future] = []
        self.opened = 0

    async def acquire(self) -> psycopg.AsyncConnection:
        while not self.idle:
            if self.opened < ASYNC_CONNECTIONS:
                self.opened += 1
                try:
                    connection = await psycopg.AsyncConnection.connect(autocommit=True, **_connection_params())
                except BaseException:
                    self.opened -= 1
                    raise
                _opened.add(connection)
                return connection
            waiter = asyncio.get_running_loop().create_future()
            self.waiters.append(waiter)
            await waiter
        return self.idle.pop()

    def close_now(self) -> None:
        for connection in self.idle:
            _close_now(connection)
        self.idle.clear()

    def release(self, connection: psycopg.AsyncConnection, broken: bool) -> None:
        if broken or connection.closed:
            self.opened -= 1
            _close_now(connection)
        else:
            self.idle.append(connection)
        while self.waiters:
            waiter = self.waiters.pop(0)
            if not waiter.done():
                waiter.set_result(None)
                break


def _connection_params() -> dict:
    """Django's own connection parameters (host, name, user, TLS options...), minus its cursor."""
    params = connections["default"].get_connection_params()
    for django_only in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(django_only, None)
    return params


async def fetch_one(sql: str, params) -> tuple | None:
    """Run one prepared statement on a pooled connection of this loop; its first row, or None."""
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = _Pool()
        weakref.finalize(loop, pool.close_now)  # a loop that goes (tests make many) takes its connections
    connection = await pool.acquire()
    broken = False
    try:
        async with connection.cursor() as cursor:
            await cursor.execute(sql, params, prepare=True)
            return await cursor.fetchone()
    except (psycopg.OperationalError, asyncio.CancelledError):
        broken = True  # a lost server, or a statement cut off halfway: never reuse the connection
        raise
    finally:
        pool.release(connection, broken)


def _close_now(connection: psycopg.AsyncConnection) -> None:
    """Close from any thread, without the loop (which may be gone)."""
    try:
        connection.pgconn.finish()
    except Exception:  # already closed
        pass


def close_all() -> None:
    """Close every async connection and forget the pools (tests, before the test database goes)."""
    for connection in list(_opened):
        _close_now(connection)
    _opened.clear()
    _pools.clear()
