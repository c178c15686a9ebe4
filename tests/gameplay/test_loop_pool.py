"""The event loop's own PostgreSQL pool lives as long as its loop (tuning/live_db.py): no
worker or scheduler task of it outlives the loop, which CI once reported at the end of a run
as "Task was destroyed but it is pending! (chalk-loop-worker-N)" and "Event loop is closed"."""

import asyncio
import gc
import logging
import sys

import pytest
from asgiref.testing import ApplicationCommunicator

from tuning import live_db

pytestmark = pytest.mark.django_db


@pytest.fixture
def complaints(monkeypatch, caplog):
    """What asyncio and the interpreter say about tasks and coroutines left behind."""
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    caplog.set_level(logging.ERROR, logger="asyncio")

    def collect():
        gc.collect()
        return [record.getMessage() for record in caplog.records] + [repr(u.exc_value) for u in unraisable]

    return collect


def pool_tasks(loop) -> set[str]:
    return {task.get_name() for task in asyncio.all_tasks(loop) if task.get_name().startswith("chalk-loop")}


async def query_and_report():
    assert await live_db.fetch_all("SELECT 1", ()) == [(1,)]
    return pool_tasks(asyncio.get_running_loop()), await live_db._loop_pool()


def test_a_loop_that_shuts_down_closes_its_pool_and_its_tasks(complaints):
    tasks, pool = asyncio.run(query_and_report())
    assert {"chalk-loop-scheduler", "chalk-loop-worker-0"} <= tasks  # it was really running
    assert pool.closed
    assert not complaints()


def test_the_asgi_lifespan_shutdown_closes_the_pool_while_the_loop_still_runs(complaints):
    from config.asgi import application

    loop = asyncio.new_event_loop()
    try:
        tasks, pool = loop.run_until_complete(query_and_report())
        assert tasks

        async def lifespan():
            server = ApplicationCommunicator(application, {"type": "lifespan", "asgi": {"version": "3.0"}})
            await server.send_input({"type": "lifespan.startup"})
            assert (await server.receive_output(2))["type"] == "lifespan.startup.complete"
            await server.send_input({"type": "lifespan.shutdown"})
            assert (await server.receive_output(2))["type"] == "lifespan.shutdown.complete"

        loop.run_until_complete(lifespan())
        assert pool.closed and not pool_tasks(loop)
    finally:
        loop.close()  # no runner: nothing else would stop a task left behind
    assert not complaints()


def test_each_loop_has_its_own_pool_and_a_new_one_after_the_old_closed(complaints):
    _, first = asyncio.run(query_and_report())
    _, second = asyncio.run(query_and_report())
    assert first is not second and first.closed and second.closed
    assert not complaints()
