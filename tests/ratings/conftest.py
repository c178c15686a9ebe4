"""Builders for ratings tests: users and finished matches made in bulk, no engine play."""

import itertools
import random
from datetime import datetime, timedelta, timezone

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from gameplay.models import Match, Seat

START = datetime(2026, 1, 1, tzinfo=timezone.utc)
_names = itertools.count()


def make_users(count: int, prefix: str = "rater"):
    """Users (with no Player row: bulk_create skips the signal, pages fall back to usernames)."""
    model = get_user_model()
    names = [f"{prefix}{next(_names)}" for _ in range(count)]
    model.objects.bulk_create([model(username=name, email=f"{name}@example.com") for name in names])
    by_name = model.objects.in_bulk(names, field_name="username")
    return [by_name[name] for name in names]


def finished_matches(specs, game: str = "baloot", start: datetime = START):
    """Finished matches from ``(seat users [4], winner team)`` specs, a minute apart in order.

    A seat "user" may be the string "bot". Keyword defaults: played out, rated table."""
    matches = []
    for n, spec in enumerate(specs):
        seats, winner, *extra = spec
        fields = {"status": Match.Status.FINISHED, "finish": Match.Finish.PLAYED, "rated": True,
                  **(extra[0] if extra else {})}
        matches.append(Match(game=game, seed=n, winner=winner, finished_at=start + timedelta(minutes=n), **fields))
    Match.objects.bulk_create(matches)
    Seat.objects.bulk_create([
        Seat(match=match, seat=s, user=None if who == "bot" else who, bot="random" if who == "bot" else "")
        for match, (seats, *_rest) in zip(matches, specs) for s, who in enumerate(seats)])
    with connection.cursor() as cursor:
        # The statistics autovacuum keeps in production: without them PostgreSQL plans for the
        # empty tables it last saw and pages a thousand matches with nested loops (seconds each).
        cursor.execute(f"ANALYZE {Match._meta.db_table}, {Seat._meta.db_table}")
    return matches


def random_specs(users, count: int, seed: int = 9):
    rng = random.Random(seed)
    return [(rng.sample(users, 4), rng.choice((0, 1, 0, 1, None))) for _ in range(count)]


@pytest.fixture
def four(db):
    return make_users(4)
