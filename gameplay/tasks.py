"""Celery tasks of live play: thin wrappers that take ids and call gameplay.services.

- enforce_deadline: scheduled at each decision's deadline; times the seat out if still pending.
- sweep_deadlines: periodic (config/celery.py), so a lost timer cannot stall a table.
- play_bots: plays the turns of bot seats, with a short human-like delay between moves.
"""

import logging
import threading

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from gameplay import services
from gameplay.models import Match

logger = logging.getLogger("chalk.gameplay")
SWEEP_BATCH = 500

_bot_loop = threading.local()


@shared_task(name="gameplay.enforce_deadline", ignore_result=True)
def enforce_deadline(match_id: int, seq: int) -> bool:
    return services.submit_timeout(match_id, seq) is not None


@shared_task(name="gameplay.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    overdue = (Match.objects.filter(status=Match.Status.PLAYING, deadline__lte=timezone.now())
               .order_by("deadline").values_list("pk", "seq")[:SWEEP_BATCH])
    return sum(1 for match_id, seq in overdue if services.submit_timeout(match_id, seq) is not None)


@shared_task(name="gameplay.play_bots", ignore_result=True)
def play_bots(match_id: int) -> int:
    """Play bot turns in a row; with a delay, one move now and the next one later."""
    delay = settings.BOT_MOVE_DELAY
    moves = 0
    _bot_loop.active = True
    try:
        while services.submit_bot_move(match_id) is not None:
            moves += 1
            if delay > 0 and not settings.CELERY_TASK_ALWAYS_EAGER:
                play_bots.apply_async((match_id,), countdown=delay)
                break
    finally:
        _bot_loop.active = False
    return moves


def schedule_bots(match_id: int) -> None:
    """After a commit that left a bot to act: let it answer (unless a bot loop in this thread
    already is answering)."""
    if getattr(_bot_loop, "active", False):
        return
    delay = settings.BOT_MOVE_DELAY
    if delay > 0 and not settings.CELERY_TASK_ALWAYS_EAGER:
        play_bots.apply_async((match_id,), countdown=delay)
    else:
        play_bots.delay(match_id)
