"""Every worked example under tests/engine/examples (the worked examples of docs/rules/) replays, through the command line, to its
expected result (docs/contracts/engine.md: compare deals' delta and score, winner and error.index).

New example files are picked up automatically.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.rules import GAMES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = Path(__file__).resolve().parent / "examples"


def example_files():
    """The examples of every game, and the classic Saudi Baloot ones one folder deeper."""
    found = [*EXAMPLES.glob("*/*.json"), *EXAMPLES.glob("baloot/saudi/*.json")]
    return sorted(p for p in found if not p.name.endswith(".expected.json"))


def game_of(path: Path) -> str:
    return json.loads(path.read_text())["game"]


def comparable(result: dict) -> dict:
    compared = {"deals": [{"delta": d["delta"], "score": d["score"]} for d in result.get("deals", [])],
                "winner": result.get("winner")}
    if result.get("error"):
        compared["error"] = {"index": result["error"].get("index")}
    return compared


def test_the_shared_examples_are_present_for_every_game():
    games_with_examples = {game_of(path) for path in example_files()}
    assert games_with_examples == set(GAMES)


def test_the_classic_saudi_examples_are_all_picked_up():
    saudi = [p for p in example_files() if p.parent.name == "saudi"]
    assert len(saudi) == 19
    assert all(json.loads(p.read_text())["options"]["game_mode"] == "saudi_classic" for p in saudi)


@pytest.mark.parametrize("scenario", example_files(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_example_replays_to_its_expected_result(scenario: Path):
    run = subprocess.run([sys.executable, "-m", "gameplay.rules", "replay", str(scenario)],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.stderr == ""
    got = json.loads(run.stdout)
    want = json.loads(scenario.with_name(scenario.stem + ".expected.json").read_text())
    assert comparable(got) == comparable(want)
    assert run.returncode == (1 if want.get("error") else 0)
