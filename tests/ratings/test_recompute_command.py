"""`manage.py recompute_ratings` rebuilds exactly what the per-match task stored."""

from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.ratings import elo, history, services
from tournaments.ratings.models import Rating, RatingChange
from tournaments.ratings.recompute import recompute

from .conftest import finished_matches, make_users, random_specs

pytestmark = pytest.mark.django_db


def run_command(*args):
    out = StringIO()
    call_command("recompute_ratings", *args, stdout=out)
    return out.getvalue()


def test_recompute_equals_the_stored_values_after_1000_simulated_matches():
    users = make_users(12)
    specs = random_specs(users, 1000, seed=11)
    specs[7] = ([*specs[7][0][:3], "bot"], 0)  # a few the policy skips, mixed in
    specs[500] = (specs[500][0], 1, {"rated": False})
    matches = finished_matches(specs)
    for match in matches:  # the task, once per match, in finished order
        services.rate_finished_match(match.pk)

    changes = {(c.match_id, c.user_id): c.elo_delta for c in RatingChange.objects.all()}
    ratings = {r.user_id: (r.elo, r.rated_matches) for r in Rating.objects.filter(game="baloot")}
    rated = list(history.rated_matches("baloot"))
    replay = recompute([m.record for m in rated])
    assert len(rated) == 998 and len(changes) == 998 * 4
    assert {u: (replay.ratings["baloot"][u], replay.matches["baloot"][u]) for u in ratings} == ratings  # exact
    assert all(changes[(m.id, u)] == d for m, four in zip(rated, replay.changes) for u, d in zip(m.users, four))
    assert any(n > elo.PROVISIONAL_MATCHES for _, n in ratings.values())

    assert "998 rated matches replayed, 0 rating changes and 0 ratings written" in run_command("--game", "baloot")


def test_recompute_repairs_tampered_rows_and_writes_only_those(db):
    users = make_users(8)
    matches = finished_matches(random_specs(users, 40, seed=2))
    for match in matches:
        services.rate_finished_match(match.pk)
    before = {r.pk: (r.elo, r.glicko_rd) for r in Rating.objects.all()}
    Rating.objects.filter(pk=min(before)).update(elo=9999.0)
    RatingChange.objects.filter(match=matches[5]).first().delete()

    out = run_command()
    assert "baloot: 40 rated matches replayed, 1 rating changes and 1 ratings written" in out
    assert "allfours: 0 rated matches replayed" in out
    assert {r.pk: (r.elo, r.glicko_rd) for r in Rating.objects.all()} == before
    assert "0 rating changes and 0 ratings written" in run_command("--game", "baloot")


def test_recompute_forgets_a_match_no_longer_rated(db):
    users = make_users(4)
    matches = finished_matches([(users, 0), (users, 1)])
    for match in matches:
        services.rate_finished_match(match.pk)
    matches[0].rated = False
    matches[0].save(update_fields=["rated"])
    run_command("--game", "baloot")
    assert not RatingChange.objects.filter(match=matches[0]).exists()
    assert set(Rating.objects.values_list("rated_matches", flat=True)) == {1}
    assert Rating.objects.get(user=users[0]).elo == 1480.0
