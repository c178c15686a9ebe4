"""Lists of matches for pages: the lobby, the archive, and the club and player pages (which reach
them through gameplay.api). Each is one query plus its prefetches, filtered by the watch rule of
gameplay.access."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q
from django.utils import timezone

from gameplay import services
from gameplay.access import watchable_by
from gameplay.models import Game, Match, Seat, game_label

LIST_SIZE = 30
LOBBY_SIZE = 12  # tables per lobby list (open, being played): a glance, not a directory


def lobby_lists(user) -> dict:
    """The newest open and playing public tables, and the user's own unfinished ones: a few of
    each, so the lobby's cost does not grow with the tables on the site."""
    tables = Match.objects.select_related("created_by").prefetch_related("seats__user")
    public = tables.filter(is_public=True)
    lists = {"open_tables": public.filter(status=Match.Status.WAITING).order_by("-created_at")[:LOBBY_SIZE],
             "playing": public.filter(status=Match.Status.PLAYING).order_by("-started_at")[:LOBBY_SIZE], "mine": []}
    if getattr(user, "is_authenticated", False):
        lists["mine"] = (tables.filter(Q(seats__user=user) | Q(created_by=user))
                         .exclude(status__in=[Match.Status.FINISHED, Match.Status.ABORTED])
                         .distinct().order_by("-created_at")[:LIST_SIZE])
    return lists


def archive_matches(viewer, game: str = "", player: str = "", only_mine: bool = False):
    """Finished matches the viewer may watch, newest first: of one game, one player (by
    username), or only the viewer's own."""
    matches = (Match.objects.filter(watchable_by(viewer), status=Match.Status.FINISHED)
               .prefetch_related("seats__user").order_by("-finished_at"))
    if only_mine:
        matches = matches.filter(pk__in=Seat.objects.filter(user=viewer).values("match_id"))
    if game in Game.values:
        matches = matches.filter(game=game)
    if player:
        matches = matches.filter(pk__in=Seat.objects.filter(user__username=player).values("match_id"))
    return matches


def _seated(users):
    """Public matches where at least one of `users` (a query of user ids) sits; a club page is
    the same for every visitor, so it lists public matches only."""
    seated = Seat.objects.filter(user__in=users).values("match_id")
    return Match.objects.filter(watchable_by(None), pk__in=seated).prefetch_related("seats__user__player")


def recent_results_of(users, limit: int) -> list[Match]:
    finished = _seated(users).filter(status=Match.Status.FINISHED)
    return list(finished.order_by("-finished_at")[:limit])


def upcoming_tables_of(users, limit: int) -> list[Match]:
    waiting = _seated(users).filter(status=Match.Status.WAITING, starts_at__gte=timezone.now())
    return list(waiting.order_by("starts_at")[:limit])


def finished_matches_of_player(user, viewer, limit: int) -> list[Match]:
    """A player's finished matches that the viewer may watch, newest first."""
    seated = Seat.objects.filter(user=user).values("match_id")
    matches = Match.objects.filter(watchable_by(viewer), pk__in=seated, status=Match.Status.FINISHED)
    return list(matches.prefetch_related("seats__user").order_by("-finished_at")[:limit])


# ----- a player's own tables, for their home (home/) ----------------------------------

@dataclass(frozen=True)
class TableRow:
    """An unfinished table the player sits at, as their home lists it."""

    match_id: int
    game_label: str
    your_turn: bool
    waiting: bool  # the table has not started: it waits for players (or its start time)


@dataclass(frozen=True)
class TableInvitation:
    """A seat a table's creator keeps for this player, until they take it or decline."""

    match_id: int
    game_label: str
    host: str  # the creator's shown name
    partner: bool  # the seat is the host's partner's (else an opponent's)


def _shown_name(display_name: str | None, username: str | None) -> str:
    return display_name or username or ""


# What a home row needs of a seat, its match and the match's creator: the same columns for both
# lists, so the home reads them in one statement (home_tables_of).
_SEAT_COLUMNS = ("match_id", "seat", "invited", "match__created_at", "match__game", "match__status", "match__seq",
                 "match__created_by_id", "match__created_by__player__display_name", "match__created_by__username")
_INVITED, _CREATED = _SEAT_COLUMNS.index("invited"), _SEAT_COLUMNS.index("match__created_at")


def _taken_seats(user, limit: int):
    return (Seat.objects.filter(user=user, invited=False, match__status__in=[Match.Status.WAITING, Match.Status.PLAYING])
            .order_by("-match__created_at", "match_id").values_list(*_SEAT_COLUMNS)[:limit])


