"""The ASGI process collects its garbage (tuning/garbage.py): young objects often, in short
pauses; old garbage only on a clock, since a closed socket's objects are cycles that age into the
oldest generation, and without the clock the soak's memory rose without end (issue 16)."""

import asyncio
import functools
import gc
import subprocess
import sys
import weakref

from asgiref.testing import ApplicationCommunicator
from django.test import override_settings

from tuning import garbage
from config.lifespan import lifespan


class Node:
    """An object in a reference cycle with itself: only the cyclic collector frees it."""

    def __init__(self):
        self.me = self


def cycle_garbage() -> weakref.ref:
    return weakref.ref(Node())


async def freed(ref: weakref.ref, seconds: float = 2.0) -> bool:
    for _ in range(int(seconds / 0.01)):
        if ref() is None:
            return True
        await asyncio.sleep(0.01)
    return False


def without_automatic_collection(test):
    """Only the clock may collect while `test` runs."""
    @functools.wraps(test)
    def run():
        gc.disable()
        try:
            return test()
        finally:
            gc.enable()
    return run


@without_automatic_collection
def test_the_collectors_clock_frees_cycles_the_automatic_collector_has_not_reached():
    async def scenario():
        ref = cycle_garbage()
        clock = asyncio.ensure_future(garbage.collect_every(0.02))
        try:
            return await freed(ref)
        finally:
            clock.cancel()

    assert asyncio.run(scenario())


@without_automatic_collection
def test_no_clock_when_it_is_turned_off():
    async def scenario():
        ref = cycle_garbage()
        await garbage.collect_every(0)  # returns at once instead of collecting forever
        return ref() is not None

    assert asyncio.run(scenario())


@without_automatic_collection
def test_the_lifespan_starts_the_clock_at_startup_and_stops_it_at_shutdown():
    async def scenario():
        server = ApplicationCommunicator(lifespan, {"type": "lifespan", "asgi": {"version": "3.0"}})
        await server.send_input({"type": "lifespan.startup"})
        assert (await server.receive_output(2))["type"] == "lifespan.startup.complete"
        collected = await freed(cycle_garbage())
        await server.send_input({"type": "lifespan.shutdown"})
        assert (await server.receive_output(2))["type"] == "lifespan.shutdown.complete"
        await asyncio.sleep(0)
        left = [task for task in asyncio.all_tasks() if "collect_every" in repr(task.get_coro())]
        return collected, left

    with override_settings(GC_FULL_SECONDS=0.02):
        collected, left = asyncio.run(scenario())
    assert collected and not left


def test_while_serving_only_the_clock_makes_full_collections_and_young_ones_stay_small():
    """A full collection is a pause as long as the live objects take to scan: the load never
    starts one, whatever it allocates; young collections come every few hundred objects."""
    script = """
import gc
from tuning import garbage

garbage.tune_for_serving()
before = [generation["collections"] for generation in gc.get_stats()]
kept = []
for n in range(2_000_000):
    node = [n]
    node.append(node)  # a cycle: only the collector frees it
    if n % 100 == 0:
        kept.append(node)  # and some that live on, as a server's caches do
after = [generation["collections"] for generation in gc.get_stats()]
print(after[0] - before[0], after[2] - before[2])
"""
    output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    young, full = map(int, output.split())
    assert full == 0
    assert young >= 2_000_000 // (2 * garbage.YOUNG_THRESHOLD)
