"""Fixtures shared by the whole suite.

Services: with REDIS_URL / DATABASE_URL set (CI: PostgreSQL and Redis on 127.0.0.1) the tests
use them; without, an embedded PostgreSQL and an embedded redis-server under var/test/<pid>
(settings.py switches to var/test/ whenever pytest runs, so a `make run` in the same checkout is
untouched): every run goes through the production database engine.

Live server: `live_asgi_server` runs the real ASGI app (uvicorn, HTTP + websockets) in a
subprocess against the test database. Use it from a test that also asks for `transactional_db`
(or use the `asgi_live` shortcut) so the rows a test writes are committed and visible to it.
"""

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote
from urllib.request import urlopen

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    from config.catalogues import ensure_compiled

    ensure_compiled()  # a bare `pytest` sees the same translations as `make test`


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Fast tests first: pure tests, then database tests, then `slow` ones, then `browser` ones
    (a failure in the quick layers shows up in seconds, not after the long tests)."""

    def layer(item):
        uses_database = bool(item.get_closest_marker("django_db")) or bool(
            {"db", "transactional_db", "django_db_setup"} & set(getattr(item, "fixturenames", ())))
        speed = 2 if item.get_closest_marker("browser") else 1 if item.get_closest_marker("slow") else 0
        return speed, uses_database

    # Stable: within a layer pytest-django's order (rollback tests before flush tests) is kept.
    items.sort(key=layer)


def pytest_unconfigure(config):
    """Remove this run's var/test/<pid> folder (its PostgreSQL cluster and Redis socket)."""
    from django.conf import settings

    if not settings.configured:
        return
    var_dir = Path(settings.VAR_DIR)
    if settings.TESTING and var_dir.parent == ROOT / "var" / "test":
        shutil.rmtree(var_dir, ignore_errors=True)


# --- Redis ------------------------------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def redis_server(request):
    """The Redis the tests use: REDIS_URL's, or an embedded one started for this session."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield None  # `pytest -p no:django` (pure engine runs): no Django, no Redis
        return
    from django.conf import settings

    from config import embedded_redis

    if not settings.REDIS_EMBEDDED:
        yield settings.REDIS_URL
        return
    process = embedded_redis.start(settings.VAR_DIR)
    try:
        yield settings.REDIS_URL
    finally:
        embedded_redis.stop(process)


# --- the test database ------------------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def postgres_server(request):
    """The PostgreSQL the tests use: DATABASE_URL's, or an embedded one started for this session
    (one per test process, in its own var/test/<pid>; tuned for speed over durability)."""
    if not request.config.pluginmanager.hasplugin("django"):
        yield None  # `pytest -p no:django` (pure engine runs)
        return
    from django.conf import settings

    from config import embedded_postgres

    if not settings.POSTGRES_EMBEDDED:
        yield None
        return
    process = embedded_postgres.start(settings.VAR_DIR, options=embedded_postgres.TEST_SERVER_OPTIONS)
    try:
        yield process
    finally:
        from django.db import connections

        connections.close_all()
        embedded_postgres.stop(process)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(postgres_server, django_db_modify_db_settings_parallel_suffix):
    """pytest-django creates the test database only once the server answers."""


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, plus: on PostgreSQL, close every other session on it
    before it is dropped. A server subprocess or a thread that a failed test left behind would
    otherwise make the drop fail ("being accessed by other users") and leave the database."""
    yield
    from django.db import connection

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def close_loop_connections():
    """A consumer run in the test's own event loop may open the loop's PostgreSQL connections
    (tuning/live_db.py); close them with the test, as its loop goes."""
    yield
    live_db = sys.modules.get("tuning.live_db")
    if live_db is not None:
        live_db.close_all()


@pytest.fixture(autouse=True)
def forget_live_tables():
    """The test database starts over, so match ids repeat between tests: drop this process's
    cached live tables after each test, so no later test reads one of an earlier test's."""
    yield
    tables = sys.modules.get("gameplay.services.tables")
    if tables is not None:
        for match_id in list(tables._tables):
            tables.forget_table(match_id)


# --- the live ASGI server ---------------------------------------------------------------------


@dataclass
class LiveServer:
    url: str  # http://127.0.0.1:PORT (no trailing slash)
    ws_url: str  # ws://127.0.0.1:PORT
    process: subprocess.Popen
    log_path: Path

    def log(self):
        return self.log_path.read_text(errors="replace")


def database_url(settings_dict):
    """A DATABASE_URL naming the *test* database the test process uses (a unix socket's folder
    as the host, percent-encoded, for the embedded server)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    if host.startswith("/"):
        return f"postgres://{auth}{quote(host, safe='')}/{settings_dict['NAME']}"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


def bound_socket():
    """A listening socket on a free port, handed to uvicorn with --fd: no port race."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def wait_for_http(url, process, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.1)
    return False


def live_server_env(db_url, redis_url):
    from django.conf import settings

    env = dict(os.environ)
    env.update(
        CHALK_VAR_DIR=str(settings.VAR_DIR),
        DATABASE_URL=db_url,
        REDIS_URL=redis_url,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        PYTHONUNBUFFERED="1",
    )
    return env


@contextlib.contextmanager
def running_asgi_server(db_url, redis_url, log_path):
    """uvicorn serving the site on a free port, stopped on exit: config.asgi's application plus
    the test-only /ws/echo/ route (tests/echo_asgi.py)."""
    sock = bound_socket()
    port = sock.getsockname()[1]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "tests.echo_asgi:application", "--fd", str(sock.fileno()),
             "--log-level", "info", "--no-server-header",
             # open websockets must not hold up teardown (and with it the test database's drop)
             "--timeout-graceful-shutdown", "3"],
            cwd=ROOT, env=live_server_env(db_url, redis_url), pass_fds=[sock.fileno()],
            stdout=log, stderr=subprocess.STDOUT,
        )
    sock.close()  # the child holds its own copy
    server = LiveServer(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", process, log_path)
    try:
        if not wait_for_http(server.url + "/healthz", process):
            pytest.fail(f"live ASGI server did not become healthy; its log:\n{server.log()[-4000:]}")
        yield server
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _test_database_url(django_db_blocker):
    from django.db import connection

    with django_db_blocker.unblock():
        return database_url(connection.settings_dict)


@pytest.fixture(scope="session")
def live_asgi_server(django_db_setup, django_db_blocker, redis_server, tmp_path_factory):
    """uvicorn serving the site (tests/echo_asgi.py) on a free port against the test database.

    Session-scoped (it takes a second or two to start). Ask for `transactional_db` too, or use
    `asgi_live`, so what the test writes is committed where the server can read it.
    """
    log_path = tmp_path_factory.mktemp("live-server") / "uvicorn.log"
    with running_asgi_server(_test_database_url(django_db_blocker), redis_server, log_path) as server:
        yield server


@pytest.fixture(scope="session")
def second_live_asgi_server(django_db_setup, django_db_blocker, redis_server, tmp_path_factory):
    """Another server process beside `live_asgi_server`, for tables served by two processes."""
    log_path = tmp_path_factory.mktemp("live-server-2") / "uvicorn.log"
    with running_asgi_server(_test_database_url(django_db_blocker), redis_server, log_path) as server:
        yield server


@pytest.fixture
def asgi_live(live_asgi_server, transactional_db):
    """The live ASGI server, for a test whose database writes the server must see."""
    return live_asgi_server
