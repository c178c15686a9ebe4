"""How an accepted act reaches the database: the two writers, and the match row's progress.

- `write_in_transaction`: the locked transaction (the row locked by the caller, the action
  inserted, the row saved). Every act but a person's plain move on the event loop, and the move
  that ends a match, take it.
- `awrite_in_batch`: a person's plain move, awaited on the event loop's own connections, in one
  statement (`MOVES_SQL`) with the other tables' moves the loop writes meanwhile.

services.moves chooses between them; nothing else calls them. The batch statement appends the
action only while the match row is still where this process's cached table was (seq and
status: a compare-and-swap); TableMovedOn when it is not, psycopg's UniqueViolation for a used
ref.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from gameplay import frames
from tuning import live_db
from gameplay.models import Match, MatchAction
from gameplay.services.values import LoggedAction, TableMovedOn
from gameplay.signals import match_finished
from gameplay.table import Table


def write_in_transaction(match: Match, table: Table, row: LoggedAction) -> None:
    """Inside the caller's transaction, with the match row locked by it."""
    MatchAction.objects.create(match=match, seq=row.seq, game_number=row.game_number, seat=row.seat,
                               action=row.action, ref=row.ref, actor_id=row.actor_id)
    record(match, table)


def record(match: Match, table: Table) -> None:
    """Save the table's progress onto the match row (in the caller's transaction)."""
    match.save(update_fields=advance(match, table))
    if table.is_over:
        transaction.on_commit(lambda: match_finished.send(sender=Match, match_id=match.pk))


def advance(match: Match, table: Table) -> list[str]:
    """Copy the table's progress onto the match row in memory; returns the fields to save."""
    match.seq = table.seq
    match.game_number = table.game_number
    match.games_won = list(table.games_won)
    fields = ["seq", "game_number", "games_won", "deadline"]
    if table.is_over:
        match.status = Match.Status.FINISHED
        match.winner, match.finish = table.winner, table.finish
        match.result = table.result()
        match.finished_at = timezone.now()
        fields += ["status", "winner", "finish", "result", "finished_at"]
    set_clock(match, table)
    return fields


def set_clock(match: Match, table: Table) -> None:
    timed = (match.time_control and match.status == Match.Status.PLAYING and table.to_act is not None
             and match.clocks_started_at is not None)  # fair starts: held until every seat is there
    match.deadline = timezone.now() + timedelta(seconds=match.time_control) if timed else None


# The common move in one statement, for one table or for many (the loop's batch): each
# parameter is one column of the moves (move_params's eleven values, transposed), and the
# statement returns the match of each move it wrote. The UPDATE matches a row only while it is
# still where the cached table was (seq and status), and the INSERT takes its rows from the
# UPDATE's result, so for each move either both happen or neither does; a row whose match
# moved on is left out. A used ref fails the whole statement, which then changes nothing (the
# moves' callers take the locked transaction, which judges each). Every action moves seq by
# exactly one.
MOVES_SQL = f"""
WITH move AS (
    SELECT * FROM unnest(%s::smallint[], %s::jsonb[], %s::timestamptz[], %s::bigint[], %s::integer[],
                         %s::smallint[], %s::smallint[], %s::jsonb[], %s::varchar[], %s::integer[],
                         %s::timestamptz[])
    AS move(game_number, games_won, deadline, match_id, seq, action_game, seat, action, ref, actor_id, created_at)),
moved AS (
    UPDATE {Match._meta.db_table} AS m
    SET seq = m.seq + 1, game_number = move.game_number, games_won = move.games_won, deadline = move.deadline
    FROM move
    WHERE m.id = move.match_id AND m.seq = move.seq AND m.status = 'playing'
    RETURNING m.id)
INSERT INTO {MatchAction._meta.db_table} (match_id, seq, game_number, seat, action, ref, actor_id, created_at)
SELECT move.match_id, move.seq, move.action_game, move.seat, move.action, move.ref, move.actor_id, move.created_at
FROM move JOIN moved ON moved.id = move.match_id
RETURNING match_id"""


async def awrite_in_batch(match: Match, table: Table, row: LoggedAction) -> None:
    """The same move on the event loop's own connections, in one statement with the other
    tables' moves that the loop writes meanwhile (live_db.in_batch)."""
    if not await live_db.in_batch(MOVES_SQL, move_params(match, table, row), key=match.pk):
        raise TableMovedOn(match.pk)


def move_params(match: Match, table: Table, row: LoggedAction) -> tuple:
    fields = advance(match, table)
    assert fields == ["seq", "game_number", "games_won", "deadline"] and match.seq == row.seq + 1, fields
    return (match.game_number, frames.encode(match.games_won), match.deadline, match.pk, row.seq,
            row.game_number, row.seat, frames.encode(row.action), row.ref, row.actor_id,
            timezone.now())  # the app's clock, as every other row of the app
