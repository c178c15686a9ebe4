"""One ASGI process against two, behind the load balancer of docs/deploying.md, same machine.

    .venv/bin/python benchmarks/cluster.py [--processes 1,2] [--tables 20] [--seconds 10] [--warmup 3]
                                           [--spread]

Needs HAProxy (`apt-get install haproxy`) and PostgreSQL on this machine: DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/chalk_cluster, created and migrated if missing). Redis: an
embedded redis-server of this run's own (config/embedded_redis.py), unless --redis-url is given:
the channel layer's pub/sub names are global to a Redis server, so a shared one would carry
another run's frames to these sockets when match ids meet.

For each process count: the HAProxy configuration in docs/deploying.md (the ```haproxy block,
read from the file, so what is measured is what is documented) with its `bind` lines replaced by
one plain-HTTP port on 127.0.0.1, its `server` lines by the uvicorn processes started for the
run (production settings, benchmarks/servers.py's `chalk_server` as live_load.py starts them, on
no fixed core), without its TLS rules and logging. Then the full-path client of
benchmarks/load_client.py, the one live_load.py uses (tables from `make_tables`, 4 seat sockets a
table playing as fast as they can, a finished match replaced by a spare), plays through the balancer, and one JSON line per run gives moves/s and the p50/p99 from
act to ack, plus the servers' CPU (summed: up to 2.0 with two processes). The last line is the
ratio of two processes' moves/s to one's. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import servers as bench_servers  # noqa: E402
from benchmarks.load_client import Window, chalk_slot, figures, measure  # noqa: E402  (the one load client)
from benchmarks.servers import HOST, Servers, check_loopback, ensure_database, free_port, log  # noqa: E402

PREFIX = "lt"  # the tables live_load makes (its database is another one by default)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/chalk_cluster"
DEPLOYING = ROOT / "docs" / "deploying.md"
HEALTHY_TIMEOUT = 60


# ----- the load balancer -----------------------------------------------------------------------

def documented_config(path: Path = DEPLOYING) -> str:
    blocks = re.findall(r"```haproxy\n(.*?)```", path.read_text(), flags=re.S)
    if len(blocks) != 1:
        raise SystemExit(f"{path} must hold exactly one ```haproxy block, found {len(blocks)}")
    return blocks[0]


def local_config(config: str, port: int, backends: list[int], spread: bool = False) -> str:
    """The documented configuration on this machine: plain HTTP on `port`, the given uvicorn
    ports as each backend's servers (with the options of the backend's first documented server,
    its name replaced: `track chalk_web/web1` becomes `track chalk_web/web2` for the second), no
    TLS rules, no logging (a log line per request is load of its own). `spread`: without the table
    affinity (`use_backend`), so a table's sockets land on any process."""
    out: list[str] = []
    bound = placed = False
    in_servers = False
    for line in config.splitlines():
        words = line.split()
        word = words[0] if words else ""
        if word == "bind":
            if not bound:
                out.append(f"    bind {HOST}:{port}")
                bound = True
            continue
        dropped = "ssl_fc" in line or word == "log" or words[:2] == ["option", "httplog"]
        if dropped or (spread and word == "use_backend"):
            continue
        if word == "server":
            if not in_servers:  # the backend's first server line: one line per local process
                name, options = words[1], " ".join(words[3:]).split("#")[0].strip()
                for n, backend in enumerate(backends, start=1):
                    mine = re.sub(rf"\b{re.escape(name)}\b", f"web{n}", options)
                    out.append(f"    server web{n} {HOST}:{backend} {mine}".rstrip())
                placed = in_servers = True
            continue
        in_servers = False
        out.append(line.replace("chalk.example.com", HOST))
    if not (bound and placed):
        raise SystemExit("the documented configuration has no bind or no server line")
    return "\n".join(out) + "\n"


