"""Signals other apps listen to; gameplay never imports them (tournaments and ratings depend on
gameplay, not the other way round).

`match_finished(sender=Match, match_id=...)` is sent after the commit that finished a match, once
per match. Receivers should only enqueue a Celery task with the id.

`match_started(sender=Match, match_id=...)` is sent after the commit that started a table (its
seats all filled and its time come): the players' pages take each seated player there.
"""

from django.dispatch import Signal

match_finished = Signal()
match_started = Signal()
