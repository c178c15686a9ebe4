"""Bad input gives a clear error and changes nothing: duplicate slugs, empty names, forged posts."""

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import AuditEntry, Club, JoinRequest, Membership, Player
from tests.clubs.conftest import make_cast, make_user

pytestmark = pytest.mark.django_db
VALID = {"name": "Trumps", "slug": "trumps", "description": "", "home_games": ["allfours", "cuatrola"],
         "time_zone": "America/Port_of_Spain", "default_language": "es", "is_public": "on"}


def test_creating_a_club_makes_the_creator_its_owner(client):
    creator = make_user("founder")
    client.force_login(creator)

    response = client.post(reverse("clubs:create"), VALID)

    club = Club.objects.get(slug="trumps")
    assert response.status_code == 302 and response["Location"] == "/clubs/trumps/"
    assert (club.home_games, club.time_zone, club.default_language, club.is_public) == (
        ["allfours", "cuatrola"], "America/Port_of_Spain", "es", True)
    assert Membership.objects.get(club=club).role == Membership.Role.OWNER
    assert AuditEntry.objects.filter(club=club, actor=creator, action=AuditEntry.Action.CREATED).exists()


def test_a_duplicate_slug_is_a_form_error_and_creates_nothing(client, cast):
    client.force_login(cast.outsider)

    response = client.post(reverse("clubs:create"), {**VALID, "slug": cast.club.slug})

    assert response.status_code == 200
    assert "A club with this address already exists." in response.content.decode()
    assert Club.objects.count() == 1


@pytest.mark.parametrize("name", ["", "   "])
def test_an_empty_name_is_a_form_error(client, name):
    client.force_login(make_user("nameless"))

    response = client.post(reverse("clubs:create"), {**VALID, "name": name})

    assert response.status_code == 200 and "This field is required." in response.content.decode()
    assert not Club.objects.exists()


@pytest.mark.parametrize("slug", ["new", "join", "!!!"])
def test_a_reserved_or_empty_slug_is_a_form_error(client, slug):
    client.force_login(make_user("sluggish"))

    response = client.post(reverse("clubs:create"), {**VALID, "slug": slug})

    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not Club.objects.exists()


def test_an_unknown_time_zone_or_game_is_a_form_error(client):
    client.force_login(make_user("wanderer"))

    response = client.post(reverse("clubs:create"), {**VALID, "time_zone": "Mars/Olympus", "home_games": ["poker"]})

    assert response.status_code == 200 and response.content.decode().count('class="errorlist"') >= 2
    assert not Club.objects.exists()


def test_renaming_to_a_taken_slug_is_a_form_error(client, cast):
    make_cast("taken")
    client.force_login(cast.owner)

    response = client.post(reverse("clubs:edit", args=[cast.club.slug]), {**VALID, "slug": "taken"})

    assert "A club with this address already exists." in response.content.decode()
    cast.club.refresh_from_db()
    assert cast.club.slug == "spades"


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(cast):
    forger = Client(enforce_csrf_checks=True)
    forger.force_login(cast.owner)

    response = forger.post(reverse("clubs:member_role", args=[cast.club.slug, cast.target.pk]), {"role": "owner"})

    assert response.status_code == 403
    assert Membership.objects.get(club=cast.club, user=cast.target).role == Membership.Role.MEMBER


def test_a_request_of_another_club_cannot_be_decided_through_this_club(client, cast):
    other = make_cast("hearts")
    client.force_login(cast.organiser)

    response = client.post(reverse("clubs:decide", args=[cast.club.slug, other.join_request.pk, "approve"]))

    assert response.status_code == 404
    other.join_request.refresh_from_db()
    assert other.join_request.status == JoinRequest.Status.PENDING
    assert not Membership.objects.filter(club=other.club, user=other.applicant).exists()


def test_a_member_of_another_club_cannot_be_changed_through_this_club(client, cast):
    other = make_cast("diamonds")
    client.force_login(cast.owner)

    role = client.post(reverse("clubs:member_role", args=[cast.club.slug, other.target.pk]), {"role": "owner"})
    remove = client.post(reverse("clubs:member_remove", args=[cast.club.slug, other.target.pk]))
    revoke = client.post(reverse("clubs:invitation_revoke", args=[cast.club.slug, other.invitation.pk]))

    assert (role.status_code, remove.status_code, revoke.status_code) == (404, 404, 404)
    assert Membership.objects.get(club=other.club, user=other.target).role == Membership.Role.MEMBER
    other.invitation.refresh_from_db()
    assert other.invitation.revoked_at is None


def test_an_organiser_here_is_nobody_in_another_club(client, cast):
    other = make_cast("clubs")
    client.force_login(cast.organiser)

    response = client.post(reverse("clubs:decide", args=[other.club.slug, other.join_request.pk, "approve"]))

    assert response.status_code == 403
    assert not Membership.objects.filter(club=other.club, user=other.applicant).exists()


def test_a_new_club_starts_in_its_creators_zone(client):
    creator = make_user("zoned")
    Player.objects.update_or_create(user=creator, defaults={"time_zone": "America/Port_of_Spain"})
    client.force_login(creator)
    form = client.get(reverse("clubs:create")).context["form"]
    assert form["time_zone"].value() == "America/Port_of_Spain"


def test_a_creator_without_a_zone_gets_utc(client):
    client.force_login(make_user("unzoned"))
    assert client.get(reverse("clubs:create")).context["form"]["time_zone"].value() == "UTC"


def test_a_typed_address_is_made_into_one_and_never_answers_with_djangos_slug_message(client):
    client.force_login(make_user("founder2"))
    response = client.post(reverse("clubs:create"), {**VALID, "slug": "Los Ases de Arima!"},
                           HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 302
    assert Club.objects.filter(slug="los-ases-de-arima").exists()


def test_an_address_without_letters_is_refused_in_the_readers_words(client):
    client.force_login(make_user("founder3"))
    response = client.post(reverse("clubs:create"), {**VALID, "slug": "¡¿!?"}, HTTP_ACCEPT_LANGUAGE="es")
    html = response.content.decode()
    assert response.status_code == 200 and not Club.objects.exists()
    assert "Introduzca un" not in html and "identificador" not in html  # Django's slug words, the model's label
    assert "letras, cifras y guiones" in html
