"""Who may watch or play a match: the one statement of the rule, used by the consumer, the views,
the lists (lobby, archive) and the club and player pages.

A match may be watched by anyone when it is public, and otherwise by its seated players, its
creator and staff. `reader_at` answers it for one match, `watchable_by` as a query filter.
"""

from dataclasses import dataclass

from django.db.models import Q

from gameplay.models import Match, Seat


@dataclass(frozen=True)
class Reader:
    may_watch: bool
    seat: int | None  # the seat this user holds, or None for a spectator


# What `reader_at` reads of a match: a caller that needs little else reads only these (and its own).
READER_FIELDS = ("is_public", "created_by_id")


def reader_for(match: Match, user) -> Reader:
    seat = match.seats.filter(user=user).values_list("seat", flat=True).first() if _signed_in(user) else None
    return reader_at(match, user, seat)


def reader_at(match: Match, user, seat: int | None) -> Reader:
    """The reader, once the user's seat (or None) is known."""
    authenticated = _signed_in(user)
    staff = authenticated and user.is_staff
    creator = authenticated and match.created_by_id == user.pk
    return Reader(match.is_public or seat is not None or staff or creator, seat)


def watchable_by(user) -> Q:
    """The same rule as `reader_at`, as a filter on matches (a subquery for seats: no duplicates)."""
    if not _signed_in(user):
        return Q(is_public=True)
    if user.is_staff:
        return Q()
    seated = Seat.objects.filter(user=user).values("match_id")
    return Q(is_public=True) | Q(pk__in=seated) | Q(created_by=user)


def _signed_in(user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))
