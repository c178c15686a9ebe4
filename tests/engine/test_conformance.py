"""Random-play conformance for every registered game (the OpenSpiel `random_sim_test` habit).

Thousands of seeded random matches per game check the invariants every game owes the platform:
the match ends; a pending decision always has a legal action; every card is in exactly one place;
no view shows a seat (or a spectator) a card hidden from it; JSON and replay round trips give
equal states; a random illegal action is refused and leaves the state unchanged.
"""

from __future__ import annotations

import json
import random
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.rules import GAMES, IllegalAction
from tests.leak_check import hidden_from, leaked

GAME_NAMES = sorted(GAMES)
# every mode of every game (Baloot: the contract variant and classic Saudi Baloot)
GAME_MODES = [pytest.param(name, base, id=f"{name}-{mode}" if mode else name)
              for name in GAME_NAMES for mode, base in GAMES[name].modes().items()]
MAX_DECISIONS = 20_000  # far above any real match; a loop means a rules bug


def legal_everywhere(state) -> list[dict]:
    """Every action any seat may take now (out-of-turn cantes included)."""
    actions = list(state.legal_actions()) if state.to_act is not None else []
    for seat in range(state.players):
        if seat != state.to_act:
            actions.extend(state.legal_actions(seat))
    return actions


def assert_cards_partition_the_deck(state):
    deck = state.game.deck
    places = state.card_places()
    union, count = 0, 0
    for mask in places.values():
        union |= mask
        count += mask.bit_count()
    assert union == deck.all_mask, "some card is nowhere"
    assert count == deck.size, f"some card is in two places: {places}"


def assert_no_view_leaks(state, held_before: dict, action: dict):
    """No view shows a card hidden from its reader (tests/leak_check.py says how that is judged)."""
    readers = [*range(state.players), None]
    views = state.views(readers)  # what a live table sends: must be each reader's own view
    for seat in readers:
        view = state.view(seat)
        assert views[seat] == view, f"views() differs from view({seat})"
        json.dumps(view)
        shown = leaked(view, hidden_from(state, seat), held_before[seat], action)
        assert not shown, f"view of seat {seat} shows hidden cards {shown}"


def random_illegal_action(state, rng, pool: list[dict]):
    """An action that is not legal now: junk, or a seen action at the wrong time/seat/card."""
    junk = [None, [], "play", {}, {"type": "nonsense"}, {"type": "play", "card": "ZZ"},
            {"type": "play", "card": ["AS"]}, {"type": "play"}]
    if rng.random() < 0.2 or not pool:
        return rng.choice(junk)
    action = dict(rng.choice(pool))
    if rng.random() < 0.5:
        action["seat"] = rng.randrange(state.players)
    if "card" in action and rng.random() < 0.5:
        action["card"] = rng.choice(state.game.deck.codes)
    if action in legal_everywhere(state) or action.get("type") == "timeout":
        return None
    return action


def play_random_match(game, seed: int, full_checks: bool, options=None):
    rng = random.Random(seed)
    state = game.start(seed=seed, options=options, dealer=seed % game.players(game.resolve_options(options)))
    pool: list[dict] = []
    round_trips = {rng.randrange(1, 200) for _ in range(3)}
    for decision in range(MAX_DECISIONS):
        if state.to_act is None:
            break
        legal = legal_everywhere(state)
        assert state.legal_actions(), "a decision is pending but no action is legal"
        assert_cards_partition_the_deck(state)
        if full_checks:
            check_illegal_action_is_refused(state, rng, pool)
            if decision in round_trips:
                assert_round_trips(game, state)
            held_before = {seat: hidden_from(state, seat, include_stock=False)
                           for seat in [*range(state.players), None]}
        pool.extend(a for a in legal if a not in pool)
        action = rng.choice(legal)
        state.apply(action)
        if full_checks:
            assert_no_view_leaks(state, held_before, action)
    assert state.to_act is None and state.is_over, "the match did not end"
    assert state.winner in (0, 1)
    assert state.score[state.winner] >= state.target or state.actions[-1]["type"] == "timeout"
    if full_checks:
        assert_round_trips(game, state)
    return state


def check_illegal_action_is_refused(state, rng, pool):
    action = random_illegal_action(state, rng, pool)
    if action is None:
        return
    before = state.snapshot()
    before_views = [state.view(seat) for seat in range(state.players)]
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)
    assert str(refused.value)
    assert state.snapshot() == before
    assert [state.view(seat) for seat in range(state.players)] == before_views


