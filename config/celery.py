"""The Celery app: broker = REDIS_URL (or the embedded Redis), tasks found in every app.

The periodic schedule lives here, in code, in one place (docs/style.md §9). Apps add their
entries to BEAT_SCHEDULE below when they add a periodic task; the task itself stays a thin
function in the app's tasks.py that takes ids and calls a service.
"""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("chalk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger("chalk.celery")

# Seconds between clock sweeps: a seat times out at most this long after its deadline.
CLOCK_SWEEP_SECONDS = float(os.environ.get("CHALK_CLOCK_SWEEP", "1"))

BEAT_SCHEDULE = {
    # Proves the worker and beat are alive end to end: the cache key chalk:celery:heartbeat
    # holds the time it last ran.
    "heartbeat": {"task": "chalk.heartbeat", "schedule": 60.0},
    # The clocks: time out every decision past its deadline (gameplay/tasks.py). A sweep that
    # waited longer than its period is dropped: the next one does the same work.
    "sweep-deadlines": {"task": "gameplay.sweep_deadlines", "schedule": CLOCK_SWEEP_SECONDS,
                        "options": {"expires": CLOCK_SWEEP_SECONDS}},
    # A lost bot task must not stall a table either (an untimed one has no deadline to sweep).
    "sweep-stalled-bots": {"task": "gameplay.sweep_stalled_bots", "schedule": 5.0},
    # Lost presence timers: held clocks whose check-in closed, leavers past their reconnect window.
    "sweep-presence": {"task": "gameplay.sweep_presence", "schedule": 10.0},
    # Rematch proposals not every player answered in time are cancelled (gameplay/rematch.py).
    "sweep-rematches": {"task": "gameplay.sweep_rematches", "schedule": 10.0},
    # Play now: the queues' rating windows widen and the bots' waits run out with time
    # (gameplay/play_now.py; every join matches at once too). Safe with several beats and workers.
    "match-queues": {"task": "gameplay.match_queues", "schedule": 3.0, "options": {"expires": 3.0}},
    # A lost rating task must not leave a finished match unrated (tournaments/ratings/tasks.py).
    "rate-pending-matches": {"task": "ratings.rate_pending", "schedule": 300.0},
    # Competitions: open rounds, walkovers, next rounds, close seasons (tournaments/tasks.py).
    "competitions-tick": {"task": "tournaments.tick", "schedule": float(os.environ.get("CHALK_COMPETITION_TICK", "30"))},
}
app.conf.beat_schedule = BEAT_SCHEDULE

HEARTBEAT_CACHE_KEY = "chalk:celery:heartbeat"


@app.task(name="chalk.heartbeat")
def heartbeat():
    from django.core.cache import cache
    from django.utils import timezone

    now = timezone.now().isoformat()
    cache.set(HEARTBEAT_CACHE_KEY, now, timeout=None)
    logger.info("heartbeat at %s", now)
    return now
