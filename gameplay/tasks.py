"""Celery tasks of live play: thin wrappers that take ids and call gameplay.services.

The periodic ones (config/celery.py's beat schedule), defined here:

- sweep_deadlines: the clocks. Every CLOCK_SWEEP_SECONDS it times out each decision past its
  deadline: one indexed query whatever the number of tables, instead of a timer task per move
  (gameplay/services/aftermath.py says why).
- sweep_stalled_bots: so a lost bot task cannot stall a table (untimed ones have no deadline for
  sweep_deadlines to find).
- sweep_presence: held clocks whose check-in window closed, leavers past their window.

The ones the services schedule are defined beside the code that schedules them, and called
there by their Python names; this module imports them so a worker registers every task:

- play_bots (gameplay/services/moves.py): the turns of bot seats, with a short human-like delay
  between moves.
- close_checkin, enforce_leaver (gameplay/services/clocks.py): a check-in window's end, an away
  player's reconnect window's end.
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from gameplay import play_now, presence, rematch, services
from gameplay.models import Match, MatchAction, Seat
from gameplay.services.clocks import close_checkin, enforce_leaver_task as enforce_leaver
from gameplay.services.moves import play_bots

__all__ = ["close_checkin", "enforce_leaver", "match_queues", "play_bots", "sweep_deadlines", "sweep_presence",
           "sweep_rematches", "sweep_stalled_bots"]

logger = logging.getLogger("chalk.gameplay")
SWEEP_BATCH = 500
# (quiet_since, pk) of the last table sweep_stalled_bots looked at; see there.
BOT_SWEEP_CURSOR = "chalk:gameplay:bot-sweep-cursor"


@shared_task(name="gameplay.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    overdue = (Match.objects.filter(status=Match.Status.PLAYING, deadline__lte=timezone.now())
               .order_by("deadline").values_list("pk", "seq")[:SWEEP_BATCH])
    return sum(1 for match_id, seq in overdue if services.take(match_id, services.Act.by_clock(seq)) is not None)


@shared_task(name="gameplay.sweep_stalled_bots", ignore_result=True)
def sweep_stalled_bots() -> int:
    """Let bots move at tables with a bot seat that have been quiet for BOT_STALL_SECONDS;
    returns how many tables moved on.

    A table that is quiet because a human is to act (or gone) stays quiet, and such tables pile
    up on a big site. Re-checking them every run would cost a lock and a replay each, and with
    a bounded batch the oldest of them would crowd out a newly stalled table for good. So the
    sweep walks forward: it remembers the (quiet_since, pk) it reached and next time looks only
    past it. A table comes back into view when a new action makes it quiet again later. (This
    assumes an action's row is visible, and hosts' clocks agree, well within the grace period.)
    If the cache loses the cursor, the sweep starts again from the oldest: one more look at each
    quiet table, nothing missed.
    """
    cutoff = timezone.now() - timedelta(seconds=settings.BOT_STALL_SECONDS)
    # Newest action via the unique (match, seq) index; a table with no action yet: its start.
    last_action = MatchAction.objects.filter(match=OuterRef("pk")).order_by("-seq").values("created_at")[:1]
    quiet = (Match.objects.filter(status=Match.Status.PLAYING)
             .filter(Exists(Seat.objects.filter(match=OuterRef("pk")).exclude(bot="")))
             .annotate(quiet_since=Coalesce(Subquery(last_action), "started_at"))
             .filter(quiet_since__lte=cutoff))
    cursor = cache.get(BOT_SWEEP_CURSOR)
    if cursor is not None:
        since, pk = cursor
        quiet = quiet.filter(Q(quiet_since__gt=since) | Q(quiet_since=since, pk__gt=pk))
    batch = list(quiet.order_by("quiet_since", "pk").values_list("pk", "quiet_since")[:SWEEP_BATCH])
    moved = 0
    for match_id, _ in batch:
        try:
            moved += play_bots(match_id) > 0  # 0 when a human, not a bot, is to act
        except Exception:
            # One broken table must not hold back the others behind it (nor the cursor).
            logger.exception("match %s: the bot sweep could not play", match_id)
    if batch:
        last_pk, last_quiet_since = batch[-1]
        cache.set(BOT_SWEEP_CURSOR, (last_quiet_since, last_pk), timeout=None)
    if moved:
        logger.warning("bot sweep: %s stalled table(s) moved on (lost bot tasks?)", moved)
    return moved


# ----- presence: fair starts and leavers (gameplay/presence.py) --------------------------------

@shared_task(name="gameplay.sweep_presence", ignore_result=True)
def sweep_presence() -> int:
    return presence.sweep_presence()


@shared_task(name="gameplay.sweep_rematches", ignore_result=True)
def sweep_rematches() -> int:
    """Cancel the rematch proposals not every player answered in time (gameplay/rematch.py)."""
    return rematch.expire_due()


@shared_task(name="gameplay.match_queues", ignore_result=True)
def match_queues() -> int:
    """Play now: seat whoever fits as windows widen and bots' waits run out (gameplay/play_now.py)."""
    return len(play_now.match_all())
