"""Club pages run a bounded number of queries however big the club: 500 members, 100 competitions,
matches played by members, pending requests."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, JoinRequest, Membership, Player
from gameplay.models import Match, Seat

pytestmark = pytest.mark.django_db
MAX_QUERIES = 21  # measured: 20 for the owner's club page (session, user, club, members, competitions, ..., the nav's unread count)


def populate(club, members=500, competitions=100, matches=30, pending=25, prefix="player"):
    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"{prefix}{i:03}") for i in range(members + pending)])
    Player.objects.bulk_create([Player(user=user, display_name=f"Player {i}") for i, user in enumerate(users)])
    Membership.objects.bulk_create([Membership(club=club, user=user) for user in users[:members]])
    JoinRequest.objects.bulk_create([JoinRequest(club=club, user=user) for user in users[members:]])
    add_competitions(club, competitions)
    games = Match.objects.bulk_create([
        Match(game="baloot", seed=i, status=Match.Status.FINISHED, finished_at=timezone.now()) for i in range(matches)])
    Seat.objects.bulk_create([Seat(match=match, seat=s, user=users[(4 * i + s) % members])
                              for i, match in enumerate(games) for s in range(4)])


def add_competitions(club, count):
    from tournaments.models import Competition, Round

    statuses = ["running", "open", "draft", "finished"]
    competitions = Competition.objects.bulk_create([
        Competition(club=club, name=f"Cup {i}", slug=f"cup-{i}", game="baloot", format="swiss",
                    status=statuses[i % 4], starts_at=timezone.now() + timedelta(days=i)) for i in range(count)])
    Round.objects.bulk_create([
        Round(competition=competition, number=n, starts_at=competition.starts_at + timedelta(days=7 * n),
              deadline=competition.starts_at + timedelta(days=7 * n, hours=1))
        for competition in competitions for n in range(1, 4)])


@pytest.fixture
def big_club(cast):
    populate(cast.club)
    return cast


@pytest.mark.parametrize("who", ["anonymous", "member", "organiser", "owner"])
def test_the_club_page_of_a_big_club_runs_a_bounded_number_of_queries(client, big_club, who,
                                                                        django_assert_max_num_queries):
    if who != "anonymous":
        client.force_login(big_club.user(who))

    with django_assert_max_num_queries(MAX_QUERIES):
        response = client.get(reverse("clubs:detail", args=[big_club.club.slug]))

    html = response.content.decode()
    assert response.status_code == 200
    assert "504 members" in html and "Cup 0" in html and "Player 499" in html and "round 1" in html


@pytest.mark.parametrize("page", ["members", "requests", "log"])
def test_the_organiser_pages_of_a_big_club_run_a_bounded_number_of_queries(client, big_club, page,
                                                                           django_assert_max_num_queries):
    client.force_login(big_club.owner)

    with django_assert_max_num_queries(MAX_QUERIES):
        response = client.get(reverse(f"clubs:{page}", args=[big_club.club.slug]))

    assert response.status_code == 200


def test_the_club_list_runs_a_bounded_number_of_queries(client, big_club, django_assert_max_num_queries):
    for i in range(50):
        Club.objects.create(name=f"Club {i}", slug=f"club-{i}")
    client.force_login(big_club.member)

    with django_assert_max_num_queries(MAX_QUERIES):
        assert client.get(reverse("clubs:list")).status_code == 200


def test_a_player_page_runs_a_bounded_number_of_queries(client, big_club, django_assert_max_num_queries):
    with django_assert_max_num_queries(MAX_QUERIES):
        assert client.get(reverse("player", args=["player001"])).status_code == 200


def test_the_club_page_costs_the_same_queries_for_9_members_as_for_504_with_a_full_request_list(client, cast):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.clubs.conftest import make_cast

    small = make_cast("small-club")
    populate(small.club, members=5, competitions=4, matches=2, pending=25, prefix="small")
    populate(cast.club)
    counts = []
    for club_cast in (small, cast):
        client.force_login(club_cast.owner)
        with CaptureQueriesContext(connection) as queries:
            client.get(reverse("clubs:detail", args=[club_cast.club.slug]))
        counts.append(len(queries))

    assert counts[0] == counts[1]
