"""A result typed by the organiser is checked against the match's format (tournaments/results.py)."""

import pytest

from tournaments.results import result_errors


@pytest.mark.parametrize("games_to_win, winner, home, away, draw, field", [
    (1, "away", 0, 5, True, "away_points"),    # 0–5 in a one-game match
    (1, "home", 0, 1, True, "home_points"),    # the winner lost more games
    (2, "home", 3, 0, True, "home_points"),    # best of 3: nobody wins 3 games
    (2, "home", 2, 2, True, "away_points"),    # both reached the winning number
    (1, "none", 1, 0, True, "winner"),         # no winner but one pair won a game
    (1, "none", 0, 0, False, "winner"),        # a knockout needs a winner
])
def test_impossible_results_are_refused_beside_the_field(games_to_win, winner, home, away, draw, field):
    errors = result_errors(games_to_win, winner, home, away, draw)
    assert field in errors and errors[field]


@pytest.mark.parametrize("games_to_win, winner, home, away, draw", [
    (1, "home", 1, 0, True), (1, "away", 0, 1, False), (2, "away", 1, 2, False), (3, "home", 3, 2, True),
    (1, "none", 0, 0, True), (2, "none", 1, 1, True), (2, "home", 1, 0, False),  # a match conceded at 1–0
])
def test_possible_results_pass(games_to_win, winner, home, away, draw):
    assert result_errors(games_to_win, winner, home, away, draw) == {}
