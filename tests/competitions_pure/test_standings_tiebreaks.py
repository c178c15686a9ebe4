"""Standings and tiebreaks against hand-worked numbers (FIDE C.07 definitions)."""
from __future__ import annotations

import pytest

from tournaments.formats import Pairing, Result
from tournaments.standings import (
    LEAGUE_POINTS, buchholz, head_to_head, sonneborn_berger, standings, tally, tiebreak_order,
)

from .conftest import make_entries, play_out


def swiss_history():
    """5 entries, 3 rounds, one bye a round (worked by hand in the test names)."""
    pairings = [
        Pairing(1, 1, 1, 4), Pairing(1, 2, 2, 5), Pairing(1, 3, 3, None),
        Pairing(2, 1, 1, 3), Pairing(2, 2, 2, 4), Pairing(2, 3, 5, None),
        Pairing(3, 1, 3, 2), Pairing(3, 2, 1, 5), Pairing(3, 3, 4, None),
    ]
    results = [
        Result(1, 1, 1, 2, 0), Result(1, 2, None, 1, 1),
        Result(2, 1, 3, 1, 2), Result(2, 2, 2, 2, 0),
        Result(3, 1, 3, 2, 1), Result(3, 2, 1, 2, 1),
    ]
    return make_entries(5), pairings, results


def test_match_points_count_a_bye_as_a_win_and_a_draw_as_half():
    entries, pairings, results = swiss_history()
    table = tally(entries, pairings, results)
    assert {e: line.points for e, line in table.lines.items()} == {1: 2.0, 2: 1.5, 3: 3.0, 4: 1.0, 5: 1.5}


def test_buchholz_sums_opponents_points_and_counts_a_bye_as_own_points():
    entries, pairings, results = swiss_history()
    table = tally(entries, pairings, results)
    # 1: 4 (1.0) + 3 (3.0) + 5 (1.5); 3: 1 (2.0) + 2 (1.5) + bye at own 3.0
    assert [buchholz(table, e, ()) for e in range(1, 6)] == [5.5, 5.5, 6.5, 4.5, 5.0]


def test_sonneborn_berger_weights_opponents_points_by_the_result_against_them():
    entries, pairings, results = swiss_history()
    table = tally(entries, pairings, results)
    # 2: drew 5 (1/2 x 1.5) + beat 4 (1.0) = 1.75; 3: beat 1 (2.0) + beat 2 (1.5)
    assert [sonneborn_berger(table, e, ()) for e in range(1, 6)] == [2.5, 1.75, 3.5, 0.0, 0.75]


def test_swiss_standings_break_equal_points_by_buchholz():
    entries, pairings, results = swiss_history()
    rows = standings("swiss", entries, pairings, results)
    assert [(r.entry, r.rank) for r in rows] == [(3, 1), (1, 2), (2, 3), (5, 4), (4, 5)]
    assert dict(rows[2].tiebreaks)["buchholz"] == 5.5
    assert rows[1].game_points_for == 5 and rows[1].game_difference == 2


def round_robin_history():
    """1 and 2 tie on points; 2 beat 1 but 1 has the better game difference."""
    games = [((1, 2), 2, (1, 2)), ((1, 3), 1, (2, 0)), ((1, 4), 1, (2, 0)),
             ((2, 3), 3, (0, 2)), ((2, 4), 2, (2, 1)), ((3, 4), 4, (0, 2))]
    pairings = [Pairing(1, n, home, away) for n, ((home, away), _, _) in enumerate(games, 1)]
    results = [Result(1, n, winner, hp, ap) for n, (_, winner, (hp, ap)) in enumerate(games, 1)]
    return make_entries(4), pairings, results


def test_round_robin_ranks_a_tie_by_head_to_head_before_game_difference():
    rows = standings("round_robin", *round_robin_history())
    assert [r.entry for r in rows] == [2, 1, 4, 3]
    assert dict(rows[0].tiebreaks)["head_to_head"] == 1.0


