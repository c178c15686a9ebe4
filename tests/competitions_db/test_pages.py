"""Competition pages: what they show, who may see them, and bounded queries at 512 pairs."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.competitions_db.helpers import (
    big_finished_competition, bot_pairs, human_pairs, make_club, make_competition, make_user,
)
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


def queries(client, url) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    return len(captured.captured_queries), response


def test_standings_of_a_512_pair_swiss_run_a_bounded_number_of_queries(client):
    competition = big_finished_competition("swiss", 512, rounds=9)

    count, response = queries(client, reverse("tournaments:standings", args=[competition.pk]))

    assert count <= 6
    assert response.content.count(b"<tr") == 513
    assert b"Buchholz" in response.content


def test_bracket_of_a_512_pair_knockout_runs_a_bounded_number_of_queries(client):
    competition = big_finished_competition("single_elimination", 512)

    count, response = queries(client, reverse("tournaments:bracket", args=[competition.pk]))

    assert count <= 6
    assert response.content.count(b"<rect") == 511
    standings_count, _ = queries(client, reverse("tournaments:standings", args=[competition.pk]))
    assert standings_count <= 6


def test_archive_filters_finished_competitions_by_club_game_and_year(client):
    finished = big_finished_competition("round_robin", 4)
    other = make_competition(make_club(), game="baloot", preset="source")
    Competition.objects.filter(pk=other.pk).update(status=Competition.Status.FINISHED, finished_at=finished.finished_at)

    response = client.get(reverse("tournaments:archive"), {"club": finished.club.slug})
    assert finished.name in response.text and other.name not in response.text
    response = client.get(reverse("tournaments:archive"), {"game": "baloot", "year": finished.finished_at.year})
    assert other.name in response.text and finished.name not in response.text


def test_round_page_links_each_finished_match_to_its_replay(client, transactional_db):
    from tests.competitions_db.helpers import drive

    competition = make_competition(format="single_elimination")
    bot_pairs(competition, 2)
    drive(competition)

    response = client.get(reverse("tournaments:round", args=[competition.pk, 1]))
    match_id = competition.pairings.get().match_id
    assert reverse("gameplay:replay", args=[match_id]) in response.text


def test_members_only_competition_is_hidden_from_strangers(client):
    competition = make_competition(visibility=Competition.Visibility.MEMBERS)
    assert client.get(reverse("tournaments:detail", args=[competition.pk])).status_code == 404


def test_club_and_player_calendars_list_fixtures(client):
    competition = make_competition(format="round_robin", starts_in=timedelta(hours=1))
    (entry, (alice, _bob)), _other = human_pairs(competition, 2)
    from tournaments.services import manager

    manager.step(competition.pk, now=competition.starts_at)

    club_feed = client.get(reverse("tournaments:club_calendar", args=[competition.club.slug]))
    assert club_feed["Content-Type"].startswith("text/calendar")
    assert club_feed.text.count("BEGIN:VEVENT") == 1 and "\r\n" in club_feed.text
    from config.calendar_tokens import player_token

    mine = client.get(reverse("tournaments:player_calendar", args=[player_token(alice)]))
    assert mine.text.count("BEGIN:VEVENT") == 1
    assert client.get(reverse("tournaments:player_calendar", args=["forged:token"])).status_code == 404


def test_api_serves_standings_and_an_openapi_schema(client):
    competition = big_finished_competition("swiss", 8, rounds=3)

    standings = client.get(f"/competitions/api/competitions/{competition.pk}/standings").json()
    assert [row["rank"] for row in standings][0] == 1 and len(standings) == 8
    matches = client.get(f"/competitions/api/competitions/{competition.pk}/matches").json()
    assert len(matches) == 12
    schema = client.get("/competitions/api/openapi.json").json()
    assert "/competitions/api/competitions/{competition_id}/bracket" in schema["paths"]


def test_organiser_creates_a_competition_from_a_preset(client):
    organiser = make_user()
    club = make_club(organiser)
    client.force_login(organiser)
    url = reverse("tournaments:new", args=[club.slug])
    form = client.get(url, {"game": "allfours", "preset": "tobago"})
    assert form.status_code == 200

    response = client.post(url, {
        "name": "Spring Cup", "format": "swiss", "seeding": "rating", "visibility": "public",
        "starts_at": "2030-04-01T19:00", "round_interval": 0, "check_in": 15, "grace": 10,
        "game": "allfours", "preset": "tobago", "time_control": 30, "best_of": 3,
        **{name: form.context["form"][name].value() for name in form.context["form"].fields if name.startswith("opt_")
           and form.context["form"][name].value() not in (None, False)}})

    competition = Competition.objects.get(name="Spring Cup")
    assert response.status_code == 302 and competition.preset == "tobago" and competition.games_to_win == 2
    assert competition.options["timeout_result"] in ("forfeit_match", "auto_action")