def _invited_seats(user):
    return (Seat.objects.filter(user=user, invited=True, match__status=Match.Status.WAITING)
            .order_by("-match__created_at", "match_id").values_list(*_SEAT_COLUMNS)[:LOBBY_SIZE])


def table_invitations_of(user) -> list[TableInvitation]:
    """Waiting tables whose creator invited this player and that still keep their seat: one
    query for the invitations, one for the seats of those tables (the host's seat, the count)."""
    return _invitation_rows(list(_invited_seats(user)))


def home_tables_of(user, limit: int = LOBBY_SIZE) -> tuple[list[TableRow], list[TableInvitation]]:
    """The player's tables and their table invitations (`table_invitations_of`) in one statement
    (a UNION ALL of the two): the home reads both on every request, and a round trip costs more
    than either query.

    Tables are the unfinished ones the player has taken a seat at, those where it is their turn
    first, then the ones still waiting: plain values, however many matches the player has had.
    Whose turn it is comes from this process's cached table when it is at the row's `seq` (the
    row is read now, so never stale), else from the log replayed (one query for all of those)."""
    sql, params = _home_statement(limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk if param == _ANY_READER else param for param in params])
        rows = cursor.fetchall()
    parts = [[row for row in rows if not row[_INVITED]], [row for row in rows if row[_INVITED]]]
    for part in parts:  # a UNION keeps no order: each part's own, newest first
        part.sort(key=lambda row: (-row[_CREATED].timestamp(), row[0]))
    return _table_rows(parts[0]), _invitation_rows(parts[1])


_ANY_READER = -7_919  # no user has this id: it marks the reader's place among the statement's parameters


@functools.cache
def _home_statement(limit: int) -> tuple[str, tuple]:
    """The home's UNION as the ORM writes it, compiled once per process: building it again on
    every request cost more than the rest of the home together (benchmarks/page_cpu.py)."""
    union = _taken_seats(_ANY_READER, limit).union(_invited_seats(_ANY_READER), all=True)
    sql, params = union.query.sql_with_params()
    assert params.count(_ANY_READER) == 2, params  # one reader per part, nothing else like it
    return sql, params


def _table_rows(seats: list[tuple]) -> list[TableRow]:
    rows = {}  # match -> (seat, game, status, seq); two seats of one player: the first is theirs
    for match_id, seat, _invited, _created, game, status, seq, *_creator in seats:
        rows.setdefault(match_id, (seat, game, status, seq))
    to_act = _to_act({match_id: seq for match_id, (_seat, _game, status, seq) in rows.items()
                      if status == Match.Status.PLAYING})
    tables = [TableRow(match_id, game_label(game), to_act.get(match_id) == seat, status == Match.Status.WAITING)
              for match_id, (seat, game, status, _seq) in rows.items()]
    return sorted(tables, key=lambda row: (not row.your_turn, not row.waiting))


def _to_act(playing: dict[int, int]) -> dict[int, int | None]:
    """The seat to act at each playing match (match -> the seq of its row): this process's
    cached table when it is the row's, else the log replayed as the table page would (one query
    for all of those)."""
    to_act, stale = {}, []
    for match_id, seq in playing.items():
        with services.match_lock(match_id):  # the cached table must not move while it is read
            live = services.cached_table_at(match_id, seq, Match.Status.PLAYING)
            if live is None:
                stale.append(match_id)
            else:
                to_act[match_id] = live.table.to_act
    for match in Match.objects.filter(pk__in=stale) if stale else []:
        with services.match_lock(match.pk):
            to_act[match.pk] = services.live_table(match).table.to_act
    return to_act


def _invitation_rows(invited: list[tuple]) -> list[TableInvitation]:
    if not invited:
        return []
    seats_of: dict[int, list[tuple[int, int | None]]] = {}
    for match_id, seat, user_id in Seat.objects.filter(match_id__in=[row[0] for row in invited]).values_list(
            "match_id", "seat", "user_id"):
        seats_of.setdefault(match_id, []).append((seat, user_id))
    rows = []
    for match_id, seat, _invited, _created, game, _status, _seq, host_id, display_name, username in invited:
        seats = seats_of.get(match_id, [])
        host = next((s for s, user_id in seats if user_id == host_id), None)
        partner = len(seats) == 4 and host is not None and (seat - host) % 2 == 0
        rows.append(TableInvitation(match_id, game_label(game), _shown_name(display_name, username), partner))
    return rows
