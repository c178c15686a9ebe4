"""Glicko-2, per player and per game, next to Elo (issue 9).

Source: Mark E. Glickman, "Example of the Glicko-2 system" (Boston
University, 2013 revision), steps 1-8, with the Illinois-algorithm volatility
update of step 5 and its convergence tolerance 0.000001. System constant
tau = 0.5. ``rate`` reproduces the paper's worked example (1500 / RD 200 /
sigma 0.06 against 1400/30, 1550/100, 1700/300 scoring 1, 0, 0 gives about
1464.06 / 151.52 / 0.05999).

Partnership matches (our decisions, documented in docs/ratings.md):

* Each rated match is one rating period for each of its four players.
* A player is rated against a composite opponent whose rating makes the
  player's expected score the *pair's* expected score, the way Elo rates the
  pair by its mean: mu_opp = mean(mu of opponents) + (mu_self - mean(mu of
  own pair)); its deviation is the root mean square of the two opponents'.
* Periods without play: ``idle`` applies step 6 alone (RD grows); the layer
  decides when (e.g. once a month for players who did not play).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
TAU = 0.5
EPSILON = 0.000001
START_RATING, START_RD, START_VOLATILITY = 1500.0, 350.0, 0.06


@dataclass(frozen=True)
class Glicko:
    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


def g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / tau ** 2

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, games: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """Steps 2-8: the player's rating after one period of ``(opponent, score)``."""
    if not games:
        return idle(player)
    mu, phi = player.mu, player.phi
    terms = [(g(o.phi), expected(mu, o.mu, o.phi), s) for o, s in games]
    v = 1.0 / sum(gj * gj * ej * (1.0 - ej) for gj, ej, _ in terms)
    improvement = sum(gj * (s - ej) for gj, ej, s in terms)
    sigma = _volatility(player.volatility, phi, v, v * improvement, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(SCALE * new_mu + START_RATING, SCALE * new_phi, sigma)


def idle(player: Glicko) -> Glicko:
    """Step 6 alone: a period without games widens the deviation."""
    phi = math.sqrt(player.phi ** 2 + player.volatility ** 2)
    return Glicko(player.rating, SCALE * phi, player.volatility)


def composite_opponent(me: Glicko, partner: Glicko, opponents: tuple[Glicko, Glicko]) -> Glicko:
    """The single opponent standing for the opposing pair (module docstring)."""
    own_mean = (me.rating + partner.rating) / 2.0
    their_mean = (opponents[0].rating + opponents[1].rating) / 2.0
    rd = math.sqrt((opponents[0].rd ** 2 + opponents[1].rd ** 2) / 2.0)
    return Glicko(their_mean + (me.rating - own_mean), rd, START_VOLATILITY)


def rate_pair_match(team_a: tuple[Glicko, Glicko], team_b: tuple[Glicko, Glicko],
                    score_a: float, tau: float = TAU) -> tuple[Glicko, Glicko, Glicko, Glicko]:
    """New ratings of (a1, a2, b1, b2) after one match; ``score_a`` 1, 0 or 1/2."""
    a1, a2 = team_a
    b1, b2 = team_b
    return (
        rate(a1, [(composite_opponent(a1, a2, team_b), score_a)], tau),
        rate(a2, [(composite_opponent(a2, a1, team_b), score_a)], tau),
        rate(b1, [(composite_opponent(b1, b2, team_a), 1.0 - score_a)], tau),
        rate(b2, [(composite_opponent(b2, b1, team_a), 1.0 - score_a)], tau),
    )
