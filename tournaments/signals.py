"""What the competitions tell the rest of Chalk, sent after the commit that made it.

- `competition_changed(sender=None, competition_id=...)`: a step of the competition did
  something (a round opened, a pairing was decided or its table started, a walkover, a new
  round) or a player checked in. Its players' next match may be another now. (An organiser's
  acts are each an AuditEntry row: listeners take its post_save.)
- `ratings_changed(sender=None, user_ids=...)`: these players' ratings and results were written.

The players' home (home/) forgets what it kept of them; tournaments imports nothing
of it.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

competition_changed = Signal()
ratings_changed = Signal()


def send_competition_changed(competition_id: int) -> None:
    transaction.on_commit(lambda: competition_changed.send(sender=None, competition_id=competition_id))


def send_ratings_changed(user_ids) -> None:
    users = tuple(user_ids)
    transaction.on_commit(lambda: ratings_changed.send(sender=None, user_ids=users))
