"""Live play under load: Chalk's full websocket path against a bare Channels fan-out, same run.

    .venv/bin/python benchmarks/live_load.py [--mode all|full|bare|pace] [--tables 50]
        [--seconds 20] [--warmup 5] [--pace-tables 200] [--pace-seconds 30] [--repeat 2]
        [--profile var/bench/live.pyspy]

Needs PostgreSQL and Redis running on this machine: DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/chalk_bench, created and migrated if missing) and REDIS_URL
(default redis://127.0.0.1:6379/3). The script starts everything else itself and stops by itself:

- each server is `uvicorn` in a subprocess pinned to ONE core (--server-core, default 1), with
  production settings (DEBUG=0, LOG_LEVEL=WARNING, no Celery worker: tables have no clock and no
  bots); this process, the load clients, pins itself to the other core (--client-core);
- **full**: `manage.py make_tables --bots 0` makes All Fours tables (plus spares); 4 websocket
  clients per table, each with its seat's session cookie and an Origin header, play as fast as
  they can: on a `state` with non-empty `legal` the seat sends an `act` with a random legal
  action. A finished match is replaced by a spare table. Measured: accepted moves/s and the
  latency from `act` to its `ack`;
- **bare**: benchmarks/fanout_asgi.py, a consumer that `group_send`s each message to the 4
  sockets of its table over the same RedisPubSubChannelLayer; the 4 clients of a table act in
  turn (seat order), each on the previous move's frame. Measured: moves/s and act -> own echo;
- **pace**: the full path at a human pace, --pace-tables tables each making one move every
  --pace-interval seconds (staggered); p50/p99 act -> ack is what counts (target p99 <= 30 ms).

Prints one JSON line per measurement (mode, tables, moves, seconds, moves_per_s, p50_ms, p99_ms,
plus errors and the CPU share of the server process and of the clients over the window: a
client_cpu near 1.0 means the load generator, not the server, was the limit), then a summary
line per mode (best and spread over --repeat runs) and the ratio full/bare (target >= 0.70).
Loopback only: every socket goes to 127.0.0.1. With --profile, py-spy (PY_SPY or on PATH)
samples the server during one extra full-mode window and a breakdown by phase is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"  # loopback only: nothing here ever connects elsewhere
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/chalk_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/3"
PREFIX = "lt"
MOVES_PER_MATCH = 165  # All Fours to 14 with random play: about 165 moves a match, at least 100
CONNECT_TIMEOUT = 30
CONNECT_ALL_TIMEOUT = 300
STOP_TIMEOUT = 10


def log(*parts) -> None:
    print(*parts, file=sys.stderr, flush=True)


# ----- environment: database, servers ----------------------------------------------------------

def server_env(args) -> dict:
    env = dict(os.environ)
    env.update({
        "DATABASE_URL": args.database_url, "REDIS_URL": args.redis_url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0", "SECRET_KEY": env.get("SECRET_KEY") or "live-load-benchmark-not-a-secret",
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0",
        "CELERY_TASK_ALWAYS_EAGER": "0", "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1",
    })
    if getattr(args, "cprofile", None):
        env["CHALK_CPROFILE"] = str(Path(args.cprofile).resolve())
    for name in ("PYTEST_VERSION", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env.pop(name, None)
    return env


def check_loopback(url: str, what: str) -> None:
    host = urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"{what} must point at this machine (127.0.0.1), not {host!r}")


def ensure_database(args) -> None:
    import psycopg

    parts = urlsplit(args.database_url)
    name = parts.path.lstrip("/")
    admin_url = urlunsplit(("postgresql", parts.netloc, "/postgres", parts.query, ""))
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            log(f"creating database {name}")
            conn.execute(f'CREATE DATABASE "{name}"')
    manage(args, "migrate", "--noinput", quiet=True)


def manage(args, *argv, quiet=False) -> str:
    result = subprocess.run([sys.executable, str(ROOT / "manage.py"), *argv], cwd=ROOT, env=server_env(args),
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(argv)} failed:\n{result.stderr[-3000:]}")
    return "" if quiet else result.stdout


def cleanup(args) -> None:
    """Delete the lt- tables. Migrates first: others may add models to this checkout meanwhile,
    and deleting the users cascades into their tables."""
    try:
        manage(args, "migrate", "--noinput", quiet=True)
        manage(args, "make_tables", "--cleanup", "--prefix", PREFIX, quiet=True)
    except SystemExit as failure:  # the figures still count; the next run cleans up again
        log(f"warning: cleanup failed, lt- tables left in the database: {str(failure)[-300:]}")


def make_tables(args, count: int) -> list[dict]:
    """`count` started All Fours tables; made by a few processes at once (they wait on fsync)."""
    if count <= 0:
        return []
    workers = min(4, count)
    shares = [count // workers + (1 if i < count % workers else 0) for i in range(workers)]
    command = [sys.executable, str(ROOT / "manage.py"), "make_tables", "--game", "allfours", "--bots", "0",
               "--prefix", PREFIX, "--options", args.options]
    procs = [subprocess.Popen([*command, "--tables", str(n)], cwd=ROOT, env=server_env(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in shares]
    tables = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        if proc.returncode != 0:
            raise SystemExit(f"make_tables failed:\n{err[-3000:]}")
        tables += json.loads(out)["tables"]
    return tables


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Server:
    """uvicorn in a subprocess on one core (`args.server_core`; None: any core, as benchmarks/cluster.py
    runs several); stderr kept in a temp file for when it fails."""

    def __init__(self, args, app: str):
        self.port = free_port()
        self.errors = tempfile.TemporaryFile(mode="w+")
        core = args.server_core
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", app, "--host", HOST, "--port", str(self.port),
             "--log-level", "warning", "--no-access-log", "--no-server-header", "--timeout-graceful-shutdown", "3",
             # as production serves (Procfile): per-socket compression state grew the process
             *([] if args.server_compression else ["--ws-per-message-deflate", "false"])],
            cwd=ROOT, env=server_env(args), stdout=self.errors, stderr=self.errors,
            preexec_fn=None if core is None else lambda: os.sched_setaffinity(0, {core}))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"server {app} exited:\n{self.log_tail()}")
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise SystemExit(f"server {app} did not start in 60 s:\n{self.log_tail()}")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def log_tail(self, limit: int | None = 3000) -> str:
        self.errors.seek(0)
        text = self.errors.read()
        return text if limit is None else text[-limit:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(STOP_TIMEOUT)


# ----- measuring -------------------------------------------------------------------------------

class Window:
    """Counts moves and latencies that complete between `start` and `end` (monotonic seconds).

    The window opens (warm-up first) once every socket of the starting tables is connected: 800
    sockets take Chalk a while to authenticate, and connecting is not what is measured."""

    def __init__(self, warmup: float, seconds: float):
        self.warmup, self.seconds = warmup, seconds
        self.start = self.end = float("inf")
        self.closed = asyncio.Event()
        self.connected = 0
        self.latencies: list[float] = []
        self.errors: Counter = Counter()
        self.finished_matches = 0
        self.idle_slots = 0

    def open(self) -> None:
        self.start = time.monotonic() + self.warmup
        self.end = self.start + self.seconds

    def done(self) -> bool:
        return time.monotonic() >= self.end

    def record(self, sent: float) -> None:
        now = time.monotonic()
        if self.start <= now < self.end:
            self.latencies.append(now - sent)

    def error(self, code: str) -> None:
        if self.start <= time.monotonic() < self.end:
            self.errors[code] += 1


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def figures(mode: str, tables: int, window: Window, seconds: float, server_cpu: float, client_cpu: float,
            run: int, **extra) -> dict:
    lat = window.latencies
    ms = lambda value: None if value is None else round(value * 1000, 2)  # noqa: E731
    return {"mode": mode, "run": run, "tables": tables, "moves": len(lat), "seconds": seconds,
            "moves_per_s": round(len(lat) / seconds, 1), "p50_ms": ms(percentile(lat, 0.50)),
            "p99_ms": ms(percentile(lat, 0.99)), "max_ms": ms(max(lat) if lat else None),
            "errors": dict(window.errors), "server_cpu": round(server_cpu, 2), "client_cpu": round(client_cpu, 2),
            **extra}


async def connect(url: str, cookie: str | None, origin: str, compression):
    from websockets.asyncio.client import connect as ws_connect

    headers = {"Cookie": cookie} if cookie else None
    return await ws_connect(url, origin=origin, additional_headers=headers, compression=compression,
                            open_timeout=CONNECT_TIMEOUT, ping_interval=None, max_size=None, proxy=None,
                            close_timeout=2)


async def close_all(sockets) -> None:
    await asyncio.gather(*(asyncio.wait_for(ws.close(), 3) for ws in sockets), return_exceptions=True)


async def measure(window: Window, server: Server, play, sockets: int, on_open=None) -> tuple[float, float]:
    """Run `play` until the window ends; CPU shares of server and clients over the window."""
    task = asyncio.ensure_future(play)
    began = time.monotonic()
    while window.connected < sockets and time.monotonic() - began < CONNECT_ALL_TIMEOUT and not task.done():
        await asyncio.sleep(0.1)
    log(f"  {window.connected} sockets connected in {time.monotonic() - began:.1f} s")
    window.open()
    if on_open:
        on_open()
    await asyncio.sleep(max(0.0, window.start - time.monotonic()))
    s0, c0, t0 = server.cpu_seconds(), time.process_time(), time.monotonic()
    await asyncio.sleep(max(0.0, window.end - time.monotonic()))
    s1, c1, t1 = server.cpu_seconds(), time.process_time(), time.monotonic()
    window.closed.set()
    try:
        await asyncio.wait_for(task, STOP_TIMEOUT + CONNECT_TIMEOUT)
    except asyncio.TimeoutError:
        log("warning: clients did not stop in time")
    return (s1 - s0) / (t1 - t0), (c1 - c0) / (t1 - t0)


# ----- Chalk's full path -----------------------------------------------------------------------

class ChalkTable:
    """The 4 seat clients of one match; returns when the match ends or the window does."""

    def __init__(self, table: dict, port: int, window: Window, rng: random.Random, compression,
                 pace: float | None = None):
        self.table, self.port, self.window, self.rng = table, port, window, rng
        self.compression, self.pace = compression, pace
        self.finished = asyncio.Event()
        self.next_at = time.monotonic() + (rng.uniform(0, pace) if pace else 0)
        self.acted_seq = {}  # seat -> last seq this seat acted on
        self.sent = {}  # ref -> send time

    async def play(self) -> bool:
        """True when the match finished (the slot takes a new table)."""
        url = f"ws://{HOST}:{self.port}{self.table['ws']}"
        origin = f"http://{HOST}:{self.port}"
        sockets = await asyncio.gather(*(connect(url, seat["cookie"], origin, self.compression)
                                         for seat in self.table["seats"]))
        self.window.connected += len(sockets)
        try:
            readers = [asyncio.ensure_future(self.read(ws, seat["seat"])) for ws, seat in zip(sockets, self.table["seats"])]
            stop = asyncio.ensure_future(self.window.closed.wait())
            finished = asyncio.ensure_future(self.finished.wait())
            await asyncio.wait([stop, finished, *readers], return_when=asyncio.FIRST_COMPLETED)
            for task in (stop, finished, *readers):
                task.cancel()
            return self.finished.is_set()
        finally:
            await close_all(sockets)

    async def read(self, ws, seat: int) -> None:
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "state":
                if message["status"] != "playing":
                    self.finished.set()
                    return
                if message["legal"] and message["seq"] > self.acted_seq.get(seat, -1):
                    self.acted_seq[seat] = message["seq"]
                    if self.pace:
                        asyncio.ensure_future(self.act_later(ws, message))
                    else:
                        await self.act(ws, message)
            elif kind == "ack":
                sent = self.sent.pop(message["ref"], None)
                if sent is not None:
                    self.window.record(sent)
            elif kind == "error":
                self.sent.pop(message.get("ref"), None)
                self.window.error(message["code"])
                if message["code"] == "finished":
                    self.finished.set()
                    return

    async def act(self, ws, state: dict) -> None:
        if self.window.done():
            return
        ref = f"{state['match']}-{state['seq']}-{state['seat']}-{self.rng.randrange(10**9)}"
        action = self.rng.choice(state["legal"])
        self.sent[ref] = time.monotonic()
        await ws.send(json.dumps({"type": "act", "ref": ref, "seq": state["seq"], "action": action}))

    async def act_later(self, ws, state: dict) -> None:
        delay = self.next_at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        self.next_at = time.monotonic() + self.pace
        try:
            await self.act(ws, state)
        except Exception:  # the socket closed as the window ended
            pass


async def chalk_slot(pool: asyncio.Queue, port: int, window: Window, rng, compression, pace) -> None:
    """One table position: plays a match, and when it finishes takes a spare table."""
    while not window.done():
        try:
            table = pool.get_nowait()
        except asyncio.QueueEmpty:
            window.idle_slots += 1
            return
        if not await ChalkTable(table, port, window, rng, compression, pace).play():
            return
        window.finished_matches += 1


async def run_chalk(args, mode: str, tables: int, seconds: float, warmup: float, pace: float | None,
                    run: int, profile: str | None = None) -> dict:
    # A slot finishes a match every MOVES_PER_MATCH moves or so (100 at the least); the full path
    # cannot beat the bare fan-out, so a bare run of this invocation bounds how many spares it needs.
    spares = args.spares if args.spares is not None else (
        max(2, tables // 10) if pace else int(args.rate_bound * (warmup + seconds) / 100) + 10)
    log(f"[{mode} #{run}] making {tables} + {spares} tables ...")
    made = make_tables(args, tables + spares)
    app = ("benchmarks.timed_asgi:application" if args.timing else
           "benchmarks.profiled_asgi:application" if args.cprofile else "config.asgi:application")
    server = Server(args, app)
    try:
        pool: asyncio.Queue = asyncio.Queue()
        for table in made:
            pool.put_nowait(table)
        window = Window(warmup, seconds)
        rng = random.Random(args.seed + run)
        compression = None if args.no_compression else "deflate"
        slots = asyncio.gather(*(chalk_slot(pool, server.port, window, rng, compression, pace)
                                 for _ in range(tables)))
        log(f"[{mode} #{run}] {tables} tables x 4 sockets, warm-up {warmup:g} s, window {seconds:g} s")
        spy = {}
        on_open = (lambda: start_profiler(args, server, window, profile, spy)) if profile else None
        server_cpu, client_cpu = await measure(window, server, slots, 4 * tables, on_open)
        if "proc" in spy:
            spy["proc"].wait(timeout=seconds + 30)
        return figures(mode, tables, window, seconds, server_cpu, client_cpu, run,
                       finished_matches=window.finished_matches, idle_slots=window.idle_slots,
                       **({"pace_interval_s": pace} if pace else {}))
    finally:
        server.stop()
        if args.timing:
            if "cprofile" in os.environ.get("CHALK_BENCH_PATCHES", ""):
                Path(args.timing_log).parent.mkdir(parents=True, exist_ok=True)
                Path(args.timing_log).write_text(server.log_tail(limit=None))
            for line in server.log_tail().splitlines():
                if line.startswith('{"timing_moves"'):
                    print(json.dumps({"timing": mode, "run": run, **json.loads(line)}), flush=True)
        cleanup(args)


# ----- the bare fan-out baseline ---------------------------------------------------------------

async def bare_table(number: int, port: int, window: Window) -> None:
    url = f"ws://{HOST}:{port}/ws/fanout/{number}/"
    origin = f"http://{HOST}:{port}"
    sockets = await asyncio.gather(*(connect(url, None, origin, "deflate") for _ in range(4)))
    window.connected += len(sockets)
    sent = {}

    async def read(ws, seat: int) -> None:
        async for raw in ws:
            frame = json.loads(raw)
            if frame["seat"] == seat:
                window.record(sent.pop(frame["seq"]))
            if (frame["seat"] + 1) % 4 == seat and not window.done():
                await send(ws, seat, frame["seq"] + 1)

    async def send(ws, seat: int, seq: int) -> None:
        sent[seq] = time.monotonic()
        await ws.send(json.dumps({"type": "act", "ref": f"b-{number}-{seq}", "seq": seq, "seat": seat,
                                  "action": {"type": "play", "card": "AS"}}))

    try:
        readers = [asyncio.ensure_future(read(ws, seat)) for seat, ws in enumerate(sockets)]
        await send(sockets[0], 0, 0)
        closed = asyncio.ensure_future(window.closed.wait())
        await asyncio.wait([closed, *readers], return_when=asyncio.FIRST_COMPLETED)
        for task in (closed, *readers):
            task.cancel()
    finally:
        await close_all(sockets)


async def run_bare(args, tables: int, seconds: float, warmup: float, run: int) -> dict:
    server = Server(args, "benchmarks.fanout_asgi:application")
    try:
        window = Window(warmup, seconds)
        log(f"[bare #{run}] {tables} tables x 4 sockets, warm-up {warmup:g} s, window {seconds:g} s")
        play = asyncio.gather(*(bare_table(n, server.port, window) for n in range(tables)))
        server_cpu, client_cpu = await measure(window, server, play, 4 * tables)
        return figures("bare", tables, window, seconds, server_cpu, client_cpu, run)
    finally:
        server.stop()


# ----- profiling (py-spy) -----------------------------------------------------------------------

PHASES = [
    # (label, any of these frame substrings) - inclusive share of the server's samples
    ("services.act (whole move, its database thread incl.)", ["act (gameplay/services/moves.py"]),
    ("  take: the locked transaction", ["take (gameplay/services/moves.py"]),
    ("  live_table (cache check / replay)", ["live_table (gameplay/services/tables.py"]),
    ("  engine apply (table.apply)", ["apply (gameplay/table.py"]),
    ("  MatchAction INSERT", ["create (django/db/models/query.py"]),
    ("  record: Match UPDATE", ["record (gameplay/services/writes.py"]),
    ("  state_messages (5 views)", ["state_messages (gameplay/services/states.py"]),
    ("  commit", ["commit (django/db/backends/base/base.py", "commit (psycopg/connection.py"]),
    ("  broadcast (on_commit -> group_send wait)", ["broadcast (gameplay/services/aftermath.py"]),
    ("  follow_up", ["follow_up (gameplay/services/aftermath.py"]),
    ("channel layer (msgpack, redis)", ["channels_redis/"]),
    ("  msgpack", ["msgpack", "serialize (channels_redis", "deserialize (channels_redis"]),
    ("match_update (forward own view)", ["match_update (gameplay/consumers.py"]),
    ("send_json / json encode", ["send_json (channels/generic/websocket.py"]),
    ("websocket protocol (uvicorn/websockets)", ["uvicorn/protocols/websockets", "websockets/"]),
    ("  permessage-deflate", ["permessage_deflate"]),
    ("asgiref sync_to_async plumbing", ["asgiref/sync.py"]),
    ("event loop idle (select/epoll)", ["select (selectors.py", "run_forever (asyncio/base_events.py"]),
]


def start_profiler(args, server: Server, window: Window, path: str, holder: dict) -> None:
    """Starts py-spy on the server when the warm-up ends; puts its process in holder["proc"]."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)

    def launch():
        holder["proc"] = subprocess.Popen(
            [args.py_spy, "record", "--pid", str(server.proc.pid), "--duration", str(int(window.end - window.start)),
             "--rate", "200", "--format", "raw", "--threads", "--nonblocking", "--output", path]
            + (["--gil"] if os.environ.get("PY_SPY_GIL") else []),  # only the thread holding the GIL: CPU
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    asyncio.get_running_loop().call_later(max(0.0, window.start - time.monotonic()), launch)


def summarise_profile(path: str) -> list[str]:
    stacks = []
    for line in Path(path).read_text().splitlines():
        frames, _, count = line.rpartition(" ")
        if frames and count.isdigit():
            stacks.append((frames, int(count)))
    total = sum(count for _, count in stacks) or 1
    threads = Counter()
    for frames, count in stacks:
        threads[frames.split(";", 1)[0]] += count
    lines = [f"py-spy: {total} samples (busy threads only) in {path}"]
    lines += [f"  thread {name}: {100 * count / total:.1f}%" for name, count in threads.most_common(6)]
    for label, needles in PHASES:
        share = sum(count for frames, count in stacks if any(n in frames for n in needles))
        lines.append(f"{100 * share / total:6.1f}%  {label}")
    leaves = Counter()
    for frames, count in stacks:
        leaves[frames.rsplit(";", 1)[-1]] += count
    lines.append("top leaf frames:")
    lines += [f"{100 * count / total:6.1f}%  {leaf}" for leaf, count in leaves.most_common(15)]
    return lines


# ----- main ------------------------------------------------------------------------------------

def summary(results: list[dict], mode: str) -> dict | None:
    runs = [r for r in results if r["mode"] == mode]
    if not runs:
        return None
    rates = [r["moves_per_s"] for r in runs]
    p99s = [r["p99_ms"] for r in runs if r["p99_ms"] is not None]
    return {"summary": mode, "runs": len(runs), "best_moves_per_s": max(rates), "worst_moves_per_s": min(rates),
            "spread_pct": round(100 * (max(rates) - min(rates)) / max(max(rates), 1e-9), 1),
            "best_p99_ms": min(p99s) if p99s else None, "worst_p99_ms": max(p99s) if p99s else None,
            "best_p50_ms": min((r["p50_ms"] for r in runs if r["p50_ms"] is not None), default=None)}


async def main_async(args) -> None:
    results = []
    modes = ["bare", "full", "pace"] if args.mode == "all" else [args.mode]
    for run in range(1, args.repeat + 1):
        for mode in modes:
            if mode == "bare":
                result = await run_bare(args, args.tables, args.seconds, args.warmup, run)
                args.rate_bound = min(args.rate_bound, 1.2 * result["moves_per_s"] + 50)
            elif mode == "full":
                result = await run_chalk(args, "full", args.tables, args.seconds, args.warmup, None, run)
            else:
                result = await run_chalk(args, "pace", args.pace_tables, args.pace_seconds, args.pace_warmup,
                                         args.pace_interval, run)
            result["load"] = os.getloadavg()[0]
            results.append(result)
            print(json.dumps(result), flush=True)
    if args.profile:
        result = await run_chalk(args, "full", args.tables, args.seconds, args.warmup, None, 0, profile=args.profile)
        result["profiled"] = True
        print(json.dumps(result), flush=True)
        for line in summarise_profile(args.profile):
            print(line, flush=True)
    for mode in ("bare", "full", "pace"):
        line = summary(results, mode)
        if line:
            print(json.dumps(line), flush=True)
    full, bare = summary(results, "full"), summary(results, "bare")
    if full and bare:
        ratios = [f["moves_per_s"] / b["moves_per_s"] for f in results if f["mode"] == "full"
                  for b in results if b["mode"] == "bare" and b["run"] == f["run"] and b["moves_per_s"]]
        print(json.dumps({"ratio_full_over_bare": round(full["best_moves_per_s"] / bare["best_moves_per_s"], 3),
                          "per_run": [round(r, 3) for r in ratios], "target": 0.70}), flush=True)
    pace = summary(results, "pace")
    if pace:
        print(json.dumps({"pace_p99_ms": pace["best_p99_ms"], "worst": pace["worst_p99_ms"], "target_ms": 30,
                          "tables": args.pace_tables}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["all", "full", "bare", "pace"], default="all")
    parser.add_argument("--tables", type=int, default=50, help="tables played flat out (full, bare)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window (full, bare)")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--pace-tables", type=int, default=200)
    parser.add_argument("--pace-seconds", type=float, default=30.0)
    parser.add_argument("--pace-warmup", type=float, default=4.0)
    parser.add_argument("--pace-interval", type=float, default=2.0, help="seconds between moves of a table")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each mode (noisy machine)")
    parser.add_argument("--spares", type=int, default=None, help="extra tables for finished matches")
    parser.add_argument("--options", default="{}", help="All Fours options for make_tables (JSON)")
    parser.add_argument("--server-core", type=int, default=1)
    parser.add_argument("--client-core", type=int, default=0)
    parser.add_argument("--no-compression", action="store_true", help="no permessage-deflate (browsers use it)")
    parser.add_argument("--server-compression", action="store_true",
                        help="let uvicorn accept permessage-deflate (production does not: Procfile)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timing", action="store_true",
                        help="serve Chalk through benchmarks/timed_asgi.py and print ms per move per step")
    parser.add_argument("--timing-log", default="var/bench/timed_server.log",
                        help="where the timed server's stderr goes with CHALK_BENCH_PATCHES=cprofile")
    parser.add_argument("--profile", metavar="PATH", help="py-spy raw profile of one extra full window")
    parser.add_argument("--py-spy", default=os.environ.get("PY_SPY", "py-spy"))
    parser.add_argument("--cprofile", metavar="PATH", help="serve Chalk under cProfile (benchmarks/profiled_asgi.py), "
                        "stats written to PATH when the server stops")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL))
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", DEFAULT_REDIS_URL))
    args = parser.parse_args()
    # moves/s no run here exceeds, for the number of spare tables (a match is ~130 moves); lowered
    # after a bare run. At 600 the full path (1,100+ moves/s on an idle machine) ran out of spares
    # mid-window and the slots left idle lowered its figure.
    args.rate_bound = 3000.0
    check_loopback(args.database_url, "DATABASE_URL")
    check_loopback(args.redis_url, "REDIS_URL")
    if args.server_core == args.client_core or not {args.server_core, args.client_core} <= os.sched_getaffinity(0):
        raise SystemExit("--server-core and --client-core must be two different cores of this machine")
    os.sched_setaffinity(0, {args.client_core})
    ensure_database(args)
    cleanup(args)  # leftovers of a killed run
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        asyncio.run(main_async(args))
    finally:
        cleanup(args)


if __name__ == "__main__":
    main()
