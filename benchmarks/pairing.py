"""Benchmark: a Swiss round for 1,000 pairs (issue 8: <= 1 s) and the
standings of a 512-pair competition (issue 8: <= 100 ms server time; this is
the pure computation, without queries or rendering).

Prints figures only; no assertions. Run: ``python benchmarks/pairing.py``.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats import Entry, Options, Result, get_format  # noqa: E402
from tournaments.standings import standings  # noqa: E402


def decide(pairing, rng):
    """The better seed wins a little more often; some draws."""
    roll = rng.random()
    if roll < 0.05:
        return None
    favourite = 0.5 + (pairing.away - pairing.home) / 4000
    return pairing.home if roll < favourite else pairing.away


def play_swiss(count: int, rounds: int, seed: int = 7):
    """Yield (round, seconds to pair it) while playing a Swiss to the end."""
    rng, fmt = random.Random(seed), get_format("swiss")
    entries = [Entry(n, seed=n) for n in range(1, count + 1)]
    pairings, results, timings = [], [], []
    for round_no in range(1, rounds + 1):
        started, started_cpu = time.perf_counter(), time.process_time()
        new = fmt.next_round(entries, pairings, results, Options(rounds=rounds))
        timings.append((round_no, time.perf_counter() - started, time.process_time() - started_cpu))
        pairings += new
        results += [Result(p.round, p.slot, decide(p, rng), 2, 1) for p in new if not p.is_bye]
    return entries, pairings, results, timings


def main() -> None:
    _, _, _, timings = play_swiss(1000, 9)
    print("Swiss, 1,000 pairs, 9 rounds: wall seconds per round "
          + " ".join(f"{wall:.2f}" for _, wall, _ in timings)
          + f" (worst {max(t[1] for t in timings):.2f} s wall, {max(t[2] for t in timings):.2f} s CPU)")

    entries, pairings, results, _ = play_swiss(512, 9)
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        standings("swiss", entries, pairings, results)
        best = min(best, time.perf_counter() - started)
    print(f"standings of a 512-pair Swiss after 9 rounds: {best * 1000:.1f} ms (best of 5)")


if __name__ == "__main__":
    main()
