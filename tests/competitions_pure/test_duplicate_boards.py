"""Duplicate boards: made from a seed, the same every time, exported and imported as scenario deals."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.rules import GAMES, get_game
from gameplay.rules.replay import replay
from tournaments.duplicate import BoardSetError, board_set_from_json
from tournaments.duplicate import make_board_set as make_with_engine
from tournaments.duplicate.scoring import board_points

GAME_NAMES = ["allfours", "baloot", "cuatrola"]


def make_board_set(game: str, *args, **kwargs):
    return make_with_engine(get_game(game), *args, **kwargs)


ROOT = Path(__file__).resolve().parents[2]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(game=st.sampled_from(GAME_NAMES), seed=st.integers(-2**63, 2**63), count=st.integers(1, 8))
def test_the_same_seed_makes_the_same_boards(game, seed, count):
    assert make_board_set(game, seed, count) == make_board_set(game, seed, count)


def test_a_different_seed_makes_different_boards():
    assert make_board_set("baloot", 1, 4).boards != make_board_set("baloot", 2, 4).boards


def test_boards_are_the_same_on_every_machine_and_python():
    """Fixed values: a change to the shuffle would deal a published board set differently."""
    assert make_board_set("allfours", 7, 1).boards[0].deal["hands"][0] == ["4S", "2H", "2D", "4D", "9S", "JH"]
    assert make_board_set("baloot", 7, 1).boards[0].deal["hands"][0] == ["QD", "7H", "KS", "7D", "TS"]
    assert make_board_set("cuatrola", 7, 1).boards[0].deal["hands"][0] == ["11O", "1O", "3B", "1C", "12C"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_deal_of_a_board_set_starts_the_engine(game):
    board_set = make_board_set(game, 11, 6)
    engine = get_game(game)
    for board in board_set.boards:
        state = engine.start(options=board_set.options, dealer=board.dealer, deals=board.deals())
        assert state.export_deals()[0] == board.deal
        assert state.to_act == (board.dealer + 1) % 4


def test_the_dealer_goes_round_the_table_board_by_board():
    assert [b.dealer for b in make_board_set("baloot", 3, 6).boards] == [0, 1, 2, 3, 0, 1]


def test_games_that_may_redeal_get_spare_deals_and_cuatrola_none():
    assert [len(make_board_set(g, 3, 1).boards[0].spares) for g in GAME_NAMES] == [3, 3, 0]
    assert len(make_board_set("allfours", 3, 1, spares=5).boards[0].spares) == 5


def test_all_twos_deals_two_hands_of_six():
    board = make_board_set("allfours", 3, 1, options={"players": 2}).boards[0]
    assert [len(hand) for hand in board.deal["hands"]] == [6, 6] and len(board.deal["stock"]) == 40


def test_a_baloot_deal_everyone_passes_is_redealt_from_the_boards_spare():
    board_set = make_board_set("baloot", 5, 1)
    board = board_set.boards[0]
    state = get_game("baloot").start(options=board_set.options, dealer=board.dealer, deals=board.deals())
    while not state.deal_records:
        state.apply({"type": "pass", "seat": state.to_act})
    assert board_points(state.deal_records) is None
    assert state.export_deals()[1] == board.spares[0]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_export_then_import_gives_the_same_board_set(game):
    board_set = make_board_set(game, 99, 3)
    text = json.dumps(board_set.to_json())
    assert board_set_from_json(json.loads(text), GAMES) == board_set


def test_a_board_is_a_scenario_the_replay_command_plays():
    scenario = make_board_set("cuatrola", 4, 2).scenario(2)
    result, status = replay(scenario)
    assert (status, result["error"], result["to_act"]) == (0, None, 2)


def edited(game: str, change) -> dict:
    data = make_board_set(game, 21, 3).to_json()
    change(data["boards"])
    return data


def refused(data) -> BoardSetError:
    with pytest.raises(BoardSetError) as caught:
        board_set_from_json(data, GAMES)
    return caught.value


def test_an_import_with_a_card_twice_names_the_board_and_the_card():
    def twice(boards):
        hands = boards[1]["deals"][0]["hands"]
        hands[2][0] = hands[0][3]
    error = refused(edited("allfours", twice))
    card = make_board_set("allfours", 21, 3).boards[1].deal["hands"][0][3]
    assert (error.board, error.card) == (2, card)
    assert str(error) == f"board 2: card {card} appears twice (seat 0 and seat 2)"


def test_an_import_with_an_unknown_card_names_the_board_and_the_card():
    def foreign(boards):
        boards[2]["deals"][0]["hands"][1][4] = "AS"  # a French card in the Spanish deck
    error = refused(edited("cuatrola", foreign))
    assert (error.board, error.card) == (3, "AS")
    assert "board 3" in str(error) and "'AS' is not a card of the 20-card Spanish deck" in str(error)


def test_an_import_with_a_card_short_names_the_missing_card():
    def short(boards):
        boards[0]["deals"][0]["stock"].pop()
    missing = make_board_set("baloot", 21, 3).boards[0].deal["stock"][-1]
    error = refused(edited("baloot", short))
    assert (error.board, error.card) == (1, missing)
    assert str(error) == f"board 1: the stock holds 11 cards where the deal gives 12; card {missing} is missing"


def test_an_import_with_a_seat_holding_too_many_names_the_extra_card():
    def moved(boards):
        deal = boards[1]["deals"][2]
        deal["hands"][3].append(deal["stock"].pop(0))
    error = refused(edited("allfours", moved))
    extra = make_board_set("allfours", 21, 3).boards[1].spares[1]["stock"][0]
    assert (error.board, error.card) == (2, extra)
    assert str(error).startswith("board 2: spare deal 2: seat 3 holds 7 cards where the deal gives 6")


@pytest.mark.parametrize("change, words", [
    (lambda data: data.update(format="other"), "this is not a board set"),
    (lambda data: data.update(game="chess"), "unknown game 'chess'"),
    (lambda data: data.update(options={"colour": "blue"}), "unknown option 'colour'"),
    (lambda data: data["boards"][0].update(dealer=4), "board 1: the dealer must be a seat from 0 to 3"),
    (lambda data: data["boards"][1].update(board=7), "board 2: the boards must be numbered"),
    (lambda data: data["boards"][2].update(deals=[]), "board 3: a board has a list of 1 to 11 deals"),
    (lambda data: data.update(boards=[]), "a list of 1 to 1000 boards"),
])
def test_an_import_that_is_not_a_board_set_is_refused_in_words(change, words):
    data = make_board_set("baloot", 2, 3).to_json()
    change(data)
    assert words in str(refused(data))


@pytest.mark.parametrize("args, words", [
    (("baloot", "7", 3), "the boards seed must be a whole number"),
    (("baloot", 7, 0), "a board set has 1 to 1000 boards"),
])
def test_making_a_board_set_refuses_bad_input(args, words):
    with pytest.raises(BoardSetError, match=words):
        make_board_set(*args)


def test_a_board_set_is_made_for_an_engine_game_not_a_name():
    with pytest.raises(BoardSetError, match="made for one of the engine's games; got 'baloot'"):
        make_with_engine("baloot", 7, 3)


def test_the_duplicate_package_imports_in_a_bare_python_without_django():
    code = ("import sys, tournaments.duplicate, tournaments.duplicate.boards; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout.strip()) == (0, "[]"), done.stderr