def assert_round_trips(game, state):
    data = json.loads(json.dumps(state.to_json()))
    rebuilt = game.from_json(data)
    assert rebuilt == state
    assert rebuilt.snapshot() == data["state"]
    twin = state.clone()
    assert twin == state
    if twin.to_act is not None:
        twin.apply(twin.legal_actions()[0])
        assert state == game.from_json(data), "a clone shares mutable parts with its original"


@pytest.mark.parametrize("game_name, mode", GAME_MODES)
def test_a_thousand_random_matches_end_with_every_card_in_one_place(game_name, mode):
    game = GAMES[game_name]
    for seed in range(1000):
        play_random_match(game, seed, full_checks=False, options=mode)


@pytest.mark.parametrize("game_name, mode", GAME_MODES)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_random_matches_never_leak_cards_refuse_illegal_actions_and_round_trip(game_name, mode, seed):
    play_random_match(GAMES[game_name], seed, full_checks=True, options=mode)


@pytest.mark.parametrize("game_name, mode", GAME_MODES)
def test_every_option_value_plays_to_the_end(game_name, mode):
    game = GAMES[game_name]
    mode_name = mode.get("game_mode", "")
    for option in game.options_in_mode(mode_name):
        for value in option.choices:
            if option.key == "game_mode":
                continue  # each mode is its own parameter
            for seed in range(5):
                play_random_match(game, seed, full_checks=seed == 0, options={**mode, option.key: value})


@pytest.mark.parametrize("game_name, mode", GAME_MODES)
def test_a_timeout_forfeits_the_match_for_the_seat_on_the_clock(game_name, mode):
    game = GAMES[game_name]
    state = game.start(seed=11, options=mode)
    seat = state.to_act
    state.apply({"seat": seat, "type": "timeout"})
    assert state.is_over and state.winner == 1 - seat % 2
    assert state.to_act is None
    assert game.from_json(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize("game_name, mode", GAME_MODES)
def test_timeouts_under_auto_action_play_a_whole_match_that_replays(game_name, mode):
    """Half the decisions time out. (Not all of them: in Baloot a timed-out auction passes, and an
    all-pass auction annuls the deal, so a table of absentees would never finish.)"""
    game = GAMES[game_name]
    rng = random.Random(5)
    state = game.start(seed=5, options={**mode, "timeout_result": "auto_action"})
    for _ in range(MAX_DECISIONS):
        if state.to_act is None:
            break
        if rng.random() < 0.5:
            before = state.clone()
            state.apply({"seat": state.to_act, "type": "timeout"})
            assert state.actions[-1] == {"seat": before.to_act, "type": "timeout"}
            assert not state.is_over or state.score[state.winner] >= state.target
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert state.is_over
    assert any(a["type"] == "timeout" for a in state.actions)
    assert game.from_json(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize("game_name, mode", GAME_MODES)
def test_a_timeout_for_a_seat_not_on_the_clock_is_refused(game_name, mode):
    state = GAMES[game_name].start(seed=3, options=mode)
    other = (state.to_act + 1) % state.players
    before = state.snapshot()
    with pytest.raises(IllegalAction):
        state.apply({"seat": other, "type": "timeout"})
    assert state.snapshot() == before


@pytest.mark.parametrize("game_name, mode", GAME_MODES)
def test_the_same_seed_deals_the_same_cards(game_name, mode):
    game = GAMES[game_name]
    first, second = game.start(seed=42, options=mode), game.start(seed=42, options=mode)
    assert first.snapshot() == second.snapshot()
    assert game.start(seed=43, options=mode).snapshot() != first.snapshot()


@pytest.mark.parametrize("game_name, mode", GAME_MODES)
def test_a_finished_match_exports_a_scenario_that_replays_to_the_same_scores(game_name, mode):
    from gameplay.rules.replay import replay

    state = play_random_match(GAMES[game_name], 77, full_checks=False, options=mode)
    result, status = replay(json.loads(json.dumps(state.scenario())))
    assert status == 0
    assert result["score"] == state.score and result["winner"] == state.winner
    assert [d["delta"] for d in result["deals"]] == [r["delta"] for r in state.deal_records]
