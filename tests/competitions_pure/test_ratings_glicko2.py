"""Glicko-2 against the worked example in Glickman's paper."""
from __future__ import annotations

import pytest

from tournaments.ratings import glicko2
from tournaments.ratings.glicko2 import Glicko

PLAYER = Glicko(1500, 200, 0.06)
GAMES = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]


def test_paper_example_gives_1464_06_rd_151_52_volatility_0_05999():
    new = glicko2.rate(PLAYER, GAMES)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_paper_intermediate_values_g_and_expected_scores():
    assert [round(glicko2.g(o.phi), 4) for o, _ in GAMES] == [0.9955, 0.9531, 0.7242]
    assert [round(glicko2.expected(PLAYER.mu, o.mu, o.phi), 3) for o, _ in GAMES] == [0.639, 0.432, 0.303]


def test_idle_period_widens_the_deviation_only():
    idle = glicko2.idle(PLAYER)
    assert idle.rating == PLAYER.rating and idle.rd > PLAYER.rd
    assert idle.rd == pytest.approx(200.2714, abs=1e-3)   # sqrt(phi^2 + sigma^2), scaled


def test_composite_opponent_gives_each_player_the_pairs_expected_score():
    me, partner = Glicko(1600, 80), Glicko(1400, 80)
    opponents = (Glicko(1550, 80), Glicko(1450, 80))
    opponent = glicko2.composite_opponent(me, partner, opponents)
    assert me.rating - opponent.rating == pytest.approx((1600 + 1400) / 2 - (1550 + 1450) / 2)


def test_pair_match_moves_winners_up_and_losers_down():
    a1, a2, b1, b2 = glicko2.rate_pair_match((Glicko(), Glicko()), (Glicko(), Glicko()), 1.0)
    assert a1.rating > 1500 and a2.rating > 1500 and b1.rating < 1500 and b2.rating < 1500
    assert a1 == a2 and b1 == b2
    assert a1.rd < 350
