"""Finished matches as plain rows for the ratings (tournaments.ratings.history maps them to
rating records): a row is a dict of `FIELDS`, its seats `(seat, user_id, bot)` tuples. Rating
order is the order matches finished: `(finished_at, id)`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Optional

from django.db.models import Q

from gameplay.models import Match, Seat

FIELDS = ("id", "game", "status", "finish", "rated", "winner", "finished_at")
JOINED = ("match_id", "seat", "user_id", "bot", *(f"match__{name}" for name in FIELDS[1:]))


def record_of(match_id: int) -> Optional[tuple[dict, list]]:
    """One match's row and seats (one query: its seats joined to it), None if there is no match."""
    grouped = _joined(Seat.objects.filter(match_id=match_id))
    if grouped:
        return grouped[0]
    row = Match.objects.filter(pk=match_id).values(*FIELDS).first()
    return None if row is None else (row, [])


def records_in(game: str, after: Optional[tuple], upto: Optional[tuple]) -> list[tuple[dict, list]]:
    """Rows and seats of the finished rated-flag matches with keys in (after, upto]: one query."""
    return _joined(Seat.objects.filter(match__in=finished_matches(game, after, upto)))


def finished_records(game: str, after: Optional[tuple] = None, upto: Optional[tuple] = None,
                     chunk: int = 2000) -> Iterator[tuple[dict, list]]:
    """Every finished rated-flag match in rating order, read in chunks (seats per chunk)."""
    rows = finished_matches(game, after, upto).values(*FIELDS).iterator(chunk_size=chunk)
    batch: list[dict] = []
    for row in rows:
        batch.append(row)
        if len(batch) == chunk:
            yield from _with_seats(batch)
            batch = []
    yield from _with_seats(batch)


def _with_seats(rows: list[dict]) -> Iterator[tuple[dict, list]]:
    if not rows:
        return
    seats = _seats_of([row["id"] for row in rows])
    for row in rows:
        yield row, seats.get(row["id"], [])


def _seats_of(match_ids) -> dict[int, list]:
    seats: dict[int, list] = {}
    rows = Seat.objects.filter(match_id__in=match_ids).values_list("match_id", "seat", "user_id", "bot")
    for match_id, seat, user_id, bot in rows:
        seats.setdefault(match_id, []).append((seat, user_id, bot))
    return seats


def _joined(seats) -> list[tuple[dict, list]]:
    """`(match row, seats)` pairs in rating order from a Seat query joined to Match."""
    grouped: dict[int, tuple[dict, list]] = {}
    for match_id, seat, user_id, bot, *values in (seats.order_by("match__finished_at", "match_id", "seat")
                                                    .values_list(*JOINED)):
        if match_id not in grouped:
            grouped[match_id] = (dict(zip(FIELDS, (match_id, *values))), [])
        grouped[match_id][1].append((seat, user_id, bot))
    return list(grouped.values())


def finished_matches(game: str, after: Optional[tuple] = None, upto: Optional[tuple] = None):
    """Finished rated-flag matches of `game` in rating order, with keys in (after, upto]."""
    query = Match.objects.filter(game=game, status=Match.Status.FINISHED, rated=True, finished_at__isnull=False)
    if after is not None:
        query = query.filter(Q(finished_at__gt=after[0]) | Q(finished_at=after[0], id__gt=after[1]))
    if upto is not None:
        query = query.filter(Q(finished_at__lt=upto[0]) | Q(finished_at=upto[0], id__lte=upto[1]))
    return query.order_by("finished_at", "id")
