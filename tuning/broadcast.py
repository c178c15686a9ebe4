"""Sending to a match's sockets from synchronous code (services after commit, Celery tasks).

`async_to_sync` outside an event loop makes a new loop per call, and the Redis channel layer
then opens a new connection every time (about 25 ms a move here). Instead, one long-lived loop
per process runs in a daemon thread and every send is scheduled on it, so its connection pool
is reused; callers wait for the send, which keeps frames in seq order.
"""

import asyncio
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

SEND_TIMEOUT = 10

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _lock:
        # A forked process (a Celery prefork child) inherits the variable but not the thread.
        if _loop is None or _loop_pid != os.getpid():
            _loop = asyncio.new_event_loop()
            _loop_pid = os.getpid()
            threading.Thread(target=_loop.run_forever, name="chalk-broadcast", daemon=True).start()
        return _loop


def group_send(group: str, message: dict) -> None:
    if "broadcast" in settings.TUNING_OFF:  # switched off for one run (benchmarks/overrides.py)
        async_to_sync(get_channel_layer().group_send)(group, message)
        return
    future = asyncio.run_coroutine_threadsafe(get_channel_layer().group_send(group, message),
                                              _background_loop())
    future.result(SEND_TIMEOUT)
