"""Signals other apps listen to; gameplay never imports them (tournaments and ratings depend on
gameplay, not the other way round).

`match_finished(sender=Match, match_id=...)` is sent after the commit that finished a match, once
per match. Receivers should only enqueue a Celery task with the id.

`match_started(sender=Match, match_id=...)` is sent after the commit that started a table (its
seats all filled and its time come): the players' pages take each seated player there.

`seat_invited(sender=Match, match_id=..., user_id=..., host_id=..., game=...)` is sent after the
commit that kept a seat for a friend at a new table; `seat_invitation_closed(sender=Match,
match_id=..., user_id=...)` after the commit that ended that invitation (the friend took the seat
or declined it, or the host withdrew it). The competitions' notifications listen to both.
"""

from django.dispatch import Signal

match_finished = Signal()
match_started = Signal()
seat_invited = Signal()
seat_invitation_closed = Signal()
