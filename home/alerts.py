"""The per-user channel: a `user-<id>` group that every Chalk tab of a signed-in player joins
through /ws/me/ (home.consumers.MeConsumer).

Two things travel on it, both after the commit that caused them:
- `table_opened`: a table the player sits at has started, so each of their tabs takes them there;
- `notifications`: the player's unread count changed, so the navigation's badge updates.

Sent from synchronous code (services, Celery tasks) through gameplay.api.send_to_group. The
receivers listen to gameplay's `match_started` and the competitions' `notifications_changed`
signals (connected in home/apps.py), so neither gameplay nor tournaments imports us.
"""

from __future__ import annotations

import logging

from django.urls import reverse

from gameplay import api as gameplay
from tournaments.services import notify

logger = logging.getLogger("chalk.dashboard")


def group_of(user_id: int) -> str:
    return f"user-{user_id}"


def send_to_user(user_id: int, data: dict) -> None:
    """Best effort: a down channel layer must not undo the table start or the notification."""
    try:
        gameplay.send_to_group(group_of(user_id), {"type": "me.alert", "data": data})
    except Exception:
        logger.exception("could not alert user %s", user_id)


def table_opened(match_id: int) -> None:
    url = reverse("gameplay:table", args=[match_id])
    for user_id in gameplay.seated_users(match_id):
        send_to_user(user_id, {"type": "table_opened", "match": match_id, "url": url})


def notifications_changed(user_id: int) -> None:
    send_to_user(user_id, {"type": "notifications", "count": notify.unread_count(user_id)})


def on_match_started(sender, match_id: int, **kwargs) -> None:
    """`gameplay.api.match_started`, sent after the commit that started the table."""
    table_opened(match_id)


def on_notifications_changed(sender, user_id: int, **kwargs) -> None:
    """`tournaments.services.notify.notifications_changed`, sent after the commit."""
    notifications_changed(user_id)
