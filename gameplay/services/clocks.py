"""The clocks of presence (gameplay/presence.py has the whole policy): when a starting match's
clocks run, and when an away player's reconnect window is over. Each has its Celery task here,
beside the code that schedules it, so the schedule is an ordinary call (gameplay/tasks.py
re-exports the tasks for the worker).

- Fair starts: `hold_or_start_clocks` decides, inside the starter's lock, whether the clocks run
  now or wait for every seat; `start_clocks` starts held clocks when the table is complete or its
  check-in window closed (the `close_checkin` task, at the window's end).
- The leaver's window: a player away from a playing table gets the `enforce_leaver` task at the
  window's end; `enforce_leaver` applies the table's leaver policy through the one door.

Eager tasks (tests) cannot wait: there nothing is scheduled, and the periodic sweep
(presence.sweep_presence) catches up, as it does for a lost timer.
presence.py re-exports these names.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from gameplay.models import Match, Seat
from gameplay.services.aftermath import broadcast, enqueue
from gameplay.services.moves import Act, take
from gameplay.services.states import live_messages
from gameplay.services.tables import live_table, match_lock
from gameplay.services.values import Outcome
from gameplay.services.writes import set_clock

logger = logging.getLogger("chalk.gameplay")


# ----- fair starts -------------------------------------------------------------------------------

def hold_or_start_clocks(match: Match) -> None:
    """At the start (inside the starter's lock): clocks now, or once every seat is connected."""
    if match.checkin_seconds == 0 or all_present(match.pk):
        match.clocks_started_at = timezone.now()
        return
    match.clocks_started_at = None
    closes = match.started_at + timedelta(seconds=match.checkin_seconds)
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        transaction.on_commit(lambda: enqueue(close_checkin, (match.pk,), eta=closes))


def all_present(match_id: int) -> bool:
    return not Seat.objects.filter(match_id=match_id, bot="", connections=0).exists()


def checkin_closes_at(match: Match):
    return match.started_at + timedelta(seconds=match.checkin_seconds) if match.started_at else None


def start_clocks(match_id: int, window_closed: bool = False) -> Outcome | None:
    """Start a held table's clocks if every seat is there, or if its check-in window has closed
    (then the players still missing are away from now). The outcome (its state frames, broadcast
    after the commit) if they started, else None."""
    with match_lock(match_id), transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Match.Status.PLAYING or match.clocks_started_at is not None:
            return None
        now = timezone.now()
        window_closed = window_closed and checkin_closes_at(match) <= now
        if not window_closed and not all_present(match_id):
            return None
        if window_closed:
            _mark_absent_away(match, now)
        match.clocks_started_at = now
        live = live_table(match)
        live.load_presence()
        set_clock(match, live.table)
        match.save(update_fields=["clocks_started_at", "deadline"])
        outcome = Outcome(match.pk, match.seq, None, live_messages(live, []))
        transaction.on_commit(lambda: broadcast(outcome))
    logger.info("match %s: clocks started (%s)", match_id, "window closed" if window_closed else "all present")
    return outcome


@shared_task(name="gameplay.close_checkin", ignore_result=True)
def close_checkin(match_id: int) -> bool:
    return start_clocks(match_id, window_closed=True) is not None


def _mark_absent_away(match: Match, now) -> None:
    absent = Seat.objects.filter(match=match, bot="", connections=0)
    absent.filter(away_since__isnull=True).update(away_since=now)
    for seat in absent.values_list("seat", flat=True):
        schedule_leaver_check(match, seat, now)


# ----- the leaver's window -----------------------------------------------------------------------

def schedule_leaver_check(match: Match, seat: int, since) -> None:
    """After the commit: judge the seat when its reconnect window, counted from `since`, ends."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    when = since + timedelta(seconds=match.reconnect_seconds)
    transaction.on_commit(lambda: enqueue(enforce_leaver_task, (match.pk, seat), eta=when))


def enforce_leaver(match_id: int, seat: int, now=None) -> Outcome | None:
    """Apply the leaver policy to a seat away longer than the reconnect window; None otherwise."""
    now = now or timezone.now()
    match = Match.objects.filter(pk=match_id).only("status", "clocks_started_at", "reconnect_seconds").first()
    if match is None or match.status != Match.Status.PLAYING:
        return None
    row = Seat.objects.filter(match=match, seat=seat).first()
    if row is None or row.bot or row.away_since is None or row.connections or match.clocks_started_at is None:
        return None  # back, already a bot, or the table still waits for everyone (fair starts)
    since = max(row.away_since, match.clocks_started_at)  # away in the waiting room counts from the start
    if since + timedelta(seconds=match.reconnect_seconds) > now:
        return None
    logger.info("match %s: seat %s away since %s, leaver policy", match_id, seat, row.away_since)
    # The door judges again under the row's lock: a player back meanwhile keeps the seat.
    return take(match_id, Act.for_seat(seat, "leave", away_since=row.away_since))


@shared_task(name="gameplay.enforce_leaver", ignore_result=True)
def enforce_leaver_task(match_id: int, seat: int) -> bool:
    return enforce_leaver(match_id, seat) is not None
