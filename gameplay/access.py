"""Who may watch or play a match: one small module used by the consumer, views and templates."""

from dataclasses import dataclass

from gameplay.models import Match


@dataclass(frozen=True)
class Reader:
    may_watch: bool
    seat: int | None  # the seat this user holds, or None for a spectator


def reader_of(match_id: int, user) -> Reader:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return Reader(False, None)
    return reader_for(match, user)


def reader_for(match: Match, user) -> Reader:
    seat = match.seats.filter(user=user).values_list("seat", flat=True).first() if _signed_in(user) else None
    return reader_at(match, user, seat)


def reader_at(match: Match, user, seat: int | None) -> Reader:
    """The reader, once the user's seat (or None) is known."""
    authenticated = _signed_in(user)
    staff = authenticated and user.is_staff
    creator = authenticated and match.created_by_id == user.pk
    return Reader(match.is_public or seat is not None or staff or creator, seat)


def _signed_in(user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))
