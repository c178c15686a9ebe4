"""The one place that changes a match: create, seat, start, and apply actions.

Consumers, Celery tasks (clocks, bots), views and management commands all call these functions;
none of them writes a match row itself (docs/style.md §5, §6). An act is checked for seat, turn, seq
and its idempotency ref, validated with the engine, appended and recorded; only after it is in
the database is the new state sent to the match's sockets.

The modules, each importing only those above it (no import inside a function):

- values     what the services return and raise (Outcome, ActionRejected, SeatSpec...)
- tables     the per-process table cache, derived from the action log, and the per-match locks
- states     each reader's `state` frame, and who a reader is at a table
- writes     how an accepted act is stored: the locked transaction or the one statement
- aftermath  after a commit: broadcast from synchronous code
- moves      the one door for every act (`Act`; `take`, and `act` for the socket); bot turns and
             their Celery task (`play_bots`, which a move leaving a bot to act calls)
- clocks     the clocks of presence: fair starts and the leaver's window, with their Celery
             tasks (`close_checkin`, `enforce_leaver`)
- setup      creating, seating, starting and aborting tables

So the services call the Celery tasks they schedule by their Python names, and gameplay/tasks.py
(the periodic sweeps) imports the services: no cycle, no task looked up by a name in a string.

Other apps import the public names below from `gameplay.services`.
"""

from gameplay.services.aftermath import broadcast
from gameplay.services.moves import (TABLE_ACTS, Act, act, check_act, follow_up, play_bot_turn, playing_bots, schedule_bots,
                                     storable_text, take, usable_ref)
from gameplay.services.setup import (abort_match, create_match, decline_seat, fill_with_bots, start_if_ready,
                                     start_waiting, take_seat, withdraw_invitation)
from gameplay.services.states import current_state, live_messages, reader_of, seat_presence, state_message, state_messages
from gameplay.services.tables import (LiveTable, MatchLock, cached_table, cached_table_at, forget_table, live_table, locked_match,
                                      match_lock, put_table, spec_of)
from gameplay.services.writes import set_clock
from gameplay.services.values import GROUP_PREFIX, ActionRejected, Outcome, SeatSpec, error_frame, group_name

__all__ = [
    "GROUP_PREFIX", "TABLE_ACTS", "Act", "ActionRejected", "LiveTable", "MatchLock", "Outcome", "SeatSpec", "abort_match", "act",
    "locked_match", "play_bot_turn", "playing_bots", "set_clock", "storable_text", "take",
    "broadcast", "cached_table", "cached_table_at", "check_act", "create_match", "current_state", "error_frame",
    "fill_with_bots", "follow_up", "forget_table", "group_name", "live_table", "match_lock", "put_table",
    "reader_of", "schedule_bots", "spec_of", "start_if_ready", "start_waiting", "state_message",
    "state_messages", "live_messages", "seat_presence", "decline_seat", "take_seat", "usable_ref",
    "withdraw_invitation",
]
