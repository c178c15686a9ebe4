"""What a signed-in player's home shows, each part in one or two queries.

Read-only. Every function takes the user and returns plain rows or small value objects the
template lays out; nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from clubs.models import Club, Membership
from gameplay import services
from gameplay.models import Match
from tournaments.models import CheckIn, Competition, EntryPlayer, Notification, Pairing, Round
from tournaments.ratings.models import RatingChange

RECENT_RESULTS = 8
LIST_SIZE = 12
DONE = (Competition.Status.FINISHED, Competition.Status.CANCELLED)


@dataclass(frozen=True)
class NextMatch:
    """The player's next competition match: when it starts and whether they may check in."""

    pairing: Pairing
    starts_at: datetime
    can_check_in: bool
    checked_in: bool

    @property
    def competition(self) -> Competition:
        return self.pairing.competition


def my_entry_ids(user) -> list[int]:
    return list(EntryPlayer.objects.filter(user=user, accepted_at__isnull=False).values_list("entry_id", flat=True))


def next_match(user) -> NextMatch | None:
    """The earliest undecided pairing of the player's pairs whose round is scheduled or open and
    whose table has not finished."""
    entries = my_entry_ids(user)
    pairing = (Pairing.objects.filter(Q(home_id__in=entries) | Q(away_id__in=entries), decided_at__isnull=True,
                                      away__isnull=False,
                                      round__status__in=[Round.Status.SCHEDULED, Round.Status.OPEN])
               .exclude(match__status__in=[Match.Status.FINISHED, Match.Status.ABORTED])
               .select_related("round", "competition", "home", "away", "match")
               .order_by("round__starts_at", "pk").first())
    if pairing is None:
        return None
    checked = CheckIn.objects.filter(pairing=pairing, user=user).exists()
    is_open = pairing.round.status == Round.Status.OPEN and pairing.match_id is None
    return NextMatch(pairing, pairing.round.starts_at, is_open and not checked, checked)


@dataclass(frozen=True)
class TableRow:
    match: Match
    your_turn: bool
    waiting: bool  # the table has not started: it waits for players (or its start time)


def my_tables(user) -> list[TableRow]:
    """Unfinished tables the player sits at, those where it is their turn first."""
    matches = list(Match.objects.filter(seats__user=user, status__in=[Match.Status.WAITING, Match.Status.PLAYING])
                   .prefetch_related("seats").order_by("-created_at")[:LIST_SIZE])
    rows = [TableRow(m, _is_turn_of(m, user), m.status == Match.Status.WAITING) for m in matches]
    return sorted(rows, key=lambda row: (not row.your_turn, not row.waiting))


def _is_turn_of(match: Match, user) -> bool:
    """Whose turn it is comes from the table (this process's cached one when it is current)."""
    if match.status != Match.Status.PLAYING:
        return False
    seat = next((s.seat for s in match.seats.all() if s.user_id == user.pk), None)
    with services.match_lock(match.pk):
        return services.live_table(match).table.to_act == seat


def partner_invitations(user):
    """Pairs a partner entered with this player, still waiting for their answer."""
    return list(EntryPlayer.objects.filter(user=user, accepted_at__isnull=True,
                                           competition__status=Competition.Status.OPEN)
                .select_related("entry__created_by__player", "competition__club").order_by("-entry__created_at"))


def my_competitions(user):
    """Current competitions the player is entered in (accepted), soonest first."""
    return list(Competition.objects.filter(entries__players__user=user, entries__players__accepted_at__isnull=False)
                .exclude(status__in=DONE).select_related("club").distinct().order_by("starts_at")[:LIST_SIZE])


def my_clubs(user):
    return list(Club.objects.filter(memberships__user=user).order_by("name")[:LIST_SIZE])


def organised_clubs(user):
    """Clubs where the player may create a competition (owners and organisers)."""
    roles = [Membership.Role.OWNER, Membership.Role.ORGANISER]
    return list(Club.objects.filter(memberships__user=user, memberships__role__in=roles).order_by("name"))


def recent_results(user):
    """The player's last rated matches with their Elo change (newest first)."""
    return list(RatingChange.objects.filter(user=user).select_related("match")
                .order_by("-finished_at", "-match_id")[:RECENT_RESULTS])


def unread_notifications(user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def dashboard(user) -> dict:
    """Everything the signed-in home shows, by part."""
    return {"next_match": next_match(user), "tables": my_tables(user),
            "invitations": partner_invitations(user), "competitions": my_competitions(user),
            "clubs": my_clubs(user), "organised": organised_clubs(user), "results": recent_results(user)}
