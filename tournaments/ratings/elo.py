"""Elo for partnership games, per player and per game.

Sources: A. E. Elo, "The Rating of Chessplayers, Past and Present" (1978) for
the logistic expected score with a 400-point scale; FIDE Handbook B.02 "FIDE
Rating Regulations", section 8.5 (rating change = K x (score - expected);
K = 40 for a new player until 30 games are completed, then 20, as below).

Policy (decisions, also in docs/ratings.md):

* Every player starts at 1500 in each game (All Fours, Baloot, Cuatrola are
  rated separately; this module is told nothing about the game).
* A pair is rated by the mean of its two players' ratings.
* Expected score of pair A: E = 1 / (1 + 10 ** ((R_B - R_A) / 400)); pair B
  expects 1 - E, so pair B's surprise (S_B - E_B) is exactly -(S_A - E_A). A match score is 1 (win), 0 (loss) or 1/2 (draw).
* Each player moves by the pair's surprise (S - E) times the player's *own*
  K: K = 40 for a player's first 30 rated matches, 20 from the 31st on. Two
  partners with the same K move by exactly the same amount; a newcomer moves
  twice as much as an established partner (as in FIDE, where each player uses
  his own K, so a match is not zero-sum while someone is provisional).
* Ratings are floats, never rounded in storage (display rounds); this keeps a
  replay bit-identical to the incremental updates.
"""
from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

START = 1500.0
SCALE = 400.0
PROVISIONAL_MATCHES = 30
K_PROVISIONAL = 40.0
K_ESTABLISHED = 20.0

Player = Hashable


def k_factor(rated_matches: int) -> float:
    """K for a player who has already completed ``rated_matches`` rated matches."""
    return K_PROVISIONAL if rated_matches < PROVISIONAL_MATCHES else K_ESTABLISHED


def pair_rating(first: float, second: float) -> float:
    return (first + second) / 2.0


def expected(rating: float, opponent: float) -> float:
    """Expected score of ``rating`` against ``opponent`` (logistic, 400 points)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / SCALE))


def expected_pair(a1: float, a2: float, b1: float, b2: float) -> float:
    """Expected score of pair (a1, a2) against pair (b1, b2).

    The same as ``expected(pair_rating(a1, a2), pair_rating(b1, b2))``
    mathematically, written with sums over 800 so that ``recompute`` performs
    the very same floating-point operations with fewer steps.
    """
    return 1.0 / (1.0 + 10.0 ** ((b1 + b2 - a1 - a2) / (2.0 * SCALE)))


@dataclass(frozen=True)
class MatchChange:
    """Rating changes of one match, by player, and the pair expectation."""

    expected_a: float
    deltas: Mapping


def rate_match(ratings: Mapping[Player, float], matches: Mapping[Player, int],
               team_a: tuple[Player, Player], team_b: tuple[Player, Player],
               score_a: float) -> MatchChange:
    """The changes of one rated match. ``ratings``/``matches`` hold the four
    players' values before it (missing players start at 1500 with 0 matches)."""
    if len({*team_a, *team_b}) != 4:
        raise ValueError("a partnership match needs four different players")
    if score_a not in (0.0, 0.5, 1.0):
        raise ValueError("score_a is 1 (win), 0 (loss) or 0.5 (draw)")
    before = [ratings.get(p, START) for p in (*team_a, *team_b)]
    e_a = expected_pair(*before)
    surprise = score_a - e_a              # pair B's surprise is exactly -surprise
    deltas = {p: k_factor(matches.get(p, 0)) * surprise for p in team_a}
    deltas.update({p: k_factor(matches.get(p, 0)) * -surprise for p in team_b})
    return MatchChange(e_a, deltas)
