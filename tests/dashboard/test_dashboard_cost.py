"""The signed-in home does bounded work (issue 16): the same queries for a player with one table
and one result as for one with many, and the parts kept between requests are forgotten on the
events that change them."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings

from clubs import services as clubs
from home import queries
from clubs.models import Membership
from gameplay import services
from tests.competitions_db.helpers import make_club, make_user
from tests.ratings.conftest import finished_matches
from tournaments.ratings.services import rate_pending_matches

pytestmark = pytest.mark.django_db


def busy(player, others, tables: int, results: int):
    """`tables` playing tables the player sits at and `results` finished, rated matches."""
    for _ in range(tables):
        services.create_match("allfours", {}, [services.SeatSpec(user=u) for u in [player, *others]])
    finished_matches([([player, *others], n % 2) for n in range(results)], game="allfours")
    rate_pending_matches()


def dashboard_queries(user) -> int:
    with CaptureQueriesContext(connection) as captured:
        queries.dashboard(user)
    return len(captured)


def test_the_dashboard_costs_the_same_queries_whatever_the_number_of_matches():
    few, many = make_user(), make_user()
    others = [make_user() for _ in range(3)]
    busy(few, others, tables=1, results=1)
    busy(many, others, tables=15, results=30)
    assert dashboard_queries(many) == dashboard_queries(few) <= 8
    rows = queries.dashboard(many)
    assert len(rows["tables"]) == queries.LIST_SIZE and len(rows["results"]) == queries.RECENT_RESULTS


def test_whose_turn_it_is_is_read_from_the_row_not_a_stale_cached_table():
    players = [make_user() for _ in range(4)]
    match = services.create_match("allfours", {}, [services.SeatSpec(user=u) for u in players], seed=3, first_dealer=0)
    live = services.live_table(match).table
    actor = players[live.to_act]
    assert queries.dashboard(actor)["tables"][0].your_turn
    services.forget_table(match.pk)  # another process's table: this one has none cached
    assert queries.dashboard(actor)["tables"][0].your_turn
    assert not any(row.your_turn for row in queries.dashboard(players[(live.to_act + 1) % 4])["tables"])


@pytest.fixture
def kept():
    """The home's parts kept as in production (tests read them fresh otherwise)."""
    with override_settings(DASHBOARD_CACHE_SECONDS=30):
        yield


def test_a_new_club_shows_at_once_although_the_clubs_are_kept(kept):
    player = make_user()
    cache.delete(queries.cache_key(player.pk))
    assert queries.dashboard(player)["clubs"] == []
    club = make_club()
    Membership.objects.create(club=club, user=player, role=Membership.Role.MEMBER)  # post_save forgets
    assert [c["slug"] for c in queries.dashboard(player)["clubs"]] == [club.slug]
    cache.delete(queries.cache_key(player.pk))


def test_the_kept_parts_are_read_once_then_served_from_the_cache(kept):
    player = make_user()
    cache.delete(queries.cache_key(player.pk))
    first = dashboard_queries(player)
    assert dashboard_queries(player) < first
    queries.on_notifications_changed(None, user_id=player.pk)
    assert dashboard_queries(player) == first
    cache.delete(queries.cache_key(player.pk))


def test_a_club_invitation_shows_at_once_although_invitations_are_kept(kept):
    organiser, player = make_user(), make_user()
    club = make_club(organiser=organiser)
    cache.delete(queries.cache_key(player.pk))
    assert queries.dashboard(player)["club_invitations"] == []
    clubs.invite_member(organiser, club, player.username)
    assert [i["club"] for i in queries.dashboard(player)["club_invitations"]] == [club.name]
    cache.delete(queries.cache_key(player.pk))


def test_a_membership_is_saved_when_the_cache_cannot_be_reached(kept, monkeypatch):
    # `make run` seeds its demo clubs before it starts the embedded Redis: forgetting a player's
    # kept parts must not make that write fail (it did: seed_demo crashed, and `make run` with it)
    from redis.exceptions import ConnectionError as RedisDown

    def unreachable(keys):
        raise RedisDown("Error 2 connecting to redis.sock. No such file or directory.")

    monkeypatch.setattr(cache, "delete_many", unreachable)
    player, club = make_user(), make_club()
    Membership.objects.create(club=club, user=player, role=Membership.Role.MEMBER)
    assert Membership.objects.filter(club=club, user=player).exists()
