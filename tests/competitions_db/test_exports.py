"""CSV downloads (issue 31): a round's pairings, every result and the standings, linked from the
competition page; headers in the reader's language, times in the competition's zone (named),
UTF-8 with a byte-order mark for Excel; a name that looks like a formula stays text."""

import csv
import io
from datetime import datetime, timezone as dt_timezone

import pytest
from django.urls import reverse

from tests.competitions_db.helpers import make_club, make_competition, make_user
from tournaments.models import Competition, Entry, Pairing, Round
from tournaments.services import ranking

pytestmark = pytest.mark.django_db

DECIDED = datetime(2026, 12, 5, 23, 30, tzinfo=dt_timezone.utc)  # 19:30 in Port of Spain (UTC-4)


@pytest.fixture
def finished():
    """A round robin of 3 pairs in Port of Spain, one round played: Águilas beat =Zorros 2-1, Niños had a bye."""
    competition = make_competition(make_club(time_zone="America/Port_of_Spain"), format="round_robin",
                                   status=Competition.Status.FINISHED, tiebreak_order=["game_points", "buchholz"])
    names = ["Águilas del Caribe", "=Zorros", "نمور الخليج"]
    entries = [Entry.objects.create(competition=competition, name=n, status=Entry.Status.CONFIRMED, seed=i)
               for i, n in enumerate(names, start=1)]
    round_row = Round.objects.create(competition=competition, number=1, starts_at=DECIDED, deadline=DECIDED,
                                     status=Round.Status.COMPLETE)
    Pairing.objects.create(competition=competition, round=round_row, round_number=1, slot=1, home=entries[0],
                           away=entries[1], winner=entries[0], home_points=2, away_points=1, decided_at=DECIDED,
                           source=Pairing.Source.PLAYED)
    Pairing.objects.create(competition=competition, round=round_row, round_number=1, slot=2, home=entries[2],
                           winner=entries[2], decided_at=DECIDED, source=Pairing.Source.BYE)
    ranking.refresh(competition)
    return competition


def download(client, name, competition, *args, language="es"):
    response = client.get(reverse(f"tournaments:{name}", args=[competition.pk, *args]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    assert response.content.startswith(b"\xef\xbb\xbf")  # the BOM: Excel then reads UTF-8
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_competition_page_links_every_download(client, finished):
    html = client.get(finished.get_absolute_url()).text
    for url in (reverse("tournaments:round_csv", args=[finished.pk, 1]),
                reverse("tournaments:results_csv", args=[finished.pk]),
                reverse("tournaments:standings_csv", args=[finished.pk])):
        assert url in html


def test_standings_csv_in_spanish_has_the_chosen_tiebreaks_as_columns(client, finished):
    rows = download(client, "standings_csv", finished)
    assert rows[0] == ["Puesto", "Pareja", "Jugados", "Ganados", "Empatados", "Perdidos", "Puntos", "Juegos a favor",
                       "Juegos en contra", "Puntos de juego", "Buchholz"]
    assert rows[1][:2] == ["1", "Águilas del Caribe"] or rows[1][:2] == ["1", "نمور الخليج"]
    assert {row[1] for row in rows[1:]} == {"Águilas del Caribe", "'=Zorros", "نمور الخليج"}


def test_results_csv_in_arabic_names_the_zone_and_gives_times_in_it(client, finished):
    rows = download(client, "results_csv", finished, language="ar")
    assert rows[0][0] == "الجولة" and rows[0][-1].endswith("(America/Port of Spain)")
    played = rows[1]
    assert played[2:8] == ["Águilas del Caribe", "'=Zorros", "2", "1", "2–1", "Águilas del Caribe"]
    assert played[-1] == "2026-12-05 19:30"
    assert rows[2][2] == "نمور الخليج" and rows[2][3] == "استراحة"


def test_a_rounds_pairings_csv_gives_each_table_its_start_in_the_clubs_zone(client, finished):
    rows = download(client, "round_csv", finished, 1, language="en")
    assert rows[0] == ["Table", "Home", "Away", "Starts (America/Port of Spain)", "Result", "Winner"]
    assert rows[1] == ["1", "Águilas del Caribe", "'=Zorros", "2026-12-05 19:30", "2–1", "Águilas del Caribe"]
    assert rows[2][:3] == ["2", "نمور الخليج", "bye"]


def test_a_members_only_competitions_csv_is_hidden_from_outsiders(client, finished):
    Competition.objects.filter(pk=finished.pk).update(visibility=Competition.Visibility.MEMBERS)
    client.force_login(make_user())
    assert client.get(reverse("tournaments:standings_csv", args=[finished.pk])).status_code == 404
