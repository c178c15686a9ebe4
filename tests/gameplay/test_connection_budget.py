"""PostgreSQL connections of a live ASGI process stay within its pool (issue 16, item 1): each
request used to keep a persistent connection on its own thread until the garbage collector found
it, and 150 lobby requests took all of PostgreSQL's connections."""

import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.request import urlopen

import pytest
from django.db import connection

from tests.conftest import _test_database_url, running_asgi_server

pytestmark = pytest.mark.slow

POOL_SIZE = 6
APPLICATION = "chalk-budget-test"


def server_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                       " AND application_name = %s", [APPLICATION])
        return cursor.fetchone()[0]


def fetch(url: str) -> int:
    with urlopen(url, timeout=60) as response:
        response.read()
        return response.status


class Watcher(threading.Thread):
    """The most connections the server held at any moment while requests ran."""

    def __init__(self):
        super().__init__(daemon=True)
        self.most, self.done = 0, threading.Event()

    def run(self):
        from django.db import connection as own

        try:
            while not self.done.wait(0.05):
                self.most = max(self.most, server_connections())
        finally:
            own.close()


@pytest.fixture
def pooled_server(transactional_db, django_db_blocker, redis_server, tmp_path, monkeypatch):
    monkeypatch.setenv("DB_POOL_SIZE", str(POOL_SIZE))
    monkeypatch.setenv("DB_POOL_TIMEOUT", "60")  # 200 requests queue for 6 connections on 2 cores
    url = f"{_test_database_url(django_db_blocker)}?application_name={APPLICATION}"
    with running_asgi_server(url, redis_server, tmp_path / "uvicorn.log") as server:
        yield server


def test_page_requests_never_hold_more_connections_than_the_pool(pooled_server):
    watcher = Watcher()
    watcher.start()
    try:
        statuses = [fetch(pooled_server.url + "/play/") for _ in range(500)]
        with ThreadPoolExecutor(200) as clients:
            statuses += list(clients.map(fetch, [pooled_server.url + "/play/"] * 200))
    finally:
        watcher.done.set()
        watcher.join()
    assert statuses == [200] * 700
    assert 0 < watcher.most <= POOL_SIZE
    assert server_connections() <= POOL_SIZE
    assert fetch(pooled_server.url + "/healthz") == 200
