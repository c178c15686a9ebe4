"""Duplicate scoring against hand-computed numbers for each game, and its invariants."""
from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.rules import get_game
from tournaments.duplicate import (
    CROSS_POINTS, ScoringError, TableResult, board_points, make_board_set, rank_pairs,
    rating_games, score_board, score_event,
)
from tournaments.duplicate.scoring import cross_points, matchpoints, neuberg

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def results(board: int, rows) -> list[TableResult]:
    """rows: (ns pair, ew pair, deal records as the engine keeps them)."""
    return [TableResult(board, ns, ew, *board_points(records)) for ns, ew, records in rows]


def record(ns: int, ew: int, **detail) -> dict:
    return {"delta": [ns, ew], "score": [ns, ew], "detail": detail}


def test_all_fours_board_with_a_redeal_and_a_tie():
    """Table 1's pack ran out (1 kick point kept) before a 2-2 deal: 3-2, net +1, the same as
    table 4's 2-1. Nets +1, +2, -2, +1: matchpoints 3, 6, 0, 3 of a top of 6."""
    board = results(1, [
        (1, 5, [record(1, 0, redeal=True), record(2, 2, redeal=False)]),
        (2, 6, [record(3, 1, redeal=False)]),
        (3, 7, [record(1, 3, redeal=False)]),
        (4, 8, [record(2, 1, redeal=False)]),
    ])
    assert [(r.ns_points, r.ew_points) for r in board] == [(3, 2), (3, 1), (1, 3), (2, 1)]
    scored = score_board(board)
    assert [(s.ns, s.ew) for s in scored] == [(3, 3), (6, 0), (0, 6), (3, 3)]
    assert [s.ns_percent for s in scored] == [50, 100, 0, 50]
    assert not any(s.factored for s in scored)


def test_baloot_board_played_by_three_tables_of_four_is_factored_by_neuberg():
    """Table 1's first deal was passed out (annulled) and the spare scored 16-10 (net +6), as at
    table 3; table 2 lost 0-26. Raw N/S matchpoints 3, 0, 3 of 4; factored to 4 tables:
    (3+1)*4/3-1 = 13/3 and (0+1)*4/3-1 = 1/3 of 6; E/W raw 1, 4, 1 -> 5/3, 17/3, 5/3."""
    board = results(2, [
        (1, 6, [record(0, 0, result="annulled", dealer=1), record(16, 10)]),
        (2, 7, [record(0, 26)]),
        (3, 8, [record(16, 10)]),
    ])
    scored = score_board(board, expected=4)
    assert [(s.ns, s.ew) for s in scored] == [(F(13, 3), F(5, 3)), (F(1, 3), F(17, 3)), (F(13, 3), F(5, 3))]
    assert all(s.factored and s.top == 6 for s in scored)
    assert [round(s.ns_percent, 2) for s in scored] == [F(7222, 100), F(556, 100), F(7222, 100)]


def test_cuatrola_board_in_matchpoints_and_cross_points():
    """Contract values 0-1, 2-0, 0-1: nets -1, +2, -1. Matchpoints 1, 4, 1 (the two -1 tie);
    cross-points: (-1-2) + (-1+1) = -3 over 2 others = -3/2; (2+1) + (2+1) = 6 / 2 = 3."""
    board = results(3, [(1, 4, [record(0, 1)]), (2, 5, [record(2, 0)]), (3, 6, [record(0, 1)])])
    assert [(s.ns, s.ew) for s in score_board(board)] == [(1, 3), (4, 0), (1, 3)]
    assert [(s.ns, s.ew) for s in score_board(board, CROSS_POINTS)] == [(F(-3, 2), F(3, 2)), (3, -3),
                                                                         (F(-3, 2), F(3, 2))]
    assert score_board(board, CROSS_POINTS)[0].ns_percent is None


@pytest.mark.parametrize("game", ["allfours", "baloot", "cuatrola"])
def test_a_board_played_through_the_engine_at_three_tables_scores_its_deal(game):
    """The same board at three tables, each playing differently: every table starts from the
    same cards, the board's points are the engine's score, and the scoring adds up."""
    board_set = make_board_set(get_game(game), 2024, 1)
    board = board_set.boards[0]
    engine = get_game(game)
    rows = []
    for table in range(3):
        state = engine.start(options=board_set.options, dealer=board.dealer, deals=board.deals())
        assert state.export_deals()[0] == board.deal
        pick = random.Random(table)
        while board_points(state.deal_records) is None:
            state.apply(pick.choice(state.legal_actions()))
        assert list(board_points(state.deal_records)) == state.deal_records[-1]["score"]
        rows.append(TableResult(1, table + 1, table + 4, *board_points(state.deal_records)))
    scored = score_board(rows)
    assert all(s.ns + s.ew == 4 for s in scored) and sum(s.ns for s in scored) == 6