class Balancer:
    """HAProxy in the foreground (-db) on the local configuration; output kept for when it fails."""

    def __init__(self, haproxy: str, config: str, port: int):
        self.port = port
        self.file = tempfile.NamedTemporaryFile("w", suffix=".cfg", prefix="chalk-haproxy-")
        self.file.write(config)
        self.file.flush()
        check = subprocess.run([haproxy, "-c", "-f", self.file.name], capture_output=True, text=True)
        if check.returncode != 0:
            raise SystemExit(f"haproxy rejects the configuration:\n{check.stdout}{check.stderr}\n{config}")
        self.output = tempfile.TemporaryFile("w+")
        self.proc = subprocess.Popen([haproxy, "-db", "-f", self.file.name], stdout=self.output,
                                     stderr=subprocess.STDOUT)

    def wait_healthy(self) -> None:
        """Until /healthz answers 200 through the balancer (a backend is up and checked)."""
        deadline = time.monotonic() + HEALTHY_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                with urlopen(f"http://{HOST}:{self.port}/healthz", timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.3)
        self.stop()
        self.output.seek(0)
        raise SystemExit(f"no healthy answer through haproxy (exit code {self.proc.returncode}):\n"
                         f"{self.output.read()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.file.close()


def make_tables(args, count: int) -> list[dict]:
    return bench_servers.make_tables(args, count, PREFIX, "--options", args.options)


def cleanup(args) -> None:
    bench_servers.cleanup(args, PREFIX)


# ----- one run ---------------------------------------------------------------------------------

async def run_cluster(args, processes: int) -> dict:
    mode = f"cluster-{processes}" + ("-spread" if args.spread else "")
    log(f"[{mode}] making {args.tables} + {args.spares} tables ...")
    made = make_tables(args, args.tables + args.spares)
    args.server_core = None  # the processes share the machine's cores
    servers = Servers([])
    balancer = None
    try:
        for _ in range(processes):
            servers.servers.append(bench_servers.chalk_server(args))
        port = free_port()
        config = local_config(documented_config(), port, [s.port for s in servers.servers], args.spread)
        balancer = Balancer(args.haproxy, config, port)
        balancer.wait_healthy()
        pool: asyncio.Queue = asyncio.Queue()
        for table in made:
            pool.put_nowait(table)
        window = Window(args.warmup, args.seconds)
        rng = random.Random(args.seed + processes)
        slots = asyncio.gather(*(chalk_slot(pool, port, window, rng, None, None) for _ in range(args.tables)))
        log(f"[{mode}] {args.tables} tables x 4 sockets through haproxy, warm-up {args.warmup:g} s, "
            f"window {args.seconds:g} s")
        server_cpu, client_cpu = await measure(window, servers, slots, 4 * args.tables)
        return figures(mode, args.tables, window, args.seconds, server_cpu, client_cpu, 1, processes=processes,
                       finished_matches=window.finished_matches, idle_slots=window.idle_slots,
                       load=round(os.getloadavg()[0], 2))
    finally:
        if balancer is not None:
            balancer.stop()
        for server in servers.servers:
            if server.proc.poll() not in (None, 0):
                log(f"[{mode}] a server exited early:\n{server.log_tail()}")
        servers.stop()


async def main_async(args) -> None:
    results = []
    for processes in args.processes:
        result = await run_cluster(args, processes)
        results.append(result)
        print(json.dumps(result), flush=True)
    by_count = {r["processes"]: r for r in results}
    if 1 in by_count and 2 in by_count and by_count[1]["moves_per_s"]:
        print(json.dumps({"two_over_one_moves_per_s": round(by_count[2]["moves_per_s"] / by_count[1]["moves_per_s"], 3),
                          "p99_ms": {n: by_count[n]["p99_ms"] for n in (1, 2)},
                          "cores": os.cpu_count()}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", default="1,2", help="uvicorn process counts to run, in order")
    parser.add_argument("--tables", type=int, default=20, help="tables played flat out")
    parser.add_argument("--spares", type=int, default=40, help="extra tables for finished matches")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--options", default="{}", help="All Fours options for make_tables (JSON)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--haproxy", default="haproxy")
    parser.add_argument("--spread", action="store_true",
                        help="without the documented table affinity: a table's 4 sockets on any processes")
    parser.add_argument("--database-url", default=os.environ.get("CLUSTER_DATABASE_URL", DEFAULT_DATABASE_URL))
    parser.add_argument("--redis-url", default=None, help="default: an embedded Redis of this run")
    args = parser.parse_args()
    args.processes = [int(n) for n in args.processes.split(",")]
    args.server_compression = False  # as production serves (Procfile)
    check_loopback(args.database_url, "DATABASE_URL")
    redis = None
    var_dir = None
    if args.redis_url is None:
        from config import embedded_redis

        var_dir = tempfile.TemporaryDirectory(prefix="chalk-cluster-")
        redis = embedded_redis.start(var_dir.name)
        args.redis_url = embedded_redis.redis_url(var_dir.name)
    else:
        check_loopback(args.redis_url, "REDIS_URL")
    try:
        ensure_database(args)
        cleanup(args)  # leftovers of a killed run
        try:
            asyncio.run(main_async(args))
        finally:
            cleanup(args)
    finally:
        if redis is not None:
            from config import embedded_redis

            embedded_redis.stop(redis)
            var_dir.cleanup()


if __name__ == "__main__":
    main()
