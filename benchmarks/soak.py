"""A soak of the whole live stack: tables at human pace, page traffic and Celery, for minutes.

    .venv/bin/python benchmarks/soak.py [--minutes 20] [--tables 200] [--pace 3] [--page-rate 10]
        [--clock 60] [--sample 10] [--deflate] [--timing | --trace-memory SECONDS | --gc-pauses]
    .venv/bin/python benchmarks/soak.py --socket-cycles 10 [--tables 50] [--deflate]

Needs PostgreSQL and Redis on this machine: DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/chalk_bench, created and migrated if missing) and REDIS_URL
(default redis://127.0.0.1:6379/3). It starts, as production does (Procfile, docs/deploying.md),
one uvicorn, one Celery worker (concurrency 2) and beat, and stops them by itself:

- --tables All Fours tables (make_tables, clock --clock seconds, so every decision has a
  deadline for the worker's clock sweep, each second; beat adds its other sweeps and the
  heartbeat), 4 websocket clients each, every
  table making one move every --pace seconds (staggered); a finished match is replaced;
- --page-rate requests per second, in turn, to the lobby, the competitions list, a
  competition's page (when one exists), the archive and the replay of a finished match;
- every --sample seconds one JSON line: PostgreSQL connections to the database, the ASGI
  process's RSS, moves, errors so far; at the end a summary: errors (socket errors, pages that
  did not answer 200, tracebacks in the servers' logs), connections (min, max) and RSS (start,
  peak, end). Flat means: no errors, connections within the budget, RSS levelling off.

--socket-cycles N measures the per-connection memory alone: N times, open every seat's socket
of --tables tables (4 each), wait for each first state, close them all; RSS after each cycle.
--deflate lets uvicorn negotiate permessage-deflate, as it does by default (production turns it
off: docs/deploying.md), to compare.

Loopback only: every request goes to 127.0.0.1. The table clients, the page client and the
figures are benchmarks/load_client.py's, the servers' start, CPU and memory benchmarks/servers.py's:
the ones live_load.py, pages.py and cluster.py use.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from websockets.exceptions import InvalidStatus

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks import gc_pauses, servers  # noqa: E402
from benchmarks.live_load import DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL  # noqa: E402
from benchmarks.load_client import (  # noqa: E402  (the one load client)
    ChalkTable, Window, close_all, connect, get, percentile)
from benchmarks.servers import HOST, Server, check_loopback, ensure_database, rss_mb, server_env  # noqa: E402

PREFIX = "soak"


class Stack:
    """uvicorn (+ worker and beat unless `web_only`), each logging to a temp file."""

    def __init__(self, args, web_only: bool = False):
        self.args, self.logs, self.procs = args, {}, {}
        self.var = tempfile.mkdtemp(prefix="chalk-soak-")
        self.gc_pauses = os.path.join(self.var, "gc-pauses.txt")
        app, extra = self.web_application(args)
        self.logs["web"] = open(Path(self.var) / "web.log", "w+")
        self.web = Server(app, self.env(extra), log_file=self.logs["web"],
                          options=["--timeout-graceful-shutdown", "5", "--ws-max-size", "65536",
                                   "--ws-per-message-deflate", "true" if args.deflate else "false"])
        self.procs["web"], self.port = self.web.proc, self.web.port
        if not web_only:
            celery = [sys.executable, "-m", "celery", "-A", "config"]
            small_pool = {"DB_POOL_SIZE": "2", "DB_POOL_MIN_SIZE": "0"}
            # A run stopped early leaves its tasks queued: this run's worker must not start by
            # working through another run's backlog.
            subprocess.run([*celery, "purge", "-f"], cwd=ROOT, env=server_env(args),
                           capture_output=True, timeout=60)
            self.start("worker", [*celery, "worker", "--loglevel=WARNING", "--concurrency=2",
                                  "--without-mingle", "--without-gossip"], small_pool)
            self.start("beat", [*celery, "beat", "--loglevel=WARNING", "--schedule",
                                str(Path(self.var) / "beat-schedule")], {**small_pool, "DB_POOL_SIZE": "1"})

    def web_application(self, args) -> tuple[str, dict]:
        """What uvicorn serves (Chalk, or Chalk with one of the probes) and the probe's environment."""
        if getattr(args, "timing", False):
            return "benchmarks.timed_asgi:application", {}
        if getattr(args, "trace_memory", 0):
            return "benchmarks.traced_asgi:application", {"CHALK_TRACE_DIR": self.var,
                                                          "CHALK_TRACE_SECONDS": str(args.trace_memory)}
        if getattr(args, "gc_pauses", False):
            return "benchmarks.gc_paused_asgi:application", {"CHALK_GC_PAUSES": self.gc_pauses}
        return "config.asgi:application", {}

    def env(self, extra: dict) -> dict:
        return {**server_env(self.args), "CHALK_VAR_DIR": self.var, "BOT_MOVE_DELAY": "0.8",
                "COLLECTED_STATIC": "0", **extra}  # pages served from static/, no collectstatic

    def start(self, name: str, command: list[str], extra: dict) -> None:
        self.logs[name] = open(Path(self.var) / f"{name}.log", "w+")
        self.procs[name] = subprocess.Popen(command, cwd=ROOT, env=self.env(extra), stdout=self.logs[name],
                                            stderr=subprocess.STDOUT)

    @property
    def web_pid(self) -> int:
        return self.procs["web"].pid

    def tracebacks(self) -> dict:
        counts = {}
        for name, log_file in self.logs.items():
            log_file.flush()
            text = Path(log_file.name).read_text(errors="replace")
            counts[name] = text.count("Traceback (most recent call last)")
        return counts

    def timing_report(self) -> list[str]:
        """The per-step timing line timed_asgi prints when uvicorn stops (--timing)."""
        text = Path(self.logs["web"].name).read_text(errors="replace")
        return [line for line in text.splitlines() if line.startswith('{"timing_moves"')]

    def stop(self) -> None:
        for proc in self.procs.values():
            proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


