"""Play now (issue 32): a queue per game and preset seats players of similar rating at a new
table, the window widening with the wait; bots fill the table after the wait a player chose; a
second queue is refused; leaving works; two processes never seat anyone twice."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from gameplay import matchmaking, play_now
from gameplay.models import Match, QueueEntry
from tournaments.ratings.models import Rating

from .helpers import make_user

pytestmark = pytest.mark.django_db(transaction=True)

QUEUE = ("allfours", "trinidad_standard")


def rated(elo, game="allfours"):
    user = make_user()
    Rating.objects.create(user=user, game=game, elo=elo)
    return user


def seated_users(match_id):
    return set(Match.objects.get(pk=match_id).seats.exclude(user=None).values_list("user_id", flat=True))


def test_two_people_and_two_bots_are_seated_after_the_wait_they_chose():
    start = timezone.now()
    ann, bob = make_user(), make_user()
    play_now.join(ann, *QUEUE, bots_after=15, now=start)
    play_now.join(bob, *QUEUE, bots_after=15, now=start)
    assert not Match.objects.exists()  # two of four: they wait for people first
    assert play_now.match_queue(*QUEUE, now=start + timedelta(seconds=10)) == []
    (match_id,) = play_now.match_queue(*QUEUE, now=start + timedelta(seconds=16))
    match = Match.objects.get(pk=match_id)
    assert seated_users(match_id) == {ann.pk, bob.pk}
    assert match.seats.exclude(bot="").count() == 2 and match.status == "playing"
    assert match.time_control == play_now.PLAY_NOW_CLOCK and not match.rated
    assert play_now.pick_up(ann) == match_id and play_now.pick_up(ann) is None


def test_people_only_are_never_given_bots():
    start = timezone.now()
    for _ in range(3):
        play_now.join(make_user(), *QUEUE, bots_after=None, now=start)
    assert play_now.match_queue(*QUEUE, now=start + timedelta(hours=1)) == []
    play_now.join(make_user(), *QUEUE, bots_after=None, now=start + timedelta(hours=1))
    (match_id,) = Match.objects.values_list("pk", flat=True)
    assert len(seated_users(match_id)) == 4  # the fourth person's join seats them at once


def test_similar_ratings_are_seated_together_first():
    start = timezone.now()
    players = {elo: rated(elo) for elo in (1500, 2100, 1510, 2090, 1490, 1505)}
    for elo, user in players.items():
        play_now.join(user, *QUEUE, bots_after=None, now=start)
    (match_id,) = Match.objects.values_list("pk", flat=True)
    assert seated_users(match_id) == {players[elo].pk for elo in (1500, 1510, 1490, 1505)}
    match = Match.objects.get(pk=match_id)
    team = {seat.user_id: seat.seat % 2 for seat in match.seats.all()}
    assert team[players[1510].pk] == team[players[1490].pk]  # the best with the weakest
    waiting = QueueEntry.objects.filter(match=None)
    assert set(waiting.values_list("user_id", flat=True)) == {players[2100].pk, players[2090].pk}


def test_the_rating_window_widens_with_the_wait():
    start = timezone.now()
    for elo in (1500, 1510, 1700, 1720):
        play_now.join(rated(elo), *QUEUE, bots_after=None, now=start)
    assert not Match.objects.exists()  # 200 apart: too far at once
    assert play_now.match_queue(*QUEUE, now=start + timedelta(seconds=10)) == []
    assert len(play_now.match_queue(*QUEUE, now=start + timedelta(seconds=30))) == 1


def test_a_player_in_a_queue_who_opens_a_second_queue_is_told_and_nothing_changes(client):
    user = make_user()
    client.force_login(user)
    client.post("/play/now/", {"queue": "allfours:trinidad_standard", "bots_after": ""})
    entry = QueueEntry.objects.get(user=user)
    response = client.post("/play/now/", {"queue": "baloot:saudi_classic", "bots_after": "30"})
    page = response.content.decode()
    assert response.status_code == 200 and "You are already waiting for" in page and "leave that queue first" in page
    assert QueueEntry.objects.get(user=user).game == "allfours" and QueueEntry.objects.count() == 1
    assert QueueEntry.objects.get(user=user).joined_at == entry.joined_at
    with pytest.raises(play_now.QueueRefused):
        play_now.join(user, "cuatrola", "standard", None)


def test_the_queue_page_shows_the_wait_and_leaving_takes_the_player_out(client):
    user = make_user()
    client.force_login(user)
    lobby = client.get("/play/").content.decode()
    assert 'href="/play/now/"' in lobby and 'data-testid="play-now"' in lobby
    client.post("/play/now/", {"queue": "cuatrola:standard", "bots_after": "60"})
    page = client.get("/play/now/").content.decode()
    assert 'data-testid="queue-wait"' in page and "La Cuatrola" in page
    client.post("/play/now/leave/")
    assert not QueueEntry.objects.exists()
    assert 'data-testid="play-now-form"' in client.get("/play/now/").content.decode()


def test_a_seated_player_is_sent_to_the_table_from_the_wait(client):
    start = timezone.now() - timedelta(seconds=20)
    user = make_user()
    client.force_login(user)
    play_now.join(user, *QUEUE, bots_after=15, now=start)
    play_now.join(make_user(), *QUEUE, bots_after=15, now=start)
    play_now.match_all()
    (match_id,) = Match.objects.values_list("pk", flat=True)
    status = client.get("/play/now/status/", HTTP_HX_REQUEST="true")
    assert status["HX-Redirect"] == "/play/now/"
    assert client.get("/play/now/")["Location"] == f"/matches/{match_id}/"


def test_after_the_table_is_over_play_now_shows_the_form_again(client):
    from gameplay import services

    start = timezone.now() - timedelta(seconds=20)
    user = make_user()
    client.force_login(user)
    play_now.join(user, *QUEUE, bots_after=15, now=start)
    play_now.match_all()
    services.abort_match(Match.objects.get())  # played elsewhere, ended, never picked up here
    page = client.get("/play/now/")
    assert page.status_code == 200 and 'data-testid="play-now-form"' in page.content.decode()


@pytest.mark.parametrize("data", [{"queue": "poker:standard", "bots_after": ""},
                                  {"queue": "allfours:trinidad_standard", "bots_after": "7"},
                                  {"queue": "allfours:nonsense"}])
def test_a_queue_or_wait_not_offered_is_refused_beside_the_field(client, data):
    client.force_login(make_user())
    response = client.post("/play/now/", data)
    assert response.status_code == 200 and 'class="errorlist' in response.content.decode()
    assert not QueueEntry.objects.exists()


def test_two_processes_matching_at_once_seat_nobody_twice():
    start = timezone.now()
    users = [make_user() for _ in range(8)]
    QueueEntry.objects.bulk_create([QueueEntry(user=u, game=QUEUE[0], preset=QUEUE[1], rating=1500, joined_at=start)
                                    for u in users])
    barrier = threading.Barrier(2)
    made, errors = [], []

    def worker():
        try:
            barrier.wait()
            made.extend(play_now.match_queue(*QUEUE, now=start))
        except Exception as error:  # noqa: BLE001 - the assertion below names it
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    seated = [user for match_id in made for user in seated_users(match_id)]
    assert len(made) == 2 and sorted(seated) == sorted(u.pk for u in users)


def test_the_pure_grouping_never_seats_a_player_twice_and_respects_windows():
    waiting = [matchmaking.Waiting(i, 1500 + 40 * i, 0, None) for i in range(9)]
    groups = matchmaking.tables(waiting, 4)
    ids = [p.id for group in groups for p in group]
    assert len(ids) == len(set(ids))
    assert all(matchmaking.compatible(a, b) for group in groups for a in group for b in group)


def test_the_periodic_task_seats_the_queue_when_the_bots_wait_is_over():
    from config.celery import BEAT_SCHEDULE
    from gameplay import tasks

    assert BEAT_SCHEDULE["match-queues"]["task"] == "gameplay.match_queues"
    long_ago = timezone.now() - timedelta(seconds=40)
    ann = make_user()
    play_now.join(ann, "baloot", "saudi_classic", bots_after=30, now=long_ago)
    assert not Match.objects.exists()  # seated by the task, not by the join
    assert tasks.match_queues() == 1
    match = Match.objects.get()
    assert seated_users(match.pk) == {ann.pk} and match.seats.exclude(bot="").count() == 3
