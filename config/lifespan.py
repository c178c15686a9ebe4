"""The ASGI lifespan protocol: what the server's event loop runs beside the requests.

- At startup, the collector's clock (tuning/garbage.py: a full collection every
  GC_FULL_SECONDS).
- At shutdown, the loop closes what it opened on itself (the loop's PostgreSQL pool,
  tuning/live_db.py) while it can still run its tasks.

uvicorn's default `--lifespan auto` calls it; a server without lifespan support still closes
the pool when its loop shuts down (live_db ties the pool to the loop's async generators), but
collects its old generations only when the collector's own counting gets there."""

import asyncio
import contextlib

from django.conf import settings

from tuning import garbage
from tuning import live_db


async def lifespan(scope, receive, send) -> None:
    collecting = None
    try:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if "garbage" not in settings.TUNING_OFF:  # switched off for a run: Python's own schedule
                    collecting = asyncio.ensure_future(garbage.collect_every(settings.GC_FULL_SECONDS))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await live_db.close_loop_pool()
                await send({"type": "lifespan.shutdown.complete"})
                return
    finally:
        if collecting is not None:
            collecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await collecting
