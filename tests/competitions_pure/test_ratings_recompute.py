"""Replaying the history gives exactly what the incremental updates stored."""
from __future__ import annotations

import random

from tournaments.ratings import elo
from tournaments.ratings.policy import MatchFacts, is_rated, unrated_reason
from tournaments.ratings.recompute import recompute

GAMES = ("all_fours", "baloot", "cuatrola")


def simulated_history(count: int, seed: int = 5) -> list:
    rng = random.Random(seed)
    players = [f"p{n}" for n in range(14)]   # few players: many cross the 30-match line
    history = []
    for _ in range(count):
        a1, a2, b1, b2 = rng.sample(players, 4)
        history.append((rng.choice(GAMES), (a1, a2), (b1, b2), rng.choice((1.0, 0.0, 0.5))))
    return history


def incremental(history):
    """What the per-match Celery task does: load the four, rate, store."""
    ratings, counts, changes = {}, {}, []
    for game, team_a, team_b, score in history:
        r, c = ratings.setdefault(game, {}), counts.setdefault(game, {})
        change = elo.rate_match(r, c, team_a, team_b, score)
        for player, delta in change.deltas.items():
            r[player] = r.get(player, elo.START) + delta
            c[player] = c.get(player, 0) + 1
        changes.append(tuple(change.deltas[p] for p in (*team_a, *team_b)))
    return ratings, counts, changes


def test_recompute_equals_incremental_after_1000_simulated_matches():
    history = simulated_history(1000)
    ratings, counts, changes = incremental(history)
    replay = recompute(history)
    assert replay.ratings == ratings          # exact float equality, not approx
    assert replay.matches == counts
    assert replay.changes == changes
    assert any(n > elo.PROVISIONAL_MATCHES for per_game in counts.values() for n in per_game.values())


def test_games_are_rated_separately():
    history = [("baloot", ("a", "b"), ("c", "d"), 1.0), ("cuatrola", ("a", "b"), ("c", "d"), 0.0)]
    replay = recompute(history)
    assert replay.ratings["baloot"]["a"] == 1520.0 and replay.ratings["cuatrola"]["a"] == 1480.0


def test_recompute_of_nothing_is_empty():
    replay = recompute([])
    assert replay.ratings == {} and replay.changes == []


def test_bots_abandoned_matches_and_walkovers_are_not_rated():
    assert is_rated(MatchFacts(finished=True, competition=True))
    assert is_rated(MatchFacts(finished=True, rated_table=True))
    assert unrated_reason(MatchFacts(finished=True, competition=True, has_bots=True)) == "bot seat"
    assert unrated_reason(MatchFacts(finished=False, abandoned=True, competition=True)) == "abandoned"
    assert unrated_reason(MatchFacts(finished=True, walkover=True, competition=True)) == "walkover"
    assert unrated_reason(MatchFacts(finished=True)) == "casual table not rated"


def test_a_player_appears_only_in_the_games_he_played():
    history = [("baloot", ("a", "b"), ("c", "d"), 1.0), ("cuatrola", ("e", "f"), ("g", "h"), 0.0),
               ("baloot", ("e", "b"), ("c", "d"), 0.5)]
    replay = recompute(history)
    assert set(replay.ratings["baloot"]) == {"a", "b", "c", "d", "e"}
    assert set(replay.ratings["cuatrola"]) == {"e", "f", "g", "h"}
    assert replay.matches["baloot"]["e"] == 1 and replay.matches["cuatrola"]["e"] == 1


def test_recompute_glicko_equals_rating_match_by_match():
    from tournaments.ratings.glicko2 import Glicko, rate_pair_match
    from tournaments.ratings.recompute import recompute_glicko

    history = simulated_history(200, seed=8)
    state, changes = {}, []
    for game, (a1, a2), (b1, b2), score in history:
        players = state.setdefault(game, {})
        four = [players.get(p, Glicko()) for p in (a1, a2, b1, b2)]
        new = rate_pair_match((four[0], four[1]), (four[2], four[3]), score)
        players.update(zip((a1, a2, b1, b2), new))
        changes.append(new)
    assert recompute_glicko(history) == (state, changes)


def test_an_empty_seat_is_not_rated():
    assert unrated_reason(MatchFacts(finished=True, rated_table=True, empty_seat=True)) == "empty seat"
