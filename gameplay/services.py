"""The one place that changes a match: create, seat, start, and apply actions.

Consumers, Celery tasks (clocks, bots), views and management commands all call these functions;
none of them writes a match row itself (STYLE.md §5, §6). `submit_action` locks the match row,
checks seat, turn, seq and the idempotency ref, validates with the engine, appends the action,
updates clocks and status, and commits. Only after the commit is the new state broadcast to the
match's sockets, so an acknowledged or broadcast action is always in the database first.
"""

from __future__ import annotations

import logging
import random
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import timedelta

import psycopg
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from gameplay import access, frames
from gameplay.log import log_of, replay, spec_of  # noqa: F401 (spec_of: callers use services.spec_of)
from gameplay.models import Match, MatchAction, Seat
from gameplay.rules import IllegalAction, get_game
from gameplay.table import Table

logger = logging.getLogger("chalk.gameplay")

GROUP_PREFIX = "match-"


class ActionRejected(Exception):
    """An act the table refuses; `code` is one of the protocol's error codes."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Outcome:
    """What an accepted action produced: the new seq and one `state` message per reader."""

    match_id: int
    seq: int
    ref: str | None = None
    messages: dict = field(default_factory=dict)  # seat (or "spectator") -> state message
    duplicate: bool = False  # the ref had been applied before: ack again, change nothing
    deadline: object = None  # when the next decision times out
    bot_next: bool = False  # a bot holds the seat to act next

    def group_message(self) -> dict:
        """One channel-layer message for every socket of the match: the readers' frames already
        encoded as JSON text, as a shared head and a short tail per reader, so a socket forwards
        its own without decoding anything (msgpack keys must be strings)."""
        head, tails = frames.split_states(self.messages)
        return {"type": "match.update", "seq": self.seq, "head": head, "tails": tails}


def group_name(match_id: int) -> str:
    return f"{GROUP_PREFIX}{match_id}"


# ----- tables: derived from the action log, cached per process ---------------------------------

class LiveTable:
    """A match's table plus what every action needs to check: who sits where, refs applied.

    Kept per process and reused while `table.seq` equals the row's seq; any other seq replays
    the log. Seats only change before a match starts (and through `forget_table`)."""

    def __init__(self, match: Match):
        self.match = match  # the row as this process last read or wrote it (see _submit_fast)
        rows = log_of(match.pk)
        self.table = replay(match, rows)
        self.refs = {ref: seq for seq, (_, ref) in enumerate(rows) if ref is not None}
        seats = list(match.seats.values_list("seat", "user_id", "bot"))
        self.seat_of_user = {user: seat for seat, user, _ in seats if user is not None}
        self.bots = {seat: bot for seat, _, bot in seats if bot}
        self.lock = match_lock(match.pk)  # keeps the match's lock alive while the table is cached


class MatchLock:
    """Serialises the work on one match within this process: several database threads serve a
    process's sockets, and a cached table must not be read while another thread moves it.
    Other processes are kept out by the database (the row lock, or the fast path's
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
TABLE_CACHE_SIZE = 5000


def match_lock(match_id: int) -> MatchLock:
    """The process's lock of one match (kept alive by its cached table and by whoever holds it)."""
    with _tables_lock:
        lock = _match_locks.get(match_id)
        if lock is None:
            lock = _match_locks[match_id] = MatchLock()
        return lock


def live_table(match: Match) -> LiveTable:
    """The table at `match.seq`: the cached one when it is current, else a replay of the log.

    Call with the match's lock held. The cache is only a shortcut: a miss replays the same actions."""
    with _tables_lock:
        live = _tables.get(match.pk)
    if live is None or live.table.seq != match.seq:
        live = LiveTable(match)
    live.match = match
    with _tables_lock:
        _tables[match.pk] = live
        _tables.move_to_end(match.pk)
        while len(_tables) > TABLE_CACHE_SIZE:
            _tables.popitem(last=False)
    return live


def cached_table(match_id: int) -> LiveTable | None:
    with _tables_lock:
        return _tables.get(match_id)


def forget_table(match_id: int) -> None:
    with _tables_lock:
        _tables.pop(match_id, None)


# ----- creating and filling tables -------------------------------------------------------------

@dataclass
class SeatSpec:
    user: object = None
    bot: str = ""


def create_match(game: str, options: dict | None = None, seats: list[SeatSpec] | None = None, *,
                 created_by=None, games_to_win: int = 1, time_control: int = 0, is_public: bool = True,
                 rated: bool = False, seed: int | None = None, first_dealer: int | None = None,
                 starts_at=None, **fair_play) -> Match:
    """A new table. Options are validated and stored complete (ScenarioError if bad).

    `fair_play` may set the match's checkin_seconds, reconnect_seconds and leaver_policy
    (gameplay/presence.py); by default clocks start with the match and a leaver's seat goes to a bot."""
    engine = get_game(game)
    resolved = engine.resolve_options(options or {})
    players = engine.players(resolved)
    rng = random.SystemRandom()
    seats = list(seats or [])
    if len(seats) > players:
        raise ValueError(f"{engine.title} seats {players} players")
    with transaction.atomic():
        match = Match.objects.create(
            game=game, options=resolved, seed=rng.randrange(2**62) if seed is None else seed,
            first_dealer=rng.randrange(players) if first_dealer is None else first_dealer,
            games_to_win=games_to_win, time_control=time_control, is_public=is_public, rated=rated,
            created_by=created_by, starts_at=starts_at, games_won=[0, 0], **fair_play)
        now = timezone.now()
        specs = seats + [SeatSpec()] * (players - len(seats))
        Seat.objects.bulk_create(Seat(match=match, seat=number, user=spec.user, bot=spec.bot,
                                      joined_at=now if spec.user or spec.bot else None)
                                 for number, spec in enumerate(specs))
        start_if_ready(match)
    return match


def take_seat(match: Match, user, seat: int | None = None) -> Seat:
    """Seat a user at a waiting table (an invitation link); the first free seat by default."""
    with match_lock(match.pk), transaction.atomic():  # the process lock first, as everywhere
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status != Match.Status.WAITING:
            raise ActionRejected("finished" if match.is_finished else "forbidden", "This table has already started.")
        existing = match.seats.filter(user=user).first()
        if existing:
            return existing
        free = match.seats.filter(user__isnull=True, bot="").order_by("seat")
        if seat is not None:
            free = free.filter(seat=seat)
        place = free.first()
        if place is None:
            raise ActionRejected("forbidden", "There is no free seat at this table.")
        place.user, place.joined_at = user, timezone.now()
        place.save(update_fields=["user", "joined_at"])
        forget_table(match.pk)
        start_if_ready(match)
        return place


def fill_with_bots(match: Match, bot: str = "random") -> None:
    with match_lock(match.pk), transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status != Match.Status.WAITING:
            return
        match.seats.filter(user__isnull=True, bot="").update(bot=bot, joined_at=timezone.now())
        forget_table(match.pk)
        start_if_ready(match)


def start_waiting(match_id: int) -> bool:
    """Start a waiting table if it is ready (a competition round opening on time)."""
    with match_lock(match_id), transaction.atomic():
        return start_if_ready(Match.objects.select_for_update().get(pk=match_id))


def start_if_ready(match: Match) -> bool:
    """Start a waiting match whose seats are all filled and whose start time has come."""
    if match.status != Match.Status.WAITING:
        return False
    if match.starts_at and match.starts_at > timezone.now():
        return False
    if any(not seat.is_filled for seat in match.seats.all()):
        return False
    from gameplay import presence

    with match_lock(match.pk):
        live = live_table(match)
        match.status = Match.Status.PLAYING
        match.started_at = timezone.now()
        presence.hold_or_start_clocks(match)  # fair starts: not before every seat is at the table
        match.save(update_fields=["status", "started_at", "clocks_started_at"])
        _record(match, live.table)  # a match can even be decided by its first kick
        bot_next = live.table.to_act in live.bots
    transaction.on_commit(lambda: after_commit(match.pk, match.seq, match.deadline, bot_next))
    return True


# ----- applying actions ------------------------------------------------------------------------

def submit_action(match_id: int, user, seq, ref, action, publish: bool = True) -> Outcome:
    """A player's act (protocol.md). Raises ActionRejected with the protocol's error code.

    With publish=False the caller (the consumer, on its own event loop) broadcasts the outcome
    and then calls `follow_up(outcome)`; otherwise both happen here after the commit."""
    _check_act(seq, ref, action)
    outcome = _submit_fast(match_id, user, seq, ref, action, publish)
    if outcome is not None:
        return outcome
    with match_lock(match_id), transaction.atomic():
        match = _locked(match_id)
        live = live_table(match)
        if (duplicate := _already_applied(live, ref)) is not None:
            return duplicate
        seat = live.seat_of_user.get(getattr(user, "pk", None))
        if seat is None:
            raise ActionRejected("forbidden", "You do not hold a seat at this table.")
        if match.status != Match.Status.PLAYING:
            raise ActionRejected("finished" if match.is_finished else "not_your_turn",
                                 "The match is over." if match.is_finished else "The match has not started.")
        if seq != match.seq:
            raise ActionRejected("stale", "The table moved on; here is the current state.")
        if action.get("seat", seat) != seat:
            raise ActionRejected("forbidden", "You can only act for your own seat.")
        return _apply(match, live, seat, dict(action, seat=seat), ref, user, check_turn=True, publish=publish)


def _check_act(seq, ref, action) -> None:
    """The act's own form, before any table is looked at (protocol.md error codes)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionRejected("bad_message", "An act needs an action object with a type.")
    if action["type"] == "timeout":
        raise ActionRejected("forbidden", "Only the server's clock can time a seat out.")
    if ref is not None and (not isinstance(ref, str) or len(ref) > 64):
        raise ActionRejected("bad_message", "ref must be a string of at most 64 characters.")
    if type(seq) is not int:
        raise ActionRejected("bad_message", "seq must be the seq of the state you acted on.")


def _already_applied(live: LiveTable, ref) -> Outcome | None:
    """An act resent with a ref the table has applied: ack it again, change nothing."""
    if ref is None or ref not in live.refs:
        return None
    return Outcome(live.match.pk, live.refs[ref] + 1, ref, duplicate=True)


def submit_timeout(match_id: int, seq: int) -> Outcome | None:
    """The clock: time out the pending seat if the match is still at `seq` and past its deadline."""
    with match_lock(match_id), transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING or match.seq != seq or match.deadline is None:
            return None
        if match.deadline > timezone.now():
            return None
        live = live_table(match)
        seat = live.table.to_act
        if seat is None:
            return None
        logger.info("match %s: seat %s timed out at seq %s", match_id, seat, seq)
        return _apply(match, live, seat, {"seat": seat, "type": "timeout"}, None, None, check_turn=False)


def submit_bot_move(match_id: int) -> Outcome | None:
    """If a bot holds the seat to act, let it choose from its own view and legal actions."""
    from gameplay.bots import get_bot

    with match_lock(match_id), transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING:
            return None
        live = live_table(match)
        seat = live.table.to_act
        if seat not in live.bots:
            return None
        bot = get_bot(live.bots[seat], seed=f"{match.seed}:{match.seq}")
        view = live.table.view(seat) if bot.needs_view else None
        action = bot.choose(view, live.table.legal_for(seat))
        return _apply(match, live, seat, action, None, None, check_turn=False)


def _locked(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise ActionRejected("forbidden", "There is no such match.") from None


def _apply(match: Match, live: LiveTable, seat: int, action: dict, ref, actor, check_turn: bool,
           publish: bool = True, write=None) -> Outcome:
    """Validate with the engine, append, record; inside the caller's lock, and inside its
    transaction unless `write` is the single-statement writer of the fast path."""
    row = _take(match, live, seat, action, ref, actor, check_turn)
    try:
        (write or _write_in_transaction)(match, live.table, row)
    except BaseException:
        forget_table(match.pk)  # the table moved but the log did not: rebuild next time
        raise
    return _taken(match, live, row, publish)


def _take(match: Match, live: LiveTable, seat: int, action: dict, ref, actor, check_turn: bool) -> LoggedAction:
    """Check the turn and apply the action to the cached table; the row it must become."""
    table = live.table
    if actor is not None and seat in live.bots:
        raise ActionRejected("forbidden", "A bot plays this seat now: you left the table.")
    if check_turn and table.to_act != seat and not table.legal_for(seat):
        raise ActionRejected("not_your_turn", "It is not your turn.")
    game_number = table.game_number  # the game this action belongs to
    try:
        table.apply(action)
    except IllegalAction as error:
        raise ActionRejected("illegal_action", error.reason) from None
    return LoggedAction(seq=match.seq, game_number=game_number, seat=seat,
                        action=dict(table.last_action), ref=ref,  # as the engine (or the table) logged it
                        actor_id=getattr(actor, "pk", None))


def _taken(match: Match, live: LiveTable, row: LoggedAction, publish: bool) -> Outcome:
    """After the row was written: remember its ref, build every reader's frame."""
    table = live.table
    if row.ref is not None:
        live.refs[row.ref] = row.seq
    outcome = Outcome(match.pk, match.seq, row.ref, state_messages(match, table, table.events),
                      deadline=match.deadline, bot_next=table.to_act in live.bots)
    if publish:
        # Broadcast first, then schedule clocks and bots: frames reach sockets in seq order even
        # when a bot answers at once (eager tasks run inside these callbacks).
        transaction.on_commit(lambda: broadcast(outcome))
        transaction.on_commit(lambda: follow_up(outcome))
    return outcome


@dataclass
class LoggedAction:
    """The MatchAction row an accepted action becomes (a model instance costs more to build
    than the one-statement write that stores it)."""

    seq: int
    game_number: int
    seat: int | None
    action: dict
    ref: str | None
    actor_id: int | None


def _write_in_transaction(match: Match, table: Table, row: LoggedAction) -> None:
    MatchAction.objects.create(match=match, seq=row.seq, game_number=row.game_number, seat=row.seat,
                               action=row.action, ref=row.ref, actor_id=row.actor_id)
    _record(match, table)


def _record(match: Match, table: Table) -> None:
    match.save(update_fields=_advance(match, table))
    if table.is_over:
        transaction.on_commit(lambda: _announce_finish(match.pk))


def _advance(match: Match, table: Table) -> list[str]:
    """Copy the table's progress onto the match row in memory; returns the fields to save."""
    match.seq = table.seq
    match.game_number = table.game_number
    match.games_won = list(table.games_won)
    fields = ["seq", "game_number", "games_won", "deadline"]
    if table.is_over:
        match.status = Match.Status.FINISHED
        match.winner, match.finish = table.winner, table.finish
        match.result = table.result()
        match.finished_at = timezone.now()
        fields += ["status", "winner", "finish", "result", "finished_at"]
    _set_clock(match, table)
    return fields


def _announce_finish(match_id: int) -> None:
    from gameplay.signals import match_finished

    match_finished.send(sender=Match, match_id=match_id)


# ----- the fast path: one statement per move on PostgreSQL -------------------------------------

class TableMovedOn(Exception):
    """The match row is no longer at the seq this process's cached table is at."""


def _submit_fast(match_id: int, user, seq: int, ref, action: dict, publish: bool) -> Outcome | None:
    """A player's act against this process's cached table, written in one autocommitted
    statement that appends the action only if the row is still at `seq` (compare-and-swap).

    The locked transaction below costs five round trips on the database thread that every
    socket of the process shares (BEGIN, SELECT FOR UPDATE, INSERT, UPDATE, COMMIT); this is
    one. It applies only to the plain case: PostgreSQL, no open transaction, a cached table at
    the client's seq, a seated player. Anything else, a row changed by another process, a
    duplicate ref and every rejection returns None, and the locked path decides from the
    database (rejections are rare, so they are always judged there)."""
    from django.db import connection

    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return None
    with match_lock(match_id):
        live = cached_table(match_id)
        seat = _plain_seat(live, user, seq, action)
        if seat is None:
            return None
        if (duplicate := _already_applied(live, ref)) is not None:
            return duplicate
        try:
            return _apply(live.match, live, seat, dict(action, seat=seat), ref, user, check_turn=True,
                          publish=publish, write=_write_compare_and_swap)
        except (ActionRejected, TableMovedOn, IntegrityError):
            return None  # _apply dropped a table it had moved; the locked path reloads it


def _plain_seat(live: LiveTable | None, user, seq: int, action: dict) -> int | None:
    """The actor's seat when the act is the plain case the one-statement paths take: a seated
    player of a playing table acting for its own seat on the cached table's seq; else None."""
    if live is None:
        return None
    seat = live.seat_of_user.get(getattr(user, "pk", None))
    if (seat is None or live.match.status != Match.Status.PLAYING or seq != live.match.seq
            or seq != live.table.seq or action.get("seat", seat) != seat):
        return None
    return seat


_moving_on_loop: set[int] = set()  # matches whose move the event loop is writing right now


async def asubmit_move(match_id: int, user, seq, ref, action) -> Outcome | None:
    """`_submit_fast` run by the event loop itself: the engine in memory, the statement on one
    of the loop's own PostgreSQL connections (gameplay/live_db.py), no thread hop. The caller
    publishes the outcome. None whenever the plain case does not hold, including when a
    database thread is busy with this match: then the caller goes through `submit_action`,
    which decides from the database."""
    from gameplay import live_db

    try:
        _check_act(seq, ref, action)
    except ActionRejected:
        return None  # submit_action words the error
    live = cached_table(match_id)
    if live is None or match_id in _moving_on_loop or not live.lock.try_acquire():
        return None
    _moving_on_loop.add(match_id)
    try:
        match = live.match
        seat = _plain_seat(live, user, seq, action)
        if seat is None or cached_table(match_id) is not live:  # replaced while we took the lock
            return None
        if (duplicate := _already_applied(live, ref)) is not None:
            return duplicate
        try:
            row = _take(match, live, seat, dict(action, seat=seat), ref, user, check_turn=True)
        except ActionRejected:
            return None
        if live.table.is_over:
            # The last move writes the result and tells the competitions, whose receivers may
            # come back to this table: a database thread does it from the log (a replay, once
            # per match) rather than under the lock this loop holds.
            forget_table(match_id)
            return None
        try:
            if await live_db.fetch_one(_MOVE_SQL, _move_params(match, live.table, row)) is None:
                raise TableMovedOn(match_id)
        except (TableMovedOn, psycopg.Error, IntegrityError):
            # The table moved but the log did not: rebuild next time. A duplicate ref, a row
            # another process moved, or a database in trouble: submit_action judges the act.
            forget_table(match_id)
            return None
        except BaseException:
            forget_table(match_id)
            raise
        return _taken(match, live, row, publish=False)
    finally:
        _moving_on_loop.discard(match_id)
        live.lock.release()


# The common move in one statement: the UPDATE matches only while the row is still where the
# cached table was (seq and status), and the INSERT takes its row from the UPDATE's result, so
# either both happen or neither does. Every action moves seq by exactly one. Positional
# parameters and few of them: their conversion is most of this statement's cost in Python.
_MOVE_SQL = f"""
WITH moved AS (
    UPDATE {Match._meta.db_table}
    SET seq = seq + 1, game_number = %s, games_won = %s::jsonb, deadline = %s::timestamptz
    WHERE id = %s AND seq = %s AND status = 'playing'
    RETURNING id, seq)
INSERT INTO {MatchAction._meta.db_table} (match_id, seq, game_number, seat, action, ref, actor_id, created_at)
SELECT id, seq - 1, %s::smallint, %s::smallint, %s::jsonb, %s::varchar, %s::integer, %s::timestamptz
FROM moved
RETURNING 1"""


def _write_compare_and_swap(match: Match, table: Table, row: LoggedAction) -> None:
    """Append `row` and save the match's progress in one autocommitted statement, only if the
    row is still at `row.seq` and playing; TableMovedOn otherwise (a duplicate ref raises
    IntegrityError). Either way nothing changed. The move that ends the match, once per match,
    takes the locked transaction instead: it writes the result and tells the competitions."""
    from django.db import connection

    if table.is_over:
        return _write_locked(match, table, row)
    params = _move_params(match, table, row)
    with connection.wrap_database_errors:
        connection.ensure_connection()
        # psycopg's own cursor binds parameters on the server and prepares the statement once
        # per connection; Django's quotes every value into the SQL text in Python.
        with psycopg.Cursor(connection.connection) as cursor:
            cursor.execute(_MOVE_SQL, params, prepare=True)
            inserted = cursor.fetchone()
    if inserted is None:
        raise TableMovedOn(match.pk)


def _move_params(match: Match, table: Table, row: LoggedAction) -> tuple:
    fields = _advance(match, table)
    assert fields == ["seq", "game_number", "games_won", "deadline"] and match.seq == row.seq + 1, fields
    return (match.game_number, frames.encode(match.games_won), match.deadline, match.pk, row.seq,
            row.game_number, row.seat, frames.encode(row.action), row.ref, row.actor_id,
            timezone.now())  # the app's clock, as every other row of the app


def _write_locked(match: Match, table: Table, row: LoggedAction) -> None:
    with transaction.atomic():
        locked = Match.objects.select_for_update().only("seq", "status").get(pk=match.pk)
        if locked.seq != row.seq or locked.status != Match.Status.PLAYING:
            raise TableMovedOn(match.pk)
        _write_in_transaction(match, table, row)


def _set_clock(match: Match, table: Table) -> None:
    timed = (match.time_control and match.status == Match.Status.PLAYING and table.to_act is not None
             and match.clocks_started_at is not None)  # fair starts: held until every seat is there
    match.deadline = timezone.now() + timedelta(seconds=match.time_control) if timed else None


def after_commit(match_id: int, seq: int, deadline, bot_next: bool) -> None:
    """Schedule the clock for the new decision and let a bot move if one is to act.

    Eager tasks (tests) cannot wait for an eta, so there the periodic sweep, called by the
    tests, enforces clocks."""
    from gameplay import tasks

    if deadline is not None and not settings.CELERY_TASK_ALWAYS_EAGER:
        tasks.enforce_deadline.apply_async((match_id, seq), eta=deadline)
    if bot_next:
        tasks.schedule_bots(match_id)


def follow_up(outcome: Outcome) -> None:
    """After an accepted action was committed and broadcast: clocks and bots."""
    if outcome.deadline is not None or outcome.bot_next:
        after_commit(outcome.match_id, outcome.seq, outcome.deadline, outcome.bot_next)


# ----- what each reader receives ---------------------------------------------------------------

def state_message(match: Match, table: Table, seat, events, view: dict | None = None) -> dict:
    """The protocol's `state` frame for one reader (seat None: a spectator)."""
    if view is None:
        view = table.view(seat)
    return {
        "type": "state", "match": match.pk, "seq": table.seq, "seat": seat, "view": view,
        "to_act": table.to_act, "legal": view["legal"], "events": events,
        "deadline": match.deadline.isoformat().replace("+00:00", "Z") if match.deadline else None,
        "status": match.status,
    }


def state_messages(match: Match, table: Table, events) -> dict:
    views = table.views([*range(table.players), None])
    return {("spectator" if seat is None else seat): state_message(match, table, seat, events, view)
            for seat, view in views.items()}


def reader_of(match_id: int, user) -> access.Reader:
    """Who `user` is at this table: a seat, a spectator, or nobody. A playing table is answered
    from this process's cached table (its seats no longer change), loaded here if need be, so a
    reconnect storm after a deploy or a table's four players arriving at once cost one load, not
    a seat lookup each; a waiting table asks the database every time (seats are being taken)."""
    with match_lock(match_id):
        live = cached_table(match_id)
        if live is None or live.match.status != Match.Status.PLAYING:
            match = Match.objects.filter(pk=match_id).first()
            if match is None or match.status != Match.Status.PLAYING:
                return access.Reader(False, None) if match is None else access.reader_for(match, user)
            live = live_table(match)  # the socket's first state needs it next anyway
        return access.reader_at(live.match, user, live.seat_of_user.get(getattr(user, "pk", None)))


def current_state(match_id: int, user) -> dict:
    """A fresh `state` for a (re)connecting or syncing reader; events are empty."""
    with match_lock(match_id):
        match = Match.objects.get(pk=match_id)
        live = live_table(match)
        seat = live.seat_of_user.get(getattr(user, "pk", None))
        # `history`: the events so far, public like every frame's, for a reloaded "What happened"
        return {**state_message(match, live.table, seat, []), "history": list(live.table.history)}


def broadcast(outcome: Outcome) -> None:
    """Send an outcome's state frames to every socket of the match."""
    from gameplay.broadcast import group_send

    if outcome.duplicate or not outcome.messages:
        return
    group_send(group_name(outcome.match_id), outcome.group_message())


def abort_match(match: Match, reason: str = "") -> None:
    with match_lock(match.pk), transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.is_finished:
            return
        match.status, match.finish, match.deadline = Match.Status.ABORTED, Match.Finish.ABORTED, None
        match.finished_at = timezone.now()
        match.result = {**match.result, "reason": reason}
        match.save(update_fields=["status", "finish", "deadline", "finished_at", "result"])
    forget_table(match.pk)

