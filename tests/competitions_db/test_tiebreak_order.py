"""A tiebreak order the organiser picks per competition: chosen on the form (repeats refused beside the
box, everything typed kept), stored, shown on the competition page, and followed by the standings."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.competitions_db.helpers import make_club, make_competition, make_user
from tests.competitions_db.test_organiser_controls import form_data
from tournaments.models import Competition, Entry, Pairing, Round
from tournaments.services import ranking

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("organiser")


@pytest.fixture
def club(organiser):
    return make_club(organiser, time_zone="America/Port_of_Spain")


def test_the_form_stores_the_chosen_order_and_the_page_shows_it_in_spanish(client, organiser, club):
    client.force_login(organiser)
    response = client.post(reverse("tournaments:new", args=[club.slug]), form_data(
        format="round_robin", tiebreak_1="game_points", tiebreak_2="buchholz"))
    assert response.status_code == 302
    competition = Competition.objects.get(name="Winter Cup")
    assert competition.tiebreak_order == ["game_points", "buchholz"]
    html = client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert 'data-testid="tiebreak-order"' in html
    facts = html.split('data-testid="tiebreak-order"')[1].split("</dd>")[0]
    assert facts.index("Puntos de juego") < facts.index("Buchholz")


def test_a_repeated_tiebreak_is_refused_beside_its_box_keeping_what_was_typed(client, organiser, club):
    client.force_login(organiser)
    response = client.post(reverse("tournaments:new", args=[club.slug]), form_data(
        format="swiss", tiebreak_1="buchholz", tiebreak_2="game_points", tiebreak_3="buchholz"))
    assert response.status_code == 200
    assert not Competition.objects.exists()
    errors = response.context["form"].errors
    assert list(errors) == ["tiebreak_3"], errors
    html = response.text
    box = html.split('name="tiebreak_2"')[1].split("</select>")[0]
    assert '<option value="game_points" selected>' in box
    assert 'value="Winter Cup"' in html


def test_an_edit_with_no_change_keeps_the_formats_own_order_unsaved(client, organiser, club):
    competition = make_competition(club, format="swiss")
    client.force_login(organiser)
    form = client.get(reverse("tournaments:edit", args=[competition.pk])).context["form"]
    assert all(not form[name].value() for name in ("tiebreak_1", "tiebreak_2"))


def test_the_stored_standings_follow_the_chosen_order():
    """A round robin of 4 where 1 and 2 tie on points: 2 beat 1, 1 won more games."""
    competition = make_competition(format="round_robin", status=Competition.Status.FINISHED)
    entries = {n: Entry.objects.create(competition=competition, name=f"Pair {n}", status=Entry.Status.CONFIRMED,
                                       seed=n) for n in range(1, 5)}
    games = [((1, 2), 2, (1, 2)), ((1, 3), 1, (2, 0)), ((1, 4), 1, (2, 0)),
             ((2, 3), 3, (0, 2)), ((2, 4), 2, (2, 1)), ((3, 4), 4, (0, 2))]
    round_row = Round.objects.create(competition=competition, number=1, starts_at=competition.starts_at,
                                     deadline=competition.starts_at, status=Round.Status.COMPLETE)
    for slot, ((home, away), winner, (hp, ap)) in enumerate(games, start=1):
        Pairing.objects.create(competition=competition, round=round_row, round_number=1, slot=slot,
                               home=entries[home], away=entries[away], winner=entries[winner], home_points=hp,
                               away_points=ap, decided_at=competition.starts_at, source="played")

    def top_two():
        ranking.refresh(competition)
        return [s.entry.name for s in competition.standings.select_related("entry").order_by("position")][:2]

    assert top_two() == ["Pair 2", "Pair 1"]  # the round robin's own order: head-to-head first
    competition.tiebreak_order = ["game_difference", "head_to_head"]
    competition.save(update_fields=["tiebreak_order"])
    assert top_two() == ["Pair 1", "Pair 2"]


def test_the_edit_form_shows_the_stored_order_and_a_change_of_it_is_saved_and_audited(client, organiser, club):
    competition = make_competition(club, format="league", round_interval=timedelta(days=7), time_control=30,
                                   starts_in=timedelta(days=2), tiebreak_order=["head_to_head", "game_points"])
    client.force_login(organiser)
    page = client.get(reverse("tournaments:edit", args=[competition.pk]))
    form = page.context["form"]
    assert [form[name].value() for name in ("tiebreak_1", "tiebreak_2", "tiebreak_3")] == ["head_to_head", "game_points", None]
    data = {name: field.value() for name, field in ((n, form[n]) for n in form.fields) if field.value() is not None}
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    data["starts_at"] = timezone.localtime(competition.starts_at, ZoneInfo(club.time_zone)).strftime("%Y-%m-%dT%H:%M")
    data["seen"] = page.context["seen"]
    data["tiebreak_2"] = "buchholz"
    response = client.post(reverse("tournaments:edit", args=[competition.pk]), data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    competition.refresh_from_db()
    assert competition.tiebreak_order == ["head_to_head", "buchholz"]
    assert competition.audit_entries.filter(action="edited").get().detail["changed"]["tiebreak_order"] == [
        ["head_to_head", "game_points"], ["head_to_head", "buchholz"]]
