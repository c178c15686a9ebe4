"""Issue 31, a competition's life, editable and safe: cancel (a confirmation saying what happens) and
reopen, delete, run it again, edit after the start what can still change. Each reached from the
competition's page, audited, refused beside the field with what was typed kept; forged ids change nothing."""

import re
from html.parser import HTMLParser
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from gameplay.models import Match
from tests.competitions_db.helpers import human_pairs, make_club, make_competition, make_user
from tournaments.models import AuditEntry, Competition, Entry, Notification, Pairing, Round
from tournaments.services import controls, manager

pytestmark = pytest.mark.django_db

LANGUAGES = [("en", "Cancel the competition"), ("es", "Cancelar la competición"), ("ar", "إلغاء المسابقة")]


@pytest.fixture
def organiser():
    return make_user("organiser")


@pytest.fixture
def club(organiser):
    return make_club(organiser, time_zone="Europe/Madrid")


@pytest.fixture
def signed_in(client, organiser):
    client.force_login(organiser)
    return client


def running(club, pairs=4, **fields):
    """A Swiss started now, its first round open (check-in is zero)."""
    competition = make_competition(club, **fields)
    human_pairs(competition, pairs)
    manager.step(competition.pk)
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
    return competition


def played(competition):
    pairing = Pairing.objects.filter(competition=competition, away__isnull=False).first()
    Pairing.objects.filter(pk=pairing.pk).update(decided_at=timezone.now(), winner=pairing.home, home_points=1,
                                                 source=Pairing.Source.PLAYED)
    return pairing


def url(name, competition):
    return reverse(f"tournaments:{name}", args=[competition.pk])


def local(moment) -> str:
    """A moment as the club's page shows it (Madrid)."""
    return timezone.localtime(moment, ZoneInfo("Europe/Madrid")).strftime("%Y-%m-%dT%H:%M")


# ----- cancel and reopen ---------------------------------------------------------------------------

def test_cancel_says_what_will_happen_then_drops_unplayed_rounds_aborts_tables_and_notifies(signed_in, club):
    competition = running(club)
    pairing = Pairing.objects.filter(competition=competition, away__isnull=False).first()
    controls.start_pairing_now(competition, pairing.pk, None)
    pairing.refresh_from_db()
    assert pairing.match_id
    detail = signed_in.get(competition.get_absolute_url()).text
    assert url("cancel", competition) in detail
    page = signed_in.get(url("cancel", competition)).text
    assert "1 round not played is dropped." in page and "1 table in play is aborted." in page
    assert "8 entrants are notified" in page
    assert Competition.objects.get(pk=competition.pk).status == Competition.Status.RUNNING  # a GET changes nothing
    response = signed_in.post(url("cancel", competition), {"reason": "Hall flooded"})
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.status == Competition.Status.CANCELLED
    assert not Round.objects.filter(competition=competition).exists()
    assert Match.objects.get(pk=pairing.match_id).status == Match.Status.ABORTED
    assert Notification.objects.filter(competition=competition, kind="cancelled").count() == 8
    audit = AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.CANCELLED)
    assert audit.reason == "Hall flooded" and audit.detail["from"] == "running" and audit.detail["aborted"] == 1


def test_a_cancel_keeps_the_rounds_already_played(signed_in, club):
    competition = running(club)
    played(competition)
    signed_in.post(url("cancel", competition))
    assert Round.objects.filter(competition=competition, number=1).exists()
    assert reopen_link(signed_in, competition) is False


def reopen_link(client, competition) -> bool:
    return url("reopen", competition) in client.get(competition.get_absolute_url()).text


def test_a_cancelled_competition_that_has_not_played_reopens_for_entries_from_a_new_start(signed_in, club):
    competition = make_competition(club, starts_in=timedelta(days=2))
    human_pairs(competition, 3)
    signed_in.post(url("cancel", competition))
    assert reopen_link(signed_in, competition)
    refused = signed_in.post(url("reopen", competition), {"starts_at": "2001-01-01T10:00"})
    assert refused.status_code == 400
    assert "The start must be in the future." in str(refused.context["form"].errors["starts_at"])
    assert 'value="2001-01-01T10:00"' in refused.text  # what was typed is kept
    assert Competition.objects.get(pk=competition.pk).status == Competition.Status.CANCELLED
    response = signed_in.post(url("reopen", competition), {"starts_at": "2031-05-02T20:00"})
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.status == Competition.Status.OPEN and competition.finished_at is None
    assert competition.starts_at.isoformat() == "2031-05-02T18:00:00+00:00"  # 20:00 in Madrid
    assert competition.entries.filter(status=Entry.Status.CONFIRMED).count() == 3
    assert AuditEntry.objects.filter(competition=competition, action=AuditEntry.Action.REOPENED).exists()


def test_a_competition_that_played_cannot_be_reopened(signed_in, club):
    competition = running(club)
    played(competition)
    signed_in.post(url("cancel", competition))
    signed_in.post(url("reopen", competition), {"starts_at": "2031-05-02T20:00"})
    competition.refresh_from_db()
    assert competition.status == Competition.Status.CANCELLED
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.REOPENED).exists()


