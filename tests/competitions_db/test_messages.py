"""Messages people can use: every link in an e-mail is absolute and the e-mail is in the
recipient's language; one notification reads in each reader's own language."""

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from clubs.models import Membership, Player
from tests.competitions_db.helpers import human_pairs, make_club, make_competition, make_user
from tournaments.models import Notification
from tournaments.services import entries, manager

pytestmark = pytest.mark.django_db


def speaking(language: str, prefix: str = "player"):
    user = make_user(prefix)
    Player.objects.update_or_create(user=user, defaults={"preferred_language": language})
    return type(user).objects.get(pk=user.pk)


def links_of(body: str) -> list[str]:
    return re.findall(r"(?:https?://|/)\S+", body)


@pytest.mark.parametrize("language, words", [("en", "invites you"), ("es", "te invita"), ("ar", "يدعوك")])
def test_an_invitation_email_is_in_the_partners_language_with_absolute_links(
        django_capture_on_commit_callbacks, language, words):
    club = make_club()
    competition = make_competition(club, starts_in=timedelta(days=1))
    inviter, partner = speaking("en"), speaking(language)
    for user in (inviter, partner):
        Membership.objects.create(club=club, user=user)

    with django_capture_on_commit_callbacks(execute=True):
        entries.enter(competition, inviter, partner)

    (message,) = mail.outbox
    assert words in message.subject and words in message.body
    links = links_of(message.body)
    assert links and all(link.startswith(settings.SITE_URL) for link in links)
    assert settings.SITE_URL + reverse("tournaments:detail", args=[competition.pk]) in links


def test_round_open_emails_reach_each_player_in_their_own_language(django_capture_on_commit_callbacks):
    competition = make_competition()
    pairs = human_pairs(competition, 2)
    for (_, users), language in zip(pairs, ("es", "ar")):
        for user in users:
            Player.objects.update_or_create(user=user, defaults={"preferred_language": language})

    with django_capture_on_commit_callbacks(execute=True):
        manager.step(competition.pk)

    bodies = {message.to[0]: message.body for message in mail.outbox}
    assert len(bodies) == 4
    assert all("ronda" in bodies[u.email] for u in pairs[0][1])
    assert all("الجولة" in bodies[u.email] for u in pairs[1][1])
    assert all(link.startswith("http") for body in bodies.values() for link in links_of(body))


def test_one_notification_reads_in_each_readers_language(client):
    """Stored once, as a kind and its parameters: the sentence is the reader's, not the actor's."""
    club = make_club()
    competition = make_competition(club, starts_in=timedelta(days=1))
    inviter, partner = speaking("en", "inviter"), speaking("ar", "partner")
    for user in (inviter, partner):
        Membership.objects.create(club=club, user=user)
    entry = entries.enter(competition, inviter, partner)
    entries.answer_invitation(entry, partner, True)  # the Arabic-speaking partner acts
    notification = Notification.objects.get(user=inviter, kind="accepted")

    for reader_language in ("en", "es", "ar"):
        client.force_login(inviter)
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = reader_language
        Player.objects.filter(user=inviter).update(preferred_language=reader_language)
        html = client.get(reverse("tournaments:notifications")).text
        expected = {"en": "accepted", "es": "aceptó", "ar": "قبل"}[reader_language]
        assert expected in html, reader_language
    assert notification.params["competition"] == competition.name
