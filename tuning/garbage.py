"""The cyclic garbage collector's schedule in the ASGI process.

- **Young objects are collected at Python's own threshold** (700), the middle generation every
  ten of those. A young threshold of 50,000 made each collection scan up to 50,000 objects while
  every request and move in flight waited: a 33-48 ms pause (median; 105 ms at worst) every half
  second under 20 page clients, the pages' p99 (benchmarks/pages.py: bare view 39-61 ms against
  20-24 at 700, the signed-in home 78-99 against 70). Small collections of objects still in the
  processor's cache are also cheaper in all: 1.7 s of collecting in a run against 3.4 s.
- **Everything loaded at startup is frozen** out of the collector's scans: it lives as long as
  the process.
- **The oldest generation is collected on a clock** only, every GC_FULL_SECONDS, by a task of
  the event loop (config/lifespan.py); the collector's own counting never starts a full
  collection (OLDEST_THRESHOLD). Counting started them either too rarely or too often: with
  the young threshold at 50,000 it reached the middle generation about once in 25 minutes of
  the soak and the oldest practically never, while a closed socket's objects are cycles (the
  websockets library's protocol state and its parser generator hold each other) that age into
  the older generations while the socket is open: they were never freed, and the soak's RSS
  rose about 1.5 MB a minute (benchmarks/soak.py --trace-memory). At Python's own thresholds
  a full collection comes whenever the long-lived objects have grown by a quarter, at any
  moment of the load, each as long as the live objects take to scan (about 0.1 s for 350,000
  on a slow machine). The clock's price is one such pause a minute; a longer GC_FULL_SECONDS
  trades fewer pauses for more garbage waiting.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_THRESHOLD = 700  # allocations less deallocations between young collections (Python's)
MIDDLE_THRESHOLD = 10  # young collections between collections of the middle generation (Python's)
OLDEST_THRESHOLD = 1_000_000_000  # middle collections before a full one: never, the clock does it


def tune_for_serving() -> None:
    """Freeze what startup loaded and leave full collections to the clock (config/asgi.py)."""
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLDEST_THRESHOLD)


async def collect_every(seconds: float) -> None:
    """A full collection every `seconds`, until cancelled (seconds <= 0: never)."""
    if seconds <= 0:
        return
    while True:
        await asyncio.sleep(seconds)
        gc.collect()
