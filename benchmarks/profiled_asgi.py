"""Chalk's ASGI application under cProfile, for `live_load.py --cprofile PATH` when py-spy is not
installed: the event loop's thread (where a move's Python runs: consumer, engine, frames) is
profiled (its CPU time) from start to the lifespan's shutdown, when the stats are written to CHALK_CPROFILE
(uvicorn ends on the signal it caught, so no atexit would run). Read them with
`python -m pstats PATH`. cProfile slows the server down: read it for shares, never for speed."""

import cProfile
import os
import time

from config.asgi import application as chalk

# CPU time of the loop's thread, not wall time: on a shared machine a wall-clock profile charges
# every system call with the time other processes held the core.
_profile = cProfile.Profile(time.thread_time)


async def application(scope, receive, send):
    if scope["type"] != "lifespan":
        return await chalk(scope, receive, send)

    async def receive_and_dump():
        message = await receive()
        if message["type"] == "lifespan.shutdown":
            _profile.disable()
            _profile.dump_stats(os.environ["CHALK_CPROFILE"])
        return message

    return await chalk(scope, receive_and_dump, send)


_profile.enable()
