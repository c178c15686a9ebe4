"""Chalk's ASGI app with per-move timers, for benchmarks/live_load.py --timing (never in production).

    uvicorn benchmarks.timed_asgi:application

Wraps, without changing them, the steps one `act` goes through on the server
(gameplay/services/moves.py) and prints, when the server stops, one JSON line on stderr with the
mean wall time (ms) of each step per act: the whole act, the loop's move and its wait for the
batched statement it shares with other tables (`loop_statement`), the locked transaction's part
(`take_on_thread`), frames, follow-up, each SQL statement kind through Django, commit, and the
thread hops Channels makes for close_old_connections; and the garbage collector's pauses per
generation (count, total and longest), which stop the event loop. `loop_fallback_calls_per_move`:
how often the loop handed an act to the locked transaction instead of writing it itself.
Chalk's own lifespan runs as in production.
"""

import gc
import json
import os
import sys
import threading
import time
from collections import defaultdict

from config.asgi import application as chalk_application  # sets Django up
from django.db import connections
from django.db.backends.signals import connection_created

from channels import consumer as channels_consumer
from channels import db as channels_db
from gameplay import services
from gameplay.services import moves

_totals = defaultdict(float)
_counts = defaultdict(int)
_lock = threading.Lock()


def add(name: str, seconds: float) -> None:
    with _lock:
        _totals[name] += seconds
        _counts[name] += 1


def timed(name, function):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            add(name, time.perf_counter() - start)
    return wrapper


def atimed(name, function):
    async def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return await function(*args, **kwargs)
        finally:
            add(name, time.perf_counter() - start)
    return wrapper


_take = moves.take


def take(*args, **kwargs):
    """The locked transaction's part of an act (on a database thread for a socket's act that
    the loop did not write itself)."""
    start = time.perf_counter()
    cpu = time.thread_time()
    try:
        return _take(*args, **kwargs)
    finally:
        add("take_on_thread", time.perf_counter() - start)
        add("take_on_thread_cpu", time.thread_time() - cpu)


# The steps services.act really takes (gameplay/services/moves.py), each timed where it is
# looked up: the socket calls services.act, which calls the names bound in services.moves.
_act = moves.act


async def act(*args, **kwargs):
    start = time.perf_counter()
    try:
        return await _act(*args, **kwargs)
    finally:
        add("act", time.perf_counter() - start)


_move_on_loop = moves._move_on_loop


async def move_on_loop(match_id, the_act):
    start = time.perf_counter()
    try:
        outcome = await _move_on_loop(match_id, the_act)
    finally:
        add("move_on_loop", time.perf_counter() - start)
    if outcome is None:
        add("loop_fallback", 0.0)  # handed to `take`: a refusal, the last move, a moved table...
    return outcome


services.act = act
moves.take = take
moves._move_on_loop = move_on_loop
moves.awrite_in_batch = atimed("loop_statement", moves.awrite_in_batch)
moves.write_in_transaction = timed("write_in_transaction", moves.write_in_transaction)
moves.state_messages = timed("state_messages", moves.state_messages)
moves.live_table = timed("live_table", moves.live_table)
moves.follow_up = timed("follow_up", moves.follow_up)
moves.broadcast = timed("broadcast", moves.broadcast)

_close = channels_db.close_old_connections


def close_old_connections(**kwargs):
    add("close_old_connections", 0.0)
    return _close(**kwargs)


channels_db.close_old_connections = close_old_connections

_aclose = channels_consumer.aclose_old_connections


async def aclose_old_connections():
    start = time.perf_counter()
    await _aclose()
    add("aclose_old_connections_hop", time.perf_counter() - start)


channels_consumer.aclose_old_connections = aclose_old_connections


def sql_timer(execute, sql, params, many, context):
    start = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        kind = sql.split(None, 1)[0].upper()
        if kind == "SELECT" and "FOR UPDATE" in sql:
            kind = "SELECT_FOR_UPDATE"
        add(f"sql_{kind}", time.perf_counter() - start)


def on_connection(sender, connection, **kwargs):
    # With Django's pool, a thread's wrapper is "created" again for every pooled connection it
    # takes: wrap it once, or the wrappers pile up until a query overflows the stack.
    if sql_timer not in connection.execute_wrappers:
        connection.execute_wrappers.append(sql_timer)
    raw = connection.connection
    commit = raw.commit

    def timed_commit():
        start = time.perf_counter()
        try:
            return commit()
        finally:
            add("commit", time.perf_counter() - start)

    raw.commit = timed_commit
    add("db_connect", 0.0)


connection_created.connect(on_connection)

_Wrapper = type(connections["default"])
_is_usable = _Wrapper.is_usable


def is_usable(self):
    start = time.perf_counter()
    try:
        return _is_usable(self)
    finally:
        add("health_check_SELECT_1", time.perf_counter() - start)


_Wrapper.is_usable = is_usable


# Garbage collections, per generation: how many, their total and their longest pause. A pause
# stops the event loop, so every socket's next frame waits for it (the pace tail).
_gc_started = [0.0]
_gc_pauses = defaultdict(list)


def _on_gc(phase, info):
    if phase == "start":
        _gc_started[0] = time.perf_counter()
    else:
        _gc_pauses[info["generation"]].append(time.perf_counter() - _gc_started[0])


gc.callbacks.append(_on_gc)


def gc_report() -> dict:
    return {f"gc{generation}": {"count": len(pauses), "total_ms": round(1000 * sum(pauses), 1),
                                "max_ms": round(1000 * max(pauses), 2)}
            for generation, pauses in sorted(_gc_pauses.items())}


def report():
    acts = max(_counts["act"], 1)
    line = {"timing_moves": _counts["act"], **gc_report()}
    for name in sorted(_totals):
        line[f"{name}_ms_per_move"] = round(1000 * _totals[name] / acts, 3)
        line[f"{name}_calls_per_move"] = round(_counts[name] / acts, 2)
    print(json.dumps(line), file=sys.stderr, flush=True)


# ----- experiments: CHALK_BENCH_PATCHES=a,b (only through this module, never in the app) ---------
# no_health_check: CONN_HEALTH_CHECKS off (no SELECT 1 before each move).
PATCHES = set(filter(None, os.environ.get("CHALK_BENCH_PATCHES", "").split(",")))

if "no_health_check" in PATCHES:
    connections.settings["default"]["CONN_HEALTH_CHECKS"] = False


async def application(scope, receive, send):
    """Chalk's app, its lifespan included (the collector's clock starts, the loop's pool closes,
    as in production), and the report printed when uvicorn stops (uvicorn re-raises SIGTERM
    after a graceful shutdown, so atexit would never run)."""
    if scope["type"] != "lifespan":
        return await chalk_application(scope, receive, send)

    async def receive_and_report():
        message = await receive()
        if message["type"] == "lifespan.shutdown":
            report()
        return message

    return await chalk_application(scope, receive_and_report, send)
