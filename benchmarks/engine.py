"""Engine speed: random matches through the public API (legal_actions + apply, as a bot would).

    python benchmarks/engine.py [--seconds 3] [--game allfours]

Prints decisions per second and matches per second for each registered game and mode
(Baloot: the contract variant and classic Saudi Baloot, which should stay within 20% of it). The issue's bar
(OpenSpiel's C++ Hearts driven from Python on the same machine) is 126,000 decisions/s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gameplay.rules import GAMES  # noqa: E402


def measure(game, seconds: float, seed: int = 1, options=None, mode: str = "") -> dict:
    rng = random.Random(seed)
    choice = rng.choice
    decisions = matches = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        state = game.start(seed=seed + matches, dealer=matches % 4, options=options)
        while state.to_act is not None:
            state.apply(choice(state.legal_actions()))
            decisions += 1
        matches += 1
    elapsed = time.perf_counter() - started
    return {"game": game.name, "mode": mode or None, "matches": matches, "decisions": decisions,
            "seconds": round(elapsed, 2),
            "decisions_per_second": round(decisions / elapsed),
            "matches_per_second": round(matches / elapsed, 1),
            "decisions_per_match": round(decisions / max(matches, 1), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    for name in args.game or list(GAMES):
        game = GAMES[name]
        for mode, options in game.modes().items():  # Baloot: contract and saudi_classic
            print(json.dumps(measure(game, args.seconds, options=options, mode=mode)))


if __name__ == "__main__":
    main()
