"""After a commit: publish a move's frames from synchronous code; a table whose frames Redis
did not take is told again when it is back.

Clocks are not scheduled per move: `gameplay.sweep_deadlines` runs every CLOCK_SWEEP_SECONDS
and times out every decision past its deadline (one indexed query, whatever the number of
tables). One Celery timer per move cost more than the moves themselves under a soak
(benchmarks/soak.py: 200 tables, a move every 3 s each: the worker holding thousands of
timers and running 67 a second, the web process 10 ms a move to send them, until the machine
ran out of CPU and moves waited seconds).

Redis away (restarting, failing over): a committed act's frames cannot be published. The act
stays written (PostgreSQL has it); the match is remembered here as one whose readers are
behind, the actor is answered `unavailable` (moves.act), and the next act at the table in this
process, the actor's resend first of all, sends every reader the table's state again
(`republish`) before it is acked. Readers are never told a table is where it is not.

What else follows a commit is called by name, where it lives: the bot to act next
(moves.follow_up and its `play_bots` task), the check-in window and the leaver's window
(clocks.py and its two tasks).
"""

from __future__ import annotations

import logging
import threading

from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

from django.db import connections

from gameplay.models import Match
from gameplay.services.states import live_messages
from gameplay.services.tables import live_table, match_lock
from gameplay.services.values import Outcome, group_name
from tuning.broadcast import group_send

logger = logging.getLogger("chalk.gameplay")

# What a publish raises when Redis is out of reach (refused, reset, timed out).
CHANNEL_LAYER_DOWN = (RedisError, OSError, TimeoutError)

# What sending a Celery task raises when its broker (the same Redis) is out of reach.
BROKER_DOWN = (BrokerError, *CHANNEL_LAYER_DOWN)

RESUBSCRIBED_AFTER = 2.0  # seconds: channels_redis's receiver retries a lost subscription every second

_behind: set[int] = set()  # matches whose last frames Redis did not take (this process's sends)


def broadcast(outcome: Outcome) -> bool:
    """Send an outcome's state frames to every socket of the match (from synchronous code).
    False if Redis did not take them: the match's readers are behind until `republish`."""
    if outcome.duplicate or not outcome.messages:
        return True
    try:
        group_send(group_name(outcome.match_id), outcome.group_message())
    except CHANNEL_LAYER_DOWN as error:
        missed(outcome.match_id, error)
        return False
    return True


def missed(match_id: int, error: Exception) -> None:
    """A publish of this match's frames failed: its readers are behind."""
    logger.warning("match %s: the channel layer did not take its frames (%s: %s); sent again when it is back",
                   match_id, type(error).__name__, error)
    _behind.add(match_id)


def is_behind(match_id: int) -> bool:
    return match_id in _behind


def republish(match_id: int) -> bool:
    """If this match's readers are behind, send each of them the table's state again (its
    current seq, no events; every process drops its cached table, which may have missed moves
    too). True when that was sent, False while Redis is still away.

    A subscription lost with Redis comes back on its receiver's next try (channels_redis tries
    every second), so a reader whose subscription was not back yet misses this send: the state
    is sent once more RESUBSCRIBED_AFTER seconds later (a reader drops a state older than its
    own, so a move in between is not undone)."""
    if match_id not in _behind:
        return True
    _behind.discard(match_id)  # a failing send marks it again
    if not send_state(match_id):
        return False
    again = threading.Timer(RESUBSCRIBED_AFTER, _send_state_and_close, (match_id,))
    again.daemon = True
    again.start()
    return True


def send_state(match_id: int) -> bool:
    """Send every reader of the match the table's state as it is now (False: Redis is away)."""
    with match_lock(match_id):
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            return True
        live = live_table(match)
        live.load_presence()
        outcome = Outcome(match.pk, match.seq, None, live_messages(live, []), seats_changed=True)
    return broadcast(outcome)


def _send_state_and_close(match_id: int) -> None:
    try:
        send_state(match_id)
    finally:
        connections.close_all()  # this timer thread's own database connection


def enqueue(task, args: tuple, **options) -> bool:
    """Send a Celery task (a bot's turn, a clock's end) after a commit. With Redis away it is
    dropped with a warning: the periodic sweeps (gameplay/tasks.py, beat) find every table a
    lost task would have moved on, as they do for a task lost any other way."""
    try:
        task.apply_async(args, **options)
    except BROKER_DOWN as error:
        logger.warning("%s%s not sent (%s: %s); the periodic sweep catches up", task.name, args,
                       type(error).__name__, error)
        return False
    return True
