"""Round robin and league seasons against FIDE's Berger tables (C.05 Annex 1)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from tournaments.formats import Options, Result, get_format, league, round_robin

from .conftest import make_entries

# FIDE Handbook C.05, Annex 1, Berger tables: (white/home - black/away), board order.
FIDE_BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: ["1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"],
}


def as_text(pairings) -> str:
    return " ".join(f"{p.home}-{p.away}" for p in pairings)


@pytest.mark.parametrize("players", [4, 6, 8])
def test_rounds_reproduce_fide_berger_tables_with_colours(players):
    rounds = round_robin.all_rounds(make_entries(players))
    assert [as_text(r) for r in rounds] == FIDE_BERGER[players]


def test_next_round_does_not_wait_for_results_because_fixtures_are_fixed():
    fmt, entries = get_format("round_robin"), make_entries(4)
    first = fmt.next_round(entries, [], [], Options())
    assert as_text(fmt.next_round(entries, list(first), [], Options())) == "4-3 1-2"


def test_odd_count_gives_the_player_meeting_the_dummy_a_bye():
    rounds = round_robin.all_rounds(make_entries(5))
    assert len(rounds) == 5
    byes = [p.home for r in rounds for p in r if p.is_bye]
    assert sorted(byes) == [1, 2, 3, 4, 5]
    assert rounds[0][0].is_bye and rounds[0][0].home == 1


def test_double_round_robin_swaps_home_and_away_in_the_second_cycle():
    rounds = round_robin.all_rounds(make_entries(4), Options(cycles=2))
    assert len(rounds) == 6
    # FIDE's recommendation: the last two rounds of the first cycle are exchanged.
    assert [as_text(r) for r in rounds[:3]] == ["1-4 2-3", "2-4 3-1", "4-3 1-2"]
    assert [as_text(r) for r in rounds[3:]] == ["4-1 3-2", "3-4 2-1", "4-2 1-3"]


def test_league_week_dates_follow_start_and_interval():
    start = datetime(2025, 1, 6, tzinfo=timezone.utc)
    weeks = league.fixture_weeks(start, timedelta(days=7), 3)
    assert [w.starts.day for w in weeks] == [6, 13, 20]
    assert weeks[0].ends == datetime(2025, 1, 13, tzinfo=timezone.utc)
    assert weeks[0].contains(datetime(2025, 1, 12, 23, 59, tzinfo=timezone.utc))
    assert not weeks[0].contains(weeks[0].ends)


def test_league_season_is_a_double_round_robin_one_round_per_week():
    start = datetime(2025, 1, 6, tzinfo=timezone.utc)
    fixtures = league.fixtures(make_entries(4), start)
    assert len(fixtures) == 12
    assert {f.week.number for f in fixtures} == set(range(1, 7))
    assert all(f.week.number == f.pairing.round for f in fixtures)
    assert league.total_rounds(4) == 6


def test_unplayed_fixture_is_forfeited_only_after_its_week_ends():
    start = datetime(2025, 1, 6, tzinfo=timezone.utc)
    fixtures = [f for f in league.fixtures(make_entries(4), start) if f.week.number == 1]
    during = start + timedelta(days=6, hours=23)
    assert league.forfeits_due(fixtures, finished=set(), ready=set(), now=during) == ()
    after = start + timedelta(days=7)
    played = {fixtures[0].pairing.key}
    away_showed = {fixtures[1].pairing.away}
    due = league.forfeits_due(fixtures, finished=played, ready=away_showed, now=after)
    assert due == (Result(1, 2, fixtures[1].pairing.away, walkover=True),)


def test_fixture_where_neither_or_both_showed_is_a_double_forfeit():
    start = datetime(2025, 1, 6, tzinfo=timezone.utc)
    fixture = league.fixtures(make_entries(4), start)[0]
    after = fixture.week.ends
    both = {fixture.pairing.home, fixture.pairing.away}
    for ready in (set(), both):
        (due,) = league.forfeits_due([fixture], set(), ready, after)
        assert due.winner is None and due.walkover