def test_a_board_not_yet_scored_has_no_points_until_the_spares_run_out():
    annulled = [record(0, 0, result="annulled"), record(0, 0, result="annulled")]
    assert board_points(annulled) is None
    assert board_points(annulled, exhausted=True) == (0, 0)
    assert board_points([]) is None


def test_the_ranking_shares_a_rank_between_equal_pairs_and_leaves_out_the_bot():
    rows = [TableResult(1, 1, 3, 2, 0), TableResult(1, 2, 4, 2, 0),
            TableResult(2, 3, 1, 1, 1), TableResult(2, 4, 2, 0, 0)]
    ranking = rank_pairs(rows, exclude=[4])
    assert [(r.rank, r.pair, r.percent) for r in ranking] == [(1, 1, 50), (1, 2, 50), (1, 3, 50)]
    assert ranking[0].directions == ("NS", "EW")


def test_rated_games_are_won_by_the_pair_better_against_the_field():
    """Nets +2, 0, -2: N/S matchpoints 4, 2, 0 of 4, so the middle table is a draw although
    its own deal was level, and the last N/S pair loses though it scored a point."""
    rows = [TableResult(1, 1, 5, 3, 1), TableResult(1, 2, 6, 2, 2), TableResult(1, 3, 7, 1, 3)]
    games = rating_games(score_board(rows))
    assert [(g.ns_pair, g.ew_pair, g.ns_score) for g in games] == [(1, 5, 1), (2, 6, F(1, 2)), (3, 7, 0)]
    assert [g.ns_score for g in rating_games(score_board(rows, CROSS_POINTS))] == [1, F(1, 2), 0]
    assert [g.ns_pair for g in rating_games(score_board(rows), exclude=[6])] == [1, 3]


@pytest.mark.parametrize("rows, words", [
    ([TableResult(1, 1, 2, 1, 0), TableResult(1, 1, 3, 0, 0)], "board 1: pair 1 has more than one result"),
    ([TableResult(1, 1, 2, 1, 0), TableResult(2, 3, 4, 0, 0)], "results of boards 1 and 2"),
    ([TableResult(1, 1, 2, 1.5, 0)], "points must be whole numbers"),
])
def test_results_that_cannot_be_scored_together_are_refused(rows, words):
    with pytest.raises(ScoringError, match=words):
        score_board(rows)


def test_an_expected_count_below_the_tables_that_played_is_refused():
    rows = [TableResult(1, 1, 2, 1, 0), TableResult(1, 3, 4, 0, 0)]
    with pytest.raises(ScoringError, match="played by 2 tables; the expected count 1 cannot be fewer"):
        score_board(rows, expected=1)
    with pytest.raises(ScoringError, match="unknown scoring method 'imps'"):
        score_board(rows, "imps")


NETS = st.lists(st.integers(-30, 30), min_size=1, max_size=16)


@FAST
@given(nets=NETS)
def test_matchpoints_on_a_board_sum_to_the_maximum_for_the_field(nets):
    n = len(nets)
    assert sum(matchpoints(nets)) == n * (n - 1)
    assert all(0 <= mp <= 2 * (n - 1) for mp in matchpoints(nets))


@FAST
@given(nets=NETS, extra=st.integers(0, 6))
def test_factored_matchpoints_keep_each_table_at_the_top_and_the_board_at_half(nets, extra):
    rows = [TableResult(1, 2 * i + 1, 2 * i + 2, max(net, 0), max(-net, 0)) for i, net in enumerate(nets)]
    expected = len(nets) + extra
    scored = score_board(rows, expected=expected)
    top = 2 * (expected - 1)
    assert all(s.ns + s.ew == top and 0 <= s.ns <= top for s in scored)
    assert sum(s.ns for s in scored) == F(len(nets) * top, 2)


@FAST
@given(nets=NETS)
def test_cross_points_of_a_direction_sum_to_nothing(nets):
    assert sum(cross_points(nets)) == 0


@FAST
@given(mp=st.integers(0, 30), tables=st.integers(1, 16))
def test_neuberg_changes_nothing_when_every_expected_table_played(mp, tables):
    assert neuberg(mp, tables, tables) == mp


@FAST
@given(boards=st.lists(NETS, min_size=1, max_size=6))
def test_every_pair_is_ranked_between_zero_and_a_hundred_percent(boards):
    rows = [TableResult(b, 100 * b + 2 * i, 100 * b + 2 * i + 1, max(net, 0), max(-net, 0))
            for b, nets in enumerate(boards, start=1) for i, net in enumerate(nets)]
    ranking = rank_pairs(rows)
    assert all(0 <= r.percent <= 100 for r in ranking)
    assert [r.percent for r in ranking] == sorted((r.percent for r in ranking), reverse=True)
    assert len(score_event(rows)) == len(boards)
