"""python -m gameplay.rules replay FILE|-  |  simulate --game G --matches N --seed S [--bots random]"""

from __future__ import annotations

import argparse
import json
import sys

from .replay import MALFORMED, replay
from .simulate import player_factory, simulate

MAX_DIGITS = 4300  # Python's own limit for int(text) (sys.get_int_max_str_digits)


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


def read_json(text: str):
    """Strict JSON: no NaN or Infinity. Raises ValueError with a reason a person can read, also
    for what Python's reader stops on without a JSONDecodeError: an integer of more than 4,300
    digits (ValueError) and nesting deeper than the interpreter's stack (RecursionError)."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_whole_number)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"an integer has more than {MAX_DIGITS} digits")
    return int(text)


def _replay(path: str) -> int:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        scenario = read_json(text)
    except (OSError, UnicodeDecodeError, ValueError) as error:  # JSONDecodeError is a ValueError
        print(json.dumps({"deals": [], "score": None, "winner": None, "to_act": None,
                          "error": {"index": None, "reason": f"cannot read the scenario: {error}"}}))
        return MALFORMED
    result, status = replay(scenario)
    print(json.dumps(result))
    return status


def _simulate(args) -> int:
    from .errors import ScenarioError

    try:
        options = read_json(args.options)
        report = simulate(args.game, args.matches, args.seed, player_factory(args.bots), options)
    except (ScenarioError, ValueError, KeyError) as error:
        print(json.dumps({"error": str(error)}))
        return MALFORMED
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
