"""Reading finished matches as rating records: the one place that maps Match/Seat rows to the
pure modules' inputs (policy facts, teams, score).

Rating order is the order matches finished: ``(finished_at, id)``. Team A is seats 0 and 2,
team B seats 1 and 3 (team of seat s is s % 2); pair A's score is 1 when team 0 won, 0 when
team 1 won and 1/2 when a finished match has no winner.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterator, Optional

from django.db.models import Q

from gameplay.models import Match, Seat

from .policy import MatchFacts, unrated_reason

CHUNK = 2000
FIELDS = ("id", "game", "status", "finish", "rated", "winner", "finished_at")


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """A finished match the policy rates, as the pure modules see it."""

    id: int
    game: str
    finished_at: datetime
    team_a: tuple[int, int]
    team_b: tuple[int, int]
    score_a: float

    @property
    def key(self) -> tuple[datetime, int]:
        return (self.finished_at, self.id)

    @property
    def record(self) -> tuple:
        return (self.game, self.team_a, self.team_b, self.score_a)

    @property
    def users(self) -> tuple[int, int, int, int]:
        return (*self.team_a, *self.team_b)


def facts(row: dict, seats: list[tuple[int, Optional[int], str]]) -> MatchFacts:
    """Policy facts of a match row (``FIELDS``) and its seats ``(seat, user_id, bot)``."""
    users = {user for _, user, bot in seats if user is not None and not bot}
    return MatchFacts(
        finished=row["status"] == Match.Status.FINISHED and row["finished_at"] is not None,
        abandoned=row["status"] == Match.Status.ABORTED or row["finish"] == Match.Finish.ABORTED,
        walkover=row["finish"] == Match.Finish.WALKOVER,
        has_bots=any(bot for _, _, bot in seats),
        rated_table=row["rated"],
        empty_seat=len(seats) != 4 or len(users) != 4,
    )


def to_rated(row: dict, seats: list[tuple[int, Optional[int], str]]) -> tuple[Optional[RatedMatch], Optional[str]]:
    """The match as a rating record, or ``(None, reason)`` when the policy does not rate it."""
    reason = unrated_reason(facts(row, seats))
    if reason is not None:
        return None, reason
    user = {seat: user_id for seat, user_id, _ in seats}
    score = {0: 1.0, 1: 0.0}.get(row["winner"], 0.5)
    return RatedMatch(row["id"], row["game"], row["finished_at"], (user[0], user[2]), (user[1], user[3]), score), None


def seats_of(match_ids) -> dict[int, list]:
    seats: dict[int, list] = {}
    rows = Seat.objects.filter(match_id__in=match_ids).values_list("match_id", "seat", "user_id", "bot")
    for match_id, seat, user_id, bot in rows:
        seats.setdefault(match_id, []).append((seat, user_id, bot))
    return seats


def load(match_id: int) -> tuple[Optional[RatedMatch], Optional[str]]:
    """One match as a rating record (one query: its seats joined to it), or why it is not rated."""
    grouped = _joined(Seat.objects.filter(match_id=match_id))
    if not grouped:  # no seat at all
        row = Match.objects.filter(pk=match_id).values(*FIELDS).first()
        return (None, "no such match") if row is None else to_rated(row, [])
    return to_rated(*grouped[0])


def rated_range(game: str, after: Optional[tuple], upto: tuple) -> list[RatedMatch]:
    """The rated matches with keys in (after, upto], for the task's short range: one query."""
    grouped = _joined(Seat.objects.filter(match__in=candidates(game, after, upto)))
    return [match for match, _ in (to_rated(row, seats) for row, seats in grouped) if match is not None]


JOINED = ("match_id", "seat", "user_id", "bot", *(f"match__{name}" for name in FIELDS[1:]))


def _joined(seats) -> list[tuple[dict, list]]:
    """``(match row, seats)`` pairs in rating order from a Seat query joined to Match."""
    grouped: dict[int, tuple[dict, list]] = {}
    for match_id, seat, user_id, bot, *values in (seats.order_by("match__finished_at", "match_id", "seat")
                                                    .values_list(*JOINED)):
        if match_id not in grouped:
            grouped[match_id] = (dict(zip(FIELDS, (match_id, *values))), [])
        grouped[match_id][1].append((seat, user_id, bot))
    return list(grouped.values())


def candidates(game: str, after: Optional[tuple] = None, upto: Optional[tuple] = None):
    """Finished rated-flag matches of ``game`` in rating order, with keys in (after, upto]."""
    query = Match.objects.filter(game=game, status=Match.Status.FINISHED, rated=True, finished_at__isnull=False)
    if after is not None:
        query = query.filter(Q(finished_at__gt=after[0]) | Q(finished_at=after[0], id__gt=after[1]))
    if upto is not None:
        query = query.filter(Q(finished_at__lt=upto[0]) | Q(finished_at=upto[0], id__lte=upto[1]))
    return query.order_by("finished_at", "id")


def rated_matches(game: str, after: Optional[tuple] = None, upto: Optional[tuple] = None) -> Iterator[RatedMatch]:
    """Every match the policy rates, in rating order, read in chunks (seats per chunk)."""
    rows = candidates(game, after, upto).values(*FIELDS).iterator(chunk_size=CHUNK)
    chunk: list[dict] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield from _rated(chunk)
            chunk = []
    yield from _rated(chunk)


def _rated(rows: list[dict]) -> Iterator[RatedMatch]:
    if not rows:
        return
    seats = seats_of([row["id"] for row in rows])
    for row in rows:
        match, _reason = to_rated(row, seats.get(row["id"], []))
        if match is not None:
            yield match
