"""Benchmark: recompute Elo from 1,000,000 pair matches (issue 9: <= 5 s).

Prints figures only; no assertions (docs/design.md: benchmarks measure, tests
check). Run: ``python benchmarks/ratings.py [matches] [players]``. CPU time
is printed next to wall time because CI machines are often shared.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.ratings.recompute import recompute  # noqa: E402

GAMES = ("all_fours", "baloot", "cuatrola")


def history(count: int, players: int, seed: int = 9) -> list:
    """``count`` matches between random pairs of ``players`` players."""
    rng = random.Random(seed)
    result = []
    for _ in range(count):
        a1, a2, b1, b2 = rng.sample(range(players), 4)
        result.append((rng.choice(GAMES), (a1, a2), (b1, b2), rng.choice((1.0, 0.0, 1.0, 0.0, 0.5))))
    return result


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    matches = history(count, players)
    wall = cpu = float("inf")
    for _ in range(3):
        started, started_cpu = time.perf_counter(), time.process_time()
        recompute(matches)
        wall = min(wall, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - started_cpu)
    print(f"recompute {count:,} pair matches ({players:,} players, 3 games): "
          f"{wall:.2f} s wall, {cpu:.2f} s CPU (best of 3)")


if __name__ == "__main__":
    main()
