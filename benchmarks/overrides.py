"""Each override of tuning/ measured against one run without it (issue 33; tuning/README.md).

    .venv/bin/python benchmarks/overrides.py [--only garbage,cache] [--rounds 1] [--seconds 8]

For each override the benchmark that exercises it is run twice side by side, kept then removed
(CHALK_TUNING_OFF=<name>, read once by the server at start-up; config/settings.py), `--rounds`
times alternating, and a table is printed: override, benchmark, kept figure, removed figure,
change %, verdict. The verdict is `keep` when removing the override costs 5% or more of the
figure (fewer moves or requests a second, or a p99 5% longer), or when a test shows the defect it fixes (DEFECTS below), else `remove?`: a short run on
a busy machine is noisy, so a `remove?` is read against the spread of a second run before any
code goes.

- live_load (benchmarks/live_load.py --mode full): accepted moves/s, played flat out;
- live_load via take: the same with the loop's own writes off, so every move goes through the
  locked transaction and is published from synchronous code (the path bots and clocks take);
- pages (benchmarks/pages.py): requests/s of the signed-in home and the lobby, mean of the two;
  pages p99: their p99 in ms, mean of the two (lower is better: the collector's pauses show there);
- soak p99 (benchmarks/soak.py, a short one: --soak-minutes, tables at human pace whose finished
  matches are replaced, so sockets come and go while others move): act -> ack p99 in ms.

DATABASE_URL (default postgres://postgres@127.0.0.1:5432/chalk_overrides) and REDIS_URL (default
redis://127.0.0.1:6379/3) as for live_load.py and pages.py, which this script runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tuning import OVERRIDES  # noqa: E402

THRESHOLD = 0.05
LIVE, VIA_TAKE, PAGES, PAGES_P99, SOAK_P99 = "live_load", "live_load via take", "pages", "pages p99", "soak p99"
LOWER_IS_BETTER = {PAGES_P99, SOAK_P99}
# The benchmark that exercises each override, and what it is measured against (other overrides
# switched off in both runs: `broadcast` sends only from synchronous code).
BENCHMARK = {
    "asgi_http": (PAGES, ()),
    "cache": (PAGES, ()),
    "garbage": (PAGES_P99, ()),
    "channel_layer": (SOAK_P99, ()),
    "loop_writes": (LIVE, ()),
    "broadcast": (VIA_TAKE, ("loop_writes",)),
}
# The defect a test shows each override fixes (the verdict is `keep` whatever the figure).
DEFECTS = {
    "asgi_http": "tests/web/test_asgi_http.py (page-thread exhaustion answered 500)",
    "cache": "tests/web/test_cache_client.py (connections unbounded)",
}
assert set(BENCHMARK) == set(OVERRIDES)


def run(command: list[str], off: tuple[str, ...], env: dict) -> list[dict]:
    env = {**env, "CHALK_TUNING_OFF": ",".join(off)}
    done = subprocess.run([sys.executable, *command], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} (off: {off}) failed:\n{done.stderr[-3000:]}")
    lines = []
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def figure(benchmark: str, off: tuple[str, ...], args, env: dict) -> float:
    if benchmark in (LIVE, VIA_TAKE):
        lines = run(["benchmarks/live_load.py", "--mode", "full", "--repeat", "1", "--tables", str(args.tables),
                     "--seconds", str(args.seconds), "--warmup", str(args.warmup)], off, env)
        full = [line for line in lines if line.get("mode") == "full" and "moves_per_s" in line]
        return full[-1]["moves_per_s"]
    if benchmark == SOAK_P99:
        lines = run(["benchmarks/soak.py", "--minutes", str(args.soak_minutes), "--tables", "100", "--pace", "3",
                     "--ramp", "15", "--sample", "10"], off, env)
        return [line for line in lines if line.get("summary")][-1]["p99_ms"]
    lines = run(["benchmarks/pages.py", "--only", "home,lobby", "--seconds", str(args.seconds / 2),
                 "--warmup", "1", "--clients", "10", "--tables", "60", "--rated", "20"], off, env)
    key = "p99_ms" if benchmark == PAGES_P99 else "rps"
    pages = [line[key] for line in lines if line.get("page") in ("home", "lobby") and key in line]
    return sum(pages) / len(pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", type=lambda text: [name for name in text.split(",") if name], default=None)
    parser.add_argument("--rounds", type=int, default=1, help="kept/removed pairs per override")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--soak-minutes", type=float, default=2.0)
    args = parser.parse_args()
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/chalk_overrides")
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/3")
    rows = []
    for name in args.only or OVERRIDES:
        benchmark, base = BENCHMARK[name]
        kept, removed = [], []
        for _ in range(args.rounds):
            kept.append(figure(benchmark, base, args, env))
            removed.append(figure(benchmark, (*base, name), args, env))
        kept_figure, removed_figure = sum(kept) / len(kept), sum(removed) / len(removed)
        change = (removed_figure - kept_figure) / kept_figure if kept_figure else 0.0
        worse = change if benchmark in LOWER_IS_BETTER else -change  # what removing it costs
        pays = worse >= THRESHOLD
        verdict = "keep" if pays else "keep (defect)" if name in DEFECTS else "remove?"
        rows.append({"override": name, "benchmark": benchmark, "kept": round(kept_figure, 1),
                     "removed": round(removed_figure, 1), "change_pct": round(100 * change, 1),
                     "verdict": verdict, "runs_kept": kept, "runs_removed": removed,
                     "load_average_1m": round(os.getloadavg()[0], 2)})
        print(json.dumps(rows[-1]), flush=True)
    unit = {LIVE: "moves/s", VIA_TAKE: "moves/s", PAGES: "req/s", PAGES_P99: "ms, lower is better",
            SOAK_P99: "act -> ack ms, lower is better"}
    print(f"\n| override | benchmark | kept | removed | change | verdict |\n| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(f"| {row['override']} | {row['benchmark']} ({unit[row['benchmark']]}) | {row['kept']} | "
              f"{row['removed']} | {row['change_pct']:+.1f}% | {row['verdict']} |")


if __name__ == "__main__":
    main()
