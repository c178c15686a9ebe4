"""The embedded PostgreSQL: a real PostgreSQL 16 from the `pgserver` wheel, run by the project.

Used when DATABASE_URL is not set (a fresh machine running `make run`, or `make test` without
services): the same database engine as production and CI, so every run goes through the
production write path (docs/decisions.md). Like the embedded Redis it listens only on a unix
socket under the project's var/ folder, never on a TCP port, so it cannot collide with a system
PostgreSQL on 5432 or with another checkout.

    python -m config.embedded_postgres          # start if needed, stop on SIGINT/SIGTERM (the Procfile)
    python -m config.embedded_postgres start    # start in the background if needed, then return

Tests use `start()` / `stop()` / `answers()`.

PostgreSQL refuses to run as root; when we are root (CI, a container) the cluster belongs to
the unprivileged `nobody` and the server runs as that user.
"""

import functools
import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MAX_SOCKET_PATH = 100  # sockaddr_un holds 108 bytes; PostgreSQL adds "/.s.PGSQL.5432"
DATABASE_NAME = "chalk"
SUPERUSER = "postgres"
UNPRIVILEGED_USER = "nobody"
# What a test run may trade for speed: a crash of the machine loses a test database, nothing else.
TEST_SERVER_OPTIONS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")


def binary(name: str) -> str:
    """A program of the wheel's PostgreSQL."""
    return str(_programs() / name)


@functools.cache
def _programs() -> Path:
    """The wheel's programs folder, found once per process without importing `pgserver` (its own
    server manager, not used: we run the server like the embedded Redis, does work on import)."""
    import importlib.util

    spec = importlib.util.find_spec("pgserver")
    if spec is None:
        raise RuntimeError("the embedded PostgreSQL needs the pgserver package (make install)")
    programs = Path(spec.submodule_search_locations[0]).resolve() / "pginstall" / "bin"
    _open_the_way(programs)
    return programs


def _open_the_way(folder: Path) -> None:
    """As root: the unprivileged user may traverse every folder above `folder` (a checkout, or
    its .venv, under a private folder such as CI's temporary one or /root)."""
    if os.geteuid() != 0:
        return
    for parent in (folder, *folder.parents):
        mode = parent.stat().st_mode
        if not mode & 0o001:
            parent.chmod(mode | 0o001)  # search only: nothing in them becomes readable


def data_dir(var_dir) -> Path:
    return Path(var_dir) / "postgres" / "data"


