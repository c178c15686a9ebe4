"""The cyclic garbage collector's schedule in the ASGI process.

- **Young objects are collected rarely** (a threshold of 50,000 instead of 700): every move
  allocates a few hundred small objects (views, frames), and with the default threshold the
  collector ran every few moves (benchmarks/live_load.py: about 4% more moves per second).
- **Everything loaded at startup is frozen** out of the collector's scans: it lives as long as
  the process.
- **The older generations are collected on a clock**, every GC_FULL_SECONDS, by a task of the
  event loop (config/lifespan.py). With the young threshold that high the collector's own
  counting reached the middle generation about once in 25 minutes of the soak and the oldest
  practically never, and a closed socket's objects are cycles (the websockets library's
  protocol state and its parser generator hold each other) that had already aged into those
  generations while the socket was open: they were never freed, and the soak's RSS rose about
  1.5 MB a minute (benchmarks/soak.py --trace-memory). The price is one pause a minute, as long
  as the live objects take to scan (about 0.1 s for 350,000 on a slow machine); a longer
  GC_FULL_SECONDS trades fewer pauses for more garbage waiting.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_THRESHOLD = 50_000


def tune_for_serving() -> None:
    """Freeze what startup loaded and raise the young generation's threshold (config/asgi.py)."""
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 50, 100)


async def collect_every(seconds: float) -> None:
    """A full collection every `seconds`, until cancelled (seconds <= 0: never)."""
    if seconds <= 0:
        return
    while True:
        await asyncio.sleep(seconds)
        gc.collect()
