"""Builders for competition tests: a club with an organiser, competitions, pairs."""

import itertools
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs.models import Club, Membership
from gameplay.rules import get_game
from tournaments.models import Competition, Entry, EntryPlayer

_numbers = itertools.count()


def make_user(prefix: str = "player"):
    n = next(_numbers)
    return get_user_model().objects.create_user(f"{prefix}{n}", f"{prefix}{n}@example.com", "pw-12345678")


def make_club(organiser=None, **fields):
    n = next(_numbers)
    club = Club.objects.create(name=f"Club {n}", slug=f"club-{n}", home_games=["allfours"], **fields)
    if organiser is not None:
        Membership.objects.create(club=club, user=organiser, role=Membership.Role.ORGANISER)
    return club


def make_competition(club=None, *, format="swiss", game="allfours", preset="short_seven", starts_in=timedelta(0),
                     **fields):
    club = club or make_club()
    engine = get_game(game)
    options = engine.resolve_options(dict(engine.presets[preset]))
    n = next(_numbers)
    defaults = dict(time_control=0, check_in=timedelta(0), grace=timedelta(minutes=5),
                    round_interval=timedelta(0))
    defaults.update(fields)
    return Competition.objects.create(
        club=club, name=f"Cup {n}", slug=f"cup-{n}", game=game, format=format, preset=preset, options=options,
        starts_at=timezone.now() + starts_in,
        kind=Competition.Kind.LEAGUE if format == "league" else Competition.Kind.TOURNAMENT, **defaults)


def human_pairs(competition, count: int):
    """Confirmed pairs of two new users each; returns [(entry, [user, user]), ...]."""
    pairs = []
    for _ in range(count):
        users = [make_user(), make_user()]
        entry = Entry.objects.create(competition=competition, name=" & ".join(u.username for u in users),
                                     status=Entry.Status.CONFIRMED)
        for position, user in enumerate(users):
            EntryPlayer.objects.create(entry=entry, competition=competition, user=user, position=position,
                                       accepted_at=timezone.now())
        pairs.append((entry, users))
    return pairs


def bot_pairs(competition, count: int):
    return [Entry.objects.create(competition=competition, name=f"Bots {n + 1}", bot="random",
                                 status=Entry.Status.CONFIRMED) for n in range(count)]


def drive(competition, steps: int = 60, now=None):
    """Eager mode: step the competition and play the bot tables until it stops changing.

    (In eager mode a table made while a bot loop runs in this thread waits for its first bot move:
    gameplay lets one bot loop run per thread. A real worker has no such nesting.)"""
    from gameplay.models import Match
    from gameplay.tasks import play_bots
    from tournaments.services import manager

    for _ in range(steps):
        changed = manager.step(competition.pk, now=now)
        playing = list(Match.objects.filter(pairing__competition=competition, status=Match.Status.PLAYING)
                       .values_list("pk", flat=True))
        for match_id in playing:
            play_bots.run(match_id)
        if not changed and not playing:
            break
    competition.refresh_from_db()
    return competition


def big_finished_competition(format: str, pairs: int = 512, rounds: int = 9):
    """A finished competition of `pairs` bot entries made by the pure format with bulk writes (no
    tables): for query counts and the standings benchmark."""
    import random

    from tournaments.formats import Result, get_format
    from tournaments.models import Pairing, Round
    from tournaments.services import ranking
    from tournaments.services.loading import entry_value, format_options

    competition = make_competition(format=format, swiss_rounds=rounds if format == "swiss" else None)
    entries = Entry.objects.bulk_create([
        Entry(competition=competition, name=f"Pair {n}", bot="random", status=Entry.Status.CONFIRMED, seed=n,
              rating=2000.0 - n) for n in range(1, pairs + 1)])
    values = [entry_value(e.pk, e.seed, e.rating) for e in entries]
    fmt, options, rng = get_format(format), format_options(competition), random.Random(5)
    made, results, now = [], [], timezone.now()
    while True:
        new = fmt.next_round(values, made, results, options)
        if not new:
            break
        round_row = Round.objects.create(competition=competition, number=new[0].round, starts_at=now, deadline=now,
                                         status=Round.Status.COMPLETE)
        rows = []
        for p in new:
            winner = p.home if p.away is None else rng.choice((p.home, p.away))
            points = (2, 1) if winner == p.home else (1, 2)
            if p.away is not None:
                results.append(Result(p.round, p.slot, winner, *points))
            rows.append(Pairing(competition=competition, round=round_row, round_number=p.round, slot=p.slot,
                                home_id=p.home, away_id=p.away, bracket=p.bracket, label=p.label, decided_at=now,
                                winner_id=winner, home_points=points[0] if p.away else 0,
                                away_points=points[1] if p.away else 0, source="played" if p.away else "bye"))
        Pairing.objects.bulk_create(rows)
        made += list(new)
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.FINISHED, finished_at=now)
    competition.refresh_from_db()
    ranking.refresh(competition)
    return competition


def first_round_checked_in(competition, pairs):
    """A duplicate of human `pairs` ([(entry, users)]) seeded in their order, driven to its first
    round with every player checked in: the round's tables (by slot) and each entry's users."""
    from tournaments.models import Pairing
    from tournaments.services import manager

    for number, (entry, _users) in enumerate(pairs, start=1):
        entry.seed = number
        entry.save(update_fields=["seed"])
    competition = drive(competition, steps=4)
    tables = list(Pairing.objects.filter(competition=competition, round_number=1).order_by("slot"))
    by_entry = {entry.pk: users for entry, users in pairs}
    for pairing in tables:
        for user in by_entry[pairing.home_id] + by_entry[pairing.away_id]:
            manager.check_in(user, pairing.pk)
        pairing.refresh_from_db()
    return competition, tables, by_entry
