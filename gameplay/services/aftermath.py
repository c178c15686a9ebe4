"""After a commit: publish a move's frames from synchronous code, wake a bot.

Clocks are not scheduled per move: `gameplay.sweep_deadlines` runs every CLOCK_SWEEP_SECONDS
and times out every decision past its deadline (one indexed query, whatever the number of
tables). One Celery timer per move cost more than the moves themselves under a soak
(benchmarks/soak.py: 200 tables, a move every 3 s each: the worker holding thousands of
timers and running 67 a second, the web process 10 ms a move to send them, until the machine
ran out of CPU and moves waited seconds).

The Celery tasks (gameplay/tasks.py) call the services, and the services schedule those tasks:
to keep that a one-way import, the tasks are looked up by name in the Celery app's registry
(the same task objects, so eager mode in tests still runs them inline). GameplayConfig.ready
registers them in every process.
"""

from __future__ import annotations

import contextlib
import threading

from celery import current_app
from django.conf import settings

from tuning.broadcast import group_send
from gameplay.services.values import Outcome, group_name

PLAY_BOTS = "gameplay.play_bots"

_bot_loop = threading.local()  # set while play_bots plays a run of bot moves in this thread


def follow_up(outcome: Outcome) -> None:
    """After an accepted action was committed and broadcast: the bot to act, if any."""
    if outcome.bot_next:
        schedule_bots(outcome.match_id)


def broadcast(outcome: Outcome) -> None:
    """Send an outcome's state frames to every socket of the match (from synchronous code)."""
    if outcome.duplicate or not outcome.messages:
        return
    group_send(group_name(outcome.match_id), outcome.group_message())


@contextlib.contextmanager
def playing_bots():
    """Around a run of bot moves (tasks.play_bots): the moves it makes schedule no new run, so a
    run of eager moves in tests stays a loop instead of a recursion."""
    _bot_loop.active = True
    try:
        yield
    finally:
        _bot_loop.active = False


def schedule_bots(match_id: int) -> None:
    """After a commit that left a bot to act: let it answer (unless a bot loop in this thread
    already is answering)."""
    if getattr(_bot_loop, "active", False):
        return
    play_bots = current_app.tasks[PLAY_BOTS]
    delay = settings.BOT_MOVE_DELAY
    if delay > 0 and not settings.CELERY_TASK_ALWAYS_EAGER:
        play_bots.apply_async((match_id,), countdown=delay)
    else:
        play_bots.delay(match_id)
