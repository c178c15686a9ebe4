"""Benchmark: the standings and bracket pages of a 512-pair competition (issue 8: <= 100 ms).

Server time: the Django view called in-process through the test client (routing, middleware,
queries, template), best of 10, plus the recompute of the stored standings that each result
triggers (fetch, pure standings, write what changed). Prints figures only, no assertions.

Run: ``.venv/bin/python benchmarks/standings_page.py [pairs]``. It makes a throwaway test
database (``test_`` + the configured name; the embedded PostgreSQL without DATABASE_URL) and drops it.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")


def best_of(runs: int, action) -> tuple[float, float]:
    wall = cpu = float("inf")
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        action()
        wall = min(wall, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - started_cpu)
    return wall * 1000, cpu * 1000


def main() -> None:
    import django

    django.setup()
    from django.test import Client
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases
    from django.urls import reverse

    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 512
    setup_test_environment()
    databases = setup_databases(verbosity=0, interactive=False)
    try:
        from tests.competitions_db.helpers import big_finished_competition
        from tournaments.services import ranking

        client = Client()
        swiss = big_finished_competition("swiss", pairs, rounds=9)
        knockout = big_finished_competition("single_elimination", pairs)
        for label, url in [("swiss standings", reverse("tournaments:standings", args=[swiss.pk])),
                           ("knockout standings", reverse("tournaments:standings", args=[knockout.pk])),
                           ("knockout bracket", reverse("tournaments:bracket", args=[knockout.pk]))]:
            assert client.get(url).status_code == 200
            wall, cpu = best_of(10, lambda: client.get(url))
            print(f"{label:<22} {pairs} pairs: {wall:7.1f} ms wall  {cpu:7.1f} ms cpu  (page, best of 10)")
        wall, cpu = best_of(5, lambda: ranking.refresh(swiss))
        print(f"{'swiss recompute':<22} {pairs} pairs: {wall:7.1f} ms wall  {cpu:7.1f} ms cpu  (after a result)")
    finally:
        teardown_databases(databases, verbosity=0)


if __name__ == "__main__":
    main()