# ----- delete -------------------------------------------------------------------------------------

def test_a_competition_with_no_played_match_is_deleted_after_a_confirmation(signed_in, club):
    competition = running(club)
    assert url("delete", competition) in signed_in.get(competition.get_absolute_url()).text
    page = signed_in.get(url("delete", competition))
    assert page.status_code == 200 and "cannot be undone" in page.text
    assert Competition.objects.filter(pk=competition.pk).exists()
    response = signed_in.post(url("delete", competition))
    assert response.status_code == 302 and response["Location"] == reverse("clubs:detail", args=[club.slug])
    assert not Competition.objects.filter(pk=competition.pk).exists()


def test_a_competition_that_played_cannot_be_deleted_and_says_why(signed_in, club):
    competition = running(club)
    played(competition)
    assert url("delete", competition) not in signed_in.get(competition.get_absolute_url()).text
    page = signed_in.get(url("delete", competition), HTTP_ACCEPT_LANGUAGE="es")
    assert "no se puede eliminar" in page.text and "confirm-delete" not in page.text
    assert signed_in.post(url("delete", competition)).status_code == 403
    assert Competition.objects.filter(pk=competition.pk).exists()


# ----- run it again --------------------------------------------------------------------------------

def test_run_it_again_copies_the_settings_and_the_entries_and_opens_the_copy_in_its_edit_form(signed_in, club):
    competition = make_competition(club, format="double_elimination", grand_final_reset=False, best_of=3,
                                   description="Prizes at the bar", starts_in=timedelta(days=1))
    human_pairs(competition, 3)
    assert url("run_again", competition) in signed_in.get(competition.get_absolute_url()).text
    page = signed_in.get(url("run_again", competition)).text
    assert 'name="with_entries"' in page and 'name="starts_at"' in page
    response = signed_in.post(url("run_again", competition), {"starts_at": "2031-01-10T19:00", "with_entries": "on"})
    copy = Competition.objects.exclude(pk=competition.pk).get()
    assert response.status_code == 302 and response["Location"] == url("edit", copy)
    assert (copy.name, copy.format, copy.grand_final_reset, copy.best_of, copy.description, copy.options,
            copy.status) == (competition.name, "double_elimination", False, 3, "Prizes at the bar",
                             competition.options, Competition.Status.OPEN)
    assert copy.slug != competition.slug and copy.starts_at.isoformat() == "2031-01-10T18:00:00+00:00"
    names = lambda c: sorted(c.entries.filter(status=Entry.Status.CONFIRMED).values_list("name", flat=True))  # noqa: E731
    assert names(copy) == names(competition) and len(names(copy)) == 3
    audit = AuditEntry.objects.get(competition=copy, action=AuditEntry.Action.RUN_AGAIN)
    assert audit.detail["from"] == competition.pk and audit.detail["pairs"] == 3
    assert signed_in.get(url("edit", copy)).status_code == 200
    page = signed_in.get(copy.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert f"creó esta competición como copia de otra ({competition.name})" in page


def test_run_it_again_without_the_box_copies_no_entry_and_a_past_start_is_refused_beside_it(signed_in, club):
    competition = running(club)
    refused = signed_in.post(url("run_again", competition), {"starts_at": "2001-01-01T10:00", "with_entries": "on"})
    assert refused.status_code == 400 and "starts_at" in refused.context["form"].errors
    assert 'value="2001-01-01T10:00"' in refused.text and re.search(r'name="with_entries"[^>]*checked', refused.text)
    assert Competition.objects.count() == 1
    signed_in.post(url("run_again", competition), {"starts_at": "2031-01-10T19:00"})
    copy = Competition.objects.exclude(pk=competition.pk).get()
    assert copy.entries.count() == 0 and copy.status == Competition.Status.OPEN


# ----- edit after the start ------------------------------------------------------------------------

def league(club):
    """A league started now: week 1 open, the later weeks scheduled."""
    competition = running(club, format="league", round_interval=timedelta(days=7))
    statuses = list(competition.rounds.order_by("number").values_list("status", flat=True))
    assert statuses[0] == "open" and set(statuses[1:]) == {"scheduled"} and len(statuses) >= 3
    return competition


class Inputs(HTMLParser):
    """The values a browser would post from a page's enabled boxes."""

    def __init__(self):
        super().__init__()
        self.values, self._textarea = {}, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input" and "disabled" not in attrs and attrs.get("name") and attrs.get("type") != "submit":
            self.values[attrs["name"]] = attrs.get("value") or ""
        elif tag == "textarea":
            self._textarea = attrs["name"]
            self.values[self._textarea] = ""

    def handle_data(self, data):
        if self._textarea:
            self.values[self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None


def live_data(client, competition, **changes):
    parser = Inputs()
    parser.feed(client.get(url("edit", competition)).text)
    parser.values.pop("csrfmiddlewaretoken", None)
    parser.values.pop("next", None)
    return {**parser.values, **changes}


def test_after_the_start_the_name_description_and_times_of_rounds_not_yet_open_change_and_are_audited(signed_in, club):
    competition = league(club)
    week3 = competition.rounds.get(number=3)
    length = week3.deadline - week3.starts_at
    page = signed_in.get(url("edit", competition)).text
    assert 'name="round_1"' in page and re.search(r'name="round_1"[^>]*disabled', page)  # an open round: fixed
    new_start = week3.starts_at + timedelta(days=1)
    response = signed_in.post(url("edit", competition), live_data(
        signed_in, competition, name="Winter League", description="Mondays at the club",
        round_3=local(new_start)))
    assert response.status_code == 302, response.context["form"].errors
    competition.refresh_from_db()
    week3.refresh_from_db()
    assert (competition.name, competition.description) == ("Winter League", "Mondays at the club")
    assert week3.starts_at == new_start.replace(second=0, microsecond=0) and week3.deadline - week3.starts_at == length
    audit = AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.EDITED_LIVE)
    assert {"name", "description", "round_3"} <= set(audit.detail["changed"])
    page = signed_in.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Mondays at the club" in page and "la competición después de que empezara" in page


def test_an_edit_that_would_move_an_open_round_is_refused_beside_it_keeping_what_was_typed(signed_in, club):
    competition = league(club)
    week1 = competition.rounds.get(number=1)
    data = live_data(signed_in, competition, name="Renamed", round_1="2031-01-01T10:00")
    response = signed_in.post(url("edit", competition), data)
    assert response.status_code == 400
    assert "Round 1 is open" in str(response.context["form"].errors["round_1"])
    assert 'value="Renamed"' in response.text and 'value="2031-01-01T10:00"' in response.text
    competition.refresh_from_db()
    assert competition.name != "Renamed" and competition.rounds.get(number=1).starts_at == week1.starts_at
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.EDITED_LIVE).exists()


