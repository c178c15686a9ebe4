"""A Mitchell's two fields are ranked apart on the duplicate page (tournaments/duplicate_pages.py):
a pair's result on a board is compared only with the pairs that sat its way, so North-South and
East-West each have their own ranking and winner; a Howell (everyone sits both ways) has one."""

from fractions import Fraction

from tournaments.duplicate_pages import RankingRow, _ranked_within_fields, ranking_fields


def row(entry, percent, field):
    return RankingRow(0, entry, f"pair {entry}", entry, 4, Fraction(percent), Fraction(percent), Fraction(1), field)


def test_a_mitchells_north_south_and_east_west_pairs_are_ranked_each_among_their_own():
    overall = [row(1, 70, "EW"), row(2, 60, "NS"), row(3, 55, "EW"), row(4, 55, "NS"), row(5, 40, "NS"), row(6, 30, "EW")]
    fields = ranking_fields(_ranked_within_fields(overall))
    assert [direction for direction, _ in fields] == ["NS", "EW"]
    assert [(r.entry_id, r.rank) for r in fields[0][1]] == [(2, 1), (4, 2), (5, 3)]
    assert [(r.entry_id, r.rank) for r in fields[1][1]] == [(1, 1), (3, 2), (6, 3)]


def test_ties_within_a_field_share_their_rank():
    fields = ranking_fields(_ranked_within_fields([row(1, 60, "NS"), row(2, 60, "NS"), row(3, 50, "NS")]))
    assert [r.rank for r in fields[0][1]] == [1, 1, 3]


def test_a_howell_keeps_one_ranking():
    rows = [RankingRow(1, 1, "a", 1, 4, Fraction(3), Fraction(60), Fraction(1)),
            RankingRow(2, 2, "b", 2, 4, Fraction(2), Fraction(40), Fraction(1))]
    assert ranking_fields(rows) == [("", rows)]
