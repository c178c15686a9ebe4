"""A new format is one module plus one registry line: the manager asks the format, never its
kind. The format below exists only in this test."""

import pytest

from tests.competitions_db.helpers import bot_pairs, drive, make_competition
from tournaments import formats
from tournaments.formats.base import Format, number_slots, require_round_complete, results_by_key
from tournaments.models import Competition, Pairing, Round, Standing

pytestmark = pytest.mark.django_db


def one_round_next(entries, pairings, results, options):
    """Seed 1 plays seed 2, seed 3 plays seed 4, ...: one round, then the competition is over."""
    if pairings:
        require_round_complete(pairings, results_by_key(results))
        return ()
    ordered = sorted(entries, key=lambda e: e.seed)
    return number_slots(1, [(a.id, b.id, "main", "") for a, b in zip(ordered[::2], ordered[1::2])])


ONE_ROUND = Format("one_round", "One round", one_round_next, lambda count, options: 1)


@pytest.fixture
def one_round_registered(monkeypatch):
    monkeypatch.setitem(formats.FORMATS, "one_round", ONE_ROUND)


def test_a_format_registered_only_here_runs_through_the_manager_to_the_end(one_round_registered):
    competition = make_competition(format="one_round")
    bot_pairs(competition, 4)

    competition = drive(competition)

    assert competition.status == Competition.Status.FINISHED
    assert Round.objects.filter(competition=competition).count() == 1
    pairings = Pairing.objects.filter(competition=competition)
    assert pairings.count() == 2 and all(p.winner_id in (p.home_id, p.away_id) for p in pairings)
    assert Standing.objects.filter(competition=competition).count() == 4


def test_a_new_format_pairs_the_whole_field_and_no_show_is_a_double_forfeit_by_default():
    assert not ONE_ROUND.pairs_active_only and ONE_ROUND.season is None and not ONE_ROUND.fixed_round_count
    assert ONE_ROUND.no_show("home", "away", set(), ["away", "home"]) is None
    assert ONE_ROUND.no_show("home", "away", {"away"}, ["home", "away"]) == "away"
