"""Creating, seating and starting tables (and aborting one): everything before the first act."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from gameplay.bots import DEFAULT_LEVEL
from gameplay.models import Match, Seat
from gameplay.rules import ScenarioError, get_game
from gameplay.services.clocks import hold_or_start_clocks
from gameplay.services import moves
from gameplay.services.tables import forget_table, live_table, match_lock
from gameplay.services.values import ActionRejected, SeatSpec
from gameplay.services.writes import record
from gameplay.signals import match_started, seat_invitation_closed, seat_invited


def create_match(game: str, options: dict | None = None, seats: list[SeatSpec] | None = None, *,
                 created_by=None, games_to_win: int = 1, time_control: int = 0, is_public: bool = True,
                 rated: bool = False, seed: int | None = None, first_dealer: int | None = None,
                 starts_at=None, boards: list[dict] | None = None, return_to: str = "", **fair_play) -> Match:
    """A new table. Options are validated and stored complete (ScenarioError if bad).

    `fair_play` may set the match's checkin_seconds, reconnect_seconds and leaver_policy
    (gameplay/presence.py); by default clocks start with the match and a leaver's seat goes to a bot.
    `boards` makes a duplicate's table: each board ({"board", "dealer", "deals"}) is one deal
    played from its cards (gameplay/table.py), checked by the engine here (ScenarioError if bad).
    `return_to` is the page its players are offered when it ends (the lobby when empty)."""
    engine = get_game(game)
    resolved = engine.resolve_options(options or {})
    boards = checked_boards(engine, resolved, boards)
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
            created_by=created_by, starts_at=starts_at, games_won=[0, 0], boards=boards, return_to=return_to,
            **fair_play)
        now = timezone.now()
        specs = seats + [SeatSpec()] * (players - len(seats))
        Seat.objects.bulk_create(Seat(match=match, seat=number, user=spec.user, bot=spec.bot,
                                      invited=bool(spec.user and spec.invited),
                                      joined_at=now if (spec.user and not spec.invited) or spec.bot else None)
                                 for number, spec in enumerate(specs))
        for spec in specs:
            if spec.user and spec.invited:
                _announce(seat_invited, match, spec.user.pk, host_id=created_by.pk if created_by else None,
                          game=game)
        start_if_ready(match)
    return match


def checked_boards(engine, options: dict, boards) -> list[dict]:
    """Boards as a match stores them, each started once by the engine (ScenarioError if bad)."""
    if boards is None:
        return []
    if not isinstance(boards, (list, tuple)):
        raise ScenarioError("boards must be a list")
    checked = []
    for index, board in enumerate(boards):
        if not isinstance(board, dict) or not isinstance(board.get("deals"), list) or not board["deals"]:
            raise ScenarioError(f"board {index + 1} needs a dealer and a list of deals")
        number = board.get("board", index + 1)
        if type(number) is not int or number < 1:
            raise ScenarioError(f"board {index + 1}: the board's number must be a whole number from 1")
        try:
            engine.start(options=options, dealer=board.get("dealer"), deals=board["deals"])
        except ScenarioError as error:
            raise ScenarioError(f"board {number}: {error.reason}") from None
        checked.append({"board": number, "dealer": board["dealer"], "deals": board["deals"]})
    return checked


def _announce(signal, match: Match, user_id: int, **extra) -> None:
    """Send a seat invitation's signal once the commit that made it has happened."""
    transaction.on_commit(lambda: signal.send(sender=Match, match_id=match.pk, user_id=user_id, **extra))


def take_seat(match: Match, user, seat: int | None = None, *, invited_only: bool = False) -> Seat:
    """Seat a user at a waiting table (an invitation link); the first free seat by default. A
    friend the creator invited takes the seat kept for them (`invited_only`: that seat or none)."""
    with match_lock(match.pk), transaction.atomic():  # the process lock first, as everywhere
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status != Match.Status.WAITING:
            raise ActionRejected("finished" if match.is_finished else "forbidden", "This table has already started.")
        existing = match.seats.filter(user=user).first()
        if invited_only and not (existing and existing.invited):
            raise ActionRejected("forbidden", "No seat at this table waits for you.")
        if existing and existing.invited:
            existing.invited, existing.joined_at = False, timezone.now()
            existing.save(update_fields=["invited", "joined_at"])
            _announce(seat_invitation_closed, match, user.pk)
            forget_table(match.pk)
            start_if_ready(match)
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


def decline_seat(match: Match, user) -> Seat:
    """An invited friend says no: the seat kept for them is free again, and the waiting room
    names who declined. Refused once the table has started or when no seat waits for them."""
    with match_lock(match.pk), transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status != Match.Status.WAITING:
            raise ActionRejected("finished" if match.is_finished else "forbidden", "This table has already started.")
        place = match.seats.filter(user=user, invited=True).first()
        if place is None:
            raise ActionRejected("forbidden", "No seat at this table waits for you.")
        place.user, place.invited, place.declined_by, place.joined_at = None, False, user, None
        place.save(update_fields=["user", "invited", "declined_by", "joined_at"])
        forget_table(match.pk)
        _announce(seat_invitation_closed, match, user.pk)
        return place


def withdraw_invitation(match: Match, host, seat: int) -> Seat:
    """The table's creator takes back the seat kept for a friend: it is free again (for the
    invitation link or the bots). Refused for anyone else, once the table has started, or when
    that seat keeps nobody."""
    with match_lock(match.pk), transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.created_by_id is None or match.created_by_id != getattr(host, "pk", None):
            raise ActionRejected("forbidden", "Only the table's creator can withdraw an invitation.")
        if match.status != Match.Status.WAITING:
            raise ActionRejected("finished" if match.is_finished else "forbidden", "This table has already started.")
        place = match.seats.filter(seat=seat, invited=True).first()
        if place is None:
            raise ActionRejected("forbidden", "No seat at this table waits for that friend.")
        friend = place.user_id
        place.user, place.invited, place.joined_at = None, False, None
        place.save(update_fields=["user", "invited", "joined_at"])
        forget_table(match.pk)
        _announce(seat_invitation_closed, match, friend)
        return place


def fill_with_bots(match: Match, bot: str = DEFAULT_LEVEL) -> None:
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
    with match_lock(match.pk):
        live = live_table(match)
        match.status = Match.Status.PLAYING
        match.started_at = timezone.now()
        hold_or_start_clocks(match)  # fair starts: not before every seat is at the table
        match.save(update_fields=["status", "started_at", "clocks_started_at"])
        record(match, live.table)  # a match can even be decided by its first kick
        bot_next = live.table.to_act in live.bots
    if bot_next:
        transaction.on_commit(lambda: moves.schedule_bots(match.pk))
    transaction.on_commit(lambda: match_started.send(sender=Match, match_id=match.pk))
    return True


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

