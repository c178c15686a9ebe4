"""Whole competitions run by a real Celery worker and beat, no human action (slow).

The worker and beat are subprocesses against the test database and Redis, with eager tasks off,
the competitions tick every second (CHALK_COMPETITION_TICK) and bots moving without delay. The
test only creates the competition and waits for the outcome.
"""

import os
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from gameplay.models import Match
from tests.competitions_db.helpers import bot_pairs, human_pairs, make_competition
from tests.conftest import ROOT, database_url, live_server_env
from tournaments.models import Competition, Pairing, Standing

pytestmark = [pytest.mark.slow, pytest.mark.integration]


@pytest.fixture
def celery_stack(transactional_db, redis_server, tmp_path):
    env = live_server_env(database_url(connection.settings_dict), redis_server)
    env.update(CELERY_TASK_ALWAYS_EAGER="0", CHALK_COMPETITION_TICK="1", BOT_MOVE_DELAY="0")
    log_path = tmp_path / "celery.log"
    commands = [
        ["-A", "config", "worker", "--loglevel=INFO", "--concurrency=4", "--without-mingle", "--without-gossip",
         "-n", f"competitions-{os.getpid()}@%h"],
        ["-A", "config", "beat", "--loglevel=INFO", "-s", str(tmp_path / "beat-schedule")],
    ]
    with log_path.open("wb") as log:
        processes = [subprocess.Popen([sys.executable, "-m", "celery", *args], cwd=ROOT, env=env, stdout=log,
                                      stderr=subprocess.STDOUT) for args in commands]
    try:
        yield log_path
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_until(condition, timeout: float, log_path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.5)
    pytest.fail("timed out; the Celery log ends:\n" + log_path.read_text(errors="replace")[-6000:])


def finished(competition) -> bool:
    return Competition.objects.get(pk=competition.pk).status == Competition.Status.FINISHED


def test_eight_bot_pairs_play_a_swiss_from_creation_to_final_standings(celery_stack):
    competition = make_competition(format="swiss", starts_in=timedelta(seconds=2), time_control=5)
    bot_pairs(competition, 8)

    wait_until(lambda: finished(competition), 240, celery_stack)

    assert competition.rounds.count() == 3
    assert Pairing.objects.filter(competition=competition, decided_at__isnull=True).count() == 0
    assert Match.objects.filter(pairing__competition=competition, status=Match.Status.FINISHED).count() == 12
    ranks = list(Standing.objects.filter(competition=competition).order_by("position").values_list("rank", "points"))
    assert len(ranks) == 8 and ranks[0][0] == 1 and ranks[0][1] >= ranks[-1][1]


def test_single_elimination_of_sixteen_with_two_no_shows_gives_walkovers_and_a_champion(celery_stack):
    competition = make_competition(format="single_elimination", starts_in=timedelta(seconds=2),
                                   grace=timedelta(seconds=3), time_control=5)
    bot_pairs(competition, 14)
    absent = [entry for entry, _users in human_pairs(competition, 2)]

    wait_until(lambda: finished(competition), 240, celery_stack)

    walkovers = Pairing.objects.filter(competition=competition, source=Pairing.Source.WALKOVER)
    assert walkovers.count() == 2
    assert {p.winner_id for p in walkovers}.isdisjoint({e.pk for e in absent})
    assert not Match.objects.filter(pairing__in=walkovers).exists()
    champion = Standing.objects.get(competition=competition, rank=1)
    final = Pairing.objects.get(competition=competition, round_number=4)
    assert champion.entry_id == final.winner_id


def test_a_league_week_closes_and_forfeits_an_unplayed_fixture(celery_stack):
    competition = make_competition(format="league", starts_in=timedelta(seconds=1),
                                   round_interval=timedelta(seconds=6))
    bots = bot_pairs(competition, 1)
    (humans, _users), = human_pairs(competition, 1)

    week_one = lambda: Pairing.objects.filter(competition=competition, round_number=1, decided_at__isnull=False)
    wait_until(lambda: week_one().exists(), 60, celery_stack)

    fixture = week_one().get()
    assert fixture.walkover and fixture.source == Pairing.Source.WALKOVER
    assert fixture.winner_id == bots[0].pk  # the bots were there; the humans never checked in
    assert fixture.match_id is None
    assert fixture.decided_at >= fixture.round.deadline - timedelta(seconds=1)
    assert timezone.now() >= fixture.round.deadline
