"""The competitions' writers (docs/style.md §5): views, tasks and the API call these, never the ORM.

- manager: the scheduler's step (start, open rounds, tables, results, walkovers, next round,
  close), check-in;
- entries: entering as a pair, invitations, withdrawals before the start, organiser-added pairs;
- organiser: pause, resume, reschedule, replace a player, withdraw/disqualify, override a result;
- lifecycle: cancel, reopen, delete, run again, the edit after the start;
- seeds: the organiser's seeds by hand before the start;
- ranking: the stored standings; notify: site and email notifications; loading: rows to values.
"""

from tournaments.services.manager import CompetitionError

__all__ = ["CompetitionError"]
