"""Fair starts (gameplay/presence.py has the whole policy): when a starting match's clocks run.

Here, inside the services package, because starting a match decides it under the match's lock;
presence re-exports both names."""

from __future__ import annotations

from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from gameplay.models import Match, Seat

CLOSE_CHECKIN = "gameplay.close_checkin"


def hold_or_start_clocks(match: Match) -> None:
    """At the start (inside the starter's lock): clocks now, or once every seat is connected."""
    if match.checkin_seconds == 0 or all_present(match.pk):
        match.clocks_started_at = timezone.now()
        return
    match.clocks_started_at = None
    closes = match.started_at + timedelta(seconds=match.checkin_seconds)
    if not settings.CELERY_TASK_ALWAYS_EAGER:  # eager tests: the presence sweep catches up
        transaction.on_commit(lambda: current_app.tasks[CLOSE_CHECKIN].apply_async((match.pk,), eta=closes))


def all_present(match_id: int) -> bool:
    return not Seat.objects.filter(match_id=match_id, bot="", connections=0).exists()
