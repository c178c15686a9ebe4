"""Signals other apps listen to; gameplay never imports them (tournaments and ratings depend on
gameplay, not the other way round).

`match_finished(sender=Match, match_id=...)` is sent after the commit that finished a match, once
per match. Receivers should only enqueue a Celery task with the id.
"""

from django.dispatch import Signal

match_finished = Signal()
