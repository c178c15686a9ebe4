"""Submitting acts: the one door for a move, and the only module that decides how it is written.

A player's act comes in through `act` (the table socket) or `submit_action` (synchronous
callers); the clock and the bots through `submit_timeout` and `submit_bot_move`. The act's form
is checked once (`check_act`), the plain case once (`_take_plain`), and then one of three writers
stores it (services.writes):

- on the event loop, on its own connections (`_move_on_loop`), for the plain case: one
  statement for the moves of every table the loop writes meanwhile;
- on a database thread, the same statement (`_move_on_thread`), when the loop cannot take it;
  the plain move that ends the match takes a transaction of its own there instead (it writes
  the result), from either (`_write_last_move` for the loop's);
- the locked transaction (`_move_locked`), which judges everything else from the database:
  rejections, a table another process moved, a ref used before.

Only after the write is anything sent: each reader's frame is built here (`_taken`), published
by the caller's loop (`act`) or after the commit (`aftermath.broadcast`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import psycopg
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.utils import timezone

from gameplay.bots import get_bot
from gameplay.live_db import loop_writes_enabled, on_database_thread
from gameplay.models import Match
from gameplay.rules import IllegalAction
from gameplay.services.aftermath import broadcast, follow_up
from gameplay.services.states import current_state, state_messages
from gameplay.services.tables import (LiveTable, cached_table, forget_table, live_table, locked_match,
                                      locked_match_if_any, match_lock)
from gameplay.services.values import ActionRejected, LoggedAction, Outcome, TableMovedOn, error_frame, group_name
from gameplay.services.writes import (awrite_in_batch, one_statement_possible, write_in_transaction,
                                      write_locked, write_one_statement)

logger = logging.getLogger("chalk.gameplay")

MAX_REF_LENGTH = 64
MAX_ACTION_DEPTH = 8  # an action is a flat object of a few fields; deeper is not an action
_INT64 = 2**63


# ----- the socket's door -----------------------------------------------------------------------

async def act(match_id: int, user, message: dict, reply) -> None:
    """A table socket's `act` message (protocol.md), start to end: check its form, write it the
    cheapest safe way, publish every reader's frame, ack the sender, then clocks and bots.
    `reply(frame)` sends a frame to the acting socket alone (the ack, an error)."""
    ref = message.get("ref")
    try:
        seq, action = act_of(message)
        outcome = await _write_act(match_id, user, seq, ref, action)
    except ActionRejected as rejected:
        await reply(error_frame(rejected.code, rejected.message, ref if usable_ref(ref) else None))
        if rejected.code == "stale":
            await reply(await on_database_thread(current_state, match_id, user))
        return
    if not outcome.duplicate:  # committed: publish from this loop, then acknowledge
        await get_channel_layer().group_send(group_name(match_id), outcome.group_message())
    await reply({"type": "ack", "ref": ref, "seq": outcome.seq})
    if outcome.bot_next:
        await on_database_thread(follow_up, outcome)


async def _write_act(match_id: int, user, seq: int, ref: str, action: dict) -> Outcome:
    if loop_writes_enabled():
        outcome = await _move_on_loop(match_id, user, seq, ref, action)
        if isinstance(outcome, _LastMove):
            return await on_database_thread(_write_last_move, outcome, user, seq, ref, action)
        if outcome is not None:
            return outcome
    return await on_database_thread(submit_action, match_id, user, seq, ref, action, False)


# ----- an act's form ---------------------------------------------------------------------------

def act_of(message: dict) -> tuple[int, dict]:
    """The (seq, action) of a socket's `act`, whose ref is required (protocol.md)."""
    if not usable_ref(message.get("ref")) or "seq" not in message:
        raise ActionRejected("bad_message", "An act needs ref, seq and action.")
    check_act(message["seq"], message["ref"], message.get("action"))
    return message["seq"], message["action"]


