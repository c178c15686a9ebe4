"""A duplicate competition is rated like any other, each board at each table a game between its two
pairs, won by the pair that did better against the field (docs/duplicate.md, "Ratings"): the boards
are rated once the last table is over, once only, and recompute_ratings finds the same numbers."""

from datetime import timedelta

import pytest

from gameplay.api import engine_game
from gameplay.models import Match, Seat
from tests.competitions_db.helpers import bot_pairs, drive, make_competition, make_user
from tests.ratings.conftest import finished_matches
from tournaments.duplicate import rating_games, score_event
from tournaments.models import Competition, Pairing
from tournaments.ratings import services
from tournaments.ratings.models import Rating, RatingChange
from tournaments.ratings.rebuild import rebuild_game
from tournaments.services import duplicate

pytestmark = pytest.mark.django_db


def played_duplicate():
    """A Howell of four pairs, two boards a round, played to the end by bots; then the seats are
    given to people (two a pair), as if they had played: the boards' results are the engine's."""
    preset = next(iter(engine_game("cuatrola").presets))
    competition = make_competition(format="duplicate", game="cuatrola", preset=preset, boards_per_round=2,
                                   boards_seed=77, odd_pairs="bot_pair")
    entries = bot_pairs(competition, 4)
    competition = drive(competition, steps=80)
    assert competition.status == Competition.Status.FINISHED
    people = {entry.pk: [make_user("dup"), make_user("dup")] for entry in entries}
    tables = list(Pairing.objects.filter(competition=competition, away__isnull=False).order_by("round_number", "slot"))
    for pairing in tables:
        for seat in Seat.objects.filter(match_id=pairing.match_id):
            pair = people[pairing.home_id if seat.seat % 2 == 0 else pairing.away_id]
            seat.user, seat.bot = pair[seat.seat // 2], ""
            seat.save(update_fields=["user", "bot"])
    return competition, people, tables


def expected_games(competition):
    """Each board at each table, won against the field: (match, board) -> N/S score."""
    found = duplicate.table_results(competition)
    match_of = {(t.ns, t.ew, r.board): t.match_id for t, r in found}
    scores = score_event([r for _t, r in found], competition.scoring)
    return {(match_of[(g.ns_pair, g.ew_pair, g.board)], g.board): float(g.ns_score)
            for rows in scores.values() for g in rating_games(rows)}


def test_each_board_is_rated_once_the_last_table_is_over_won_against_the_field():
    competition, people, tables = played_duplicate()
    last = max(tables, key=lambda p: (Match.objects.get(pk=p.match_id).finished_at, p.match_id))
    Match.objects.filter(pk=last.match_id).update(status=Match.Status.PLAYING)

    early = services.rate_finished_match(tables[0].match_id)
    assert early.rated == 0 and early.reason == "waiting for the other tables"
    assert not RatingChange.objects.exists()

    Match.objects.filter(pk=last.match_id).update(status=Match.Status.FINISHED)
    outcome = services.rate_finished_match(last.match_id)
    wanted = expected_games(competition)
    assert len(wanted) == 6 * 2 and outcome.rated == 12  # 6 tables, 2 boards each
    changes = list(RatingChange.objects.filter(game="cuatrola"))
    assert len(changes) == 12 * 4
    ended = Match.objects.get(pk=last.match_id).finished_at
    for change in changes:
        ns_score = wanted[(change.match_id, change.board)]
        assert change.score == (ns_score if change.team == 0 else 1.0 - ns_score)
        assert change.finished_at == ended  # in the rating order where the field became complete
    # Each player played 3 tables of 2 boards: 6 rated games.
    assert {r.rated_matches for r in Rating.objects.filter(game="cuatrola")} == {6}
    assert len({u.pk for pair in people.values() for u in pair}) == Rating.objects.count() == 8
    # Against the field, not the raw score at the table: with these boards a pair wins a board
    # it did not win at its table.
    raw = {(t.match_id, r.board): 1.0 if r.ns_net > 0 else 0.0 if r.ns_net < 0 else 0.5
           for t, r in duplicate.table_results(competition)}
    assert any(raw[key] != score for key, score in wanted.items())

    # A table's page shows each of its four players once: before its first board, after its last.
    from tournaments.ratings.templatetags.ratings import rating_changes
    shown = rating_changes(Match.objects.get(pk=last.match_id))["changes"]
    assert len(shown) == 4
    for row in shown:
        boards = RatingChange.objects.filter(match_id=last.match_id, user=row.user).order_by("board")
        assert (row.elo_before, row.elo_after) == (boards.first().elo_before, boards.last().elo_after)

    # Idempotent: another table's task, or the same one again, changes nothing.
    assert services.rate_finished_match(tables[1].match_id).reason == "already rated"
    assert services.rate_finished_match(last.match_id).rated == 0
    assert RatingChange.objects.count() == 48

    # A match finished later is rated after the boards, and a recompute finds the same numbers.
    users = [pair[0] for pair in people.values()]
    later = finished_matches([(users, 0)], game="cuatrola", start=ended + timedelta(minutes=5))[0]
    assert services.rate_finished_match(later.pk).rated == 1
    report = rebuild_game("cuatrola")
    assert report.matches == 13 and report.changes_written == 0 and report.ratings_written == 0


def test_a_board_against_a_bot_pair_is_not_rated_and_the_others_are():
    competition, people, tables = played_duplicate()
    bots = tables[0]
    Seat.objects.filter(match_id=bots.match_id).update(user=None, bot="random")
    services.rate_finished_match(tables[-1].match_id)
    rated = set(RatingChange.objects.values_list("match_id", flat=True))
    assert rated == {t.match_id for t in tables[1:]}
    assert rebuild_game("cuatrola").changes_written == 0
