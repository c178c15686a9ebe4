"""Celery tasks of ratings: thin, take ids, call tournaments.ratings.services.

- rate_match_task: enqueued on commit by the `match_finished` receiver, once per finished match;
  idempotent, so a retry or a duplicate delivery changes nothing.
- rate_pending: periodic (config/celery.py), so a lost task cannot leave a match unrated.
"""

from celery import shared_task
from django.db import OperationalError

from . import services


@shared_task(name="ratings.rate_match", ignore_result=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=5)
def rate_match_task(match_id: int) -> int:
    return services.rate_finished_match(match_id).rated


@shared_task(name="ratings.rate_pending", ignore_result=True, autoretry_for=(OperationalError,),
             retry_backoff=True, max_retries=3)
def rate_pending() -> int:
    return services.rate_pending_matches()
