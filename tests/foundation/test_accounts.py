"""Accounts through django-allauth, the player profile, and the preferred language."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from clubs.models import Player

PASSWORD = "a-long-card-table-password"


def sign_up(client, username="rosa", email="rosa@example.com"):
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.mark.django_db
def test_sign_up_creates_a_user_with_a_player_profile_and_logs_in(client):
    response = sign_up(client)

    assert response.status_code == 302
    user = get_user_model().objects.get(username="rosa")
    assert Player.objects.filter(user=user).exists()
    assert client.get("/accounts/profile/").status_code == 200


@pytest.mark.django_db
def test_log_out_is_a_post_and_log_in_works_with_username_or_email(client):
    sign_up(client)
    client.post("/accounts/logout/")
    assert client.get("/accounts/profile/").status_code == 302  # back to the login page

    assert client.post("/accounts/login/", {"login": "rosa@example.com", "password": PASSWORD}).status_code == 302
    assert client.get("/accounts/profile/").status_code == 200


@pytest.mark.django_db
def test_password_reset_sends_an_email_with_a_reset_link(client):
    sign_up(client)
    client.post("/accounts/logout/")
    mail.outbox.clear()

    response = client.post("/accounts/password/reset/", {"email": "rosa@example.com"})

    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/password/reset/key/" in mail.outbox[0].body


@pytest.mark.django_db
def test_profile_edit_saves_display_name_and_switches_to_the_preferred_language(client):
    sign_up(client)

    response = client.post("/accounts/profile/", {"display_name": "Rosa M.", "preferred_language": "es"}, follow=True)

    player = Player.objects.get(user__username="rosa")
    assert (player.display_name, player.preferred_language) == ("Rosa M.", "es")
    assert '<html lang="es"' in response.content.decode()
    assert "Tu perfil" in response.content.decode()


@pytest.mark.django_db
def test_preferred_language_applies_at_the_next_login(client):
    sign_up(client)
    Player.objects.filter(user__username="rosa").update(preferred_language="ar")
    client.post("/accounts/logout/")
    client.cookies.clear()

    client.post("/accounts/login/", {"login": "rosa", "password": PASSWORD})
    html = client.get("/").content.decode()

    assert '<html lang="ar" dir="rtl">' in html


@pytest.mark.django_db
def test_language_switcher_remembers_the_choice_in_the_profile(client):
    sign_up(client)

    client.post("/language/", {"language": "es", "next": "/"})

    assert Player.objects.get(user__username="rosa").preferred_language == "es"
    assert '<html lang="es"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_signed_in_message_is_in_the_players_language(client):
    sign_up(client)
    Player.objects.filter(user__username="rosa").update(preferred_language="es")
    client.post("/accounts/logout/")
    client.cookies.clear()

    response = client.post("/accounts/login/", {"login": "rosa", "password": PASSWORD}, follow=True)
    shown = [str(message) for message in response.context["messages"]]

    assert shown and all("signed in" not in text.lower() for text in shown)
    assert '<html lang="es"' in response.content.decode()