def make_tables(args, count: int) -> list[dict]:
    return servers.make_tables(args, count, PREFIX, "--clock", str(args.clock), workers=1)


def pg_connections(args) -> int:
    import psycopg

    with psycopg.connect(args.database_url, autocommit=True, connect_timeout=10) as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                            " AND pid <> pg_backend_pid()").fetchone()[0]


def page_urls(args) -> list[str]:
    """The pages the soak reads: lobby, competitions, one competition, archive, a replay."""
    import psycopg

    urls = ["/play/", "/competitions/", "/matches/"]
    with psycopg.connect(args.database_url, autocommit=True, connect_timeout=10) as conn:
        competition = conn.execute("SELECT id FROM tournaments_competition ORDER BY id DESC LIMIT 1").fetchone() \
            if _table_exists(conn, "tournaments_competition") else None
        finished = conn.execute("SELECT id FROM gameplay_match WHERE status = 'finished' "
                                "ORDER BY id DESC LIMIT 1").fetchone()
    if competition:
        urls.append(f"/competitions/{competition[0]}/")
    if finished:
        urls.append(f"/matches/{finished[0]}/replay/")
    return urls


def _table_exists(conn, name: str) -> bool:
    return conn.execute("SELECT to_regclass(%s)", (name,)).fetchone()[0] is not None


async def page_traffic(args, stack: Stack, cookie: str, pages: Counter, stop: asyncio.Event) -> None:
    urls, index, interval = page_urls(args), 0, 1 / args.page_rate
    refreshed = time.monotonic()
    while not stop.is_set():
        if time.monotonic() - refreshed > 30:  # a replay appears once a match finishes
            urls, refreshed = await asyncio.to_thread(page_urls, args), time.monotonic()
        url = urls[index % len(urls)]
        index += 1
        asyncio.ensure_future(_count_page(stack.port, url, cookie, pages))
        await asyncio.sleep(interval)


PAGES_IN_FLIGHT = 32
_in_flight = 0


async def _count_page(port: int, path: str, cookie: str, pages: Counter) -> None:
    global _in_flight
    if _in_flight >= PAGES_IN_FLIGHT:  # the server is that far behind: counted, not queued without end
        pages["skipped_busy"] += 1
        return
    _in_flight += 1
    try:
        status = await get(port, path, cookie)
    finally:
        _in_flight -= 1
    pages["ok" if status == 200 else f"status_{status}"] += 1


