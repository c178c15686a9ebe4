"""Chalk's ASGI application with memory probes, for `soak.py --trace-memory` (never in production).

    CHALK_TRACE_DIR=/tmp/x CHALK_TRACE_SECONDS=60 [CHALK_TRACE_HOLDERS=290] [CHALK_TRACE_COLLECTIONS=1] \\
        uvicorn benchmarks.traced_asgi:application

Every CHALK_TRACE_SECONDS a thread writes `types-<seconds>.json` to CHALK_TRACE_DIR: the process's
RSS, the blocks Python's allocator holds (sys.getallocatedblocks), the collector's runs per
generation, and the live objects it tracks by type (the most common, and the _WATCHED types), so
two moments of a long run can be compared: whether the growth is Python objects (which ones) or
memory Python does not see.

- CHALK_TRACE_HOLDERS=SECONDS: from then on each probe also writes `holders-<seconds>.json`: how
  many websocket protocol states no live connection owns, and for three of them the chains of
  objects that keep them alive.
- CHALK_TRACE_COLLECTIONS=1: each full collection of the collector's clock (tuning/garbage.py)
  is logged to `collections.jsonl`: protocol states before and after, objects freed.

Each probe holds the interpreter for a moment (it walks every object): read the differences, not
the latency of a traced run.
"""

import asyncio
import gc
import json
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from tuning import garbage
from config.asgi import application  # noqa: F401  (sets Django up; served as is)

_directory = Path(os.environ["CHALK_TRACE_DIR"])
_every = float(os.environ.get("CHALK_TRACE_SECONDS", "60"))

# Types a leak of connections or matches would show in, counted in every probe.
_WATCHED = ("ServerProtocol", "WebSocketsSansIOProtocol", "MatchConsumer", "Match", "Seat", "User", "ModelState",
            "LiveTable", "Task", "Future")


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _count(type_name: str) -> int:
    return sum(1 for value in gc.get_objects() if type(value).__qualname__ == type_name)


def _write_types(seconds: int) -> None:
    types = Counter(type(value).__qualname__ for value in gc.get_objects())
    (_directory / f"types-{seconds:05d}.json").write_text(json.dumps(
        {"seconds": seconds, "rss_mb": _rss_mb(), "allocated_blocks": sys.getallocatedblocks(),
         "gc_collections": [generation["collections"] for generation in gc.get_stats()],
         "objects": sum(types.values()), "types": dict(types.most_common(80)),
         "watched": {name: types[name] for name in _WATCHED}}))


def _probe_frame(value) -> bool:
    return isinstance(value, type(sys._getframe())) and value.f_code.co_name in ("walk", "_holders", "_write_holders")


def _holders(target, ignored: set[int], depth: int = 8) -> list[str]:
    """What keeps `target` alive: chains of referrers (type, and the attribute or key that
    points on; a frame by its function), up to `depth` steps, past the objects in `ignored`
    (the probe's own, which it adds to as it goes)."""
    chains = []

    def name_of(holder, held) -> str:
        if isinstance(holder, type(sys._getframe())):
            return f"frame {holder.f_code.co_qualname} ({holder.f_code.co_filename.rsplit('/', 2)[-1]}:{holder.f_lineno})"
        members = holder if isinstance(holder, dict) else getattr(holder, "__dict__", None)
        where = next((f".{key}" for key, value in members.items() if value is held), "") if isinstance(members, dict) else ""
        return f"{type(holder).__module__}.{type(holder).__qualname__}{where}"

    def walk(held, path: list[str], level: int) -> None:
        if level == depth or len(chains) >= 6:
            chains.append(" <- ".join(path))
            return
        holders = gc.get_referrers(held)
        ignored.add(id(holders))
        outside = [holder for holder in holders if id(holder) not in ignored and not _probe_frame(holder)]
        ignored.add(id(outside))
        if not outside:
            chains.append(" <- ".join(path) + " <- (nothing the collector tracks)")
        for index in range(min(2, len(outside))):  # no iterator: it would be one more referrer
            walk(outside[index], [*path, name_of(outside[index], held)], level + 1)

    ignored.add(id(chains))
    walk(target, [type(target).__qualname__], 0)
    return chains


def _write_holders(seconds: int) -> None:
    """Websocket protocol states (ServerProtocol) no live uvicorn connection owns any more, and
    what keeps three of them alive. The objects frozen at startup (tuning/garbage.py) are out of
    gc.get_referrers' reach, so they are thawed for the search and frozen again after it (with
    everything alive then: later probes count fewer objects)."""
    gc.unfreeze()
    everything = gc.get_objects()
    owned = {id(value.conn) for value in everything if type(value).__qualname__ == "WebSocketsSansIOProtocol"}
    states = [value for value in everything if type(value).__qualname__ == "ServerProtocol"]
    orphans = [value for value in states if id(value) not in owned]
    ignored = {id(everything), id(states), id(orphans)}
    report = {"server_protocols": len(states), "owned": len(owned), "orphans": len(orphans),
              "orphan_states": dict(Counter(str(getattr(value, "state", "?")) for value in orphans)), "holders": []}
    for index in range(min(3, len(orphans))):
        report["holders"].append(_holders(orphans[index], ignored))
    del everything, states, orphans
    gc.freeze()
    (_directory / f"holders-{seconds:05d}.json").write_text(json.dumps(report, indent=1))


def _keep_writing() -> None:
    began = time.monotonic()
    next_probe = _every
    holders_from = float(os.environ.get("CHALK_TRACE_HOLDERS") or "inf")
    while True:
        now = time.monotonic() - began
        if now >= next_probe:
            _write_types(round(now))
            if now >= holders_from:
                _write_holders(round(now))
            next_probe += _every
        time.sleep(1)


async def _collect_every_logged(seconds: float) -> None:
    """tuning.garbage.collect_every, logging each collection (CHALK_TRACE_COLLECTIONS)."""
    with open(_directory / "collections.jsonl", "a") as log:
        while True:
            await asyncio.sleep(seconds)
            before = _count("ServerProtocol")
            collected = gc.collect()
            log.write(json.dumps({"protocol_states_before": before, "collected": collected,
                                  "protocol_states_after": _count("ServerProtocol")}) + "\n")
            log.flush()


if os.environ.get("CHALK_TRACE_COLLECTIONS"):
    garbage.collect_every = _collect_every_logged  # config/lifespan.py looks it up when it starts
threading.Thread(target=_keep_writing, name="memory-probes", daemon=True).start()
