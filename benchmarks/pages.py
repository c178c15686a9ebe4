"""Benchmark: Chalk's main pages under 20 concurrent clients, beside a bare Django view on the
same uvicorn (issue 33: every page >= 0.3x the bare view's requests/s, with a p99 no worse than
2x the bare view's p99, both measured in the same run).

Pages (anonymous visitors): `/`, the `/play/` lobby with --tables public playing tables, a
16-pair round-robin standings page, that competition's page, the match archive (`/matches/`),
the replay of a finished match and its timeline (the JSON replay.js fetches), and the All Fours leaderboard (--rated players over 2,000 rated
matches); and the signed-in dashboard (`/` with a session cookie) of the busiest player. The bare view (/bench/bare/, benchmarks/pages_urls.py) runs through the same
middleware; it is measured first and last, and each page is compared with the mean of the two:
its requests/s and its p99 as multiples of theirs, each target marked met or UNMET.

Against the real services, each its own: PostgreSQL (DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/chalk_web_bench, created and migrated when missing, its rows
made once and kept for the next run) and Redis (REDIS_URL, default redis://127.0.0.1:6379/5).
uvicorn runs in a subprocess pinned to one core (--server-core, default 1), the clients in this
process on the other. The clients are raw keep-alive HTTP/1.1 connections on asyncio, so the
client side costs little next to the server (benchmarks/load_client.py, shared with live_load.py,
soak.py and cluster.py; the server is started by benchmarks/servers.py).

Run: ``.venv/bin/python benchmarks/pages.py [--seconds 5] [--clients 20] [--only lobby,archive] [--gc-pauses]``.
Prints one JSON line per page (requests/s, p50, p99, errors, server CPU share), the bare view's
figures and the machine's 1-minute load average, a table with each page's multiples of the bare
view and its verdict, and one JSON line of the targets: the machine is shared, so compare
figures of one run.
With --gc-pauses it also prints the server's garbage-collection pauses per generation.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks import gc_pauses  # noqa: E402
from benchmarks.load_client import fetch, page_load, request_of  # noqa: E402  (the one load client)
from benchmarks.servers import HOST, Server, create_database  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/chalk_web_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/5"
MARK = "bench-pages"  # the club whose existence says the rows were made
TARGET_RPS = 0.3  # a page's requests/s, at least this many times the bare view's (issue 33)
TARGET_P99 = 2.0  # a page's p99, at most this many times the bare view's (issue 33)


def bench_env(args) -> dict:
    env = dict(os.environ)
    env.update(DATABASE_URL=args.database_url, REDIS_URL=args.redis_url, DJANGO_SETTINGS_MODULE="benchmarks.pages_settings",
               SECRET_KEY="bench-pages-not-secret", ALLOWED_HOSTS=HOST, SECURE_SSL_REDIRECT="0",
               CELERY_TASK_ALWAYS_EAGER="1", BOT_MOVE_DELAY="0", LOG_LEVEL="WARNING",
               # each request closes its connection: per-thread persistent ones pile up (issue 16, item 1)
               DB_CONN_MAX_AGE=os.environ.get("DB_CONN_MAX_AGE", "0"))
    return env


# ----- the rows --------------------------------------------------------------------------------

def seed(tables: int, rated: int) -> dict:
    """Make the rows once (kept between runs); return the URLs to measure."""
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # served hashed, as in production
    from clubs.models import Club

    if not Club.objects.filter(slug=MARK).exists():
        make_rows(tables, rated)
    return urls()


def make_rows(tables: int, rated: int) -> None:
    from clubs.models import Club
    from gameplay import services
    from gameplay.services import SeatSpec
    from tests.competitions_db.helpers import big_finished_competition
    from tests.ratings.conftest import finished_matches, make_users, random_specs
    from tournaments.models import Competition
    from tournaments.ratings.services import rate_pending_matches

    players = make_users(max(rated, 4), prefix="benchp")
    for n in range(tables):  # the same four players at every table: the lobby lists them all
        four = players[n % 50 * 4:][:4]
        services.create_match("allfours", {}, [SeatSpec(user=u) for u in (four if len(four) == 4 else players[:4])])
    for seed_number in range(5):  # real finished matches, for the replay
        services.create_match("allfours", {}, [SeatSpec(bot="random")] * 4, seed=seed_number, first_dealer=0)
    finished_matches(random_specs(players, 2000), game="allfours")
    rate_pending_matches()
    competition = big_finished_competition("round_robin", 16)
    Competition.objects.filter(pk=competition.pk).update(visibility=Competition.Visibility.PUBLIC)
    Club.objects.filter(pk=competition.club_id).update(is_public=True)
    Club.objects.create(name="Bench pages", slug=MARK)


def urls() -> dict:
    from gameplay.models import Match
    from tournaments.models import Competition

    competition = Competition.objects.filter(format="round_robin").order_by("-pk").first()
    replayed = Match.objects.filter(status=Match.Status.FINISHED, actions__isnull=False).order_by("-pk").first()
    return {"bare": "/bench/bare/", "home": "/", "lobby": "/play/",
            "standings": f"/competitions/{competition.pk}/standings/", "competition": f"/competitions/{competition.pk}/",
            "archive": "/matches/", "replay": f"/matches/{replayed.pk}/replay/",
            "timeline": f"/matches/{replayed.pk}/replay/timeline.json", "leaderboard": "/ratings/allfours/",
            "dashboard": ("/", signed_in_cookie())}


def signed_in_cookie() -> str:
    """The session cookie of the busiest player: a seat at a twelfth of the lobby's tables, in
    hundreds of finished and rated matches and in the round robin (the dashboard's worst case)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tournaments.models import EntryPlayer

    in_competition = EntryPlayer.objects.filter(user__username__startswith="benchp").values("user_id")
    user = (get_user_model().objects.filter(pk__in=in_competition).order_by("pk").first()
            or get_user_model().objects.get(username="benchp0"))
    browser = Client()
    browser.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"


# ----- the server and its clients --------------------------------------------------------------

def start_server(args) -> Server:
    """uvicorn on --server-core with the pages' settings (or the collector's probe with --gc-pauses)."""
    app, env = "config.asgi:application", bench_env(args)
    if args.gc_pauses:  # the collector's pauses, recorded in the server (gc_paused_asgi.py)
        app, env["CHALK_GC_PAUSES"] = "benchmarks.gc_paused_asgi:application", args.gc_pauses
    return Server(app, env, core=args.server_core)


async def measure(server, name, page, args) -> dict:
    path = page[0] if isinstance(page, tuple) else page
    return {"page": name, "path": path, **await page_load(server, page, args.clients, args.warmup, args.seconds)}


async def warm(server, pages: dict) -> None:
    """One request to each page first: imports, template compiles and the replay's cache entry
    are start-up costs, not what is measured."""
    reader, writer = await asyncio.open_connection(HOST, server.port)
    for page in pages.values():
        await fetch(reader, writer, request_of(page))
    writer.close()


async def run_all(server, pages: dict, args) -> list[dict]:
    await warm(server, pages)
    results = [await measure(server, "bare", pages["bare"], args)]
    for name, page in pages.items():
        if name != "bare" and (not args.only or name in args.only):
            results.append(await measure(server, name, page, args))
            print(json.dumps(results[-1]), flush=True)
    results.append(await measure(server, "bare", pages["bare"], args))
    return results


def anchored(results: list[dict]) -> list[dict]:
    """Each measurement against the bare view measured first and last in the same run: its
    requests/s and its p99 as multiples of the mean of the two bare runs', and for a page whether
    it meets the targets (issue 33: >= TARGET_RPS x the bare view's requests/s, a p99 <= TARGET_P99
    x the bare view's p99)."""
    bare = [r for r in results if r["page"] == "bare"]
    rps = sum(r["rps"] for r in bare) / len(bare)
    p99s = [r["p99_ms"] for r in bare if r["p99_ms"] is not None]
    p99 = sum(p99s) / len(p99s) if p99s else None
    rows = []
    for r in results:
        x_rps = round(r["rps"] / rps, 2) if rps else None
        x_p99 = round(r["p99_ms"] / p99, 2) if p99 and r["p99_ms"] is not None else None
        met = None if r["page"] == "bare" else (
            x_rps is not None and x_p99 is not None and x_rps >= TARGET_RPS and x_p99 <= TARGET_P99)
        rows.append({**r, "x_bare_rps": x_rps, "x_bare_p99": x_p99, "met": met})
    return rows


def report(results: list[dict]) -> None:
    bare = [r for r in results if r["page"] == "bare"]
    print(json.dumps({"bare_rps": [r["rps"] for r in bare], "bare_p99_ms": [r["p99_ms"] for r in bare],
                      "load_average_1m": round(os.getloadavg()[0], 2)}))
    rows = anchored(results)
    print(f"{'page':<12} {'req/s':>8} {'x bare':>7} {'p50 ms':>7} {'p99 ms':>7} {'x p99':>6} {'errors':>6} "
          f"{'cpu':>5}  targets (>= {TARGET_RPS}x req/s, <= {TARGET_P99:g}x p99)")
    for r in rows:
        verdict = "-" if r["met"] is None else "met" if r["met"] else "UNMET"
        print(f"{r['page']:<12} {r['rps']:>8.1f} {r['x_bare_rps']!s:>7} {r['p50_ms']!s:>7} {r['p99_ms']!s:>7} "
              f"{r['x_bare_p99']!s:>6} {sum(r['errors'].values()):>6} {r['server_cpu']:>5}  {verdict}")
    pages = {r["page"]: {"x_bare_rps": r["x_bare_rps"], "x_bare_p99": r["x_bare_p99"], "met": r["met"]}
             for r in rows if r["met"] is not None}
    print(json.dumps({"targets": {"rps_x_bare_min": TARGET_RPS, "p99_x_bare_max": TARGET_P99, "pages": pages,
                                  "all_met": all(page["met"] for page in pages.values())}}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--tables", type=int, default=600, help="public playing tables in the lobby")
    parser.add_argument("--rated", type=int, default=200, help="rated players on the leaderboard")
    parser.add_argument("--only", type=lambda text: set(text.split(",")), default=None)
    parser.add_argument("--server-core", type=int, default=1)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DB))
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", DEFAULT_REDIS))
    parser.add_argument("--gc-pauses", action="store_true",
                        help="record the server's garbage-collection pauses and print them per generation")
    args = parser.parse_args()
    if args.gc_pauses:
        descriptor, args.gc_pauses = tempfile.mkstemp(prefix="chalk-gc-pauses-")
        os.close(descriptor)
    os.environ.update(bench_env(args))
    os.sched_setaffinity(0, {1 - args.server_core} if os.cpu_count() > 1 else {0})
    create_database(args.database_url)
    pages = seed(args.tables, args.rated)
    server = start_server(args)
    try:
        results = asyncio.run(run_all(server, pages, args))
        report(results)
        if any(r["errors"] for r in results):
            print("server log (tail):\n" + server.log_tail(), file=sys.stderr)
    except OSError:
        print(server.log_tail(), file=sys.stderr)
        raise
    finally:
        server.stop()
    if args.gc_pauses:
        print(json.dumps({"gc_pauses": gc_pauses.summary(args.gc_pauses)}))
        os.unlink(args.gc_pauses)


if __name__ == "__main__":
    main()
