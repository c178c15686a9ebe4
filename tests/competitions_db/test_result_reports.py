"""Players report the result of a match played at the club; the other pair confirms it or
disputes it, and the organiser settles a dispute (issue 31, "Results from the club room")."""

import pytest
from django.urls import reverse

from tests.competitions_db.helpers import human_pairs, make_competition, make_user
from tournaments.models import AuditEntry, Competition, Notification, Pairing, ResultReport
from tournaments.services import CompetitionError, controls, manager, reports

pytestmark = pytest.mark.django_db


@pytest.fixture
def started():
    organiser = make_user("organiser")
    competition = make_competition(format="single_elimination", players_report=True, created_by=organiser)
    (home, home_users), (away, away_users) = human_pairs(competition, 2)
    manager.step(competition.pk)
    competition.refresh_from_db()
    pairing = Pairing.objects.get(competition=competition)
    ours, theirs = (home_users, away_users) if pairing.home_id == home.pk else (away_users, home_users)
    return competition, pairing, ours, theirs, organiser


def round_url(pairing):
    return reverse("tournaments:round", args=[pairing.competition_id, pairing.round_number])


def post_report(client, pairing, **fields):
    return client.post(reverse("tournaments:report_result", args=[pairing.competition_id, pairing.pk]),
                       {f"r{pairing.pk}-{name}": value for name, value in fields.items()})


def test_a_report_confirmed_by_the_other_pair_counts_as_played_at_the_club(client, started):
    competition, pairing, home_players, away_players, _organiser = started
    client.force_login(home_players[0])
    assert post_report(client, pairing, winner="home", home_points=1, away_points=0).status_code == 302
    pairing.refresh_from_db()
    assert not pairing.is_decided  # nothing counts before the other pair answers
    assert Notification.objects.filter(user=away_players[1], kind="result_reported").exists()

    client.force_login(away_players[1])
    page = client.get(round_url(pairing)).content.decode()
    assert 'data-testid="confirm-report"' in page and "Waiting for the other pair to confirm it." in page
    client.post(reverse("tournaments:answer_report", args=[competition.pk, pairing.pk, "confirm"]))
    pairing.refresh_from_db()
    assert (pairing.winner_id, pairing.home_points, pairing.away_points, pairing.source) == (
        pairing.home_id, 1, 0, Pairing.Source.CLUB)
    assert list(AuditEntry.objects.filter(pairing=pairing).values_list("action", "actor")) == [
        (AuditEntry.Action.CONFIRMED, away_players[1].pk), (AuditEntry.Action.REPORTED, home_players[0].pk)]
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED  # a final of two pairs: the champion is known


def test_a_disputed_report_counts_for_nothing_and_the_organiser_settles_it(client, started):
    competition, pairing, home_players, away_players, organiser = started
    reports.report(competition, pairing.pk, away_players[0], "away", 0, 1)
    reports.dispute(competition, pairing.pk, home_players[1])
    pairing.refresh_from_db()
    assert not pairing.is_decided
    assert Notification.objects.filter(user=organiser, kind="result_disputed").exists()
    with pytest.raises(CompetitionError):  # a disputed report is not confirmed afterwards
        reports.confirm(competition, pairing.pk, home_players[0])
    controls.enter_club_result(competition, pairing.pk, "home", 1, 0, organiser)
    pairing.refresh_from_db()
    assert pairing.winner_id == pairing.home_id


@pytest.mark.parametrize("who", ["own pair", "stranger"])
def test_only_a_player_of_the_other_pair_confirms(started, who):
    competition, pairing, home_players, _away, _organiser = started
    reports.report(competition, pairing.pk, home_players[0], "home", 1, 0)
    answerer = home_players[1] if who == "own pair" else make_user()
    with pytest.raises(CompetitionError):
        reports.confirm(competition, pairing.pk, answerer)
    pairing.refresh_from_db()
    assert not pairing.is_decided and ResultReport.objects.get().status == ResultReport.Status.PENDING


def test_an_impossible_result_is_refused_beside_its_field_keeping_what_was_typed(client, started):
    _competition, pairing, home_players, _away, _organiser = started
    client.force_login(home_players[0])
    response = post_report(client, pairing, winner="home", home_points=5, away_points=0)
    assert response.status_code == 400
    page = response.content.decode()
    assert "In a one-game match a pair wins at most one game." in page
    assert f'name="r{pairing.pk}-home_points" value="5"' in page
    assert not ResultReport.objects.exists()


@pytest.mark.parametrize("fields", [
    {"winner": "nobody", "home_points": 1, "away_points": 0},
    {"winner": "home", "home_points": "x", "away_points": 0},
    {"winner": "home", "home_points": -1, "away_points": 0},
    {"winner": "none", "home_points": 0, "away_points": 0},  # a knockout needs a winner
])
def test_nonsense_is_refused_and_changes_nothing(client, started, fields):
    _competition, pairing, home_players, _away, _organiser = started
    client.force_login(home_players[0])
    assert post_report(client, pairing, **fields).status_code == 400
    assert not ResultReport.objects.exists()


def test_a_stranger_or_a_competition_without_reports_cannot_report(client, started):
    competition, pairing, home_players, _away, _organiser = started
    client.force_login(make_user())
    assert post_report(client, pairing, winner="home", home_points=1, away_points=0).status_code == 400
    Competition.objects.filter(pk=competition.pk).update(players_report=False)
    client.force_login(home_players[0])
    assert post_report(client, pairing, winner="home", home_points=1, away_points=0).status_code == 400
    assert not ResultReport.objects.exists()


def test_forged_ids_find_nothing(client, started):
    competition, pairing, home_players, _away, _organiser = started
    other = make_competition(players_report=True)
    client.force_login(home_players[0])
    assert client.post(reverse("tournaments:report_result", args=[other.pk, pairing.pk]), {}).status_code == 404
    assert client.post(reverse("tournaments:answer_report", args=[competition.pk, pairing.pk, "shrug"])).status_code == 404
    assert client.post(reverse("tournaments:answer_report", args=[competition.pk, 99999, "confirm"])).status_code == 404
    assert not ResultReport.objects.exists()


def test_the_other_pair_cannot_report_over_a_pending_report(started):
    competition, pairing, home_players, away_players, _organiser = started
    reports.report(competition, pairing.pk, home_players[0], "home", 1, 0)
    reports.report(competition, pairing.pk, home_players[1], "away", 0, 1)  # the same pair mends its report
    with pytest.raises(CompetitionError):
        reports.report(competition, pairing.pk, away_players[0], "away", 0, 1)
    assert ResultReport.objects.get().winner_side == "away"
