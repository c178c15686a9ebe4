"""Benchmark: Chalk's main pages under 20 concurrent clients, beside a bare Django view on the
same uvicorn (issue 16, item 9: every page >= 0.3x the bare view's requests/s, p99 <= 100 ms).

Pages (anonymous visitors): `/`, the `/play/` lobby with --tables public playing tables, a
16-pair round-robin standings page, that competition's page, the match archive (`/matches/`),
the replay of a finished match and its timeline (the JSON replay.js fetches), and the All Fours leaderboard (--rated players over 2,000 rated
matches); and the signed-in dashboard (`/` with a session cookie) of the busiest player. The bare view (/bench/bare/, benchmarks/pages_urls.py) runs through the same
middleware; it is measured first and last, and each page is compared with the mean of the two.

Against the real services, each its own: PostgreSQL (DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/chalk_web_bench, created and migrated when missing, its rows
made once and kept for the next run) and Redis (REDIS_URL, default redis://127.0.0.1:6379/5).
uvicorn runs in a subprocess pinned to one core (--server-core, default 1), the clients in this
process on the other. The clients are raw keep-alive HTTP/1.1 connections on asyncio, so the
client side costs little next to the server.

Run: ``.venv/bin/python benchmarks/pages.py [--seconds 5] [--clients 20] [--only lobby,archive] [--gc-pauses]``.
Prints one JSON line per page (requests/s, p50, p99, errors, server CPU share, ratio to bare)
and the machine's 1-minute load average: the machine is shared, so compare figures of one run.
With --gc-pauses it also prints the server's garbage-collection pauses per generation.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks import gc_pauses  # noqa: E402
HOST = "127.0.0.1"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/chalk_web_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/5"
MARK = "bench-pages"  # the club whose existence says the rows were made


def bench_env(args) -> dict:
    env = dict(os.environ)
    env.update(DATABASE_URL=args.database_url, REDIS_URL=args.redis_url, DJANGO_SETTINGS_MODULE="benchmarks.pages_settings",
               SECRET_KEY="bench-pages-not-secret", ALLOWED_HOSTS=HOST, SECURE_SSL_REDIRECT="0",
               CELERY_TASK_ALWAYS_EAGER="1", BOT_MOVE_DELAY="0", LOG_LEVEL="WARNING",
               # each request closes its connection: per-thread persistent ones pile up (issue 16, item 1)
               DB_CONN_MAX_AGE=os.environ.get("DB_CONN_MAX_AGE", "0"))
    return env


# ----- the rows --------------------------------------------------------------------------------

def ensure_database(url: str) -> None:
    """Create the benchmark's own database when missing (on this machine only)."""
    import psycopg

    parts = urlsplit(url)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit(f"the benchmark's database must be on this machine, not {parts.hostname!r}")
    name = parts.path.lstrip("/")
    admin_url = urlunsplit(("postgresql", parts.netloc, "/postgres", parts.query, ""))
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=10) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


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
        services.create_match("allfours", {}, [SeatSpec(user=u) for u in players[n % 50 * 4:][:4]] or players[:4])
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


def request_of(page) -> bytes:
    """A page is a path, or (path, cookie) for a signed-in visitor."""
    path, cookie = page if isinstance(page, tuple) else (page, None)
    cookie_line = f"Cookie: {cookie}\r\n" if cookie else ""
    return f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept-Language: en\r\n{cookie_line}\r\n".encode()


# ----- the server ------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, args):
        self.port, self.log = free_port(), tempfile.TemporaryFile(mode="w+")
        core = args.server_core
        app, env = "config.asgi:application", bench_env(args)
        if args.gc_pauses:  # the collector's pauses, recorded in the server (gc_paused_asgi.py)
            app, env["CHALK_GC_PAUSES"] = "benchmarks.gc_paused_asgi:application", args.gc_pauses
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", app, "--host", HOST, "--port", str(self.port),
             "--log-level", "warning", "--no-access-log", "--no-server-header"],
            cwd=ROOT, env=env, stdout=self.log, stderr=self.log,
            preexec_fn=lambda: os.sched_setaffinity(0, {core}))
        self.wait_ready()

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"uvicorn exited:\n{self.tail()}")
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"uvicorn did not start in 60 s:\n{self.tail()}")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def tail(self) -> str:
        self.log.seek(0)
        return self.log.read()[-3000:]

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# ----- the clients -----------------------------------------------------------------------------

async def fetch(reader, writer, request: bytes) -> int:
    """One request on a keep-alive connection; the status code (the body is read and dropped)."""
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    else:  # chunked
        while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
            await reader.readexactly(size + 2)
        await reader.readuntil(b"\r\n")
    return int(lines[0].split()[1])


async def client(port, page, stop_at, start_at, latencies, errors) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    request = request_of(page)
    try:
        while (now := time.monotonic()) < stop_at:
            status = await fetch(reader, writer, request)
            if now >= start_at:
                (latencies.append(time.monotonic() - now) if status == 200 else errors.append(status))
    finally:
        writer.close()


def percentile(values, q):
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1) if ordered else None


async def measure(server, name, page, args) -> dict:
    latencies, errors = [], []
    start_at = time.monotonic() + args.warmup
    stop_at = start_at + args.seconds
    cpu_before = server.cpu_seconds() + 0.0
    await asyncio.gather(*(client(server.port, page, stop_at, start_at, latencies, errors)
                           for _ in range(args.clients)))
    cpu = (server.cpu_seconds() - cpu_before) / (args.warmup + args.seconds)
    return {"page": name, "path": page[0] if isinstance(page, tuple) else page, "requests": len(latencies), "rps": round(len(latencies) / args.seconds, 1),
            "p50_ms": percentile(latencies, 0.5), "p99_ms": percentile(latencies, 0.99),
            "errors": dict(Counter(errors)),
            "server_cpu": round(cpu, 2)}


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


def report(results: list[dict]) -> None:
    bare = [r["rps"] for r in results if r["page"] == "bare"]
    ceiling = sum(bare) / len(bare)
    print(json.dumps({"bare_rps": bare, "load_average_1m": round(os.getloadavg()[0], 2)}))
    print(f"{'page':<12} {'req/s':>8} {'x bare':>7} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} {'cpu':>5}")
    for r in results:
        ratio = r["rps"] / ceiling if ceiling else 0
        print(f"{r['page']:<12} {r['rps']:>8.1f} {ratio:>7.2f} {r['p50_ms']!s:>7} {r['p99_ms']!s:>7} "
              f"{sum(r['errors'].values()):>6} {r['server_cpu']:>5}")


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
    ensure_database(args.database_url)
    pages = seed(args.tables, args.rated)
    server = Server(args)
    try:
        results = asyncio.run(run_all(server, pages, args))
        report(results)
        if any(r["errors"] for r in results):
            print("server log (tail):\n" + server.tail(), file=sys.stderr)
    except OSError:
        print(server.tail(), file=sys.stderr)
        raise
    finally:
        server.stop()
    if args.gc_pauses:
        print(json.dumps({"gc_pauses": gc_pauses.summary(args.gc_pauses)}))
        os.unlink(args.gc_pauses)


if __name__ == "__main__":
    main()
