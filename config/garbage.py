"""The cyclic garbage collector's schedule in the ASGI process.

- **Young objects are collected at Python's own threshold** (700). A threshold of 50,000 made
  every move path about 4% cheaper (fewer collections), but each young collection then scanned
  up to 50,000 objects while every request and move in flight waited: with 20 page clients the
  bare view's p99 was 47-130 ms against 37-62 ms at 700, the pages' 106-200 against 74-131 ms
  (benchmarks/pages.py, alternated, 2026-12-04), and the move path has room to spare since
  its moves are batched (benchmarks/README.md).
- **Everything loaded at startup is frozen** out of the collector's scans: it lives as long as
  the process.
- **The older generations are collected on a clock**, every GC_FULL_SECONDS, by a task of the
  event loop (config/lifespan.py). A closed socket's objects are cycles (the websockets
  library's protocol state and its parser generator hold each other) that age into the older
  generations while the socket is open; the collector's own counting reaches the oldest only
  once the long-lived objects have grown by a quarter (CPython's rule), and with the young
  threshold at 50,000 it reached even the middle one about once in 25 minutes of the soak:
  those cycles were never freed, and the soak's RSS rose about 1.5 MB a minute
  (benchmarks/soak.py --trace-memory). The price is one pause a minute, as long as the live
  objects take to scan (about 0.1 s for 350,000 on a slow machine); a longer GC_FULL_SECONDS
  trades fewer pauses for more garbage waiting.
"""

from __future__ import annotations

import asyncio
import gc


def tune_for_serving() -> None:
    """Freeze what startup loaded out of the collector's scans (config/asgi.py)."""
    gc.freeze()


async def collect_every(seconds: float) -> None:
    """A full collection every `seconds`, until cancelled (seconds <= 0: never)."""
    if seconds <= 0:
        return
    while True:
        await asyncio.sleep(seconds)
        gc.collect()