def test_league_table_uses_two_points_a_win_and_game_difference_first():
    rows = standings("league", *round_robin_history())
    assert [(r.entry, r.match_points) for r in rows][:2] == [(1, 4), (2, 4)]
    assert rows[0].game_difference == 3 and rows[1].game_difference == 0


def test_head_to_head_is_not_applied_unless_all_tied_entries_have_met():
    entries, pairings, results = swiss_history()
    table = tally(entries, pairings, results)
    assert head_to_head(table, 2, [2, 5, 4]) is None       # 5 and 4 never met
    assert head_to_head(table, 2, [2, 5]) == 0.5            # they drew


def test_entries_equal_on_everything_share_a_rank():
    entries = make_entries(2)
    rows = standings("swiss", entries, [Pairing(1, 1, 1, 2)], [Result(1, 1, None, 1, 1)])
    assert [r.rank for r in rows] == [1, 1]


def test_double_forfeit_is_a_loss_for_both():
    rows = standings("league", make_entries(2), [Pairing(1, 1, 1, 2)], [Result(1, 1, None, walkover=True)])
    assert all(r.lost == 1 and r.match_points == 0 for r in rows)


def test_unfinished_pairings_do_not_count():
    rows = standings("swiss", make_entries(2), [Pairing(1, 1, 1, 2)], [])
    assert all(r.played == 0 for r in rows)


def test_knockout_standings_are_bracket_places():
    entries = make_entries(8)
    pairings, results = play_out("single_elimination", entries, decide=lambda p, rng: min(p.home, p.away))
    rows = standings("single_elimination", entries, pairings, results)
    assert [(r.entry, r.rank) for r in rows][:4] == [(1, 1), (2, 2), (3, 3), (4, 3)]
    assert rows[0].won == 3


def test_custom_tiebreak_list_and_points_are_honoured():
    rows = standings("round_robin", *round_robin_history(), tiebreaks=["game_difference"],
                     points=LEAGUE_POINTS)
    assert [r.entry for r in rows][:2] == [1, 2]
    assert rows[0].match_points == 4


def test_unknown_tiebreak_is_an_error():
    with pytest.raises(KeyError):
        standings("swiss", *swiss_history(), tiebreaks=["koya"])


def test_an_organisers_tiebreak_order_ranks_a_tie_by_the_first_chosen_rule():
    """1 and 2 are equal on points: 2 beat 1 (head-to-head), 1 has the better game difference."""
    history = round_robin_history()
    by_game_difference = standings("round_robin", *history, tiebreaks=tiebreak_order("round_robin", ["game_difference", "head_to_head"]))
    by_head_to_head = standings("round_robin", *history, tiebreaks=tiebreak_order("round_robin", ["head_to_head", "game_difference"]))
    assert [r.entry for r in by_game_difference][:2] == [1, 2]
    assert [r.entry for r in by_head_to_head][:2] == [2, 1]
    assert [name for name, _ in by_game_difference[0].tiebreaks] == ["game_difference", "head_to_head"]


def test_no_tiebreak_chosen_means_the_formats_own_order_and_a_bracket_uses_none():
    assert tiebreak_order("swiss", []) == ("buchholz", "sonneborn_berger", "head_to_head", "game_difference")
    assert tiebreak_order("league", ["no_such_rule"]) == ("game_difference", "game_points", "head_to_head")
    assert tiebreak_order("single_elimination", ["buchholz"]) == ()


def test_a_tiebreak_order_that_repeats_a_rule_is_refused_at_the_repeat():
    from tournaments.forms import tiebreak_order_errors
    errors = tiebreak_order_errors(["buchholz", "game_points", "buchholz", "", ""])
    assert list(errors) == [2] and "Buchholz" in str(errors[2])
    assert tiebreak_order_errors(["buchholz", "", "", "", ""]) == {}