async def table_slot(pool: asyncio.Queue, args, port: int, window: Window, rng) -> None:
    compression = "deflate"  # browsers offer it; the server decides
    await asyncio.sleep(rng.uniform(0, args.ramp))  # players arrive over the ramp, not all at once
    while not window.done():
        try:
            table = await asyncio.wait_for(pool.get(), timeout=max(0.1, window.end - time.monotonic()))
        except TimeoutError:
            return
        try:
            finished = await ChalkTable(table, port, window, rng, compression, args.pace).play()
        except (OSError, TimeoutError, InvalidStatus) as failure:  # counted, and tried again
            window.errors[f"connect:{type(failure).__name__}"] += 1
            pool.put_nowait(table)
            await asyncio.sleep(1)
            continue
        if not finished:
            return
        window.finished_matches += 1


async def keep_tables_coming(pool: asyncio.Queue, args, window: Window) -> None:
    """A finished match is replaced by a fresh table: more are made whenever the spares run low,
    so every slot plays for the whole soak (200 tables at a 3 s pace finish a match in ~6 min)."""
    while not window.done():
        if pool.qsize() < max(10, args.tables // 10):
            for table in await asyncio.to_thread(make_tables, args, max(10, args.tables // 4)):
                pool.put_nowait(table)
        await asyncio.sleep(2)


async def soak(args) -> None:
    tables = make_tables(args, args.tables + max(10, args.tables // 5))
    stack = Stack(args)
    samples, pages, stop = [], Counter(), asyncio.Event()
    try:
        pool: asyncio.Queue = asyncio.Queue()
        for table in tables:
            pool.put_nowait(table)
        window = Window(0, args.minutes * 60)
        window.open()
        rng = random.Random(1)
        players = asyncio.gather(*(table_slot(pool, args, stack.port, window, rng) for _ in range(args.tables)))
        browsing = asyncio.ensure_future(page_traffic(args, stack, tables[0]["seats"][0]["cookie"], pages, stop))
        refilling = asyncio.ensure_future(keep_tables_coming(pool, args, window))
        began = time.monotonic()
        while not window.done():
            samples.append(await sample(args, stack, window, pages, began))
            print(json.dumps(samples[-1]), flush=True)
            await asyncio.sleep(min(args.sample, max(0.0, window.end - time.monotonic())))
        window.closed.set()
        stop.set()
        await asyncio.wait_for(players, 60)
        browsing.cancel()
        await refilling
        samples.append(await sample(args, stack, window, pages, began))
        print(json.dumps(summary(samples, stack, window, pages)), flush=True)
    finally:
        stack.stop()
        for line in stack.timing_report():
            print(line, flush=True)
        if args.trace_memory:
            print_memory_growth(stack.var)
        if args.gc_pauses and os.path.exists(stack.gc_pauses):
            print(json.dumps({"gc_pauses": gc_pauses.summary(stack.gc_pauses)}), flush=True)
        servers.cleanup(args, PREFIX)


def print_memory_growth(directory: str, top: int = 25) -> None:
    """What grew between the second and the last probe traced_asgi wrote (--trace-memory): RSS,
    Python's allocated blocks, live objects by type and the watched types."""
    probes = [json.loads(path.read_text()) for path in sorted(Path(directory).glob("types-*.json"))]
    if len(probes) < 3:
        print(json.dumps({"trace_memory": "fewer than 3 probes: run longer"}), flush=True)
        return
    first, last = probes[1], probes[-1]
    grown = {name: count - first["types"].get(name, 0) for name, count in last["types"].items()}
    print(json.dumps({"trace_memory": {
        "directory": directory, "seconds": [first["seconds"], last["seconds"]],
        "rss_mb": [first["rss_mb"], last["rss_mb"]],
        "allocated_blocks": [first["allocated_blocks"], last["allocated_blocks"]],
        "objects": [first["objects"], last["objects"]],
        "watched": [first["watched"], last["watched"]],
        "grown_types": dict(sorted(grown.items(), key=lambda kv: -kv[1])[:top])}}), flush=True)


_sampled = [0]  # how many latencies the previous sample had seen


async def sample(args, stack: Stack, window: Window, pages: Counter, began: float) -> dict:
    recent, _sampled[0] = window.latencies[_sampled[0]:], len(window.latencies)
    ms = lambda value: None if value is None else round(1000 * value, 1)  # noqa: E731
    return {"t_s": round(time.monotonic() - began), "pg_connections": await asyncio.to_thread(pg_connections, args),
            "asgi_rss_mb": rss_mb(stack.web_pid), "moves": len(window.latencies),
            "recent_p50_ms": ms(percentile(recent, 0.5)), "recent_p99_ms": ms(percentile(recent, 0.99)),
            "sockets": window.connected,
            "finished_matches": window.finished_matches, "socket_errors": dict(window.errors),
            "pages": dict(pages)}


def summary(samples: list[dict], stack: Stack, window: Window, pages: Counter) -> dict:
    rss = [s["asgi_rss_mb"] for s in samples]
    connections = [s["pg_connections"] for s in samples]
    latencies = window.latencies
    return {"summary": True, "minutes": round(samples[-1]["t_s"] / 60, 1), "moves": len(latencies),
            "p99_ms": round(1000 * percentile(latencies, 0.99), 1) if latencies else None,
            "socket_errors": dict(window.errors), "pages": dict(pages),
            "page_errors": sum(n for key, n in pages.items() if key.startswith("status_")),
            "tracebacks": stack.tracebacks(), "pg_connections": {"min": min(connections), "max": max(connections)},
            "asgi_rss_mb": {"start": rss[0], "peak": max(rss), "end": rss[-1]},
            "load": os.getloadavg()[0]}


async def socket_cycles(args) -> None:
    """Open and close every seat's socket of the tables, --socket-cycles times; RSS per cycle."""
    tables = make_tables(args, args.tables)
    stack = Stack(args, web_only=True)
    try:
        url = f"ws://{HOST}:{stack.port}"
        origin = f"http://{HOST}:{stack.port}"
        seats = [(table["ws"], seat["cookie"]) for table in tables for seat in table["seats"]]
        print(json.dumps({"cycle": 0, "sockets": 0, "asgi_rss_mb": rss_mb(stack.web_pid)}), flush=True)
        for cycle in range(1, args.socket_cycles + 1):
            sockets = await asyncio.gather(*(connect(url + path, cookie, origin, "deflate") for path, cookie in seats))
            await asyncio.gather(*(ws.recv() for ws in sockets))
            await close_all(sockets)
            await asyncio.sleep(1)
            print(json.dumps({"cycle": cycle, "sockets": len(sockets), "asgi_rss_mb": rss_mb(stack.web_pid),
                              "deflate": args.deflate, "load": os.getloadavg()[0]}), flush=True)
        print(json.dumps({"tracebacks": stack.tracebacks()}), flush=True)
    finally:
        stack.stop()
        servers.cleanup(args, PREFIX)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between moves of a table")
    parser.add_argument("--page-rate", type=float, default=10.0, help="page requests per second")
    parser.add_argument("--clock", type=int, default=60, help="seconds per decision (0: no clocks)")
    parser.add_argument("--timing", action="store_true",
                        help="serve through benchmarks/timed_asgi.py and print ms per move of each step at the end")
    parser.add_argument("--ramp", type=float, default=30.0, help="seconds over which tables connect")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--deflate", action="store_true", help="let uvicorn negotiate permessage-deflate")
    parser.add_argument("--socket-cycles", type=int, default=0, help="measure open/close cycles only")
    parser.add_argument("--trace-memory", type=float, default=0, metavar="SECONDS",
                        help="serve through benchmarks/traced_asgi.py, a memory probe every SECONDS; print what grew")
    parser.add_argument("--gc-pauses", action="store_true",
                        help="serve through benchmarks/gc_paused_asgi.py; print the collector's pauses per generation")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL))
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", DEFAULT_REDIS_URL))
    args = parser.parse_args()
    check_loopback(args.database_url, "DATABASE_URL")
    check_loopback(args.redis_url, "REDIS_URL")
    ensure_database(args)
    asyncio.run(socket_cycles(args) if args.socket_cycles else soak(args))


if __name__ == "__main__":
    main()
