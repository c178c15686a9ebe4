"""The manager in eager mode: idempotent steps, no-shows, league forfeits, organiser tools."""

from datetime import timedelta

import pytest

from tests.competitions_db.helpers import bot_pairs, human_pairs, make_competition, make_user
from tournaments.models import AuditEntry, Competition, Entry, Notification, Pairing, Round
from tournaments.services import CompetitionError, entries, manager, organiser

pytestmark = pytest.mark.django_db


def test_running_a_step_twice_creates_nothing_twice():
    competition = make_competition(format="round_robin")
    human_pairs(competition, 4)
    manager.step(competition.pk)
    counts = (Round.objects.count(), Pairing.objects.count(), Notification.objects.count())

    manager.step(competition.pk)
    manager.step(competition.pk)

    assert (Round.objects.count(), Pairing.objects.count(), Notification.objects.count()) == counts
    # round 1 with its two pairings, rounds 2 and 3 with their times only (issue 32: every round exists
    # from the draw), the eight players notified once
    assert counts == (3, 2, 8)


def test_check_in_of_all_four_players_creates_the_table_with_home_at_seats_0_and_2():
    competition = make_competition(format="single_elimination")
    (home, home_users), (away, away_users) = human_pairs(competition, 2)
    manager.step(competition.pk)
    pairing = Pairing.objects.get(competition=competition)

    for user in home_users + away_users[:1]:
        manager.check_in(user, pairing.pk)
    assert Pairing.objects.get(pk=pairing.pk).match_id is None
    manager.check_in(away_users[1], pairing.pk)

    match = Pairing.objects.get(pk=pairing.pk).match
    by_seat = dict(match.seats.values_list("seat", "user_id"))
    players = {pairing.home_id: {u.pk for u in (home_users if pairing.home_id == home.pk else away_users)}}
    assert {by_seat[0], by_seat[2]} == players[pairing.home_id]
    assert match.rated and match.status == "playing"


def test_a_pair_that_does_not_show_loses_by_walkover_at_the_deadline():
    competition = make_competition(format="swiss", grace=timedelta(minutes=5))
    (present, users), (absent, _absent_users) = human_pairs(competition, 2)
    manager.step(competition.pk)
    pairing = Pairing.objects.get(competition=competition)
    for user in users:
        manager.check_in(user, pairing.pk)

    manager.step(competition.pk, now=competition.starts_at + timedelta(minutes=4))
    assert not Pairing.objects.get(pk=pairing.pk).is_decided
    manager.step(competition.pk, now=competition.starts_at + timedelta(minutes=6))

    pairing.refresh_from_db()
    assert pairing.walkover and pairing.winner_id == present.pk and pairing.match_id is None


def test_in_a_knockout_neither_pair_showing_sends_the_better_seed_through():
    competition = make_competition(format="single_elimination")
    human_pairs(competition, 2)
    manager.step(competition.pk)
    manager.step(competition.pk, now=competition.starts_at + timedelta(hours=1))

    pairing = Pairing.objects.get(competition=competition)
    assert pairing.walkover and pairing.winner.seed == 1
    assert Competition.objects.get(pk=competition.pk).status == Competition.Status.FINISHED


def test_a_league_week_ending_unplayed_is_a_double_forfeit_when_nobody_showed():
    competition = make_competition(format="league", round_interval=timedelta(days=7))
    human_pairs(competition, 2)
    manager.step(competition.pk)
    assert Round.objects.filter(competition=competition).count() == 2  # home and away weeks

    manager.step(competition.pk, now=competition.starts_at + timedelta(days=7, seconds=1))

    week_one = Pairing.objects.get(competition=competition, round_number=1)
    assert week_one.walkover and week_one.winner_id is None
    assert not Pairing.objects.get(competition=competition, round_number=2).is_decided


def test_a_player_is_in_at_most_one_pair_and_the_partner_must_accept():
    competition = make_competition(starts_in=timedelta(days=1))
    amina, bilal, carla = make_user(), make_user(), make_user()
    entry = entries.enter(competition, amina, bilal)
    assert entry.status == Entry.Status.PENDING
    with pytest.raises(CompetitionError):
        entries.enter(competition, carla, bilal)

    entries.answer_invitation(entry, bilal, accept=True)
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.CONFIRMED
    assert Notification.objects.filter(user=bilal, key=f"invited:{entry.pk}").exists()


def test_override_needs_a_reason_and_is_kept_in_the_audit_log():
    competition = make_competition(format="round_robin")
    bot_pairs(competition, 2)
    manager.step(competition.pk)
    pairing = Pairing.objects.get(competition=competition)
    organiser_user = make_user()

    with pytest.raises(CompetitionError):
        organiser.override_result(pairing, pairing.away, 0, 1, "  ", organiser_user)
    organiser.override_result(pairing, pairing.away, 0, 1, "Table crashed; both captains agreed.", organiser_user)

    pairing.refresh_from_db()
    assert pairing.winner_id == pairing.away_id and pairing.source == Pairing.Source.OVERRIDE
    entry = AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.OVERRIDDEN)
    assert entry.reason.startswith("Table crashed") and entry.actor == organiser_user


def test_disqualifying_a_pair_gives_its_opponent_the_open_pairing():
    competition = make_competition(format="swiss")
    (first, _u1), (second, _u2) = human_pairs(competition, 2)
    manager.step(competition.pk)

    organiser.remove_pair(first, make_user(), "Abusive chat", disqualify=True)

    pairing = Pairing.objects.get(competition=competition)
    assert pairing.winner_id == second.pk and pairing.walkover
    assert Entry.objects.get(pk=first.pk).status == Entry.Status.DISQUALIFIED


def test_a_paused_round_gives_no_walkovers_until_resumed():
    competition = make_competition(format="swiss")
    human_pairs(competition, 2)
    manager.step(competition.pk)
    round_row = Round.objects.get(competition=competition)
    organiser.pause_round(round_row, None, "Server maintenance")

    manager.step(competition.pk, now=competition.starts_at + timedelta(hours=1))
    assert not Pairing.objects.get(competition=competition).is_decided

    organiser.reschedule_round(round_row, competition.starts_at + timedelta(hours=2), None, "Next evening")
    assert Round.objects.get(pk=round_row.pk).deadline == competition.starts_at + timedelta(hours=2, minutes=5)
