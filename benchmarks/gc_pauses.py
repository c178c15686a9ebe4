"""The cyclic collector's pauses in a benchmark's server: recorded by benchmarks/gc_paused_asgi.py
(one line per collection: its generation, how long it held the interpreter (ms) and how many
objects it freed), read back
by `summary` for `pages.py --gc-pauses` and `soak.py --gc-pauses`. Every request and move in
flight waits through a collection, so the pauses are what collecting costs the latency
(tuning/garbage.py)."""

from __future__ import annotations

import time
from pathlib import Path


def recorder(path: str):
    """A gc.callbacks entry appending each collection's pause to `path`."""
    log = open(path, "a", buffering=1)  # noqa: SIM115  (open as long as the process)
    started = [0.0]

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            log.write(f"{info['generation']} {(time.perf_counter() - started[0]) * 1000:.3f} {info['collected']}\n")

    return record


def summary(path: str | Path) -> dict:
    """Per generation: collections, median, p99 and longest pause (ms), their total (s), and the
    objects they freed."""
    pauses: dict[int, list[float]] = {}
    freed: dict[int, int] = {}
    for line in Path(path).read_text().splitlines():
        generation, ms, collected = line.split()
        pauses.setdefault(int(generation), []).append(float(ms))
        freed[int(generation)] = freed.get(int(generation), 0) + int(collected)
    report = {}
    for generation, times in sorted(pauses.items()):
        times.sort()
        report[f"gen{generation}"] = {
            "collections": len(times), "median_ms": round(times[len(times) // 2], 2),
            "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
            "max_ms": round(times[-1], 2), "total_s": round(sum(times) / 1000, 2), "freed": freed[generation]}
    return report
