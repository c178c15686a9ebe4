"""Standings read in the middle of a round, for every format: rows in order of what each pair has
earned so far, and a shared rank only where the pairs are equal on every criterion."""

import pytest

from tournaments.formats import FORMATS, Entry, Options, Result
from tournaments.standings import standings

FORMAT_KEYS = ["swiss", "round_robin", "league", "single_elimination", "double_elimination"]


def entries(count: int):
    return [Entry(n, seed=n) for n in range(1, count + 1)]


def first_round(key: str, field):
    pairings = FORMATS[key].next_round(field, [], [], Options())
    return [p for p in pairings if p.round == min(q.round for q in pairings)]


def half_played(key: str, count: int):
    """The first round with its first real match won 2-0 by the home pair, the others unplayed."""
    field = entries(count)
    pairings = first_round(key, field)
    played = next(p for p in pairings if not p.is_bye)
    return field, pairings, [Result(played.round, played.slot, played.home, 2, 0)], played


def equal_on_everything(a, b) -> bool:
    return (a.match_points, a.game_difference, a.game_points_for, a.tiebreaks) == (
        b.match_points, b.game_difference, b.game_points_for, b.tiebreaks)


@pytest.mark.parametrize("key", FORMAT_KEYS)
def test_mid_round_standings_list_pairs_by_points_so_far(key):
    field, pairings, results, played = half_played(key, 6)

    rows = standings(key, field, pairings, results)

    points = [row.match_points for row in rows]
    assert points == sorted(points, reverse=True)
    assert rows[0].entry in {played.home} | {p.home for p in pairings if p.is_bye}


@pytest.mark.parametrize("key", FORMAT_KEYS)
def test_mid_round_standings_share_a_rank_only_for_a_true_tie(key):
    field, pairings, results, _ = half_played(key, 6)

    rows = standings(key, field, pairings, results)

    for before, after in zip(rows, rows[1:]):
        assert after.rank >= before.rank
        if after.rank == before.rank and key.endswith("elimination"):  # out at the same stage, or level
            assert (before.match_points, before.game_difference) == (after.match_points, after.game_difference)
        elif after.rank == before.rank:
            assert equal_on_everything(before, after)
        else:
            assert after.rank == rows.index(after) + 1


def test_mid_knockout_the_pair_that_won_ranks_above_pairs_that_have_not_played():
    """The measured defect: a pair with 1 point listed under two with 0, all three ranked 1."""
    field, pairings, results, played = half_played("single_elimination", 8)

    rows = standings("single_elimination", field, pairings, results)

    by_entry = {row.entry: row for row in rows}
    winner, loser = by_entry[played.home], by_entry[played.away]
    waiting = [row for row in rows if row.played == 0 and row.entry != played.away]
    assert rows[0] is winner and winner.rank == 1
    assert all(row.rank == 2 for row in waiting)
    assert loser.rank == 8 and rows[-1] is loser


def test_a_bye_counts_as_a_won_round_mid_knockout():
    field, pairings, results, played = half_played("single_elimination", 6)

    rows = standings("single_elimination", field, pairings, results)

    byes = {p.home for p in pairings if p.is_bye}
    not_played = {p.home for p in pairings if not p.is_bye and p != played} | {
        p.away for p in pairings if not p.is_bye and p != played}
    ranks = {row.entry: row.rank for row in rows}
    assert ranks[played.home] == 1
    assert all(ranks[e] == 2 for e in byes)  # a bye: the point, but no games won
    assert all(ranks[e] == 4 for e in not_played)
    assert ranks[played.away] == 6
