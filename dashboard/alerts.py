"""The per-user channel: a `user-<id>` group that every Chalk tab of a signed-in player joins
through /ws/me/ (dashboard.consumers.MeConsumer).

Two things travel on it, both after the commit that caused them:
- `table_opened`: a table the player sits at has started, so each of their tabs takes them there;
- `notifications`: the player's unread count changed, so the navigation's badge updates.

Sent from synchronous code (services, Celery tasks) through gameplay.broadcast's long-lived loop.
Hooked to the rows' post_save (see apps.py) so neither gameplay nor tournaments imports us.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.urls import reverse

from gameplay.broadcast import group_send
from gameplay.models import Match, Seat
from tournaments.models import Notification

logger = logging.getLogger("chalk.dashboard")


def group_of(user_id: int) -> str:
    return f"user-{user_id}"


def send_to_user(user_id: int, data: dict) -> None:
    """Best effort: a down channel layer must not undo the table start or the notification."""
    try:
        group_send(group_of(user_id), {"type": "me.alert", "data": data})
    except Exception:
        logger.exception("could not alert user %s", user_id)


def table_opened(match_id: int) -> None:
    url = reverse("gameplay:table", args=[match_id])
    for user_id in Seat.objects.filter(match_id=match_id, user__isnull=False).values_list("user_id", flat=True):
        send_to_user(user_id, {"type": "table_opened", "match": match_id, "url": url})


def notifications_changed(user_id: int) -> None:
    count = Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()
    send_to_user(user_id, {"type": "notifications", "count": count})


def on_match_saved(sender, instance: Match, created: bool, update_fields=None, **kwargs) -> None:
    """A match saved as playing with its start time set has just started (services.start_if_ready)."""
    started = update_fields is not None and "started_at" in update_fields
    if started and instance.status == Match.Status.PLAYING:
        transaction.on_commit(lambda: table_opened(instance.pk))


def on_notification_saved(sender, instance: Notification, created: bool, **kwargs) -> None:
    transaction.on_commit(lambda: notifications_changed(instance.user_id))