def test_a_round_moved_after_the_next_one_is_refused_beside_it(signed_in, club):
    competition = league(club)
    week3 = competition.rounds.get(number=3)
    response = signed_in.post(url("edit", competition), live_data(
        signed_in, competition, round_2=local(week3.starts_at + timedelta(days=1))))
    assert response.status_code == 400 and "round_2" in response.context["form"].errors
    assert competition.rounds.get(number=2).starts_at < week3.starts_at


def test_check_in_and_no_show_windows_change_after_the_start(signed_in, club):
    competition = running(club)
    response = signed_in.post(url("edit", competition), live_data(signed_in, competition, check_in="20", grace="9"))
    assert response.status_code == 302
    competition.refresh_from_db()
    assert (competition.check_in, competition.grace) == (timedelta(minutes=20), timedelta(minutes=9))


# ----- forged ids and other clubs ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["cancel", "reopen", "delete", "run_again", "edit"])
def test_another_clubs_organiser_is_refused_and_nothing_changes(client, club, name):
    competition = running(club)
    intruder = make_user("intruder")
    make_club(intruder)
    client.force_login(intruder)
    data = {"starts_at": "2031-01-10T19:00", "with_entries": "on", "name": "Hijack"}
    assert client.get(url(name, competition)).status_code == 403
    assert client.post(url(name, competition), data).status_code == 403
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING and competition.name != "Hijack"
    assert Competition.objects.count() == 1


@pytest.mark.parametrize("name", ["cancel", "reopen", "delete", "run_again"])
def test_a_forged_competition_id_is_404(signed_in, name):
    assert signed_in.post(reverse(f"tournaments:{name}", args=[999999]), {}).status_code == 404


@pytest.mark.parametrize("language, title", LANGUAGES)
def test_the_life_pages_speak_the_readers_language(signed_in, club, language, title):
    competition = running(club)
    assert title in signed_in.get(url("cancel", competition), HTTP_ACCEPT_LANGUAGE=language).text
    detail = signed_in.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language).text
    assert title in detail


def test_of_two_organisers_editing_after_the_start_the_first_wins_and_the_second_is_told(signed_in, club):
    competition = league(club)
    first = live_data(signed_in, competition, name="First's name")
    second = live_data(signed_in, competition, name="Second's name", description="Second's words")
    assert signed_in.post(url("edit", competition), first).status_code == 302
    response = signed_in.post(url("edit", competition), second)
    assert response.status_code == 400 and "Another organiser changed this competition" in response.text
    assert 'value="First&#x27;s name"' in response.text  # the form shows what is saved now
    competition.refresh_from_db()
    assert (competition.name, competition.description) == ("First's name", "")
    assert AuditEntry.objects.filter(action=AuditEntry.Action.EDITED_LIVE).count() == 1


def test_a_finished_competition_is_neither_cancelled_nor_reopened(signed_in, club):
    competition = running(club)
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.FINISHED)
    assert signed_in.post(url("cancel", competition)).status_code == 302
    assert signed_in.post(url("reopen", competition), {"starts_at": "2031-05-02T20:00"}).status_code == 302
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    assert not AuditEntry.objects.filter(action__in=["cancelled", "reopened"]).exists()
