"""Signal receivers: they only enqueue a task with the id, after the commit (STYLE.md §9)."""

from django.db import transaction


def enqueue_result(sender, match_id, **kwargs):
    """`gameplay.signals.match_finished`: let the match's competition (if any) record it."""
    from tournaments.tasks import record_match_result

    transaction.on_commit(lambda: record_match_result.delay(match_id))
