"""The site's own messages (flash messages after sign-up, log-in and log-out, the e-mails it sends)
reach each person in their language, not in the language of whoever was on the page before
(issue 14). The competition e-mails and notifications are in tests/competitions_db/test_messages.py."""

import pytest
from django.conf import settings
from django.core import mail

from clubs.models import Player
from tests.foundation.test_accounts import PASSWORD, sign_up

pytestmark = pytest.mark.django_db

SIGNED_OUT = {"es": "Ha cerrado sesión.", "ar": "تم تسجيل خروجك."}
SIGNED_IN = {"es": "Ha iniciado sesión", "ar": "لقد سجلت الدخول"}


def shown_messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


@pytest.mark.parametrize("language", ["es", "ar"])
def test_the_signed_out_message_is_in_the_language_of_the_page(client, language):
    sign_up(client)
    client.get("/")  # the sign-up's own messages are read
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    response = client.post("/accounts/logout/", follow=True)

    assert shown_messages(response) == [SIGNED_OUT[language]]


@pytest.mark.parametrize("language", ["es", "ar"])
def test_sign_up_greets_and_mails_the_new_player_in_the_language_they_signed_up_in(
        client, django_capture_on_commit_callbacks, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        # an address of its own per case: allauth sends one confirmation per address every 3 minutes
        response = client.post("/accounts/signup/", {"username": "rosa", "email": f"rosa.{language}@example.com",
                                                     "password1": PASSWORD, "password2": PASSWORD}, follow=True)

    shown = shown_messages(response)
    assert shown and all(SIGNED_IN[language] in text or "@" in text for text in shown), shown
    assert all("signed in" not in text.lower() and "sent to" not in text.lower() for text in shown)
    (confirmation,) = mail.outbox
    assert "Please confirm" not in confirmation.subject and "Hello" not in confirmation.body


@pytest.mark.parametrize("language", ["es", "ar"])
def test_the_signed_in_message_follows_the_profile_even_from_a_page_in_english(client, language):
    sign_up(client)
    Player.objects.filter(user__username="rosa").update(preferred_language=language)
    client.post("/accounts/logout/")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    response = client.post("/accounts/login/", {"login": "rosa", "password": PASSWORD}, follow=True)

    assert [text for text in shown_messages(response) if SIGNED_IN[language] in text]
    assert f'<html lang="{language}"' in response.content.decode()


@pytest.mark.parametrize(("language", "words"), [("es", "contraseña"), ("ar", "كلمة المرور")])
def test_the_password_reset_mail_is_in_the_language_it_was_asked_in(
        client, django_capture_on_commit_callbacks, language, words):
    sign_up(client, email=f"rosa.{language}@example.com")
    client.post("/accounts/logout/")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        client.post("/accounts/password/reset/", {"email": f"rosa.{language}@example.com"})

    (message,) = mail.outbox
    assert words in message.body.lower() and "/accounts/password/reset/key/" in message.body
