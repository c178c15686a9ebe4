"""Rating finished matches: the writers of Rating and RatingChange (docs/ratings.md).

``rate_finished_match(match_id)`` is what the Celery task calls once per finished match:

* **policy**: a match the policy does not rate (bots, empty seat, aborted, walkover, casual
  table not created as rated) changes nothing; the reason is returned and logged.
* **idempotent**: a unique RatingChange per (match, player); a match that already has its
  changes is left alone, so running the task twice changes nothing.
* **ordered**: the game's lock row is held while rating, and every rated match that finished
  after the last one rated and up to this one is rated first, oldest first. A match whose
  commit arrived after a later match was already rated (a race of milliseconds) makes the game
  be recomputed, so the stored values always equal a replay in finished order.

``rating_for(user, game)`` / ``ratings_for(users, game)`` read current values, e.g. for seeding.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Iterable, Optional

from django.db import transaction
from django.db.models import Value
from django.db.models.functions import Coalesce, NullIf
from django.template.defaultfilters import floatformat
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gameplay.api import Game, game_label
from tournaments.signals import send_ratings_changed

from . import elo, glicko2, history
from .history import RatedMatch
from .models import Rating, RatingChange, RatingLock
from .policy import LEADERBOARD_MAX_RD, confidence
from .rebuild import rebuild_game

logger = logging.getLogger("chalk.ratings")
LATE_WINDOW = timedelta(days=1)  # how far back the periodic sweep looks for matches left unrated


@dataclass(frozen=True)
class Outcome:
    match_id: int
    rated: int  # matches rated by this call (this one and any earlier pending ones)
    reason: Optional[str] = None  # why this match was not rated now, if it was not


@dataclass(frozen=True)
class PlayerRating:
    """A player's current values in one game; a player who never played a rated match has the
    start values (1500, RD 350), so seeding can treat everyone alike."""

    elo: float = elo.START
    rated_matches: int = 0
    glicko_rating: float = glicko2.START_RATING
    glicko_rd: float = glicko2.START_RD

    @property
    def provisional(self) -> bool:
        return self.glicko_rd > LEADERBOARD_MAX_RD

    @property
    def confidence(self) -> int:
        return confidence(self.glicko_rd)


def rate_finished_match(match_id: int) -> Outcome:
    """Rate what this match's finish rates: the match, or, for a duplicate's table, every board of
    its competition once its last table is over (docs/duplicate.md, "Ratings")."""
    games, reason = history.load_games(match_id)
    if not games:
        logger.info("match %s not rated: %s", match_id, reason)
        return Outcome(match_id, 0, reason)
    game, key = games[0].game, games[-1].key
    with transaction.atomic():
        lock(game)
        last = last_rated_key(game)
        if last is not None and key <= last:
            if RatingChange.objects.filter(match_id__in={g.id for g in games}).exists():
                return Outcome(match_id, 0, "already rated")
            logger.warning("match %s finished before the last rated match: recomputing %s", match_id, game)
            rebuild_game(game)
            return Outcome(match_id, len(games), "recomputed")
        return Outcome(match_id, rate_range(game, last, key))


def rate_range(game: str, last: Optional[tuple], upto: tuple) -> int:
    """Rate, oldest first, the rated matches finished after ``last`` up to ``upto`` (locked)."""
    pending = history.rated_range(game, last, upto)
    for match in pending:
        apply(match)
    return len(pending)


def rate_pending_matches() -> int:
    """The periodic sweep: rate what lost tasks left unrated after the last rated match, and
    recompute a game when a match of the last day was left behind a later rated one."""
    count = 0
    for game in Game.values:
        newest = history.candidates(game).values_list("finished_at", "id").last()
        duplicates = history.duplicate_events(game, after=(timezone.now() - LATE_WINDOW, 0))
        keys = [tuple(newest)] if newest is not None else []
        keys += [duplicates[-1].key] if duplicates else []
        if not keys:
            continue
        with transaction.atomic():
            lock(game)
            last = last_rated_key(game)
            if last is None or max(keys) > last:
                count += rate_range(game, last, max(keys))
                last = last_rated_key(game)
            if last is not None and (_left_behind(game, last) or _boards_left_behind(duplicates, last)):
                count += rebuild_game(game).matches
    return count


def _boards_left_behind(games: list, last: tuple) -> bool:
    """A duplicate's board of the last day left unrated behind a later rated match."""
    return any(g.key <= last and not RatingChange.objects.filter(match_id=g.id, board=g.board).exists()
               for g in games)


def _left_behind(game: str, last: tuple) -> bool:
    recent = (history.candidates(game, upto=last)
              .filter(finished_at__gte=timezone.now() - LATE_WINDOW, rating_changes__isnull=True))
    return any(history.load(pk)[0] is not None for pk in recent.values_list("id", flat=True)[:50])


def lock(game: str) -> None:
    RatingLock.objects.select_for_update().get_or_create(game=game)


def last_rated_key(game: str) -> Optional[tuple]:
    return (RatingChange.objects.filter(game=game).order_by("-finished_at", "-match_id")
            .values_list("finished_at", "match_id").first())


