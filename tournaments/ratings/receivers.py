"""Signal receivers: they only enqueue a task with the id (docs/style.md §9)."""

from django.db import transaction


def enqueue_rating(sender, match_id, **kwargs):
    """`gameplay.signals.match_finished`: rate the match once its commit is visible."""
    from .tasks import rate_match_task

    transaction.on_commit(lambda: rate_match_task.delay(match_id))
