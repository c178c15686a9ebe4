"""python -m gameplay.rules replay FILE|-  |  simulate --game G --matches N --seed S [--bots random]"""

from __future__ import annotations

import argparse
import json
import sys

from .replay import MALFORMED, replay
from .simulate import player_factory, simulate


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gameplay.rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser("replay", help="replay a scenario and print its result")
    replay_cmd.add_argument("file", help="a scenario JSON file, or - for standard input")
    sim = commands.add_parser("simulate", help="play whole matches between bots")
    sim.add_argument("--game", required=True)
    sim.add_argument("--matches", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--bots", default="random")
    sim.add_argument("--options", default="{}", help="variant options as a JSON object")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file)
    return _simulate(args)


def _replay(path: str) -> int:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        scenario = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(json.dumps({"deals": [], "score": None, "winner": None, "to_act": None,
                          "error": {"index": None, "reason": f"cannot read the scenario: {error}"}}))
        return MALFORMED
    result, status = replay(scenario)
    print(json.dumps(result))
    return status


def _simulate(args) -> int:
    from .errors import ScenarioError

    try:
        options = json.loads(args.options)
        report = simulate(args.game, args.matches, args.seed, player_factory(args.bots), options)
    except (ScenarioError, json.JSONDecodeError, KeyError) as error:
        print(json.dumps({"error": str(error)}))
        return MALFORMED
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
