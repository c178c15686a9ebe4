"""The signed-in home: what it shows a player, read from the real rows."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs.models import Membership
from home import queries
from gameplay import api as gameplay_api
from gameplay import services
from gameplay.models import Match
from tests.competitions_db.helpers import human_pairs, make_club, make_competition, make_user
from tournaments import pages
from tournaments.models import CheckIn, EntryPlayer, Entry, Notification, Pairing, Round

pytestmark = pytest.mark.django_db


def scheduled_pairing(starts_in=timedelta(hours=2), status=Round.Status.SCHEDULED):
    competition = make_competition(starts_in=starts_in)
    (home, home_users), (away, away_users) = human_pairs(competition, 2)
    starts = timezone.now() + starts_in
    round_row = Round.objects.create(competition=competition, number=1, status=status, starts_at=starts,
                                     deadline=starts + timedelta(minutes=10))
    pairing = Pairing.objects.create(competition=competition, round=round_row, round_number=1, slot=0,
                                     home=home, away=away)
    return pairing, home_users + away_users


def test_next_match_is_the_players_scheduled_pairing_with_its_start_time():
    pairing, users = scheduled_pairing()
    found = pages.next_match_of(users[0])
    assert found.pairing == pairing and found.starts_at == pairing.round.starts_at
    assert not found.can_check_in  # the round has not opened yet


def test_next_match_offers_check_in_once_the_round_is_open_and_not_after_checking_in():
    pairing, users = scheduled_pairing(starts_in=timedelta(minutes=5), status=Round.Status.OPEN)
    assert pages.next_match_of(users[1]).can_check_in
    CheckIn.objects.create(pairing=pairing, user=users[1])
    again = pages.next_match_of(users[1])
    assert again.checked_in and not again.can_check_in


def test_a_decided_pairing_is_no_longer_the_next_match():
    pairing, users = scheduled_pairing()
    Pairing.objects.filter(pk=pairing.pk).update(decided_at=timezone.now())
    assert pages.next_match_of(users[0]) is None


def test_a_stranger_has_no_next_match():
    scheduled_pairing()
    assert pages.next_match_of(make_user()) is None


def test_tables_where_it_is_your_turn_come_first_and_are_marked():
    players = [make_user() for _ in range(4)]
    first = services.create_match("allfours", {}, [services.SeatSpec(user=u) for u in players], seed=3, first_dealer=0)
    waiting = services.create_match("allfours", {}, [services.SeatSpec(user=players[0])])
    live = services.live_table(Match.objects.get(pk=first.pk)).table
    actor = players[live.to_act]
    rows, _ = gameplay_api.home_tables_of(actor)
    assert [r.match_id for r in rows][0] == first.pk and rows[0].your_turn
    mine, _ = gameplay_api.home_tables_of(players[0])
    assert {r.match_id for r in mine} == {first.pk, waiting.pk}
    assert next(r for r in mine if r.match_id == waiting.pk).waiting


def test_the_home_reads_tables_and_table_invitations_together_as_each_list_alone_would():
    player, host = make_user(), make_user()
    others = [make_user() for _ in range(2)]
    older_invitation = services.create_match("allfours", {}, [services.SeatSpec(user=host),
                                                              services.SeatSpec(user=player, invited=True)],
                                             created_by=host)
    playing = services.create_match("allfours", {}, [services.SeatSpec(user=u) for u in [player, host, *others]])
    waiting = services.create_match("allfours", {}, [services.SeatSpec(user=player)])
    newer_invitation = services.create_match("allfours", {}, [services.SeatSpec(user=host),
                                                              services.SeatSpec(user=player, invited=True)],
                                             created_by=host)
    tables, invitations = gameplay_api.home_tables_of(player)
    assert {row.match_id for row in tables} == {playing.pk, waiting.pk}
    assert invitations == gameplay_api.table_invitations_of(player)
    assert [row.match_id for row in invitations] == [newer_invitation.pk, older_invitation.pk]  # newest first
    with CaptureQueriesContext(connection) as captured:
        other_tables, other_invitations = gameplay_api.home_tables_of(others[0])  # nothing more to read
    assert len(captured) == 1  # tables and invitations in one statement
    assert [row.match_id for row in other_tables] == [playing.pk] and other_invitations == []  # their own


def test_finished_tables_are_not_listed():
    players = [make_user() for _ in range(4)]
    match = services.create_match("allfours", {}, [services.SeatSpec(user=u) for u in players])
    services.abort_match(match, "test")
    assert gameplay_api.home_tables_of(players[0]) == ([], [])


def test_partner_invitations_list_only_open_invitations_of_open_competitions():
    competition = make_competition(starts_in=timedelta(days=2))
    inviter, invited = make_user(), make_user()
    entry = Entry.objects.create(competition=competition, name="A & B", created_by=inviter)
    EntryPlayer.objects.create(entry=entry, competition=competition, user=inviter, position=0,
                               accepted_at=timezone.now())
    place = EntryPlayer.objects.create(entry=entry, competition=competition, user=invited, position=1)
    assert pages.partner_invitations_of(invited) == [{"pk": place.pk, "competition": competition.name,
                                                      "by": inviter.player.name}]
    assert pages.partner_invitations_of(inviter) == []


def test_new_competition_is_offered_in_the_clubs_a_player_organises_only():
    organiser = make_user()
    club = make_club(organiser=organiser)
    other = make_club()
    Membership.objects.create(club=other, user=organiser, role=Membership.Role.MEMBER)
    clubs = queries.clubs_of(organiser)
    assert [c["slug"] for c in clubs["organised"]] == [club.slug]
    assert {c["slug"] for c in clubs["clubs"]} == {club.slug, other.slug}


def test_unread_notifications_are_counted():
    user = make_user()
    Notification.objects.create(user=user, key="a", text="one")
    Notification.objects.create(user=user, key="b", text="two", read_at=timezone.now())
    assert queries.unread_notifications(user) == 1


def test_the_dashboard_reads_in_a_bounded_number_of_queries(django_assert_max_num_queries):
    pairing, users = scheduled_pairing()
    with django_assert_max_num_queries(12):
        queries.dashboard(users[0])
