"""How often the ASGI process's threads hand the GIL over (GIL_SWITCH_MS, default 1 ms).

The event loop releases the GIL on every socket read, write and poll; when a database or page
thread is busy with Python code, the loop then waits for that thread's switch interval (5 ms by
default) before it runs again, once per system call: a convoy. It shows when many matches end
together (their connects, departures and last moves are thread work): moves then waited
seconds in the soak (benchmarks/soak.py). With 1 ms, `live_load.py --mode full` (which replaces
finished matches all the time) made 735-852 moves/s against 600-613 with 5 ms, same run, and
the 20-minute soak's p50 per 10 seconds stayed at or under 11 ms through the match-end bursts
that had reached 1.8 s (benchmarks/README.md, 2026-12-03).
"""

from __future__ import annotations

import sys


def set_switch_interval(milliseconds: float) -> None:
    """Python's default is kept for milliseconds <= 0."""
    if milliseconds > 0:
        sys.setswitchinterval(milliseconds / 1000)
