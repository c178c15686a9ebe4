"""Bot strength: matches between two partnerships of bots, with the seats swapped.

    python benchmarks/bots.py [--games allfours,baloot,cuatrola,baloot_saudi] [--rule-matches 400]
                              [--search-matches 100] [--budget 0.2] [--processes 2] [--clock wall]

`baloot_saudi` is Baloot in its classic Saudi mode (`game_mode: saudi_classic`). `--clock cpu`
measures the search budget and the decision times in the process's CPU time instead of the wall
clock: "one core of this machine" on a machine other work is loading.

Every seed is played twice, the second time with the teams exchanged (the same cards, the other
side of every deal), so luck in the cards cancels. For each pairing and game it prints the first
bot's match win rate with a 95% (Wilson) interval, its mean score margin per deal with a 95%
interval, and the search bot's decision times (median and p99, over the card plays it searched).
Then a table of the rule-based bot's bidding: how often its contract or its stand is made.
The load average is printed at the start and the end: the machine may be shared.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gameplay.bots import get_bot  # noqa: E402
from gameplay.rules import get_game  # noqa: E402

TARGETS = {"normal vs random": 0.75, "strong vs normal": 0.60}
# a benchmark "game": (the engine's game, its options)
VARIANTS = {"allfours": ("allfours", {}), "baloot": ("baloot", {}), "cuatrola": ("cuatrola", {}),
            "baloot_saudi": ("baloot", {"game_mode": "saudi_classic"})}
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def play_match(job: tuple) -> dict:
    """One match: bot `first` holds team 0 (or team 1 when `swap`), `second` the other team."""
    variant, first, second, seed, swap, budget, clock_name = job
    game_name, options = VARIANTS[variant]
    game = get_game(game_name)
    clock = CLOCKS[clock_name]
    names = [first, second, first, second] if not swap else [second, first, second, first]
    bots = [get_bot(name, seed=seed * 4 + seat, options=options, budget=budget, clock=clock)
            for seat, name in enumerate(names)]
    state = game.start(seed=seed, options=options, dealer=seed % 4)
    ours = 1 if swap else 0
    times, searched = [], []
    while state.to_act is not None:
        seat = state.to_act
        legal = state.legal_actions()
        view = state.view(seat) if bots[seat].needs_view else None
        started = clock()
        action = bots[seat].choose(view, legal)
        elapsed = clock() - started
        if names[seat] == first:
            times.append(elapsed)
            if getattr(bots[seat], "searched", 0):
                searched.append(elapsed)
        state.apply(action)
    # annulled deals (Baloot's four passes) and packs run out (All Fours) were never played
    deals = [r for r in state.deal_records
             if r["detail"].get("result") != "annulled" and not r["detail"].get("redeal")]
    return {"won": state.winner == ours, "margins": [r["delta"][ours] - r["delta"][1 - ours] for r in deals],
            "times": times, "searched": searched,
            "bidding": bidding_records(game_name, state, names, RULE_BIDDERS)}


RULE_BIDDERS = {"normal", "strong"}  # the strong bot bids with the rule-based player's heuristics


def bidding_records(game_name: str, state, names, bot: set) -> list[bool]:
    """For each deal where a rule-based bidder chose the contract (or stood), whether it was made."""
    made = []
    for record in state.deal_records:
        detail = record["detail"]
        if game_name == "allfours":
            outcome = _stand_made(detail, names, bot)
        elif game_name == "baloot":
            outcome = _baloot_made(detail, names, bot)
        else:
            outcome = _cuatrola_made(detail, names, bot)
        if outcome is not None:
            made.append(outcome)
    return made


def _stand_made(detail, names, bot):
    """A stand is made when the pone's team takes more of High, Low, Jack and Game."""
    if detail.get("decision") != "stand" or names[(detail["dealer"] + 1) % 4] not in bot:
        return None
    team = (detail["dealer"] + 1) % 2
    won = [0, 0]
    for item, scorer, points in detail.get("points", []):
        if item != "kick":
            won[scorer] += points
    return won[team] > won[1 - team]


