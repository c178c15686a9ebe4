"""Who is at the table: fair starts, the reconnect window and the leaver policy.

The rules, as built:

- **Fair starts.** A match with a check-in window (`Match.checkin_seconds` > 0) starts with its
  clocks held: players (and bots) may already act, but no decision times out. The clocks start
  when every seat is connected (a bot always is; a player when at least one of their sockets is
  open) or when the window closes, whichever comes first. A window of 0 starts them at once.
- **Away.** A seated player whose last socket closes is away from that moment; a player still
  missing when the check-in window closes is away from then. Being away before the clocks start
  counts from the moment they start. While away, the clock keeps running
  for their own decisions only (the timeout rules of the game apply to them as to anyone).
- **The reconnect window** (`Match.reconnect_seconds`, 60 s by default): a player who comes back
  within it just carries on. After it, the table's leaver policy (`Match.leaver_policy`) decides:
  `bot` (the default, and casual tables'): a bot plays the seat to the end and the match becomes
  unrated; `forfeit` (a competition may choose it): the leaver's team loses the match.
- Both are actions in the match's log (`replace`, `forfeit`: gameplay/table.py), taken through
  the one door (services.take, `Act.for_seat`) like any other, so replays and archives see them. A player who leaves on purpose
  (services.moves: `leave`) meets the same policy at once.
- **Coming back after a bot took over.** A replaced player whose socket opens again takes the
  seat back at once (`return`, also the door's; the client may send it too): the bot hands it
  over, so the seat's next decision is theirs; the match stays unrated. Someone without a seat
  who played at the table (another person holds it now) is told so and changes nothing.
- **What the others see.** Every `state` frame carries each seat's `presence` (connected,
  reconnecting with the window's end, replaced, bot: services.states.seat_presence); a seat's
  first socket opening and its last one closing broadcast a fresh state, so the countdown
  starts and stops for everyone.

Connections are counted on the Seat row (all processes' sockets), so any process may judge.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from gameplay.bot_levels import substitute_level
from gameplay import services
from gameplay.models import Match, MatchAction, Seat
# The clocks of fair starts and of the leaver's window, with their Celery tasks (part of this module's API):
from gameplay.services.clocks import (all_present, checkin_closes_at, enforce_leaver, hold_or_start_clocks,  # noqa: F401
                                      schedule_leaver_check, start_clocks)

logger = logging.getLogger("chalk.gameplay")


# ----- sockets coming and going ------------------------------------------------------------------

def arrived(match_id: int, seat: int):
    """A socket of the seat's player opened (the consumer, on connect). A player back after a
    drop, or awaited by a table whose clocks are held, is shown connected to everyone (a fresh
    state is broadcast; any other arrival shows in the next move's frames); a player a bot replaced takes
    the seat back (`return`, through the one door: the bot hands it over). The outcome that was
    broadcast (the return, the clocks starting when this arrival completed the table, or the
    new presence); None when nothing the others see changed."""
    row = Seat.objects.filter(match_id=match_id, seat=seat).only("connections", "away_since").first()
    # back after a drop, or awaited by a table whose clocks are held: the others want to know
    awaited = row is not None and row.connections == 0
    back = awaited and row.away_since is not None
    Seat.objects.filter(match_id=match_id, seat=seat).update(connections=F("connections") + 1, away_since=None)
    match = Match.objects.filter(pk=match_id).only("status", "clocks_started_at").first()
    if match is None or match.status != Match.Status.PLAYING:
        return None
    row = Seat.objects.filter(match_id=match_id, seat=seat).select_related("user").first()
    if row is not None and row.bot and row.user is not None:
        taken = take_back(match_id, seat, row.user)
        if taken is not None:
            return taken
    if match.clocks_started_at is None and (started := start_clocks(match_id)) is not None:
        return started
    return show_presence(match_id) if back or (awaited and match.clocks_started_at is None) else None


def departed(match_id: int, seat: int) -> None:
    """A socket of the seat's player closed; with its last one the player is away (the others
    see the seat reconnecting, with the window's end)."""
    now = timezone.now()
    closed = Seat.objects.filter(match_id=match_id, seat=seat, connections__gt=0).update(
        connections=F("connections") - 1)
    gone = closed and Seat.objects.filter(match_id=match_id, seat=seat, connections=0, bot="").update(away_since=now)
    if not gone:
        return
    match = Match.objects.filter(pk=match_id).only("status", "reconnect_seconds").first()
    if match and match.status == Match.Status.PLAYING:
        schedule_leaver_check(match, seat, now)
        show_presence(match_id)


def take_back(match_id: int, seat: int, user) -> services.Outcome | None:
    """A player a bot replaced is back: the bot hands the seat over at once, so the next
    decision of the seat is theirs (a bot move chosen meanwhile finds the table moved on and is
    dropped). An act through the one door (`return`), in the log and the replay; the match
    stays unrated. None if the seat is no longer the bot's to hand over."""
    outcome = services.take(match_id, services.Act.for_seat(seat, "return", user))
    if outcome is not None:
        logger.info("match %s: seat %s taken back by its player", match_id, seat)
    return outcome


def show_presence(match_id: int) -> services.Outcome | None:
    """Broadcast every reader a fresh state (same seq, no events) with the seats' presence. The
    processes that receive it drop their cached table (its copy of the seats' sockets is older):
    their next move reads them again (MatchConsumer.match_update)."""
    with services.match_lock(match_id):
        match = Match.objects.filter(pk=match_id).first()
        if match is None or match.status != Match.Status.PLAYING:
            return None
        live = services.live_table(match)
        live.load_presence()
        outcome = services.Outcome(match.pk, match.seq, None, services.live_messages(live, []), seats_changed=True)
    services.broadcast(outcome)
    return outcome


def seat_taken_by_another(match_id: int, user) -> bool:
    """A signed-in reader without a seat who took acts at this (playing) match: someone else
    holds the seat they had (the consumer tells them so on connect)."""
    user_id = getattr(user, "pk", None)
    return (user_id is not None
            and Match.objects.filter(pk=match_id, status=Match.Status.PLAYING).exists()
            and not Seat.objects.filter(match_id=match_id, user_id=user_id).exists()
            and MatchAction.objects.filter(match_id=match_id, actor_id=user_id).exists())


# ----- the leaver policy -------------------------------------------------------------------------

def seat_bot_for_absent(match_id: int, user_id: int, actor) -> str:
    """An organiser's act: a bot takes the seat of an absent player at a table that is already
    open, at the table's substitute level (a competition's choice); the match becomes unrated.

    A waiting table (not started yet) seats the bot instead of the player and starts if it is
    ready. A playing one logs `replace` for the seat (frames broadcast after the commit; the bot
    moves at once if it is its turn) and, if the clocks were held for this player, starts them.
    Returns the bot's level; ActionRejected if the match is over, the user has no seat there or
    a bot already plays it. Nothing changes then."""
    with services.match_lock(match_id), transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.is_finished:
            raise services.ActionRejected("finished", "The match is over.")
        row = Seat.objects.filter(match=match, user_id=user_id).first()
        if row is None:
            raise services.ActionRejected("forbidden", "That player holds no seat at this table.")
        if row.bot:
            raise services.ActionRejected("forbidden", "A bot already plays this seat.")
        bot = substitute_level(match)
        if match.status == Match.Status.WAITING:
            Seat.objects.filter(pk=row.pk).update(user=None, bot=bot, away_since=None)
            Match.objects.filter(pk=match.pk).update(rated=False)
            services.forget_table(match.pk)
            services.start_if_ready(Match.objects.get(pk=match.pk))
            return bot
        services.take(match_id, services.Act.for_seat(row.seat, "replace", actor))
    start_clocks(match_id)  # held only for this player: they start now (else nothing happens)
    return bot


def sweep_presence(now=None) -> int:
    """Periodic: held clocks whose window closed, and leavers past their window (lost timers)."""
    now = now or timezone.now()
    held = Match.objects.filter(status=Match.Status.PLAYING, clocks_started_at__isnull=True)
    started = sum(start_clocks(pk, window_closed=True) is not None
                  for pk, started_at, window in held.values_list("pk", "started_at", "checkin_seconds")
                  if started_at + timedelta(seconds=window) <= now)
    away = (Seat.objects.filter(match__status=Match.Status.PLAYING, bot="", connections=0,
                                away_since__isnull=False)
            .values_list("match_id", "seat"))
    replaced = sum(enforce_leaver(match_id, seat, now) is not None for match_id, seat in away)
    return started + replaced
