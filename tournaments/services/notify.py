"""Notifications: a row on the site and an email, each sent once per event (unique user + key).

A row holds a kind and its parameters (tournaments/notices.py), written out in each reader's
language when read. The email goes in the recipient's preferred language, with an absolute link
(settings.SITE_URL), after the commit that made the event, so a rolled-back round notifies nobody.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.models import Notification
from tournaments.notices import sentence, zone_of_reader

logger = logging.getLogger("chalk.tournaments")

# `notifications_changed(sender=None, user_id=...)`, after the commit that added or read a user's
# notifications: the players' pages (home/) update the navigation's count live.
notifications_changed = Signal()


def _changed(user_id: int) -> None:
    transaction.on_commit(lambda: notifications_changed.send(sender=None, user_id=user_id))


def language_of(user) -> str:
    player = getattr(user, "player", None)
    return (player.preferred_language if player else "") or settings.LANGUAGE_CODE


def absolute(url: str) -> str:
    if not url or "://" in url:
        return url
    return settings.SITE_URL.rstrip("/") + url


def notify(user, key: str, kind: str, params: dict, url: str = "", competition=None, email: bool = True) -> bool:
    """Notify `user` of the event `key` once. Returns False when this event had already been notified."""
    with translation.override(language_of(user)):
        whole = sentence(kind, params, zone=zone_of_reader(user))
    text = whole[:300]  # the row's copy; the page renders the sentence again, the e-mail has it whole
    try:
        with transaction.atomic():
            Notification.objects.create(user=user, key=key[:80], kind=kind, params=params, text=text, url=url,
                                        competition=competition)
    except IntegrityError:
        return False
    _changed(user.pk)
    if email and user.email:
        message = mail_of(user, whole, url)
        transaction.on_commit(lambda: _mail(user.email, *message))
    return True


def mail_of(user, text: str, url: str) -> tuple[str, str]:
    """(subject, body) in the recipient's language, every link absolute."""
    with translation.override(language_of(user)):
        body = [text]
        if url:
            body.append(_("Open it on Chalk: %(link)s") % {"link": absolute(url)})
        body.append(_("Your notifications: %(link)s") % {"link": absolute("/competitions/notifications/")})
        return f"Chalk: {text}"[:150], "\n\n".join(body)


def _mail(address: str, subject: str, body: str) -> None:
    try:
        send_mail(subject, body, None, [address])
    except Exception:  # a mail server that is down must not stop a round from opening
        logger.exception("could not email %s", address)


def mark_all_read(user) -> int:
    """The user has seen every notification; how many were unread."""
    count = Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())
    if count:
        _changed(user.pk)
    return count


def mark_read(user, key: str) -> int:
    """The user has dealt with the event `key` elsewhere (answered the invitation it announced)."""
    count = Notification.objects.filter(user=user, key=key[:80], read_at__isnull=True).update(read_at=timezone.now())
    if count:
        _changed(user.pk)
    return count


def unread_count(user) -> int:
    """The navigation's badge: notifications the user has not marked read."""
    return Notification.objects.filter(user=user, read_at__isnull=True).count()
