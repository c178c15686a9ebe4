"""The one load client of the benchmarks (live_load.py, pages.py, soak.py, cluster.py): players on
websockets and readers of pages over HTTP, on asyncio in the benchmark's own process, and the
figures they measure. The servers they load are started by servers.py.

Players (Chalk's table protocol, docs/live-protocol.md):
- `ChalkTable`: the 4 seat sockets of one match (session cookie + Origin). On a `state` with
  non-empty `legal` a seat sends an `act` with a random legal action, at once or, with a pace,
  one move of the table every `pace` seconds; the latency counted is `act` -> its `ack`.
  `chalk_slot` plays tables from a queue, taking a spare one when a match ends.
- `bare_table`: the 4 sockets of a table of benchmarks/fanout_asgi.py acting in turn, each on the
  previous move's frame; the latency is `act` -> the sender's own copy of the frame.
- `Window` counts what completes between the end of the warm-up and the end of the window;
  `measure` runs the players over it and returns the CPU shares of the server and the clients.

Pages (raw HTTP/1.1, so the client costs little next to the server):
- `page_load`: `clients` keep-alive connections fetching one page in a loop for warm-up +
  seconds; requests/s, p50, p99, errors by status and the server's CPU share.
- `get`: one request on a connection of its own (redirects followed), its final status.

Loopback only: every socket goes to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter

from benchmarks.servers import HOST, log

CONNECT_TIMEOUT = 30
CONNECT_ALL_TIMEOUT = 300
STOP_TIMEOUT = 10
REDIRECTS = (301, 302, 303, 307, 308)


# ----- figures ---------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float | None, digits: int = 2) -> float | None:
    return None if seconds is None else round(seconds * 1000, digits)


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


def figures(mode: str, tables: int, window: Window, seconds: float, server_cpu: float, client_cpu: float,
            run: int, **extra) -> dict:
    """One measurement of players as a JSON-able line: moves/s and the latency percentiles."""
    lat = window.latencies
    return {"mode": mode, "run": run, "tables": tables, "moves": len(lat), "seconds": seconds,
            "moves_per_s": round(len(lat) / seconds, 1), "p50_ms": ms(percentile(lat, 0.50)),
            "p99_ms": ms(percentile(lat, 0.99)), "max_ms": ms(max(lat) if lat else None),
            "errors": dict(window.errors), "server_cpu": round(server_cpu, 2), "client_cpu": round(client_cpu, 2),
            **extra}


async def measure(window: Window, server, play, sockets: int, on_open=None) -> tuple[float, float]:
    """Run `play` until the window ends; CPU shares of server (anything with `cpu_seconds()`)
    and clients (this process) over the window."""
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


# ----- websockets ------------------------------------------------------------------------------

async def connect(url: str, cookie: str | None, origin: str, compression):
    from websockets.asyncio.client import connect as ws_connect

    headers = {"Cookie": cookie} if cookie else None
    return await ws_connect(url, origin=origin, additional_headers=headers, compression=compression,
                            open_timeout=CONNECT_TIMEOUT, ping_interval=None, max_size=None, proxy=None,
                            close_timeout=2)


async def close_all(sockets) -> None:
    await asyncio.gather(*(asyncio.wait_for(ws.close(), 3) for ws in sockets), return_exceptions=True)


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


async def bare_table(number: int, port: int, window: Window) -> None:
    """Table `number` of benchmarks/fanout_asgi.py: 4 sockets acting in turn until the window closes."""
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


# ----- pages -----------------------------------------------------------------------------------

def request_of(page, close: bool = False) -> bytes:
    """A page is a path, or (path, cookie) for a signed-in visitor."""
    path, cookie = page if isinstance(page, tuple) else (page, None)
    cookie_line = f"Cookie: {cookie}\r\n" if cookie else ""
    close_line = "Connection: close\r\n" if close else ""
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept-Language: en\r\n{cookie_line}{close_line}\r\n".encode()


async def response(reader) -> tuple[int, dict]:
    """Status and headers of one response; its body is read and dropped."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
            await reader.readexactly(size + 2)
        await reader.readuntil(b"\r\n")
    elif headers.get("connection", "").lower() == "close":
        await reader.read()
    return int(lines[0].split()[1]), headers


async def fetch(reader, writer, request: bytes) -> int:
    """One request on a keep-alive connection; the status code (the body is read and dropped)."""
    writer.write(request)
    return (await response(reader))[0]


async def page_client(port: int, page, stop_at: float, start_at: float, latencies: list, errors: list) -> None:
    """Fetches `page` on one keep-alive connection until `stop_at`; counts requests begun after `start_at`."""
    reader, writer = await asyncio.open_connection(HOST, port)
    request = request_of(page)
    try:
        while (now := time.monotonic()) < stop_at:
            status = await fetch(reader, writer, request)
            if now >= start_at:
                (latencies.append(time.monotonic() - now) if status == 200 else errors.append(status))
    finally:
        writer.close()


async def page_load(server, page, clients: int, warmup: float, seconds: float) -> dict:
    """`clients` connections fetching `page` for warm-up + seconds: requests/s over the window,
    p50/p99 in ms, errors by status, the server's CPU share over warm-up and window."""
    latencies, errors = [], []
    start_at = time.monotonic() + warmup
    stop_at = start_at + seconds
    cpu_before = server.cpu_seconds() + 0.0
    await asyncio.gather(*(page_client(server.port, page, stop_at, start_at, latencies, errors)
                           for _ in range(clients)))
    cpu = (server.cpu_seconds() - cpu_before) / (warmup + seconds)
    return {"requests": len(latencies), "rps": round(len(latencies) / seconds, 1),
            "p50_ms": ms(percentile(latencies, 0.5), 1), "p99_ms": ms(percentile(latencies, 0.99), 1),
            "errors": dict(Counter(errors)), "server_cpu": round(cpu, 2)}


async def get(port: int, path: str, cookie: str | None = None, timeout: float = 30, redirects: int = 5) -> int:
    """One GET on a connection of its own, following redirects on this server; the final
    status, 0 when the server did not answer in `timeout` seconds."""

    async def once(target: str) -> tuple[int, dict]:
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            writer.write(request_of((target, cookie), close=True))
            return await response(reader)
        finally:
            writer.close()

    try:
        async with asyncio.timeout(timeout):
            status, headers = await once(path)
            for _ in range(redirects):
                location = headers.get("location", "").removeprefix(f"http://{HOST}:{port}")
                if status not in REDIRECTS or not location.startswith("/"):
                    break
                status, headers = await once(location)
            return status
    except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError):
        return 0
