"""Club and table invitations on a player's home: an organiser invites a player by user name or
e-mail, a table's creator keeps a seat for a friend; the invitee answers in place (htmx), and a
stale answer is refused with the reason and changes nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.models import AuditEntry, MemberInvitation, Membership
from gameplay.models import Match
from tests.competitions_db.helpers import make_club, make_user
from tests.gameplay.test_fair_play import new_table_post
from tournaments.models import Notification

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def invite(client, club, organiser, who, days="7"):
    client.force_login(organiser)
    return client.post(f"/clubs/{club.slug}/invitations/player/", {"player-who": who, "player-days": days})


def club_with_organiser():
    organiser = make_user()
    club = make_club(organiser)
    return club, organiser


# ----- a club's personal invitation ------------------------------------------------------------

def test_an_organiser_invites_a_player_by_name_who_sees_it_at_home_and_in_notifications(
        client, django_capture_on_commit_callbacks, mailoutbox):
    club, organiser = club_with_organiser()
    invitee = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        assert invite(client, club, organiser, invitee.username.upper()).status_code == 302
    invitation = MemberInvitation.objects.get(club=club, user=invitee)
    assert invitation.status == "pending" and invitation.invited_by == organiser
    notice = Notification.objects.get(user=invitee, kind="club_invited")
    assert club.name in notice.text and notice.read_at is None
    assert [m.to for m in mailoutbox] == [[invitee.email]]
    client.force_login(invitee)
    html = client.get("/").content.decode()
    assert 'data-testid="club-invitation"' in html and club.name in html
    assert 'data-testid="accept-club"' in html


def test_a_player_can_be_invited_by_e_mail_address(client):
    club, organiser = club_with_organiser()
    invitee = make_user()
    invitee.email = "Someone.Else@Example.com"
    invitee.save()
    assert invite(client, club, organiser, "someone.else@example.com").status_code == 302
    assert MemberInvitation.objects.filter(club=club, user=invitee, status="pending").exists()


@pytest.mark.parametrize("case", ["unknown", "member", "twice"])
def test_an_invitation_the_club_cannot_send_is_a_form_error_and_sends_nothing(client, case):
    club, organiser = club_with_organiser()
    invitee = make_user()
    if case == "member":
        Membership.objects.create(club=club, user=invitee)
    if case == "twice":
        invite(client, club, organiser, invitee.username)
    response = invite(client, club, organiser, "no-such-player" if case == "unknown" else invitee.username)
    html = response.content.decode()
    assert response.status_code == 400 and "errorlist" in html
    expected = {"unknown": "There is no player with this user name or e-mail address.",
                "member": "This player is already a member of the club.",
                "twice": "This player already has an invitation waiting for an answer."}[case]
    assert expected in html
    assert MemberInvitation.objects.filter(club=club).count() == (1 if case == "twice" else 0)


def test_accepting_in_place_makes_the_invitee_a_member(client):
    club, organiser = club_with_organiser()
    invitee = make_user()
    invite(client, club, organiser, invitee.username)
    invitation = MemberInvitation.objects.get(user=invitee)
    client.force_login(invitee)
    response = client.post(f"/me/clubs/{invitation.pk}/answer/", {"accept": "1"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and f"Welcome to {club.name}!" in html
    assert 'data-testid="club-invitation"' not in html
    clubs_part = html[html.index('id="my-clubs"'):]
    assert 'hx-swap-oob="true"' in clubs_part[:200] and club.name in clubs_part  # "Your clubs" follows
    assert Membership.objects.filter(club=club, user=invitee, role="member").exists()
    assert AuditEntry.objects.filter(club=club, actor=invitee, action="joined").exists()


def test_answering_reads_the_notification_that_announced_the_invitation(client, django_capture_on_commit_callbacks):
    club, organiser = club_with_organiser()
    invitee = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        invite(client, club, organiser, invitee.username)
    invitation = MemberInvitation.objects.get(user=invitee)
    client.force_login(invitee)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/me/clubs/{invitation.pk}/answer/", {"accept": "0"}, **HTMX)
    assert not Notification.objects.filter(user=invitee, read_at__isnull=True).exists()
    assert '<bdi data-count>0</bdi>' in client.get("/").content.decode()


def test_declining_removes_the_invitation_and_makes_no_member(client):
    club, organiser = club_with_organiser()
    invitee = make_user()
    invite(client, club, organiser, invitee.username)
    invitation = MemberInvitation.objects.get(user=invitee)
    client.force_login(invitee)
    response = client.post(f"/me/clubs/{invitation.pk}/answer/", {"accept": "0"}, **HTMX)
    assert response.status_code == 200 and 'data-testid="club-invitation"' not in response.content.decode()
    invitation.refresh_from_db()
    assert invitation.status == "declined"
    assert not Membership.objects.filter(club=club, user=invitee).exists()
    assert 'data-testid="club-invitation"' not in client.get("/").content.decode()


@pytest.mark.parametrize("state, reason", [
    ("expired", "This invitation has expired. Ask the club for a new one."),
    ("revoked", "This invitation has been withdrawn."),
    ("answered", "You have already answered this invitation."),
])
def test_an_invitation_no_longer_valid_is_refused_with_its_reason_and_changes_nothing(client, state, reason):
    club, organiser = club_with_organiser()
    invitee = make_user()
    invite(client, club, organiser, invitee.username)
    invitation = MemberInvitation.objects.get(user=invitee)
    if state == "expired":
        MemberInvitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    elif state == "revoked":
        client.post(f"/clubs/{club.slug}/invitations/player/{invitation.pk}/withdraw/")
    else:
        MemberInvitation.objects.filter(pk=invitation.pk).update(status="declined")
    client.force_login(invitee)
    response = client.post(f"/me/clubs/{invitation.pk}/answer/", {"accept": "1"}, **HTMX)
    assert response.status_code == 409 and reason in response.content.decode()
    assert not Membership.objects.filter(club=club, user=invitee).exists()


def test_someone_else_cannot_answer_a_club_invitation(client):
    club, organiser = club_with_organiser()
    invitee = make_user()
    invite(client, club, organiser, invitee.username)
    invitation = MemberInvitation.objects.get(user=invitee)
    client.force_login(make_user())
    response = client.post(f"/me/clubs/{invitation.pk}/answer/", {"accept": "1"}, **HTMX)
    assert response.status_code == 409 and "This invitation does not exist." in response.content.decode()
    assert MemberInvitation.objects.get(pk=invitation.pk).status == "pending"


def test_the_answer_by_date_is_shown_in_the_readers_zone_and_names_it(client):
    club, organiser = club_with_organiser()
    invitee = make_user()
    invitee.player.time_zone = "Asia/Riyadh"
    invitee.player.save()
    invite(client, club, organiser, invitee.username)
    client.force_login(invitee)
    assert "(Asia/Riyadh)" in client.get("/").content.decode()


def test_the_club_page_leads_an_organiser_to_the_form_and_lists_who_was_invited(client):
    club, organiser = club_with_organiser()
    invitee = make_user()
    client.force_login(organiser)
    assert f"/clubs/{club.slug}/invitations/" in client.get(f"/clubs/{club.slug}/").content.decode()
    invite(client, club, organiser, invitee.username)
    html = client.get(f"/clubs/{club.slug}/invitations/").content.decode()
    assert 'data-testid="member-invitation-form"' in html and 'data-testid="personal-invitations"' in html
    assert invitee.player.name in html


# ----- a table's invited friend ----------------------------------------------------------------

def table_with_friend(client, **form):
    host, friend = make_user(), make_user()
    client.force_login(host)
    new_table_post(client, friend=friend.username, friend_role="partner", **form)
    return Match.objects.get(created_by=host), host, friend


def test_an_invited_friend_is_kept_a_seat_and_the_table_waits_for_them(client):
    match, host, friend = table_with_friend(client, fill_with_bots="on")
    assert match.status == "waiting"
    seat = match.seats.get(user=friend)
    assert seat.invited and seat.joined_at is None
    assert match.seats.filter(bot="").exclude(user=None).count() == 2  # the others are bots
    client.force_login(friend)
    html = client.get("/").content.decode()
    assert 'data-testid="table-invitation"' in html and "as their partner" in html
    assert 'data-testid="take-seat"' in html


def test_taking_the_seat_starts_a_full_table_and_goes_to_it(client):
    match, host, friend = table_with_friend(client, fill_with_bots="on")
    client.force_login(friend)
    response = client.post(f"/me/tables/{match.pk}/answer/", {"accept": "1"}, **HTMX)
    assert response.status_code == 200 and response["HX-Redirect"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == "playing"
    assert not match.seats.get(user=friend).invited


def test_declining_frees_the_seat_and_the_hosts_waiting_room_says_so(client):
    match, host, friend = table_with_friend(client)
    client.force_login(friend)
    response = client.post(f"/me/tables/{match.pk}/answer/", {"accept": "0"}, **HTMX)
    assert response.status_code == 200 and "You declined the table invitation." in response.content.decode()
    seat = match.seats.get(declined_by=friend)
    assert seat.user is None and not seat.invited
    client.force_login(host)
    waiting = client.get(f"/matches/{match.pk}/", **HTMX).content.decode()
    assert f"{friend.player.name} declined the invitation." in waiting
    assert 'data-testid="fill-bots"' in waiting  # the freed seat can be filled


def test_a_stale_table_invitation_is_refused_with_a_reason(client):
    match, host, friend = table_with_friend(client)
    client.force_login(friend)
    client.post(f"/me/tables/{match.pk}/answer/", {"accept": "0"}, **HTMX)
    response = client.post(f"/me/tables/{match.pk}/answer/", {"accept": "1"}, **HTMX)
    assert response.status_code == 409 and "no longer valid" in response.content.decode()
    assert not match.seats.filter(user=friend).exists()


def test_an_invitation_to_a_table_that_ended_is_refused(client):
    match, host, friend = table_with_friend(client)
    Match.objects.filter(pk=match.pk).update(status="aborted")
    client.force_login(friend)
    response = client.post(f"/me/tables/{match.pk}/answer/", {"accept": "1"}, **HTMX)
    assert response.status_code == 409 and "This table has already ended." in response.content.decode()


def test_a_stranger_with_the_invite_link_cannot_take_the_kept_seat(client):
    match, host, friend = table_with_friend(client, is_public="on")
    stranger = make_user()
    client.force_login(stranger)
    client.get(f"/matches/join/{match.invite_code}/")
    assert match.seats.get(user=friend).invited
    assert match.seats.get(user=stranger).seat != match.seats.get(user=friend).seat


def test_the_friend_answers_from_the_tables_waiting_room_too(client):
    match, host, friend = table_with_friend(client, fill_with_bots="on")
    client.force_login(friend)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "This seat is kept for you." in page
    response = client.post(f"/me/tables/{match.pk}/answer/", {"accept": "1"})
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"


# ----- the friend hears of it; the host can take it back ------------------------------------------

def invited_by_post(client, django_capture_on_commit_callbacks, **form):
    with django_capture_on_commit_callbacks(execute=True):
        return table_with_friend(client, **form)


def test_the_invited_friend_is_notified_in_their_language_and_by_e_mail(
        client, django_capture_on_commit_callbacks, mailoutbox):
    host, friend = make_user(), make_user()
    friend.player.preferred_language = "es"
    friend.player.save()
    client.force_login(host)
    with django_capture_on_commit_callbacks(execute=True):
        new_table_post(client, friend=friend.username, friend_role="partner")
    notice = Notification.objects.get(user=friend, kind="table_invited")
    assert notice.read_at is None and notice.url == "/"
    assert host.player.name in notice.text and "All Fours" in notice.text
    assert notice.text.startswith(f"{host.player.name} te guarda un asiento")  # written in Spanish
    assert [m.to for m in mailoutbox] == [[friend.email]]
    client.force_login(friend)
    assert "<bdi data-count>1</bdi>" in client.get("/").content.decode()  # the navigation's count


@pytest.mark.parametrize("answer", ["1", "0"])
def test_answering_the_table_invitation_marks_its_notification_read(client, django_capture_on_commit_callbacks, answer):
    match, host, friend = invited_by_post(client, django_capture_on_commit_callbacks)
    client.force_login(friend)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/me/tables/{match.pk}/answer/", {"accept": answer}, **HTMX)
    assert Notification.objects.get(user=friend, kind="table_invited").read_at is not None


def test_the_host_withdraws_the_invitation_and_the_seat_is_free_again(client, django_capture_on_commit_callbacks):
    match, host, friend = invited_by_post(client, django_capture_on_commit_callbacks)
    seat = match.seats.get(user=friend).seat
    waiting = client.get(f"/matches/{match.pk}/", **HTMX).content.decode()
    assert f'/matches/{match.pk}/seats/{seat}/withdraw/' in waiting
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/matches/{match.pk}/seats/{seat}/withdraw/", follow=True)
    assert "The invitation is withdrawn: the seat is free again." in response.content.decode()
    place = match.seats.get(seat=seat)
    assert place.user is None and not place.invited
    assert Notification.objects.get(user=friend, kind="table_invited").read_at is not None
    client.force_login(friend)
    assert 'data-testid="table-invitation"' not in client.get("/").content.decode()
    response = client.post(f"/me/tables/{match.pk}/answer/", {"accept": "1"}, **HTMX)
    assert response.status_code == 409 and not match.seats.filter(user=friend).exists()


def test_only_the_host_can_withdraw_and_only_a_kept_seat(client):
    match, host, friend = table_with_friend(client)
    seat = match.seats.get(user=friend).seat
    host_seat = match.seats.get(user=host).seat
    response = client.post(f"/matches/{match.pk}/seats/{host_seat}/withdraw/", follow=True)
    assert "That invitation can no longer be withdrawn." in response.content.decode()
    assert match.seats.get(seat=host_seat).user == host
    for someone in (friend, make_user()):
        client.force_login(someone)
        assert client.post(f"/matches/{match.pk}/seats/{seat}/withdraw/").status_code == 404
        assert client.get(f"/matches/{match.pk}/seats/{seat}/withdraw/").status_code in (404, 405)
    assert match.seats.get(seat=seat).user == friend and match.seats.get(seat=seat).invited
