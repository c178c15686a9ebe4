"""A player's time zone follows the browser from sign-up until the player picks one; the zone
boxes take a city in the reader's language (issue 31, "Time, once and for all")."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from clubs.models import Club, Player
from tests.clubs.conftest import make_user

pytestmark = pytest.mark.django_db


def signup(client, username, **extra):
    return client.post(reverse("account_signup"), {
        "username": username, "email": f"{username}@example.com", "password1": "pw-chalk-123-long",
        "password2": "pw-chalk-123-long", **extra})


def test_a_new_account_takes_the_browsers_zone_at_sign_up(client):
    response = signup(client, "rosa", browser_zone="America/Port_of_Spain")
    assert response.status_code == 302
    player = Player.objects.get(user__username="rosa")
    assert (player.time_zone, player.zone_follows_browser) == ("America/Port_of_Spain", True)


def test_a_sign_up_with_a_zone_that_is_no_zone_still_makes_the_account_without_one(client):
    signup(client, "omar", browser_zone="Mars/Olympus")
    assert Player.objects.get(user__username="omar").time_zone == ""


def test_the_zone_follows_the_browser_until_the_player_picks_one(client):
    user = make_user("amina")
    client.force_login(user)
    assert client.post(reverse("follow_zone"), {"zone": "Asia/Riyadh"}).status_code == 204
    assert Player.objects.get(user=user).time_zone == "Asia/Riyadh"
    client.post(reverse("profile"), {"display_name": "Amina", "preferred_language": "ar", "time_zone": "Madrid"})
    player = Player.objects.get(user=user)
    assert (player.time_zone, player.zone_follows_browser) == ("Europe/Madrid", False)
    assert client.post(reverse("follow_zone"), {"zone": "Asia/Dubai"}).status_code == 204
    assert Player.objects.get(user=user).time_zone == "Europe/Madrid"  # picked: travelling changes nothing


def test_saving_the_profile_without_touching_the_zone_keeps_following(client):
    user = make_user("carlos")
    Player.objects.filter(user=user).update(time_zone="Asia/Riyadh")
    client.force_login(user)
    client.post(reverse("profile"), {"display_name": "Carlos", "preferred_language": "es", "time_zone": "Asia/Riyadh"})
    assert Player.objects.get(user=user).zone_follows_browser


@pytest.mark.parametrize("zone", ["", "Mars/Olympus", "x" * 5000])
def test_a_reported_zone_that_is_no_zone_is_refused_and_changes_nothing(client, zone):
    user = make_user("devi")
    Player.objects.filter(user=user).update(time_zone="Asia/Riyadh")
    client.force_login(user)
    assert client.post(reverse("follow_zone"), {"zone": zone}).status_code == 400
    assert Player.objects.get(user=user).time_zone == "Asia/Riyadh"


def test_a_visitor_cannot_report_a_zone(client):
    assert client.post(reverse("follow_zone"), {"zone": "Asia/Riyadh"}).status_code == 403
    assert client.get(reverse("follow_zone")).status_code == 405


@pytest.mark.parametrize("typed, language", [("Puerto España", "es"), ("Port of Spain", "en"), ("بورت أوف سبين", "ar")])
def test_a_club_takes_the_city_its_hint_suggests_in_each_language(client, typed, language):
    client.force_login(make_user(f"owner-{language}"))
    response = client.post(reverse("clubs:create"), {
        "name": "Los Ases", "slug": f"ases-{language}", "description": "", "home_games": ["allfours"],
        "time_zone": typed, "default_language": language, "is_public": "on"}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Club.objects.get(slug=f"ases-{language}").time_zone == "America/Port_of_Spain"


def test_the_zone_box_shows_the_city_in_the_readers_language(client):
    user = make_user("lucia")
    Player.objects.filter(user=user).update(time_zone="America/Port_of_Spain", preferred_language="es")
    client.force_login(user)
    page = client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'value="Puerto España (Trinidad y Tobago) · \u2068America/Port of Spain\u2069"' in page
    assert get_user_model().objects.count() == 1
