"""What the benchmarks' load runs against, shared by live_load.py, pages.py, soak.py and cluster.py:
uvicorn in a subprocess (started, waited for, stopped), its CPU time and memory, the benchmark's
PostgreSQL database and the tables `manage.py make_tables` makes in it.

Everything here is on this machine: a server listens on 127.0.0.1, and `check_loopback` refuses a
database or Redis anywhere else. The clients that load these servers are in load_client.py.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"  # loopback only: nothing here ever connects elsewhere
START_TIMEOUT = 60
STOP_TIMEOUT = 10


def log(*parts) -> None:
    print(*parts, file=sys.stderr, flush=True)


# ----- processes -------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process has used so far (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


class Server:
    """uvicorn serving `app` in a subprocess on 127.0.0.1 and a free port, pinned to `core` (None:
    any core, as cluster.py runs several). Its output goes to `log_file` (default: a temp file),
    kept for when it fails. `options` are added to uvicorn's command line."""

    def __init__(self, app: str, env: dict, *, core: int | None = None, options=(), log_file=None):
        self.app, self.port = app, free_port()
        self.errors = log_file if log_file is not None else tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", app, "--host", HOST, "--port", str(self.port),
             "--log-level", "warning", "--no-access-log", "--no-server-header", *options],
            cwd=ROOT, env=env, stdout=self.errors, stderr=self.errors,
            preexec_fn=None if core is None else lambda: os.sched_setaffinity(0, {core}))
        self.wait_ready()

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"server {self.app} exited:\n{self.log_tail()}")
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise SystemExit(f"server {self.app} did not start in {START_TIMEOUT} s:\n{self.log_tail()}")

    @property
    def pid(self) -> int:
        return self.proc.pid

    def cpu_seconds(self) -> float:
        return cpu_seconds(self.proc.pid)

    def log_tail(self, limit: int | None = 3000) -> str:
        self.errors.flush()
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


class Servers:
    """Several Servers seen as one by load_client.measure (their CPU seconds summed)."""

    def __init__(self, servers: list[Server]):
        self.servers = servers

    def cpu_seconds(self) -> float:
        return sum(server.cpu_seconds() for server in self.servers)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


# ----- Chalk as production runs it -------------------------------------------------------------

def server_env(args) -> dict:
    """The environment of Chalk's processes: production settings (DEBUG=0, LOG_LEVEL=WARNING,
    Celery not eager) on args.database_url and args.redis_url, no proxies."""
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


def chalk_server(args, app: str = "config.asgi:application") -> Server:
    """uvicorn serving `app` with server_env(args) on args.server_core, as production serves
    (Procfile: no per-message deflate, unless args.server_compression)."""
    compression = getattr(args, "server_compression", False)
    return Server(app, server_env(args), core=args.server_core,
                  options=["--timeout-graceful-shutdown", "3",
                           # per-socket compression state grew the process
                           *([] if compression else ["--ws-per-message-deflate", "false"])])


# ----- the database and its tables -------------------------------------------------------------

def check_loopback(url: str, what: str) -> None:
    host = urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"{what} must point at this machine (127.0.0.1), not {host!r}")


def create_database(url: str) -> None:
    """Create the benchmark's own database when missing (on this machine only)."""
    import psycopg

    check_loopback(url, "DATABASE_URL")
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin_url = urlunsplit(("postgresql", parts.netloc, "/postgres", parts.query, ""))
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            log(f"creating database {name}")
            conn.execute(f'CREATE DATABASE "{name}"')


def ensure_database(args) -> None:
    """args.database_url exists and is migrated."""
    create_database(args.database_url)
    manage(args, "migrate", "--noinput", quiet=True)


def manage(args, *argv, quiet=False) -> str:
    result = subprocess.run([sys.executable, str(ROOT / "manage.py"), *argv], cwd=ROOT, env=server_env(args),
                            capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(argv)} failed:\n{result.stderr[-3000:]}")
    return "" if quiet else result.stdout


def make_tables(args, count: int, prefix: str, *options: str, workers: int = 4) -> list[dict]:
    """`count` started All Fours tables without bots (`manage.py make_tables --prefix prefix
    *options`), made by up to `workers` processes at once (they wait on fsync)."""
    if count <= 0:
        return []
    workers = min(workers, count)
    shares = [count // workers + (1 if i < count % workers else 0) for i in range(workers)]
    command = [sys.executable, str(ROOT / "manage.py"), "make_tables", "--game", "allfours", "--bots", "0",
               "--prefix", prefix, *options]
    procs = [subprocess.Popen([*command, "--tables", str(n)], cwd=ROOT, env=server_env(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in shares]
    tables = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        if proc.returncode != 0:
            raise SystemExit(f"make_tables failed:\n{err[-3000:]}")
        tables += json.loads(out)["tables"]
    return tables


def cleanup(args, prefix: str) -> None:
    """Delete the tables of `prefix`. Migrates first: others may add models to this checkout
    meanwhile, and deleting the users cascades into their tables."""
    try:
        manage(args, "migrate", "--noinput", quiet=True)
        manage(args, "make_tables", "--cleanup", "--prefix", prefix, quiet=True)
    except SystemExit as failure:  # the figures still count; the next run cleans up again
        log(f"warning: cleanup failed, {prefix}- tables left in the database: {str(failure)[-300:]}")
