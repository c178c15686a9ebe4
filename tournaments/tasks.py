"""Celery tasks of competitions: thin, take ids, call tournaments.services.manager (docs/style.md §9).

- tick: periodic (config/celery.py, every CHALK_COMPETITION_TICK seconds, default 30): steps
  every competition that is starting or running, so rounds open, no-shows lose and seasons close
  on time even if no result ever arrives;
- step_competition: does what is due for one competition (idempotent, under its row lock);
- record_match_result: enqueued on commit by the `match_finished` receiver; steps the match's
  competition, which records the result and makes the next round as soon as a round is in.
"""

from celery import shared_task
from django.db import OperationalError

from tournaments.services import manager


@shared_task(name="tournaments.tick", ignore_result=True)
def tick() -> int:
    ids = manager.due_competitions()
    for competition_id in ids:
        step_competition.delay(competition_id)
    return len(ids)


@shared_task(name="tournaments.step_competition", ignore_result=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def step_competition(competition_id: int) -> bool:
    return manager.step(competition_id)


@shared_task(name="tournaments.record_match_result", ignore_result=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def record_match_result(match_id: int) -> bool:
    competition_id = manager.competition_of_match(match_id)
    return competition_id is not None and manager.step(competition_id)