def socket_dir(var_dir) -> Path:
    """Where the server's socket lives for this var/ folder. Deep checkouts fall back to a short,
    stable folder in the temp folder derived from the var/ folder (as the embedded Redis does)."""
    folder = Path(var_dir) / "postgres"
    if len(str(folder / ".s.PGSQL.5432")) <= MAX_SOCKET_PATH:
        return folder
    digest = hashlib.sha1(str(Path(var_dir).resolve()).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"chalk-postgres-{digest}"


def database_settings(var_dir) -> dict:
    """Django's DATABASES entry parts for the embedded server (the rest is the pool's, as for any
    PostgreSQL: config/settings.py)."""
    return {"ENGINE": "django.db.backends.postgresql", "NAME": DATABASE_NAME, "USER": SUPERUSER,
            "PASSWORD": "", "HOST": str(socket_dir(var_dir)), "PORT": ""}


def _run_as() -> dict:
    """subprocess keyword arguments that drop root for PostgreSQL's own programs."""
    return {"user": UNPRIVILEGED_USER, "group": "nogroup"} if os.geteuid() == 0 else {}


def _hand_over(path: Path) -> None:
    """As root: the unprivileged user owns `path` and may traverse every folder above it."""
    if os.geteuid() != 0:
        return
    import pwd

    owner = pwd.getpwnam(UNPRIVILEGED_USER)
    os.chown(path, owner.pw_uid, owner.pw_gid)
    _open_the_way(path.parent)


def answers(var_dir, timeout: float = 2.0) -> bool:
    result = subprocess.run([binary("pg_isready"), "-q", "-h", str(socket_dir(var_dir)), "-U", SUPERUSER,
                             "-t", str(max(1, int(timeout)))], check=False)
    return result.returncode == 0


def _initialise(var_dir) -> None:
    data = data_dir(var_dir)
    if (data / "PG_VERSION").exists():
        return
    data.mkdir(parents=True, exist_ok=True)
    _hand_over(data)
    result = subprocess.run([binary("initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8",
                             "--locale=C", "--no-instructions"], capture_output=True, text=True, **_run_as())
    if result.returncode != 0:
        raise RuntimeError(f"initdb of the embedded PostgreSQL in {data} failed:\n{result.stdout}{result.stderr}")


def _server_command(var_dir, options=()) -> list[str]:
    command = [binary("postgres"), "-D", str(data_dir(var_dir)), "-k", str(socket_dir(var_dir)),
               "-c", "listen_addresses=", "-c", "unix_socket_permissions=0777"]
    for option in options:
        command += ["-c", option]
    return command


def _prepare(var_dir) -> None:
    _initialise(var_dir)
    sockets = socket_dir(var_dir)
    sockets.mkdir(parents=True, exist_ok=True)
    _hand_over(sockets)
    pid_file = data_dir(var_dir) / "postmaster.pid"
    owner = _pid_in(pid_file)
    deadline = time.monotonic() + 30
    while owner is not None and _alive(owner) and time.monotonic() < deadline:
        time.sleep(0.1)  # a server still shutting down (a Ctrl-C just before): let it finish
    if pid_file.exists() and not answers(var_dir):
        pid_file.unlink(missing_ok=True)  # left by a killed server (kill -9): PostgreSQL would refuse to start


def _pid_in(pid_file: Path):
    try:
        return int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _create_database(var_dir) -> None:
    import psycopg

    with psycopg.connect(host=str(socket_dir(var_dir)), user=SUPERUSER, dbname="postgres",
                         autocommit=True) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone() is None:
            connection.execute(f'CREATE DATABASE "{DATABASE_NAME}"')


def wait_until_up(var_dir, process=None, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if answers(var_dir):
            return True
        if process is not None and process.poll() is not None:
            return False
        time.sleep(0.1)
    return False


def start(var_dir, options=(), timeout: float = 30.0):
    """Start a server in the background; return its Popen, or None if one already answers."""
    if answers(var_dir):
        _create_database(var_dir)
        return None
    _prepare(var_dir)
    log = (Path(var_dir) / "postgres" / "server.log").open("ab")
    process = subprocess.Popen(_server_command(var_dir, options), stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True,  # a Ctrl-C meant for the caller is the caller's
                               **_run_as())
    log.close()
    if not wait_until_up(var_dir, process, timeout):
        stop(process)
        raise RuntimeError(f"the embedded PostgreSQL did not start; see {Path(var_dir) / 'postgres' / 'server.log'}")
    _create_database(var_dir)
    return process


def stop(process, timeout: float = 30.0) -> None:
    """Stop a server this process started: SIGINT is PostgreSQL's fast shutdown (every session
    ends, what was committed is on disk)."""
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def stop_running(var_dir, timeout: float = 30.0) -> None:
    """Stop the server of this var/ folder, whoever started it."""
    pid = _pid_in(data_dir(var_dir) / "postmaster.pid")
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGINT)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.1)


def default_var_dir():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    return settings.VAR_DIR


def main() -> int:
    """Honcho's entry: make sure the server runs, then stop it when honcho stops us."""
    var_dir = default_var_dir()
    started = start(var_dir)
    print(f"embedded PostgreSQL answering on {socket_dir(var_dir)}", flush=True)
    stopping = []
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stopping.append(True))
    while not stopping and answers(var_dir):
        time.sleep(1)
    if not stopping:
        print("the embedded PostgreSQL stopped by itself", file=sys.stderr)
        return 1
    stop(started) if started is not None else stop_running(var_dir)
    return 0


def start_main() -> int:
    """`make run` starts the server before it migrates; it keeps running until honcho's
    `postgres` entry stops it (or `make stop`)."""
    start(default_var_dir())
    return 0


if __name__ == "__main__":
    command = sys.argv[1:]
    sys.exit(start_main() if command == ["start"] else
             stop_running(default_var_dir()) or 0 if command == ["stop"] else main())
