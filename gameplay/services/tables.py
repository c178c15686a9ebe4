"""Tables derived from the action log and cached per process, and the per-match locks that
guard them. The cache is only a shortcut: a miss replays the same actions."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict

from gameplay.log import replay, spec_of  # noqa: F401 (spec_of: callers use services.spec_of)
from gameplay.models import Match, MatchAction
from gameplay.services.values import ActionRejected

TABLE_CACHE_SIZE = 5000


class LiveTable:
    """A match's table plus what every action needs to check: who sits where, refs applied.

    Kept per process and reused while `table.seq` equals the row's seq; any other seq replays
    the log. Seats only change before a match starts (and through `forget_table`)."""

    def __init__(self, match: Match):
        self.match = match  # the row as this process last read or wrote it (see services.moves)
        rows = list(MatchAction.objects.filter(match=match).order_by("seq")
                    .values_list("action", "ref", "seat"))
        self.table = replay(match, [(action, ref) for action, ref, _ in rows])
        # ref -> (seq, seat) of the act it named: a resent ref is acked only to its own seat
        self.refs = {ref: (seq, seat) for seq, (_, ref, seat) in enumerate(rows) if ref is not None}
        seats = list(match.seats.values_list("seat", "user_id", "bot", "connections", "away_since"))
        self.seat_of_user = {user: seat for seat, user, *_ in seats if user is not None}
        self.bots = {seat: bot for seat, _, bot, *_ in seats if bot}
        # seat -> (open sockets, away since): the frames' `presence` (states.seat_presence)
        self.sockets = {seat: (connections, away) for seat, _, _, connections, away in seats}
        self.lock = match_lock(match.pk)  # keeps the match's lock alive while the table is cached

    def load_presence(self) -> None:
        """Read the seats' sockets again (any process's socket may have come or gone since)."""
        self.sockets = {seat: (connections, away) for seat, connections, away
                        in self.match.seats.values_list("seat", "connections", "away_since")}


class MatchLock:
    """Serialises the work on one match within this process: several database threads serve a
    process's sockets, and a cached table must not be read while another thread moves it.
    Other processes are kept out by the database (the row lock, or the one-statement move's
    compare-and-swap). Always taken before any database lock, so the order never inverts."""

    __slots__ = ("_lock", "__weakref__")

    def __init__(self):
        self._lock = threading.RLock()

    def __enter__(self):
        self._lock.acquire()
        return self

    def __exit__(self, *exc_info):
        self._lock.release()

    def try_acquire(self) -> bool:
        """Without waiting (the event loop must never block on a thread)."""
        return self._lock.acquire(blocking=False)

    def release(self) -> None:
        self._lock.release()


_tables: OrderedDict[int, LiveTable] = OrderedDict()
_match_locks: weakref.WeakValueDictionary[int, MatchLock] = weakref.WeakValueDictionary()
_tables_lock = threading.Lock()  # guards the two dicts above, held only for a lookup or an insert


def match_lock(match_id: int) -> MatchLock:
    """The process's lock of one match (kept alive by its cached table and by whoever holds it)."""
    with _tables_lock:
        lock = _match_locks.get(match_id)
        if lock is None:
            lock = _match_locks[match_id] = MatchLock()
        return lock


def live_table(match: Match) -> LiveTable:
    """The table at `match.seq`: the cached one when it is current, else a replay of the log.

    Only tables still in play are kept: an ended one is read again only by a late socket's last
    state, and keeping each one until the cache was full grew the web process by every match it
    had seen end (benchmarks/soak.py: about 45 MB over 760 finished matches). Call with the
    match's lock held."""
    live = cached_table_at(match.pk, match.seq, match.status)
    if live is None:
        live = LiveTable(match)
    live.match = match
    with _tables_lock:
        if match.is_finished:
            _tables.pop(match.pk, None)
            return live
        _tables[match.pk] = live
        _tables.move_to_end(match.pk)
        while len(_tables) > TABLE_CACHE_SIZE:
            _tables.popitem(last=False)
    return live


def cached_table(match_id: int) -> LiveTable | None:
    with _tables_lock:
        return _tables.get(match_id)


def cached_table_at(match_id: int, seq: int, status: str) -> LiveTable | None:
    """This process's table of the match if it is the one at (`seq`, `status`) of the row.

    A table cached while it waited (a socket's first state) is stale once it has started, also
    at the same seq: another process (a web process, the worker opening a round) may have seated
    people and bots and started it, and only that process forgot its own copy."""
    live = cached_table(match_id)
    if live is None or live.table.seq != seq or live.match.status != status:
        return None
    return live


def put_table(live: LiveTable) -> None:
    """Cache `live` as its match's table (tests put back an older copy to play a second process)."""
    with _tables_lock:
        _tables[live.match.pk] = live


def forget_table(match_id: int) -> None:
    with _tables_lock:
        _tables.pop(match_id, None)


def locked_match(match_id: int) -> Match:
    """The match row, locked until the caller's transaction ends."""
    match = locked_match_if_any(match_id)
    if match is None:
        raise ActionRejected("forbidden", "There is no such match.")
    return match


def locked_match_if_any(match_id: int) -> Match | None:
    """The same, or None for a match deleted since (a clock or bot task that outlived it)."""
    return Match.objects.select_for_update().filter(pk=match_id).first()
