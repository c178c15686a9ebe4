"""Notifications: a row on the site and an email, each sent once per event (unique user + key).

Texts are rendered in the recipient's preferred language. Emails go after the commit that made
the event, so a rolled-back round notifies nobody.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from tournaments.models import Notification

logger = logging.getLogger("chalk.tournaments")


def _language(user) -> str:
    player = getattr(user, "player", None)
    return (player.preferred_language if player else "") or settings.LANGUAGE_CODE


def notify(user, key: str, render, url: str = "", competition=None, email: bool = True) -> bool:
    """Notify `user` of the event `key` once; `render()` returns the text (called in the user's
    language). Returns False when this event had already been notified."""
    with translation.override(_language(user)):
        text = str(render())[:300]
    try:
        with transaction.atomic():
            Notification.objects.create(user=user, key=key[:80], text=text, url=url, competition=competition)
    except IntegrityError:
        return False
    if email and user.email:
        link = getattr(settings, "SITE_URL", "").rstrip("/") + url if url else ""
        transaction.on_commit(lambda: _mail(user.email, text, link))
    return True


def _mail(address: str, text: str, link: str) -> None:
    try:
        send_mail(f"Chalk: {text}"[:150], f"{text}\n\n{link}".strip(), None, [address])
    except Exception:  # a mail server that is down must not stop a round from opening
        logger.exception("could not email %s", address)


def mark_all_read(user) -> int:
    """The user has seen every notification; how many were unread."""
    return Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())
