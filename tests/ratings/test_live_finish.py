"""End to end: a rated table that the live-play service finishes is rated by the task (eager
Celery in tests), through the real `match_finished` signal sent after the commit."""

import pytest

from gameplay.rules import get_game
from tournaments.ratings.models import Rating, RatingChange

from ..gameplay.helpers import make_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.integration]


def kick_decided_seed():
    """All Fours with a 1-point target: a seed whose dealer's kick wins before any action."""
    engine = get_game("allfours")
    return next(s for s in range(1000) if engine.start(seed=s, options={"target_score": 1}, dealer=3).is_over)


@pytest.mark.parametrize("rated, changes", [(True, 4), (False, 0)])
def test_a_finished_table_is_rated_only_when_created_as_rated(rated, changes):
    match, users = make_match(options={"target_score": 1}, seed=kick_decided_seed(), rated=rated)
    match.refresh_from_db()
    assert match.status == "finished"
    assert RatingChange.objects.filter(match=match).count() == changes
    if rated:
        winners = {users[s].pk for s in (0, 1, 2, 3) if s % 2 == match.winner}
        assert {r.user_id for r in Rating.objects.filter(elo=1520.0)} == winners


def test_the_result_pages_of_a_rated_match_show_each_players_rating_change(client):
    match, users = make_match(options={"target_score": 1}, seed=kick_decided_seed(), rated=True)
    for url in (f"/matches/{match.pk}/", f"/matches/{match.pk}/replay/"):
        page = client.get(url).content.decode()
        assert "Rating changes" in page
        assert "+20.0" in page and "-20.0" in page
