"""The one door for every act at a table.

Every act that changes a match is an `Act`: a person's card or bid (the table socket), a bot's
decision, the clock's timeout, a match-level act (concede, concede_decline, leave, return), or an
act the server takes for a seat (a bot replacing a leaver, a forfeit, an organiser seating a bot,
a replaced player back whose bot hands the seat over). Each
goes through one of two doors that share one judge:

- `take(match_id, act)`: synchronous, for everything off the event loop (tasks, services, the
  socket's fallback). Under the match's process lock and its row lock, `_judge` checks the act
  against the table, the engine applies it, and the locked transaction appends it
  (writes.write_in_transaction). After the commit every reader's frame is broadcast and the
  next bot woken.
- `act(match_id, user, message, reply)`: the table socket's door, on its event loop. A person's
  plain move (seated, their own seat, the table's current seq, the engine accepts it) is applied
  to the cached table and written in the loop's batched compare-and-swap statement
  (writes.awrite_in_batch), then published from the loop. Anything else — a refusal to word, the
  move that ends the match (it writes the result), a table another process moved, a used ref —
  goes to `take` on a database thread, which judges it afresh from the locked row.

So there are two writers: the batch for plain moves and the locked transaction for the rest.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass, field

import psycopg
from celery import shared_task
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import Error as DatabaseError
from django.db import IntegrityError, transaction
from django.utils import timezone

from gameplay.bot_levels import substitute_level
from gameplay.bots import get_bot
from tuning.live_db import loop_writes_enabled, on_database_thread
from gameplay.models import Match, MatchAction, Seat
from gameplay.rules import IllegalAction
from gameplay.services.aftermath import CHANNEL_LAYER_DOWN, broadcast, enqueue, is_behind, missed, republish
from gameplay.services.states import current_state, live_messages
from gameplay.services.tables import LiveTable, cached_table, forget_table, live_table, locked_match_if_any, match_lock
from gameplay.services.values import ActionRejected, LoggedAction, Outcome, TableMovedOn, error_frame, group_name
from gameplay.services.writes import awrite_in_batch, write_in_transaction

logger = logging.getLogger("chalk.gameplay")

UNAVAILABLE = "The table cannot be reached for a moment and your move was not played yet: send it again."
UNPUBLISHED = "The table cannot be reached for a moment: send your move again to see it through."
MAX_REF_LENGTH = 64
MAX_ACTION_DEPTH = 8  # an action is a flat object of a few fields; deeper is not an action
_INT64 = 2**63

# Who acts: a person at their own seat, a bot at its seat, the clock, or the server for a seat.
PLAYER, BOT, CLOCK, SERVER = "player", "bot", "clock", "server"
# Match-level acts a seated person may take at any moment of a playing match (_table_act_steps);
# `return` takes back a seat a bot plays since its player left (gameplay/presence.py).
TABLE_ACTS = ("concede", "concede_decline", "leave", "return")
SEAT_HELD = "Another player holds your seat now: you can watch the table but not take the seat back."


@dataclass(frozen=True)
class Act:
    """One act at a table, whoever takes it (the constructors below say who)."""

    by: str
    action: dict
    user: object = None  # the person acting, or asking for it (an organiser): the log's actor
    seat: int | None = None  # the seat acted for when it is not the user's own (bot, clock, server)
    seq: int | None = None  # the seq the act was decided at; None: any moment (match-level acts)
    ref: str | None = None
    away_since: object = None  # a leaver's: the absence the server judged (still the same one?)

    @classmethod
    def by_player(cls, user, seq, ref, action) -> "Act":
        check_act(seq, ref, action)
        return cls(PLAYER, action, user=user, seq=seq, ref=ref)

    @classmethod
    def at_table(cls, user, ref, kind: str) -> "Act":
        """concede, concede_decline, leave, return (docs/protocol-extensions.md)."""
        if kind not in TABLE_ACTS:
            raise ActionRejected("bad_message", f"Unknown match action {kind!r}.")
        if not usable_ref(ref):
            raise ActionRejected("bad_message", "ref must be a string of at most 64 characters.")
        return cls(PLAYER, {"type": kind}, user=user, ref=ref)

    @classmethod
    def by_bot(cls, seat: int, seq: int, action: dict) -> "Act":
        return cls(BOT, action, seat=seat, seq=seq)

    @classmethod
    def by_clock(cls, seq: int) -> "Act":
        return cls(CLOCK, {"type": "timeout"}, seq=seq)

    @classmethod
    def for_seat(cls, seat: int, kind: str, actor=None, away_since=None) -> "Act":
        """The server's act for a seat: `replace` (a bot plays it to the end, an organiser's
        choice), `leave` (the leaver policy for a player away since `away_since`) or `return`
        (its player, `actor`, is back: the bot hands the seat over)."""
        return cls(SERVER, {"type": kind}, user=actor, seat=seat, away_since=away_since)


@dataclass
class _Step:
    """One row the act becomes (a concession a bot partner agrees to is two)."""

    seat: int
    action: dict
    ref: str | None
    actor: object
    check_turn: bool = False
    effects: list = field(default_factory=list)


# ----- the synchronous door --------------------------------------------------------------------

def take(match_id: int, act: Act) -> Outcome | None:
    """Judge, apply and append an act in the locked transaction; broadcast after the commit.

    Raises ActionRejected (the protocol's code) for a person's act the table refuses. A bot's,
    the clock's or the server's act that the table has moved past returns None: whoever moved it
    on took care of what comes next."""
    if act.by == CLOCK and not _timeout_due(match_id, act.seq):
        return None  # nearly every timer: answered without the lock a move would wait behind
    with match_lock(match_id), transaction.atomic():
        match = locked_match_if_any(match_id)
        if match is None:
            if act.by == PLAYER:
                raise ActionRejected("forbidden", "There is no such match.")
            return None
        live = live_table(match)
        live.load_presence()  # the frames' presence: any process's sockets may have come or gone
        judged = _judge(match, live, act)
        if not isinstance(judged, list):
            return judged  # a resent act's ack, or None
        outcome = None
        for step in judged:
            outcome = _append(match, live, step)
            if match.is_finished:
                break
        transaction.on_commit(lambda: broadcast(outcome))
        transaction.on_commit(lambda: follow_up(outcome))  # after the frames: they stay in seq order
        return outcome


def _timeout_due(match_id: int, seq) -> bool:
    return Match.objects.filter(pk=match_id, seq=seq, status=Match.Status.PLAYING,
                                deadline__lte=timezone.now()).exists()


def _judge(match: Match, live: LiveTable, act: Act) -> list[_Step] | Outcome | None:
    """What the act becomes at this table (the rows to append), a resent act's ack, or None
    (a server act the table moved past). Refusals carry the protocol's codes, checked in its
    order: seat, a resent ref of that seat, status, seq, seat acted for, turn."""
    if act.by != PLAYER:
        return _server_steps(match, live, act)
    seat = live.seat_of_user.get(getattr(act.user, "pk", None))
    if seat is None:
        raise ActionRejected("forbidden", SEAT_HELD if act.action["type"] == "return" and _played_here(match, act.user)
                             else "You do not hold a seat at this table.")
    if (again := resent(live, act.ref, seat)) is not None:
        return again
    if match.status != Match.Status.PLAYING:
        raise ActionRejected("finished" if match.is_finished else "not_your_turn",
                             "The match is over." if match.is_finished else "The match has not started.")
    kind = act.action["type"]
    if kind in TABLE_ACTS:
        return _table_act_steps(match, live, seat, act)
    if act.seq != match.seq:
        raise ActionRejected("stale", "The table moved on; here is the current state.")
    if act.action.get("seat", seat) != seat:
        raise ActionRejected("forbidden", "You can only act for your own seat.")
    return [_Step(seat, dict(act.action, seat=seat), act.ref, act.user, check_turn=True)]


def _table_act_steps(match: Match, live: LiveTable, seat: int, act: Act) -> list[_Step]:
    """A player's match-level acts: any seated player may take them at any moment of a playing
    match, whoever's turn it is (gameplay/table.py handles them before the engine). A concession
    needs the partner: the first `concede` of a team proposes, the partner's `concede` concedes
    the match (a bot partner agrees at once), and either of them may `concede_decline`. `leave`
    gives the seat to the table's leaver policy at once (gameplay/presence.py). A finished match
    answers `finished`, a waiting one `not_your_turn`, someone without a seat `forbidden`."""
    kind = act.action["type"]
    if kind == "return":
        if seat not in live.table.replaced:
            raise ActionRejected("illegal_action", "You already play your seat: there is nothing to take back.")
        return [_return_step(seat, act.ref, act.user)]
    if seat in live.bots:
        raise ActionRejected("forbidden", "A bot plays this seat now: you left the table.")
    if kind == "leave":  # the table's leaver policy, at once (gameplay/presence.py)
        return [_leaver_step(match, seat, act.ref, act.user)]
    steps = [_Step(seat, {"seat": seat, "type": kind}, act.ref, act.user)]
    partner = live.table.partner_of(seat)
    if kind == "concede" and partner in live.bots:
        steps.append(_Step(partner, {"seat": partner, "type": "concede"}, None, None))  # a bot partner agrees
    return steps


def _server_steps(match: Match, live: LiveTable, act: Act) -> list[_Step] | None:
    if match.status != Match.Status.PLAYING or (act.seq is not None and act.seq != match.seq):
        return None
    if act.by == CLOCK:
        if match.deadline is None or match.deadline > timezone.now() or live.table.to_act is None:
            return None
        seat = live.table.to_act
        logger.info("match %s: seat %s timed out at seq %s", match.pk, seat, match.seq)
        return [_Step(seat, {"seat": seat, "type": "timeout"}, None, None)]
    if act.by == BOT:
        return [_Step(act.seat, dict(act.action, seat=act.seat), None, None)]
    if act.action["type"] == "leave":
        still_away = Seat.objects.filter(match=match, seat=act.seat, bot="", connections=0,
                                         away_since=act.away_since).exists()
        return [_leaver_step(match, act.seat, None, act.user)] if still_away else None
    if act.action["type"] == "return":  # its player is back, unless the bot left meanwhile
        back = live.seat_of_user.get(getattr(act.user, "pk", None)) == act.seat and act.seat in live.table.replaced
        return [_return_step(act.seat, None, act.user)] if back else None
    return [_Step(act.seat, {"seat": act.seat, "type": act.action["type"]}, None, act.user,
                  effects=[_seat_a_bot] if act.action["type"] == "replace" else [])]


def _leaver_step(match: Match, seat: int, ref, actor) -> _Step:
    """The leaver policy: the team forfeits, or a bot plays the seat to the end."""
    if match.leaver_policy == Match.LeaverPolicy.FORFEIT:
        return _Step(seat, {"seat": seat, "type": "forfeit"}, ref, actor)
    return _Step(seat, {"seat": seat, "type": "replace"}, ref, actor, effects=[_seat_a_bot])


def _return_step(seat: int, ref, actor) -> _Step:
    """The bot hands a replaced seat back to its player (the match stays unrated)."""
    return _Step(seat, {"seat": seat, "type": "return"}, ref, actor, effects=[_hand_back])


def _hand_back(match: Match, live: LiveTable, seat: int) -> None:
    """After `return` is in the log: no bot plays the seat any more."""
    Seat.objects.filter(match=match, seat=seat).update(bot="")
    live.bots.pop(seat, None)


def _played_here(match: Match, user) -> bool:
    """Whether `user` took any act at this match (they held a seat someone else holds now)."""
    return MatchAction.objects.filter(match=match, actor_id=getattr(user, "pk", None)).exists()


def _seat_a_bot(match: Match, live: LiveTable, seat: int) -> None:
    """After `replace` is in the log: the seat's bot, and the match is no longer rated."""
    bot = substitute_level(match)  # the competition's choice, else normal (gameplay/bot_levels.py)
    Seat.objects.filter(match=match, seat=seat).update(bot=bot)
    Match.objects.filter(pk=match.pk).update(rated=False)  # a bot played part of it
    match.rated = False
    live.bots[seat] = bot


def _append(match: Match, live: LiveTable, step: _Step) -> Outcome:
    """Apply one step to the table and append it, inside the caller's lock and transaction."""
    row = _apply(match, live, step.seat, step.action, step.ref, step.actor, step.check_turn)
    try:
        write_in_transaction(match, live.table, row)
    except BaseException:
        forget_table(match.pk)  # the table moved but the log did not: rebuild next time
        raise
    for effect in step.effects:
        effect(match, live, step.seat)
    return _taken(match, live, row)


# ----- acts that need a choice first: bots, and their Celery task ---------------------------------

def play_bot_turn(match_id: int) -> Outcome | None:
    """If a bot holds the seat to act, let it choose from its own view and legal actions, then
    take its act through the door. The choice (up to the strong bot's budget) is made outside
    the lock and the transaction, so people's moves are never held up by a bot's thinking; the
    door applies it only if the table is still where the bot looked (else None)."""
    turn = _bot_turn(match_id)
    if turn is None:
        return None
    seq, seat, bot, view, legal = turn
    return take(match_id, Act.by_bot(seat, seq, bot.choose(view, legal)))


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


def follow_up(outcome: Outcome) -> None:
    """After an accepted act was committed and broadcast: the bot to act, if any."""
    if outcome.bot_next:
        schedule_bots(outcome.match_id)


_bot_loop = threading.local()  # set while play_bots plays a run of bot moves in this thread


@contextlib.contextmanager
def playing_bots():
    """Around a run of bot moves (play_bots): the moves it makes schedule no new run, so a run of
    eager moves in tests stays a loop instead of a recursion."""
    _bot_loop.active = True
    try:
        yield
    finally:
        _bot_loop.active = False


def schedule_bots(match_id: int) -> None:
    """After a commit that left a bot to act: let it answer (unless a bot loop in this thread
    already is answering)."""
    if getattr(_bot_loop, "active", False):
        return
    delay = settings.BOT_MOVE_DELAY
    if delay > 0 and not settings.CELERY_TASK_ALWAYS_EAGER:
        enqueue(play_bots, (match_id,), countdown=delay)
    else:
        play_bots.delay(match_id)


@shared_task(name="gameplay.play_bots", ignore_result=True)
def play_bots(match_id: int) -> int:
    """The Celery task of bot turns: play them in a row; with a delay, one move now and the next
    one later. Defined here, beside the door it goes through, so that a move that leaves a bot
    to act calls it by an ordinary name (gameplay/tasks.py re-exports it for the worker)."""
    delay = settings.BOT_MOVE_DELAY
    moves = 0
    with playing_bots():
        while play_bot_turn(match_id) is not None:
            moves += 1
            if delay > 0 and not settings.CELERY_TASK_ALWAYS_EAGER:
                enqueue(play_bots, (match_id,), countdown=delay)
                break
    return moves


# ----- the socket's door -----------------------------------------------------------------------

async def act(match_id: int, user, message: dict, reply) -> None:
    """A table socket's `act` message (protocol.md), start to end: check its form, write it,
    publish every reader's frame, ack the sender, then wake a bot. `reply(frame)` sends a frame
    to the acting socket alone (the ack, an error)."""
    ref = message.get("ref")
    try:
        the_act = Act.by_player(user, *seq_and_action(message))
        outcome = await _move_on_loop(match_id, the_act) if loop_writes_enabled() else None
        on_loop = outcome is not None
        if not on_loop:  # judged from the locked row; `take` publishes after its commit
            outcome = await on_database_thread(take, match_id, the_act)
    except ActionRejected as rejected:
        await reply(error_frame(rejected.code, rejected.message, ref if usable_ref(ref) else None))
        if rejected.code == "stale":
            await reply(await on_database_thread(current_state, match_id, user))
        return
    except (DatabaseError, psycopg.Error) as error:
        # PostgreSQL out of reach (restarting, failing over, the pool waiting in vain): nothing
        # was committed, or it was and the resent ref is acked again. The socket stays open.
        logger.warning("match %s: the database did not take an act: %s", match_id, error)
        await reply(error_frame("unavailable", UNAVAILABLE, ref if usable_ref(ref) else None))
        return
    if on_loop and not outcome.duplicate:  # committed: publish from this loop, then acknowledge
        try:
            await get_channel_layer().group_send(group_name(match_id), outcome.group_message())
        except CHANNEL_LAYER_DOWN as error:
            missed(match_id, error)
    if is_behind(match_id) and not await on_database_thread(republish, match_id):
        # Redis out of reach: the act is written, but its readers were not told. Acked only
        # once they have been (the resend, when Redis is back, first sends them the table).
        await reply(error_frame("unavailable", UNPUBLISHED, ref if usable_ref(ref) else None))
        return
    await reply({"type": "ack", "ref": ref, "seq": outcome.seq})
    if on_loop and outcome.bot_next:
        await on_database_thread(follow_up, outcome)


_moving_on_loop: set[int] = set()  # matches whose move the event loop is writing right now


async def _move_on_loop(match_id: int, act: Act) -> Outcome | None:
    """A person's plain move on the event loop itself: the engine in memory, the statement
    (shared with the other tables' moves the loop writes meanwhile) on the loop's own
    connections, no thread hop. None whenever the plain case does not hold, including when a
    database thread is busy with this match (the loop never waits for one) and for the move
    that ends the match (it writes the result: the locked transaction's)."""
    live = cached_table(match_id)
    if live is None or match_id in _moving_on_loop or not live.lock.try_acquire():
        return None
    _moving_on_loop.add(match_id)  # the lock is re-entrant, and every coroutine is this thread
    try:
        if cached_table(match_id) is not live:  # replaced while we took the lock
            return None
        seat = _plain_seat(live, act)
        if seat is None:
            return None
        if (again := resent(live, act.ref, seat)) is not None:
            return again
        try:
            row = _apply(live.match, live, seat, dict(act.action, seat=seat), act.ref, act.user, check_turn=True)
        except ActionRejected:
            return None  # refusals are rare: the locked transaction words them
        if live.table.is_over:
            # The last move writes the result and tells the competitions: the locked
            # transaction's, from the log (the cached table is a move ahead of it now).
            forget_table(match_id)
            return None
        try:
            await awrite_in_batch(live.match, live.table, row)
        except (TableMovedOn, psycopg.Error, IntegrityError):
            # The table moved but the log did not: rebuild next time. A used ref, a row another
            # process moved, or a database in trouble: the locked transaction judges the act.
            forget_table(match_id)
            return None
        except BaseException:
            forget_table(match_id)
            raise
        return _taken(live.match, live, row)
    finally:
        _moving_on_loop.discard(match_id)
        live.lock.release()


def _plain_seat(live: LiveTable, act: Act) -> int | None:
    """The actor's seat when the act is the plain case: a seated player (not replaced by a bot)
    of a playing table, a card or bid for their own seat on the cached table's seq; else None."""
    seat = live.seat_of_user.get(getattr(act.user, "pk", None))
    if (seat is None or seat in live.bots or live.match.status != Match.Status.PLAYING
            or act.seq != live.match.seq or act.seq != live.table.seq
            or act.action["type"] in TABLE_ACTS or act.action.get("seat", seat) != seat):
        return None
    return seat


# ----- an act's form ---------------------------------------------------------------------------

def seq_and_action(message: dict) -> tuple[int, str, dict]:
    """The (seq, ref, action) of a socket's `act`, whose ref is required (protocol.md)."""
    if not usable_ref(message.get("ref")) or "seq" not in message:
        raise ActionRejected("bad_message", "An act needs ref, seq and action.")
    return message["seq"], message["ref"], message.get("action")


def check_act(seq, ref, action) -> None:
    """The act's own form, before any table is looked at (protocol.md error codes)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionRejected("bad_message", "An act needs an action object with a type.")
    if not _storable(action, MAX_ACTION_DEPTH):
        raise ActionRejected("bad_message", "This action holds values no game uses.")
    if action["type"] == "timeout":
        raise ActionRejected("forbidden", "Only the server's clock can time a seat out.")
    if action["type"] in ("replace", "forfeit"):
        raise ActionRejected("forbidden", "Only the table's leaver policy replaces a seat or forfeits.")
    if action["type"] == "return":
        raise ActionRejected("bad_message", "Take your seat back with a `return` message, not an act.")
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


# ----- applying a row to the table -------------------------------------------------------------

def resent(live: LiveTable, ref, seat: int) -> Outcome | None:
    """An act this seat resent with a ref the table has applied: ack it again, change nothing.
    Another seat's ref is no duplicate of this seat's act (`_apply` refuses it)."""
    applied = live.refs.get(ref) if ref is not None else None
    if applied is None or applied[1] != seat:
        return None
    return Outcome(live.match.pk, applied[0] + 1, ref, duplicate=True)


def _apply(match: Match, live: LiveTable, seat: int, action: dict, ref, actor, check_turn: bool) -> LoggedAction:
    """Check the turn and apply the action to the cached table; the row it must become."""
    table = live.table
    if actor is not None and check_turn and seat in live.bots:
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


def _taken(match: Match, live: LiveTable, row: LoggedAction) -> Outcome:
    """After the row was written: remember its ref, build every reader's frame."""
    table = live.table
    if row.ref is not None:
        live.refs[row.ref] = (row.seq, row.seat)
    if match.is_finished:
        forget_table(match.pk)  # only tables in play are kept (tables.live_table)
    return Outcome(match.pk, match.seq, row.ref, live_messages(live, table.events),
                   bot_next=table.to_act in live.bots)
