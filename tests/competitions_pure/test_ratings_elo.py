"""Elo for pairs against hand-worked numbers (FIDE B.02 8.5 K policy)."""
from __future__ import annotations

import math

import pytest

from tournaments.ratings import elo


def test_new_players_of_equal_pairs_move_twenty_points_with_k_forty():
    change = elo.rate_match({}, {}, ("a1", "a2"), ("b1", "b2"), 1.0)
    assert change.expected_a == 0.5
    assert change.deltas == {"a1": 20.0, "a2": 20.0, "b1": -20.0, "b2": -20.0}


def test_pair_is_rated_by_the_mean_so_unequal_partners_move_alike():
    ratings = {"a1": 1600.0, "a2": 1400.0, "b1": 1500.0, "b2": 1500.0}
    change = elo.rate_match(ratings, {}, ("a1", "a2"), ("b1", "b2"), 0.0)
    assert change.expected_a == 0.5
    assert change.deltas["a1"] == change.deltas["a2"] == -20.0


def test_expected_score_follows_the_400_point_logistic_curve():
    # Pair means 1600 v 1400: E = 1 / (1 + 10^(-200/400)) = 0.759746927
    ratings = {"a1": 1700.0, "a2": 1500.0, "b1": 1400.0, "b2": 1400.0}
    established = {p: 30 for p in ratings}
    change = elo.rate_match(ratings, established, ("a1", "a2"), ("b1", "b2"), 1.0)
    assert change.expected_a == pytest.approx(0.759746927, abs=1e-9)
    assert change.deltas["a1"] == pytest.approx(20 * (1 - 0.759746927), abs=1e-7)   # +4.805
    assert change.deltas["b2"] == pytest.approx(-4.80506146, abs=1e-7)


def test_draw_moves_the_stronger_pair_down():
    ratings = {"a1": 1700.0, "a2": 1500.0, "b1": 1400.0, "b2": 1400.0}
    change = elo.rate_match(ratings, {p: 40 for p in ratings}, ("a1", "a2"), ("b1", "b2"), 0.5)
    assert change.deltas["a1"] == pytest.approx(20 * (0.5 - 0.759746927), abs=1e-7)   # -5.195


def test_k_switches_from_forty_to_twenty_after_thirty_rated_matches():
    assert elo.k_factor(0) == 40 and elo.k_factor(29) == 40
    assert elo.k_factor(30) == 20
    counts = {"a1": 29, "a2": 30, "b1": 0, "b2": 100}
    change = elo.rate_match({}, counts, ("a1", "a2"), ("b1", "b2"), 1.0)
    # a1 plays its 30th match (K 40), a2 its 31st (K 20): each partner's own K
    assert change.deltas == {"a1": 20.0, "a2": 10.0, "b1": -20.0, "b2": -10.0}


def test_expected_pair_equals_expected_of_the_means():
    assert math.isclose(elo.expected_pair(1700, 1500, 1400, 1400), elo.expected(1600, 1400), rel_tol=1e-15)


@pytest.mark.parametrize("teams", [(("a", "b"), ("a", "c")), (("a", "a"), ("b", "c"))])
def test_a_player_cannot_sit_twice_in_one_match(teams):
    with pytest.raises(ValueError):
        elo.rate_match({}, {}, teams[0], teams[1], 1.0)


def test_score_must_be_win_loss_or_draw():
    with pytest.raises(ValueError):
        elo.rate_match({}, {}, ("a", "b"), ("c", "d"), 0.7)
