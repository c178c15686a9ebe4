"""A duplicate run by a real Celery worker and beat, no human action (slow): the rounds of the
movement open on time, each table plays its boards, and the pairs are ranked by the boards."""

from datetime import timedelta

import pytest

from gameplay.models import Match
from tests.competitions_db.helpers import bot_pairs, make_competition
from tests.competitions_db.test_celery_end_to_end import celery_stack, finished, wait_until  # noqa: F401
from tournaments.models import Entry, Pairing, Standing

pytestmark = [pytest.mark.slow, pytest.mark.integration]


def test_three_bot_pairs_and_the_bot_pair_play_a_howell_to_the_ranking(celery_stack):  # noqa: F811
    competition = make_competition(format="duplicate", game="cuatrola", preset="standard", boards_per_round=2,
                                   starts_in=timedelta(seconds=2), time_control=5)
    bot_pairs(competition, 3)

    wait_until(lambda: finished(competition), 240, celery_stack)

    assert Entry.objects.filter(competition=competition, evens_the_count=True).count() == 1
    assert competition.rounds.count() == 3
    tables = Match.objects.filter(pairing__competition=competition, status=Match.Status.FINISHED)
    assert tables.count() == 6 and all(len(m.result["boards"]) == 2 for m in tables)
    assert Pairing.objects.filter(competition=competition, decided_at__isnull=True).count() == 0
    assert Standing.objects.filter(competition=competition).count() == 3  # the bot pair is not ranked
