"""Reading finished matches as rating records: the one place that maps gameplay's match records to the
pure modules' inputs (policy facts, teams, score).

Rating order is the order matches finished: ``(finished_at, id)``. Team A is seats 0 and 2,
team B seats 1 and 3 (team of seat s is s % 2); pair A's score is 1 when team 0 won, 0 when
team 1 won and 1/2 when a finished match has no winner.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterator, Optional

from gameplay import api as gameplay

from .policy import MatchFacts, unrated_reason

CHUNK = 2000
FIELDS = gameplay.RECORD_FIELDS


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
        finished=row["status"] == gameplay.Status.FINISHED and row["finished_at"] is not None,
        abandoned=row["status"] == gameplay.Status.ABORTED or row["finish"] == gameplay.Finish.ABORTED,
        walkover=row["finish"] == gameplay.Finish.WALKOVER,
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


def load(match_id: int) -> tuple[Optional[RatedMatch], Optional[str]]:
    """One match as a rating record (one query: its seats joined to it), or why it is not rated."""
    record = gameplay.record_of(match_id)
    return (None, "no such match") if record is None else to_rated(*record)


def rated_range(game: str, after: Optional[tuple], upto: tuple) -> list[RatedMatch]:
    """The rated matches with keys in (after, upto], for the task's short range: one query."""
    records = gameplay.records_in(game, after, upto)
    return [match for match, _ in (to_rated(row, seats) for row, seats in records) if match is not None]


def candidates(game: str, after: Optional[tuple] = None, upto: Optional[tuple] = None):
    """Finished rated-flag matches of ``game`` in rating order, with keys in (after, upto]."""
    return gameplay.finished_matches(game, after, upto)


def rated_matches(game: str, after: Optional[tuple] = None, upto: Optional[tuple] = None) -> Iterator[RatedMatch]:
    """Every match the policy rates, in rating order, read in chunks (seats per chunk)."""
    for row, seats in gameplay.finished_records(game, after, upto, CHUNK):
        match, _reason = to_rated(row, seats)
        if match is not None:
            yield match
