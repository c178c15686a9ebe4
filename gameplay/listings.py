"""Lists of matches for pages: the lobby, the archive, and the club and player pages (which reach
them through gameplay.api). Each is one query plus its prefetches, filtered by the watch rule of
gameplay.access."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from gameplay import services
from gameplay.access import watchable_by
from gameplay.models import Game, Match, Seat

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


# ----- a player's own tables, for their home (clubs/dashboard) ----------------------------------

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


def _shown_name(user) -> str:
    player = getattr(user, "player", None) if user is not None else None
    return player.name if player else (user.get_username() if user is not None else "")


def tables_of(user, limit: int = LOBBY_SIZE) -> list[TableRow]:
    """Unfinished tables the player has taken a seat at, those where it is their turn first, then
    the ones still waiting. Whose turn it is comes from the table (this process's cached one)."""
    matches = list(Match.objects.filter(seats__user=user, seats__invited=False,
                                        status__in=[Match.Status.WAITING, Match.Status.PLAYING])
                   .prefetch_related("seats").order_by("-created_at")[:limit])
    rows = [TableRow(m.pk, m.get_game_display(), _is_turn_of(m, user), m.status == Match.Status.WAITING)
            for m in matches]
    return sorted(rows, key=lambda row: (not row.your_turn, not row.waiting))


def _is_turn_of(match: Match, user) -> bool:
    if match.status != Match.Status.PLAYING:
        return False
    seat = next((s.seat for s in match.seats.all() if s.user_id == user.pk), None)
    with services.match_lock(match.pk):
        return services.live_table(match).table.to_act == seat


def table_invitations_of(user) -> list[TableInvitation]:
    """Waiting tables whose creator invited this player and that still keep their seat."""
    seats = (Seat.objects.filter(user=user, invited=True, match__status=Match.Status.WAITING)
             .select_related("match__created_by__player").prefetch_related("match__seats")
             .order_by("-match__created_at")[:LOBBY_SIZE])
    rows = []
    for seat in seats:
        match = seat.match
        host = next((s.seat for s in match.seats.all() if s.user_id == match.created_by_id), None)
        partner = len(match.seats.all()) == 4 and host is not None and (seat.seat - host) % 2 == 0
        rows.append(TableInvitation(match.pk, match.get_game_display(), _shown_name(match.created_by), partner))
    return rows
