"""The per-match task: policy, idempotence, order, partners and the K-factor switch."""

from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay.models import Match
from gameplay.signals import match_finished
from tournaments.ratings import history, services
from tournaments.ratings.models import Rating, RatingChange
from tournaments.ratings.rebuild import replay
from tournaments.ratings.tasks import rate_match_task

from .conftest import finished_matches, make_users, random_specs

pytestmark = pytest.mark.django_db


def snapshot():
    changes = list(RatingChange.objects.order_by("id").values())
    for row in changes:
        row.pop("created_at")
    return changes, list(Rating.objects.order_by("id").values())


def stored(game="baloot"):
    changes = {(c.match_id, c.user_id, c.board): c for c in RatingChange.objects.filter(game=game)}
    ratings = {r.user_id: r for r in Rating.objects.filter(game=game)}
    return changes, ratings


def assert_stored_equals_replay(game="baloot"):
    wanted_changes, wanted_ratings = replay(list(history.rated_matches(game)))
    changes, ratings = stored(game)
    assert set(changes) == set(wanted_changes)
    for key, values in wanted_changes.items():
        assert (changes[key].elo_after, changes[key].glicko_after, changes[key].k) == (values[5], values[8], values[3])
    assert {u: (r.elo, r.rated_matches, r.glicko_rating, r.glicko_rd, r.glicko_volatility)
            for u, r in ratings.items()} == wanted_ratings


def test_running_the_task_twice_changes_nothing(four):
    [match] = finished_matches([(four, 0)])
    rate_match_task.delay(match.pk)
    first = snapshot()
    rate_match_task.delay(match.pk)
    assert snapshot() == first
    assert len(first[0]) == 4 and services.rate_finished_match(match.pk).reason == "already rated"


def test_finished_signal_rates_the_match_after_commit(four, django_capture_on_commit_callbacks):
    [match] = finished_matches([(four, 1)])
    with django_capture_on_commit_callbacks(execute=True):
        match_finished.send(sender=Match, match_id=match.pk)
    assert RatingChange.objects.filter(match=match).count() == 4


def test_both_partners_move_by_the_pairs_change(four):
    a1, b1, a2, b2 = four  # seats 0 and 2 are team 0
    [match] = finished_matches([(four, 0)])
    services.rate_finished_match(match.pk)
    elo = {r.user_id: r.elo for r in Rating.objects.all()}
    assert elo == {a1.pk: 1520.0, a2.pk: 1520.0, b1.pk: 1480.0, b2.pk: 1480.0}
    deltas = {c.user_id: (c.team, c.score, c.elo_delta) for c in RatingChange.objects.all()}
    assert deltas[a1.pk] == deltas[a2.pk] == (0, 1.0, 20.0)
    assert deltas[b1.pk] == deltas[b2.pk] == (1, 0.0, -20.0)


def test_a_drawn_match_moves_equal_pairs_by_nothing(four):
    [match] = finished_matches([(four, None)])
    services.rate_finished_match(match.pk)
    assert {c.elo_delta for c in RatingChange.objects.all()} == {0.0}


def test_k_switches_from_40_to_20_at_the_31st_rated_match(four):
    matches = finished_matches([(four, n % 2) for n in range(31)])
    for match in matches:
        services.rate_finished_match(match.pk)
    ks = list(RatingChange.objects.filter(user=four[0]).order_by("finished_at").values_list("k", flat=True))
    assert ks == [40.0] * 30 + [20.0]
    assert Rating.objects.get(user=four[0]).rated_matches == 31


@pytest.mark.parametrize("seats, fields, reason", [
    ("bot", {}, "bot seat"),
    ("empty", {}, "empty seat"),
    ("four", {"status": Match.Status.ABORTED, "finish": Match.Finish.ABORTED}, "abandoned"),
    ("four", {"finish": Match.Finish.WALKOVER}, "walkover"),
    ("four", {"rated": False}, "casual table not rated"),
    ("four", {"status": Match.Status.PLAYING, "finish": ""}, "not finished"),
])
def test_unrated_matches_change_nothing(four, seats, fields, reason):
    users = {"four": four, "bot": [*four[:3], "bot"], "empty": four[:3]}[seats]
    [match] = finished_matches([(users, 0, fields)])
    outcome = services.rate_finished_match(match.pk)
    assert (outcome.rated, outcome.reason) == (0, reason)
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_match_lost_on_time_is_rated(four):
    [match] = finished_matches([(four, 1, {"finish": Match.Finish.TIMEOUT})])
    assert services.rate_finished_match(match.pk).rated == 1


def test_tasks_arriving_out_of_order_rate_in_finished_order(db):
    users = make_users(6)
    matches = finished_matches(random_specs(users, 5, seed=3))
    outcome = services.rate_finished_match(matches[3].pk)  # rates 0..3, oldest first
    assert outcome.rated == 4
    assert services.rate_finished_match(matches[1].pk).reason == "already rated"
    services.rate_finished_match(matches[4].pk)
    assert_stored_equals_replay()


def test_a_match_committed_late_makes_the_game_recompute(db):
    users = make_users(6)
    later = finished_matches(random_specs(users, 3, seed=4))
    for match in later:
        services.rate_finished_match(match.pk)
    [early] = finished_matches(random_specs(users, 1, seed=5), start=later[0].finished_at - timedelta(hours=1))
    assert services.rate_finished_match(early.pk).reason == "recomputed"
    assert RatingChange.objects.filter(match=early).count() == 4
    assert_stored_equals_replay()


def test_the_periodic_sweep_rates_matches_whose_task_was_lost(db):
    users = make_users(6)
    matches = finished_matches(random_specs(users, 4, seed=6))
    assert services.rate_pending_matches() == 4
    assert services.rate_pending_matches() == 0
    assert RatingChange.objects.filter(match__in=matches).count() == 16


def test_rating_for_gives_start_values_to_a_newcomer_and_stored_values_otherwise(four, django_assert_num_queries):
    newcomer = make_users(1)[0]
    [match] = finished_matches([(four, 0)])
    services.rate_finished_match(match.pk)
    assert services.rating_for(newcomer, "baloot") == services.PlayerRating()
    assert services.rating_for(four[0].pk, "baloot").elo == 1520.0
    assert services.rating_for(four[0], "allfours").elo == 1500.0
    with django_assert_num_queries(1):
        seeds = services.ratings_for([*four, newcomer], "baloot")
    assert [round(seeds[u.pk].elo) for u in (*four, newcomer)] == [1520, 1480, 1520, 1480, 1500]
    assert seeds[newcomer.pk].provisional


def test_the_sweep_rates_lost_matches_even_when_the_newest_has_a_bot(db):
    users = make_users(6)
    matches = finished_matches(random_specs(users, 3, seed=7) + [([*users[:3], "bot"], 0)])
    assert services.rate_pending_matches() == 3
    assert RatingChange.objects.filter(match__in=matches[:3]).count() == 12


def test_the_sweep_recomputes_a_game_with_a_recent_match_left_behind(db):
    users = make_users(6)
    later = finished_matches(random_specs(users, 2, seed=4), start=timezone.now() - timedelta(minutes=30))
    for match in later:
        services.rate_finished_match(match.pk)
    finished_matches(random_specs(users, 1, seed=5), start=later[0].finished_at - timedelta(minutes=5))
    assert services.rate_pending_matches() == 3
    assert RatingChange.objects.count() == 12
    assert_stored_equals_replay()
