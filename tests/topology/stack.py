"""A small Chalk deployment on this machine, for topology tests: several uvicorn processes, Celery
workers and beats, all against the test database and one Redis of their own (docs/deploying.md).

The Redis is an embedded redis-server started for the stack (config/embedded_redis.py), not the
suite's: on CI the suite's Redis is shared by the pytest-xdist workers, and Celery's queue is not
prefixed per worker, so another test's worker could take this stack's tasks (or the reverse).
Sessions are `cached_db`, so the cookies `make_tables` writes to the database work on it as well.

Every process runs in its own session (process group) with its output in a log file; `logs()`
gives their tails for failure messages, and `stop()` ends every process the stack started.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import ROOT, bound_socket, live_server_env, wait_for_http

START_TIMEOUT = 90  # seconds for a process to be ready: the machine may be busy
STOP_TIMEOUT = 15


@dataclass
class Process:
    name: str
    popen: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None


@dataclass
class WebProcess(Process):
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@dataclass
class Stack:
    database_url: str
    folder: Path
    redis_process: subprocess.Popen | None = None
    redis_url: str = ""
    web: list[WebProcess] = field(default_factory=list)
    others: list[Process] = field(default_factory=list)
    _serial: int = 0

    # ----- environment ------------------------------------------------------------------------

    def env(self, **extra) -> dict:
        env = live_server_env(self.database_url, self.redis_url)
        env.update(
            CELERY_TASK_ALWAYS_EAGER="0",  # settings make tasks eager under pytest (TESTING): not here
            CHALK_COMPETITION_TICK="1",
            BOT_MOVE_DELAY="0",
            LOG_LEVEL="INFO",
        )
        env.update(extra)
        return env

    def start_redis(self) -> None:
        from config import embedded_redis

        var_dir = self.folder / "redis-var"
        self.redis_process = embedded_redis.start(var_dir)
        self.redis_url = embedded_redis.redis_url(var_dir)

    # ----- processes --------------------------------------------------------------------------

    def _spawn(self, name: str, argv: list[str], env: dict, pass_fds=()) -> tuple[subprocess.Popen, Path]:
        self._serial += 1
        log_path = self.folder / f"{self._serial:02d}-{name}.log"
        with log_path.open("wb") as log:
            popen = subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=env, stdout=log,
                                     stderr=subprocess.STDOUT, pass_fds=pass_fds, start_new_session=True)
        return popen, log_path

    def start_web(self, name: str) -> WebProcess:
        """uvicorn serving config.asgi:application as production does (Procfile), on a free port."""
        sock = bound_socket()
        port = sock.getsockname()[1]
        # A small pool per process: several processes share the test database's connections.
        env = self.env(DB_POOL_SIZE="6", DB_POOL_MIN_SIZE="1", LIVE_DATABASE_THREADS="2", PAGE_THREADS="2")
        popen, log_path = self._spawn(name, [
            "-m", "uvicorn", "config.asgi:application", "--fd", str(sock.fileno()), "--log-level", "info",
            "--no-server-header", "--timeout-graceful-shutdown", "3", "--ws-per-message-deflate", "false",
            "--ws-max-size", "65536"], env, pass_fds=[sock.fileno()])
        sock.close()  # the child holds its own copy: once it dies, the port refuses connections
        process = WebProcess(name, popen, log_path, port)
        self.web.append(process)
        return process

    def start_worker(self, name: str) -> Process:
        popen, log_path = self._spawn(name, [
            "-m", "celery", "-A", "config", "worker", "--loglevel=INFO", "--concurrency=1", "--without-mingle",
            "--without-gossip", "-n", f"{name}-{os.getpid()}@%h"], self.env(DB_POOL_SIZE="2", DB_POOL_MIN_SIZE="0"))
        process = Process(name, popen, log_path)
        self.others.append(process)
        return process

    def start_beat(self, name: str) -> Process:
        popen, log_path = self._spawn(name, [
            "-m", "celery", "-A", "config", "beat", "--loglevel=INFO", "-s", str(self.folder / f"{name}-schedule")],
            self.env(DB_POOL_SIZE="1", DB_POOL_MIN_SIZE="0"))
        process = Process(name, popen, log_path)
        self.others.append(process)
        return process

    # ----- readiness --------------------------------------------------------------------------

    def wait_web(self, process: WebProcess) -> None:
        if not wait_for_http(process.url + "/healthz", process.popen, timeout=START_TIMEOUT):
            raise RuntimeError(f"{process.name} did not answer /healthz\n{self.logs()}")

    def wait_log(self, process: Process, text: str) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if text in process.log():
                return
            if not process.alive:
                break
            time.sleep(0.2)
        raise RuntimeError(f"{process.name} did not log {text!r}\n{self.logs()}")

    def wait_worker(self, process: Process) -> None:
        self.wait_log(process, " ready.")  # celery's "celery@host ready."

    def wait_beat(self, process: Process) -> None:
        self.wait_log(process, "beat: Starting")

    # ----- faults and the end ---------------------------------------------------------------

    def kill(self, process: Process) -> None:
        """`kill -9` of the process (its whole group: uvicorn has no children, Celery's pool has)."""
        try:
            os.killpg(process.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.popen.wait(STOP_TIMEOUT)

    def stop_process(self, process: Process) -> None:
        if process.alive:
            process.popen.terminate()  # Celery: a warm shutdown that ends its pool's children too
            try:
                process.popen.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill(process)

    def stop(self) -> None:
        for process in [*self.web, *self.others]:
            if process.alive:
                process.popen.terminate()
        for process in [*self.web, *self.others]:
            self.stop_process(process)
        if self.redis_process is not None:
            from config import embedded_redis

            embedded_redis.stop(self.redis_process)

    def logs(self, limit: int = 2500) -> str:
        parts = []
        for process in [*self.web, *self.others]:
            state = "running" if process.alive else f"exited {process.popen.returncode}"
            parts.append(f"----- {process.name} ({state}), log tail:\n{process.log()[-limit:]}")
        return "\n".join(parts)


def start_stack(database_url: str, folder: Path, webs: int = 2, workers: int = 2, beats: int = 1) -> Stack:
    """Every process started at once, then each waited for: the slow machine starts them in parallel."""
    stack = Stack(database_url, folder)
    try:
        stack.start_redis()
        web = [stack.start_web(f"web{n + 1}") for n in range(webs)]
        work = [stack.start_worker(f"worker{n + 1}") for n in range(workers)]
        beat = [stack.start_beat(f"beat{n + 1}") for n in range(beats)]
        for process in web:
            stack.wait_web(process)
        for process in work:
            stack.wait_worker(process)
        for process in beat:
            stack.wait_beat(process)
    except BaseException:
        stack.stop()
        raise
    return stack