def _baloot_made(detail, names, bot):
    """Contract mode: the bidder's contract; Saudi mode: the buyer's (a khasara is a failure)."""
    if "buyer" in detail:  # the Saudi mode's deal record
        if detail.get("result") in (None, "annulled") or names[detail["buyer"]] not in bot:
            return None
        return detail["result"] == "made"
    if detail.get("result") not in ("made", "inside", "tie") or names[detail["bidder"]] not in bot:
        return None
    return detail["result"] == "made"


def _cuatrola_made(detail, names, bot):
    if detail.get("contract") in (None, "pass") or names[detail["declarer"]] not in bot:
        return None
    return detail["hand_winner_team"] == detail["declarer"] % 2


def wilson(wins: int, n: int) -> tuple[float, float]:
    if not n:
        return 0.0, 0.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0] if values else 0.0), 0.0
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summarise(label: str, game: str, results: list[dict]) -> dict:
    wins = sum(r["won"] for r in results)
    low, high = wilson(wins, len(results))
    margins = [m for r in results for m in r["margins"]]
    mean, half = mean_interval(margins)
    searched = [t for r in results for t in r["searched"]]
    return {"pairing": label, "game": game, "matches": len(results), "win_rate": wins / len(results),
            "win_low": low, "win_high": high, "deals": len(margins), "margin": mean, "margin_half": half,
            "median_ms": 1000 * percentile(searched, 0.5), "p99_ms": 1000 * percentile(searched, 0.99),
            "searched": len(searched), "target": TARGETS[label],
            "bidding": [b for r in results for b in r["bidding"]]}


def print_row(row: dict) -> None:
    verdict = "ok" if row["win_rate"] >= row["target"] else "BELOW TARGET"
    times = (f"  search {row['median_ms']:.0f} ms median, {row['p99_ms']:.0f} ms p99 "
             f"({row['searched']} decisions)") if row["searched"] else ""
    print(f"{row['pairing']:18} {row['game']:12} {row['matches']:4} matches  "
          f"win {100 * row['win_rate']:5.1f}% [{100 * row['win_low']:.1f}, {100 * row['win_high']:.1f}]  "
          f"margin/deal {row['margin']:+.2f} ± {row['margin_half']:.2f} ({row['deals']} deals)"
          f"{times}  target {100 * row['target']:.0f}%: {verdict}", flush=True)


def jobs_for(game: str, first: str, second: str, matches: int, budget: float, seed: int,
             clock: str = "wall") -> list[tuple]:
    return [(game, first, second, seed + number // 2, number % 2 == 1, budget, clock) for number in range(matches)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="allfours,baloot,cuatrola,baloot_saudi")
    parser.add_argument("--rule-matches", type=int, default=400)
    parser.add_argument("--search-matches", type=int, default=100)
    parser.add_argument("--budget", type=float, default=0.2, help="seconds per search decision")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="what the budget and decision times are measured on")
    parser.add_argument("--pairings", default="normal vs random,strong vs normal")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()}); "
          f"{args.processes} processes; search budget {args.budget * 1000:.0f} ms ({args.clock} clock)",
          flush=True)
    started = time.perf_counter()
    rows = []
    with Pool(args.processes) as pool:
        for label, first, second, matches in (("normal vs random", "normal", "random", args.rule_matches),
                                              ("strong vs normal", "strong", "normal", args.search_matches)):
            if label not in args.pairings.split(","):
                continue
            for game in args.games.split(","):
                if matches:
                    results = pool.map(play_match, jobs_for(game, first, second, matches, args.budget, args.seed,
                                                            args.clock))
                    rows.append(summarise(label, game, results))
                    print_row(rows[-1])
    print("\nrule-based bidding: contracts (All Fours: stands) chosen by the rule-based bidder, and made")
    for row in rows:
        if row["bidding"]:
            made = sum(row["bidding"])
            low, high = wilson(made, len(row["bidding"]))
            print(f"  {row['pairing']:18} {row['game']:12} {made}/{len(row['bidding'])} = "
                  f"{100 * made / len(row['bidding']):.1f}% [{100 * low:.1f}, {100 * high:.1f}]")
    print(f"\nelapsed {time.perf_counter() - started:.0f} s; load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
