"""The home page: signed-in players get their dashboard, visitors the presentation; answering
a partner's invitation in place; the navigation's notification count."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.competitions_db.helpers import make_competition, make_user
from tournaments.models import Entry, EntryPlayer, Notification

pytestmark = pytest.mark.django_db


def invitation():
    competition = make_competition(starts_in=timedelta(days=2))
    inviter, invited = make_user(), make_user()
    entry = Entry.objects.create(competition=competition, name="A & B", created_by=inviter)
    EntryPlayer.objects.create(entry=entry, competition=competition, user=inviter, position=0,
                               accepted_at=timezone.now())
    place = EntryPlayer.objects.create(entry=entry, competition=competition, user=invited, position=1)
    return place, inviter, invited


def test_a_visitor_sees_the_presentation_page(client):
    html = client.get("/").content.decode()
    assert "Create an account" in html and 'data-testid="next-match"' not in html


def test_a_signed_in_player_sees_the_dashboard_with_competitions_and_notifications_in_the_nav(client):
    user = make_user()
    Notification.objects.create(user=user, key="k", text="Round 1 is open")
    client.force_login(user)
    html = client.get("/").content.decode()
    assert 'data-testid="next-match"' in html and "Your tables" in html
    assert "/competitions/notifications/" in html and ">Competitions<" in html
    assert '<bdi data-count>1</bdi>' in html


def test_accepting_a_partner_invitation_in_place_enters_the_pair(client):
    place, inviter, invited = invitation()
    client.force_login(invited)
    response = client.post(f"/me/invitations/{place.pk}/answer/", {"accept": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Your pair is entered." in response.content.decode()
    place.refresh_from_db()
    assert place.accepted_at is not None and place.entry.status == Entry.Status.CONFIRMED


def test_declining_removes_the_pair(client):
    place, inviter, invited = invitation()
    client.force_login(invited)
    response = client.post(f"/me/invitations/{place.pk}/answer/", {"accept": "0"})
    assert response.status_code == 200
    assert not Entry.objects.filter(pk=place.entry_id).exists()


def test_someone_else_cannot_answer_an_invitation(client):
    place, inviter, invited = invitation()
    client.force_login(make_user())
    assert client.post(f"/me/invitations/{place.pk}/answer/", {"accept": "1"}).status_code == 404
    place.refresh_from_db()
    assert place.accepted_at is None


def test_answering_twice_is_refused_with_a_reason_and_changes_nothing(client):
    place, inviter, invited = invitation()
    client.force_login(invited)
    client.post(f"/me/invitations/{place.pk}/answer/", {"accept": "1"})
    response = client.post(f"/me/invitations/{place.pk}/answer/", {"accept": "0"})
    assert response.status_code == 409 and "no open invitation" in response.content.decode()
    assert Entry.objects.filter(pk=place.entry_id, status=Entry.Status.CONFIRMED).exists()


def test_answering_needs_post(client):
    place, inviter, invited = invitation()
    client.force_login(invited)
    assert client.get(f"/me/invitations/{place.pk}/answer/").status_code == 405


def test_the_table_alerts_opt_in_is_saved_on_the_profile_and_reaches_every_page(client):
    user = make_user()
    client.force_login(user)
    response = client.post("/accounts/profile/", {"display_name": "Amina", "preferred_language": "",
                                                  "table_alerts": "on"})
    assert response.status_code == 302
    user.player.refresh_from_db()
    assert user.player.table_alerts
    assert 'data-alerts="1"' in client.get("/clubs/").content.decode()


def test_a_visitor_gets_no_personal_socket(client):
    assert 'id="me-alert"' not in client.get("/clubs/").content.decode()