def apply(match: RatedMatch) -> None:
    """Rate one match from the four players' stored values (call with the game locked)."""
    stored = {r.user_id: r for r in Rating.objects.filter(game=match.game, user_id__in=match.users)}
    before = [stored.get(u) or Rating(user_id=u, game=match.game) for u in match.users]
    change = elo.rate_match({r.user_id: r.elo for r in before}, {r.user_id: r.rated_matches for r in before},
                            match.team_a, match.team_b, match.score_a)
    after = glicko2.rate_pair_match((before[0].glicko, before[1].glicko), (before[2].glicko, before[3].glicko),
                                    match.score_a)
    rows = [change_row(match, i, before[i], change.deltas[u], after[i]) for i, u in enumerate(match.users)]
    now = timezone.now()
    RatingChange.objects.bulk_create(rows)
    # One upsert for the four: a newcomer's row is inserted, the others updated.
    Rating.objects.bulk_create(
        [Rating(user_id=row.user_id, game=match.game, elo=row.elo_after, rated_matches=old.rated_matches + 1,
                glicko_rating=row.glicko_after, glicko_rd=row.rd_after, glicko_volatility=row.volatility_after,
                updated_at=now) for row, old in zip(rows, before)],
        update_conflicts=True, unique_fields=["user", "game"], update_fields=SAVED_FIELDS)
    send_ratings_changed(match.users)


SAVED_FIELDS = ["elo", "rated_matches", "glicko_rating", "glicko_rd", "glicko_volatility", "updated_at"]


def change_row(match: RatedMatch, index: int, before: Rating, delta: float, after: glicko2.Glicko) -> RatingChange:
    """The RatingChange of the player in ``index`` (a1, a2, b1, b2) of ``match``."""
    team = 0 if index < 2 else 1
    return RatingChange(
        match_id=match.id, board=match.board, user_id=match.users[index], game=match.game,
        finished_at=match.finished_at,
        team=team, score=match.score_a if team == 0 else 1.0 - match.score_a,
        k=elo.k_factor(before.rated_matches),
        elo_before=before.elo, elo_after=before.elo + delta, elo_delta=delta,
        glicko_before=before.glicko_rating, glicko_after=after.rating,
        glicko_delta=after.rating - before.glicko_rating,
        rd_before=before.glicko_rd, rd_after=after.rd,
        volatility_before=before.glicko_volatility, volatility_after=after.volatility,
    )


# ----- reading ---------------------------------------------------------------------------------

def _user_id(user) -> int:
    return getattr(user, "pk", user)


def ratings_for(users: Iterable, game: str) -> dict[int, PlayerRating]:
    """Current values of many players in one query, by user id (start values when unrated)."""
    ids = [_user_id(u) for u in users]
    found = {row[0]: PlayerRating(*row[1:]) for row in Rating.objects.filter(game=game, user_id__in=ids)
             .values_list("user_id", "elo", "rated_matches", "glicko_rating", "glicko_rd")}
    return {pk: found.get(pk, PlayerRating()) for pk in ids}


def rating_for(user, game: str) -> PlayerRating:
    """A player's current values in ``game`` (a user or a user id); the competitions layer seeds
    by ``rating_for(user, game).elo`` (a pair by the mean of its two players)."""
    return ratings_for([user], game)[_user_id(user)]


def leaderboard(game: str, club=None, established_only: bool = False):
    """Every rated player of ``game`` (members of ``club`` only, if given), best Elo first;
    provisional ones (Glicko-2 deviation above LEADERBOARD_MAX_RD) are left out only when
    ``established_only``."""
    query = Rating.objects.filter(game=game, rated_matches__gt=0)
    if established_only:
        query = query.filter(glicko_rd__lte=LEADERBOARD_MAX_RD)
    if club is not None:
        query = query.filter(user__memberships__club=club)
    name = Coalesce(NullIf("user__player__display_name", Value("")), "user__username")
    return query.select_related("user").annotate(name=name).order_by("-elo", "user__username")


# The words of a rated match's result on a player's home.
RESULT_WORDS = {"won": _("Won"), "lost": _("Lost"), "drawn": _("Drawn")}


def recent_results(user, limit: int) -> list[dict]:
    """The player's last rated matches, newest first, as their home shows them: one query of
    plain values: the match, when it finished, the game's and the result's words, the Elo after
    and its change (signed text)."""
    rows = (RatingChange.objects.filter(user=user).order_by("-finished_at", "-match_id")
            .values_list("match_id", "finished_at", "game", "score", "elo_after", "elo_delta")[:limit])
    return [{"match_id": match_id, "finished_at": finished_at, "game": game_label(game),
             "result": str(RESULT_WORDS["won" if score == 1 else "lost" if score == 0 else "drawn"]),
             "elo": floatformat(elo_after, "0u"),
             "delta": ("+" if elo_delta >= 0 else "") + floatformat(elo_delta, "1u"), "gain": elo_delta >= 0}
            for match_id, finished_at, game, score, elo_after, elo_delta in rows]
