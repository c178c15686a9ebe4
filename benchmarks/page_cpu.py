"""Benchmark: one page's CPU milliseconds a request and its queries, in-process (Django test
client), on the data set of benchmarks/pages.py (its own database, rows made once and kept).

Run: ``.venv/bin/python benchmarks/page_cpu.py [--page dashboard] [--requests 200]``. Prints one
JSON line: the page, its queries, and the CPU ms a request (median, p90, min) over --requests
after --warmup requests. With ``--profile`` it also prints the top of a cProfile of the requests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import pages  # noqa: E402
from benchmarks.servers import HOST, create_database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--page", default="dashboard")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--tables", type=int, default=600)
    parser.add_argument("--rated", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", pages.DEFAULT_DB))
    # a redis-server of its own unless told: the shared server's databases are others'
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", ""))
    args = parser.parse_args()
    redis = None
    if not args.redis_url:  # a redis-server of this run's own, in a temporary directory
        import tempfile

        from config import embedded_redis

        var_dir = Path(tempfile.mkdtemp(prefix="page-cpu-"))
        redis = embedded_redis.start(var_dir)
        args.redis_url = embedded_redis.redis_url(var_dir)
    try:
        run(args)
    finally:
        if redis is not None:
            embedded_redis.stop(redis)


def run(args) -> None:
    os.environ.update(pages.bench_env(args))
    create_database(args.database_url)
    page = pages.seed(args.tables, args.rated)[args.page]
    path, cookie = page if isinstance(page, tuple) else (page, None)

    from django.conf import settings
    from django.db import connection
    from django.test import Client

    browser = Client(HTTP_ACCEPT_LANGUAGE="en", HTTP_HOST=HOST)
    if cookie:
        browser.cookies[settings.SESSION_COOKIE_NAME] = cookie.split("=", 1)[1]
    for _ in range(args.warmup):
        assert browser.get(path).status_code == 200
    queries = []  # an execute wrapper: the test client's request_started resets connection.queries
    with connection.execute_wrapper(lambda execute, sql, *rest: queries.append(sql) or execute(sql, *rest)):
        browser.get(path)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    times = []
    for _ in range(args.requests):
        start = time.process_time()
        browser.get(path)
        times.append((time.process_time() - start) * 1000)
    if profiler:
        profiler.disable()
        import pstats

        pstats.Stats(profiler).sort_stats(os.environ.get("PROFILE_SORT", "cumulative")).print_stats(int(os.environ.get("PROFILE_LINES", "40")))
        print("\n".join(queries))
    times.sort()
    print(json.dumps({"page": args.page, "path": path, "queries": len(queries),
                      "cpu_ms_median": round(statistics.median(times), 2),
                      "cpu_ms_p90": round(times[int(0.9 * len(times))], 2), "cpu_ms_min": round(times[0], 2)}))


if __name__ == "__main__":
    main()
