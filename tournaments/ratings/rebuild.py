"""Recompute a game's ratings from its match history: fetch -> pure compute -> write only what
changed (docs/style.md §8, as lila's SwissScoring). ``manage.py recompute_ratings`` calls it per game.

Elo comes from ``recompute.recompute`` (the fast replay, bit-identical to ``elo.rate_match``),
Glicko-2 from ``recompute.recompute_glicko`` (the same ``rate_pair_match`` calls as the task), so
on a database the task kept up to date this writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from . import elo, glicko2, history
from .models import Rating, RatingChange
from .recompute import recompute, recompute_glicko

CHANGE_FIELDS = ["finished_at", "team", "score", "k", "elo_before", "elo_after", "elo_delta", "glicko_before",
                 "glicko_after", "glicko_delta", "rd_before", "rd_after", "volatility_before", "volatility_after"]
RATING_FIELDS = ["elo", "rated_matches", "glicko_rating", "glicko_rd", "glicko_volatility"]
BATCH = 1000


@dataclass(frozen=True)
class Report:
    game: str
    matches: int  # rated matches replayed
    changes_written: int  # RatingChange rows created, updated or deleted
    ratings_written: int  # Rating rows created, updated or deleted


def rebuild_game(game: str) -> Report:
    """Replay ``game`` and make the tables equal the replay (call with the game locked)."""
    matches = list(history.rated_matches(game))
    wanted_changes, wanted_ratings = replay(matches)
    with transaction.atomic():
        changes = sync_changes(game, wanted_changes)
        ratings = sync_ratings(game, wanted_ratings)
    return Report(game, len(matches), changes, ratings)


def replay(matches: list) -> tuple[dict, dict]:
    """Pure: the wanted RatingChange values by (match, user, board) and Rating values by user."""
    records = [m.record for m in matches]
    deltas = recompute(records).changes
    _final, glickos = recompute_glicko(records)
    start = glicko2.Glicko()
    current: dict = {}  # user -> (elo, count, Glicko)
    changes: dict = {}
    for match, four_deltas, four_glickos in zip(matches, deltas, glickos):
        for index, (user, delta, after) in enumerate(zip(match.users, four_deltas, four_glickos)):
            before, count, g_before = current.get(user, (elo.START, 0, start))
            team = 0 if index < 2 else 1
            changes[(match.id, user, match.board)] = (
                match.finished_at, team, match.score_a if team == 0 else 1.0 - match.score_a,
                elo.k_factor(count), before, before + delta, delta, g_before.rating, after.rating,
                after.rating - g_before.rating, g_before.rd, after.rd, g_before.volatility, after.volatility)
            current[user] = (before + delta, count + 1, after)
    ratings = {user: (r, n, g.rating, g.rd, g.volatility) for user, (r, n, g) in current.items()}
    return changes, ratings


def sync_changes(game: str, wanted: dict) -> int:
    stored = {(row[1], row[2], row[3]): row for row in RatingChange.objects.filter(game=game)
              .values_list("id", "match_id", "user_id", "board", *CHANGE_FIELDS).iterator(chunk_size=BATCH)}
    create, update = [], []
    for key, values in wanted.items():
        row = stored.pop(key, None)
        if row is None:
            create.append(RatingChange(match_id=key[0], user_id=key[1], board=key[2], game=game,
                                       **dict(zip(CHANGE_FIELDS, values))))
        elif tuple(row[4:]) != values:
            update.append(RatingChange(id=row[0], **dict(zip(CHANGE_FIELDS, values))))
    RatingChange.objects.bulk_create(create, batch_size=BATCH)
    RatingChange.objects.bulk_update(update, CHANGE_FIELDS, batch_size=BATCH)
    _delete(RatingChange, [row[0] for row in stored.values()])
    return len(create) + len(update) + len(stored)


def sync_ratings(game: str, wanted: dict) -> int:
    stored = {row[1]: row for row in Rating.objects.filter(game=game).values_list("id", "user_id", *RATING_FIELDS)}
    now = timezone.now()
    create, update = [], []
    for user, values in wanted.items():
        row = stored.pop(user, None)
        if row is None:
            create.append(Rating(user_id=user, game=game, updated_at=now, **dict(zip(RATING_FIELDS, values))))
        elif tuple(row[2:]) != values:
            update.append(Rating(id=row[0], updated_at=now, **dict(zip(RATING_FIELDS, values))))
    Rating.objects.bulk_create(create, batch_size=BATCH)
    Rating.objects.bulk_update(update, [*RATING_FIELDS, "updated_at"], batch_size=BATCH)
    _delete(Rating, [row[0] for row in stored.values()])  # players left without a rated match
    return len(create) + len(update) + len(stored)


def _delete(model, ids: list) -> None:
    for start in range(0, len(ids), BATCH):
        model.objects.filter(id__in=ids[start:start + BATCH]).delete()
