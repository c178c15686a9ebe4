"""Malformed input never breaks the engine (issue 16 item 5, docs/contracts/engine.md).

Any JSON value in any field of an action, in all three games and both Baloot modes, is refused
with IllegalAction (the command line: the contract's error with the action's index, exit 1) and
leaves the state unchanged; a scenario with an unknown top-level key is malformed (exit 2).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.rules import GAMES, IllegalAction
from gameplay.rules.replay import MALFORMED, REJECTED, replay

ROOT = Path(__file__).resolve().parents[2]
MODES = [pytest.param(name, base, id=f"{name}-{mode}" if mode else name)
         for name in sorted(GAMES) for mode, base in GAMES[name].modes().items()]
FIELDS = ["type", "seat", "card", "contract", "suit", "melds", "closed", "call"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8)


def states_along_a_match(name: str, base: dict, seed: int = 3, every: int = 7) -> list:
    """Copies of one random match's state at regular points (buying, doubling, play...)."""
    import random

    rng = random.Random(seed)
    state = GAMES[name].start(seed=seed, options=base)
    kept, step = [], 0
    while state.to_act is not None and len(kept) < 12:
        if step % every == 0:
            kept.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    return kept


def assert_refused_unchanged(state, action) -> None:
    before = state.snapshot()
    try:
        state.apply(action)
    except IllegalAction as refused:
        assert str(refused)
        assert state.snapshot() == before
        return
    # some junk happens to be a legal action (a seat's plain pass with extra keys, say): fine


@pytest.mark.parametrize("name, base", MODES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(FIELDS), value=json_values, pick=st.integers(0, 11))
def test_any_json_value_in_any_field_is_refused_cleanly(name, base, field, value, pick):
    states = states_along_a_match(name, base)
    state = states[pick % len(states)].clone()
    legal = state.legal_actions()
    action = dict(legal[pick % len(legal)])
    action[field] = value
    assert_refused_unchanged(state, action)


@pytest.mark.parametrize("name, base", MODES)
@pytest.mark.parametrize("action", [
    {"type": ["play"]}, {"type": {"kind": "bid"}}, {"type": 7}, {"type": None}, {"type": True},
    {"type": "bid", "contract": ["hokum"]}, {"type": "bid", "contract": {"sun": 1}},
    {"type": "bid", "contract": 3}, {"type": "bid", "contract": "sun", "suit": ["S"]},
    {"type": "play", "card": ["AS"]}, {"type": "play", "card": {"AS": 1}}, {"type": "play", "card": 12},
    {"type": "pass", "seat": "0"}, {"type": "pass", "seat": [0]}, {"type": "pass", "seat": True},
    {"type": "pass", "seat": 1.5}, {"type": "declare", "melds": "AS KS QS"},
    {"type": "declare", "melds": [[["AS"]]]}, {"type": "double", "closed": "yes"},
    {"type": "timeout", "seat": {"s": 1}}, [], "play", None, 5,
])
def test_named_malformed_actions_are_refused_at_every_step(name, base, action):
    for state in states_along_a_match(name, base):
        assert_refused_unchanged(state, action)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_list_as_an_action_type_is_the_contracts_error_with_its_index(name):
    state = GAMES[name].start(seed=4)
    scenario = {"game": name, "deals": state.export_deals(), "dealer": 0,
                "actions": [{"seat": state.to_act, "type": ["pass"]}]}
    result, status = replay(scenario)
    assert status == REJECTED
    assert result["error"]["index"] == 0 and result["error"]["reason"]


@pytest.mark.parametrize("key", ["option", "Options", "action", "extra"])
def test_a_scenario_with_an_unknown_top_level_key_is_malformed(key):
    scenario = {"game": "allfours", "seed": 1, "actions": [], key: {}}
    result, status = replay(scenario)
    assert status == MALFORMED
    assert result["error"]["index"] is None and key in result["error"]["reason"]


def test_the_command_line_answers_a_bad_baloot_bid_with_json_and_exit_1():
    scenario = {"game": "baloot", "seed": 2, "actions": [{"type": "bid", "contract": ["hokum"]}]}
    run = subprocess.run([sys.executable, "-m", "gameplay.rules", "replay", "-"], input=json.dumps(scenario),
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.stderr == "" and run.returncode == 1
    assert json.loads(run.stdout)["error"]["index"] == 0


HUGE_INTEGER = "1" * 4301  # past Python's 4,300-digit limit for int(text)
DEEP = "[" * 2000 + "]" * 2000


@pytest.mark.parametrize("text", [
    '{"game": "allfours", "seed": %s}' % HUGE_INTEGER,
    '{"game": "allfours", "seed": 1, "actions": [{"type": "play", "card": -%s}]}' % HUGE_INTEGER,
    '{"game": "baloot", "seed": 1, "options": {"target_score": %s}}' % HUGE_INTEGER,
    '{"game": "cuatrola", "dealer": 0, "deals": [{"hands": [[%s]], "stock": []}]}' % HUGE_INTEGER,
    DEEP,
    '{"game": "allfours", "seed": 1, "actions": [{"type": "stand", "x": %s}]}' % DEEP,
    '{"game": "allfours", "seed": NaN}',
], ids=["seed", "action", "option", "deal", "deep", "deep-action", "nan"])
def test_the_command_line_answers_unreadable_json_with_the_contracts_error_and_exit_2(text):
    run = subprocess.run([sys.executable, "-m", "gameplay.rules", "replay", "-"], input=text,
                         capture_output=True, text=True, cwd=ROOT, timeout=60)

    assert run.stderr == "" and run.returncode == MALFORMED
    result = json.loads(run.stdout)
    assert result["error"]["index"] is None
    assert result["error"]["reason"].startswith("cannot read the scenario: ")
    assert "limit" not in result["error"]["reason"]  # in words, not Python's advice


def test_simulate_answers_options_nested_too_deeply_with_a_json_error():
    run = subprocess.run([sys.executable, "-m", "gameplay.rules", "simulate", "--game", "allfours",
                          "--matches", "1", "--options", DEEP], capture_output=True, text=True, cwd=ROOT, timeout=60)

    assert run.stderr == "" and run.returncode == MALFORMED
    assert json.loads(run.stdout) == {"error": "the JSON is nested too deeply"}
