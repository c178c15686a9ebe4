"""Standings rows: fetch, compute with the pure tournaments.standings, write only what changed
(docs/style.md §8, after lila's SwissScoring). Pages read the stored rows: one query for 512 pairs."""

from __future__ import annotations

from tournaments.models import Competition, Standing
from tournaments.services import duplicate
from tournaments.services.loading import format_options, snapshot
from tournaments.standings import standings, tiebreak_order

FIELDS = ["rank", "position", "played", "won", "drawn", "lost", "points", "games_for", "games_against",
          "tiebreaks"]


def refresh(competition: Competition) -> int:
    """Recompute the standings; returns how many rows were written."""
    if competition.is_duplicate:  # ranked by the boards, not by the pairings' results
        return write_changed(competition, duplicate.standing_values(competition))
    snap = snapshot(competition)
    if not snap.field:
        return 0
    field, values, results = snap.field, snap.values, snap.results
    if competition.format == Competition.Format.ROUND_ROBIN:
        field, values, results = voided(snap)
        Standing.objects.filter(competition=competition).exclude(entry_id__in=[e.id for e in field]).delete()
    rows = standings(competition.format, field, values, results, format_options(competition),
                     tiebreaks=tiebreak_order(competition.format, competition.tiebreak_order))
    return write_changed(competition, [
        (row.entry, {"rank": row.rank, "position": position, "played": row.played, "won": row.won,
                     "drawn": row.drawn, "lost": row.lost, "points": float(row.match_points),
                     "games_for": row.game_points_for, "games_against": row.game_points_against,
                     "tiebreaks": [[name, value] for name, value in row.tiebreaks]})
        for position, row in enumerate(rows, start=1)])


def voided(snap):
    """A round robin without its withdrawn and disqualified pairs (docs/entries.md): they leave the
    standings and every match they played or had left is voided, as if never drawn."""
    gone = {e.id for e in snap.field} - {e.id for e in snap.active}
    if not gone:
        return snap.field, snap.values, snap.results
    keys = {(p.round, p.slot) for p in snap.values if p.home in gone or p.away in gone}
    return ([e for e in snap.field if e.id not in gone], [p for p in snap.values if (p.round, p.slot) not in keys],
            [r for r in snap.results if (r.round, r.slot) not in keys])


def write_changed(competition: Competition, rows: list[tuple[int, dict]]) -> int:
    """Store (entry id, values) rows as the competition's standings, writing only what changed."""
    existing = {s.entry_id: s for s in Standing.objects.filter(competition=competition)}
    create, update = [], []
    for entry_id, values in rows:
        old = existing.get(entry_id)
        if old is None:
            create.append(Standing(competition=competition, entry_id=entry_id, **values))
        elif any(getattr(old, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(old, name, value)
            update.append(old)
    Standing.objects.bulk_create(create)
    Standing.objects.bulk_update(update, FIELDS, batch_size=500)
    return len(create) + len(update)
