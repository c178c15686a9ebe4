"""Reading finished matches as rating records: the one place that maps gameplay's match records to the
pure modules' inputs (policy facts, teams, score).

Rating order is the order matches finished: ``(finished_at, id)``. Team A is seats 0 and 2,
team B seats 1 and 3 (team of seat s is s % 2); pair A's score is 1 when team 0 won, 0 when
team 1 won and 1/2 when a finished match has no winner.

A duplicate competition's tables are not rated as matches: each board at each table is a game
between the two pairs there (docs/duplicate.md, "Ratings"), won by the pair that did better against
the field. Those games are known once every table of the competition is over, so they take their
place in the rating order at the finish of the table that finished last (``RatedMatch.key``), one
after another in table and board order, and are merged into the stream of ordinary matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from heapq import merge
from typing import Iterator, Optional

from django.db.models import Q

from gameplay import api as gameplay
from tournaments.models import Competition
from tournaments.services import duplicate

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
    board: int = 0               # a duplicate's board at this table; 0 for a whole match
    key_id: Optional[int] = None  # a duplicate's: the table that finished last (its order)

    @property
    def key(self) -> tuple[datetime, int]:
        return (self.finished_at, self.id if self.key_id is None else self.key_id)

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


def load_games(match_id: int) -> tuple[list[RatedMatch], Optional[str]]:
    """What the finish of this match rates: the match itself, or for a duplicate's table every
    board of its competition once its last table is over (else why not yet)."""
    competition = duplicate.duplicate_of_match(match_id)
    if competition is None:
        match, reason = load(match_id)
        return ([] if match is None else [match]), reason
    games, reason = duplicate_games(competition)
    return games, (reason or (None if games else "no rated board"))


def duplicate_games(competition: Competition) -> tuple[list[RatedMatch], Optional[str]]:
    """A duplicate's boards as rating records (empty, and why, while its field is incomplete). A
    board is rated when its table's match would be (no bot, no empty seat, finished: the policy)."""
    event, reason = duplicate.rating_event(competition)
    if event is None:
        return [], reason
    rated: dict[int, Optional[tuple]] = {}
    games = []
    for game in event.games:
        if game.match_id not in rated:
            record = gameplay.record_of(game.match_id)
            rated[game.match_id] = None if record is None else _board_teams(*record)
        teams = rated[game.match_id]
        if teams is not None:
            games.append((game, teams))
    if not games:
        return [], "no rated board"
    # Their place in the rating order: the last table's finish, and the highest id of the tables
    # rated (what ratings.services.last_rated_key then reads back from the stored changes).
    at, key_id = event.at[0], max(g.match_id for g, _teams in games)
    return [RatedMatch(g.match_id, event.game, at, team_a, team_b, g.ns_score, g.board, key_id)
            for g, (team_a, team_b) in games], None


def _board_teams(row: dict, seats: list) -> Optional[tuple]:
    """The table's pairs (N/S, E/W) if its boards are rated: the policy's rule for a match, with
    the table taken as rated (a duplicate's tables are created unrated as matches)."""
    match, _reason = to_rated({**row, "rated": True}, seats)
    return None if match is None else (match.team_a, match.team_b)


def duplicate_events(game: str, after: Optional[tuple] = None, upto: Optional[tuple] = None) -> list[RatedMatch]:
    """Every duplicate's rated boards in ``game`` whose key is in (after, upto], in rating order.
    Only a running competition, or one that finished after ``after`` (it finishes after its last
    table), can have one."""
    competitions = Competition.objects.filter(format=Competition.Format.DUPLICATE, game=game,
                                              status__in=(Competition.Status.RUNNING, Competition.Status.FINISHED))
    if after is not None:
        competitions = competitions.filter(Q(status=Competition.Status.RUNNING) | Q(finished_at__gte=after[0]))
    found = []
    for competition in competitions.order_by("pk"):
        games, _reason = duplicate_games(competition)
        if games and (after is None or games[0].key > after) and (upto is None or games[0].key <= upto):
            found.append(games)
    found.sort(key=lambda games: games[0].key)
    return [game for games in found for game in games]


def rated_range(game: str, after: Optional[tuple], upto: tuple) -> list[RatedMatch]:
    """The rated matches with keys in (after, upto], for the task's short range: one query (and
    the duplicates that ended in that span)."""
    records = gameplay.records_in(game, after, upto)
    matches = [match for match, _ in (to_rated(row, seats) for row, seats in records) if match is not None]
    return list(merge(matches, duplicate_events(game, after, upto), key=lambda m: m.key))


def candidates(game: str, after: Optional[tuple] = None, upto: Optional[tuple] = None):
    """Finished rated-flag matches of ``game`` in rating order, with keys in (after, upto]."""
    return gameplay.finished_matches(game, after, upto)


def rated_matches(game: str, after: Optional[tuple] = None, upto: Optional[tuple] = None) -> Iterator[RatedMatch]:
    """Every match the policy rates, in rating order, read in chunks (seats per chunk), with the
    duplicates' boards merged in at their place."""
    yield from merge(_plain_matches(game, after, upto), duplicate_events(game, after, upto), key=lambda m: m.key)


def _plain_matches(game: str, after: Optional[tuple], upto: Optional[tuple]) -> Iterator[RatedMatch]:
    for row, seats in gameplay.finished_records(game, after, upto, CHUNK):
        match, _reason = to_rated(row, seats)
        if match is not None:
            yield match
