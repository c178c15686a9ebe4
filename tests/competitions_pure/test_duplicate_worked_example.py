"""docs/duplicate.md's worked example: every number in its tables, recomputed by the code."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from tournaments.duplicate import CROSS_POINTS, TableResult, rank_pairs, rating_games, score_event

DOC = Path(__file__).resolve().parents[2] / "docs" / "duplicate.md"


def table(name: str) -> list[list[str]]:
    """The rows of the markdown table after ``<!-- worked-example: name -->`` (header dropped)."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"<!-- worked-example: {name} -->") + 3
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    assert rows, name
    return rows


def example_results() -> list[TableResult]:
    return [TableResult(int(b), int(ns), int(ew), int(nsp), int(ewp))
            for b, _, ns, ew, nsp, ewp in table("results")]


def two_places(value: Fraction) -> str:
    return f"{float(round(value, 2)):.2f}"


def test_the_worked_example_matchpoints_percentages_and_cross_points_are_the_codes():
    mp = score_event(example_results())
    cross = score_event(example_results(), CROSS_POINTS)
    rows = table("scores")
    assert len(rows) == sum(len(scores) for scores in mp.values())
    for board, number, ns_mp, ew_mp, ns_pct, ew_pct, ns_cross, ew_cross in rows:
        scored, crossed = mp[int(board)][int(number) - 1], cross[int(board)][int(number) - 1]
        assert (scored.ns, scored.ew) == (Fraction(ns_mp), Fraction(ew_mp))
        assert (two_places(scored.ns_percent), two_places(scored.ew_percent)) == (ns_pct, ew_pct)
        assert (crossed.ns, crossed.ew) == (Fraction(ns_cross), Fraction(ew_cross))


def test_the_worked_example_board_two_is_factored_to_four_tables():
    board_two = score_event(example_results())[2]
    assert all(s.factored and s.tables == 3 and s.expected == 4 and s.top == 6 for s in board_two)


def test_the_worked_example_ranking_is_the_codes():
    expected = [(int(rank), int(pair), int(boards), Fraction(mp), int(top), pct)
                for rank, pair, boards, mp, top, pct in table("ranking")]
    ranking = rank_pairs(example_results())
    assert [(r.rank, r.pair, r.boards, r.score, r.top, two_places(r.percent)) for r in ranking] == expected


def test_the_worked_example_rated_games_on_board_one():
    games = rating_games(score_event(example_results())[1])
    assert [(g.ns_pair, g.ew_pair, g.ns_score) for g in games[:2]] == [(1, 5, 1), (2, 6, 0)]