def check_act(seq, ref, action) -> None:
    """The act's own form, before any table is looked at (protocol.md error codes)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionRejected("bad_message", "An act needs an action object with a type.")
    if not _storable(action, MAX_ACTION_DEPTH):
        raise ActionRejected("bad_message", "This action holds values no game uses.")
    if action["type"] == "timeout":
        raise ActionRejected("forbidden", "Only the server's clock can time a seat out.")
    if ref is not None and not usable_ref(ref):
        raise ActionRejected("bad_message", "ref must be a string of at most 64 characters.")
    if type(seq) is not int:
        raise ActionRejected("bad_message", "seq must be the seq of the state you acted on.")


def usable_ref(ref) -> bool:
    return isinstance(ref, str) and len(ref) <= MAX_REF_LENGTH and _storable(ref, 0)


def storable_text(text: str) -> bool:
    """A string the database can store (no NUL, no lone surrogate)."""
    return _storable(text, 0)


def _storable(value, depth: int) -> bool:
    """JSON that the log can store and a frame can echo: no NUL or lone surrogate in a string
    (PostgreSQL's text and jsonb refuse them), integers within 64 bits, nesting within `depth`."""
    if isinstance(value, str):
        return "\x00" not in value and (value.isascii() or _utf8(value))
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return True
    if isinstance(value, int):
        return -_INT64 <= value < _INT64
    if depth <= 0:
        return False
    if isinstance(value, list):
        return all(_storable(item, depth - 1) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _storable(key, 0) and _storable(item, depth - 1)
                   for key, item in value.items())
    return False


def _utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


# ----- synchronous callers: players, the clock, bots ---------------------------------------------

def submit_action(match_id: int, user, seq, ref, action, publish: bool = True) -> Outcome:
    """A player's act (protocol.md). Raises ActionRejected with the protocol's error code.

    With publish=False the caller (the table socket, on its own event loop) publishes the
    outcome and then calls `follow_up(outcome)`; otherwise both happen here after the commit."""
    check_act(seq, ref, action)
    if one_statement_possible():
        outcome = _move_on_thread(match_id, user, seq, ref, action, publish)
        if outcome is not None:
            return outcome
    return _move_locked(match_id, user, seq, ref, action, publish)


def submit_timeout(match_id: int, seq: int) -> Outcome | None:
    """The clock: time out the pending seat if the match is still at `seq` and past its deadline.

    Nearly every timer finds its decision taken long ago: a plain read says so without the
    process lock, a transaction or a row lock that a move at that table would wait behind."""
    if not Match.objects.filter(pk=match_id, seq=seq, status=Match.Status.PLAYING,
                                deadline__lte=timezone.now()).exists():
        return None
    with match_lock(match_id), transaction.atomic():
        match = locked_match_if_any(match_id)
        if match is None or match.status != Match.Status.PLAYING or match.seq != seq or match.deadline is None:
            return None
        if match.deadline > timezone.now():
            return None
        live = live_table(match)
        seat = live.table.to_act
        if seat is None:
            return None
        logger.info("match %s: seat %s timed out at seq %s", match_id, seat, seq)
        return apply_in_lock(match, live, seat, {"seat": seat, "type": "timeout"}, None, None, check_turn=False)


def submit_bot_move(match_id: int) -> Outcome | None:
    """If a bot holds the seat to act, let it choose from its own view and legal actions.

    The choice (up to the strong bot's budget) is made outside the lock and the transaction, so
    people's moves at other tables of this process and the row are never held up by a bot's
    thinking; the move is applied only if the table is still where the bot looked at it (else
    None: whoever moved it on starts the next bot task)."""
    turn = _bot_turn(match_id)
    if turn is None:
        return None
    seq, seat, bot, view, legal = turn
    action = bot.choose(view, legal)
    with match_lock(match_id), transaction.atomic():
        match = locked_match_if_any(match_id)
        if match is None or match.status != Match.Status.PLAYING or match.seq != seq:
            return None
        return apply_in_lock(match, live_table(match), seat, action, None, None, check_turn=False)


def _bot_turn(match_id: int):
    """(seq, seat, bot, view, legal actions) when a bot is to act at a playing table, else None;
    read under the match's lock (the cached table must not move while it is read), no row lock."""
    with match_lock(match_id):
        match = Match.objects.filter(pk=match_id).first()
        if match is None or match.status != Match.Status.PLAYING:
            return None
        live = live_table(match)
        seat = live.table.to_act
        if seat not in live.bots:
            return None
        bot = get_bot(live.bots[seat], seed=f"{match.seed}:{match.seq}", options=match.options)
        view = live.table.view(seat) if bot.needs_view else None
        return match.seq, seat, bot, view, live.table.legal_for(seat)


# ----- the plain case, checked once for both one-statement writers ------------------------------

def _plain_seat(live: LiveTable, user, seq: int, action: dict) -> int | None:
    """The actor's seat when the act is the plain case: a seated player of a playing table
    acting for its own seat on the cached table's seq; else None."""
    seat = live.seat_of_user.get(getattr(user, "pk", None))
    if (seat is None or live.match.status != Match.Status.PLAYING or seq != live.match.seq
            or seq != live.table.seq or action.get("seat", seat) != seat):
        return None
    return seat


def _take_plain(live: LiveTable, user, seq: int, ref, action: dict) -> Outcome | LoggedAction | None:
    """For the plain case: the resent act's ack, or the row the act becomes (applied to the
    cached table). None for anything else, which the locked transaction then judges from the
    database (rejections are rare, so they are always worded there)."""
    seat = _plain_seat(live, user, seq, action)
    if seat is None:
        return None
    if (again := resent(live, ref, seat)) is not None:
        return again
    try:
        return _take(live.match, live, seat, dict(action, seat=seat), ref, user, check_turn=True)
    except ActionRejected:
        return None


_moving_on_loop: set[int] = set()  # matches whose move the event loop is writing right now


@dataclass(frozen=True)
class _LastMove:
    """The move that ends a match, applied on the loop to its table (out of the cache now)."""
    live: LiveTable
    row: LoggedAction


async def _move_on_loop(match_id: int, user, seq: int, ref, action: dict) -> Outcome | _LastMove | None:
    """The plain case on the event loop itself: the engine in memory, the statement (shared
    with the other tables' moves the loop writes meanwhile) on the loop's own connections, no
    thread hop. None whenever the plain case does not hold, including when a database thread
    is busy with this match (the loop never waits for one); the move that ends the match is
    handed to a database thread to write (`_LastMove`)."""
    live = cached_table(match_id)
    if live is None or match_id in _moving_on_loop or not live.lock.try_acquire():
        return None
    _moving_on_loop.add(match_id)  # the lock is re-entrant, and every coroutine is this thread
    try:
        if cached_table(match_id) is not live:  # replaced while we took the lock
            return None
        taken = _take_plain(live, user, seq, ref, action)
        if not isinstance(taken, LoggedAction):
            return taken
        if live.table.is_over:
            # The last move writes the result and tells the competitions, whose receivers may
            # come back to this table: a database thread does it, once this loop has let go of
            # the match's lock. Out of the cache, the table (a move ahead of its row) is no
            # other act's: they wait for that thread, or are judged from the log.
            forget_table(match_id)
            return _LastMove(live, taken)
        try:
            await awrite_in_batch(live.match, live.table, taken)
        except (TableMovedOn, psycopg.Error, IntegrityError):
            # The table moved but the log did not: rebuild next time. A used ref, a row another
            # process moved, or a database in trouble: the locked transaction judges the act.
            forget_table(match_id)
            return None
        except BaseException:
            forget_table(match_id)
            raise
        return _taken(live.match, live, taken, publish=False)
    finally:
        _moving_on_loop.discard(match_id)
        live.lock.release()


def _move_on_thread(match_id: int, user, seq: int, ref, action: dict, publish: bool) -> Outcome | None:
    """The plain case on a database thread: the same one statement, autocommitted; the move
    that ends the match takes a transaction of its own (it writes the result)."""
    with match_lock(match_id):
        live = cached_table(match_id)
        taken = None if live is None else _take_plain(live, user, seq, ref, action)
        if not isinstance(taken, LoggedAction):
            return taken
        return _write_taken(live, taken, write_locked if live.table.is_over else write_one_statement, publish)


def _write_last_move(last: _LastMove, user, seq: int, ref, action: dict) -> Outcome:
    """The move that ends the match, applied on the loop: written in a transaction of its own
    (the row locked, the result recorded, the competitions told after the commit). If the row
    moved on meanwhile or the ref was taken, the locked transaction judges the act afresh."""
    match_id = last.live.match.pk
    with match_lock(match_id):
        outcome = _write_taken(last.live, last.row, write_locked, publish=False)
        return outcome if outcome is not None else _move_locked(match_id, user, seq, ref, action, publish=False)


def _write_taken(live: LiveTable, row: LoggedAction, write, publish: bool) -> Outcome | None:
    """Write a row applied to the cached table, under the match's lock; None when the row moved
    on or the ref was taken (the locked transaction then reloads the table and judges the act)."""
    try:
        write(live.match, live.table, row)
    except (TableMovedOn, IntegrityError):
        forget_table(live.match.pk)
        return None
    except BaseException:
        forget_table(live.match.pk)  # the table moved but the log did not: rebuild next time
        raise
    return _taken(live.match, live, row, publish)


# ----- the locked transaction ------------------------------------------------------------------

def _move_locked(match_id: int, user, seq: int, ref, action: dict, publish: bool) -> Outcome:
    """Any act, judged from the locked row: seat first, then a resent ref of that seat, then
    status, seq and turn; the refusal's code is the protocol's."""
    with match_lock(match_id), transaction.atomic():
        match = locked_match(match_id)
        live = live_table(match)
        seat = live.seat_of_user.get(getattr(user, "pk", None))
        if seat is None:
            raise ActionRejected("forbidden", "You do not hold a seat at this table.")
        if (again := resent(live, ref, seat)) is not None:
            return again
        if match.status != Match.Status.PLAYING:
            raise ActionRejected("finished" if match.is_finished else "not_your_turn",
                                 "The match is over." if match.is_finished else "The match has not started.")
        if seq != match.seq:
            raise ActionRejected("stale", "The table moved on; here is the current state.")
        if action.get("seat", seat) != seat:
            raise ActionRejected("forbidden", "You can only act for your own seat.")
        return apply_in_lock(match, live, seat, dict(action, seat=seat), ref, user, check_turn=True, publish=publish)


def resent(live: LiveTable, ref, seat: int) -> Outcome | None:
    """An act this seat resent with a ref the table has applied: ack it again, change nothing.
    Another seat's ref is no duplicate of this seat's act (`_take` refuses it)."""
    applied = live.refs.get(ref) if ref is not None else None
    if applied is None or applied[1] != seat:
        return None
    return Outcome(live.match.pk, applied[0] + 1, ref, duplicate=True)


def apply_in_lock(match: Match, live: LiveTable, seat: int, action: dict, ref, actor, check_turn: bool,
           publish: bool = True) -> Outcome:
    """Validate with the engine, append, record: inside the caller's lock and transaction."""
    row = _take(match, live, seat, action, ref, actor, check_turn)
    try:
        write_in_transaction(match, live.table, row)
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
    if ref is not None and ref in live.refs:
        raise ActionRejected("bad_message", "This ref already names another act; send a new one.")
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
        live.refs[row.ref] = (row.seq, row.seat)
    if match.is_finished:
        forget_table(match.pk)  # only tables in play are kept (tables.live_table)
    outcome = Outcome(match.pk, match.seq, row.ref, state_messages(match, table, table.events),
                      bot_next=table.to_act in live.bots)
    if publish:
        # Broadcast first, then schedule clocks and bots: frames reach sockets in seq order even
        # when a bot answers at once (eager tasks run inside these callbacks).
        transaction.on_commit(lambda: broadcast(outcome))
        transaction.on_commit(lambda: follow_up(outcome))
    return outcome
