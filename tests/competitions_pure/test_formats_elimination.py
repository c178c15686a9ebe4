"""Single and double elimination against published vectors."""
from __future__ import annotations

import pytest

from tournaments.formats import Options, Result, RoundInProgress, get_format
from tournaments.formats import double_elimination, single_elimination
from tournaments.formats.bracket import standard_seed_order

from .conftest import make_entries, play_out

SEED_ORDER_8 = [1, 8, 4, 5, 2, 7, 3, 6]
SEED_ORDER_16 = [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
SEED_ORDER_32 = [1, 32, 16, 17, 8, 25, 9, 24, 4, 29, 13, 20, 5, 28, 12, 21,
                 2, 31, 15, 18, 7, 26, 10, 23, 3, 30, 14, 19, 6, 27, 11, 22]


@pytest.mark.parametrize("size,expected", [(8, SEED_ORDER_8), (16, SEED_ORDER_16), (32, SEED_ORDER_32)])
def test_standard_seed_order_matches_published_brackets(size, expected):
    assert standard_seed_order(size) == expected


def test_first_round_of_sixteen_pairs_1_v_16_then_8_v_9():
    first = get_format("single_elimination").next_round(make_entries(16), [], [], Options())
    assert [(p.home, p.away) for p in first][:4] == [(1, 16), (8, 9), (4, 13), (5, 12)]
    assert all(p.round == 1 for p in first) and [p.slot for p in first] == list(range(1, 9))


def test_byes_go_to_the_top_seeds_when_the_field_is_not_a_power_of_two():
    first = get_format("single_elimination").next_round(make_entries(6), [], [], Options())
    byes = sorted(p.home for p in first if p.is_bye)
    assert byes == [1, 2]
    assert sorted((p.home, p.away) for p in first if not p.is_bye) == [(3, 6), (4, 5)]


def test_next_round_waits_for_every_result_of_the_round():
    fmt, entries = get_format("single_elimination"), make_entries(4)
    first = fmt.next_round(entries, [], [], Options())
    with pytest.raises(RoundInProgress):
        fmt.next_round(entries, list(first), [Result(1, 1, 1)], Options())


def test_bracket_advances_winners_from_results():
    fmt, entries = get_format("single_elimination"), make_entries(4)
    first = fmt.next_round(entries, [], [], Options())
    results = [Result(1, 1, 4), Result(1, 2, 2)]
    final = fmt.next_round(entries, list(first), results, Options())
    assert [(p.home, p.away, p.label) for p in final] == [(4, 2, "R2-1")]


def test_third_place_match_is_between_the_semi_final_losers_in_the_final_round():
    opts = Options(third_place_match=True)
    pairings, results = play_out("single_elimination", make_entries(8), opts,
                                 decide=lambda p, rng: min(p.home, p.away))
    last = [p for p in pairings if p.round == 3]
    assert sorted((p.label, p.home, p.away) for p in last) == [("3P", 4, 3), ("R3-1", 1, 2)]  # upper semi-final loser is home
    places = single_elimination.places(make_entries(8), pairings, results, opts)
    assert [places[n] for n in range(1, 9)] == [1, 2, 3, 4, 5, 5, 5, 5]


def test_without_third_place_match_semi_final_losers_share_third():
    pairings, results = play_out("single_elimination", make_entries(8),
                                 decide=lambda p, rng: min(p.home, p.away))
    places = single_elimination.places(make_entries(8), pairings, results, Options())
    assert [places[n] for n in range(1, 5)] == [1, 2, 3, 3]


def test_double_elimination_drop_order_for_8_follows_natural_reverse_natural():
    assert [double_elimination.drop_method(8, r) for r in (1, 2, 3)] == ["natural", "reverse", "natural"]
    assert double_elimination.drop_order(8, 2) == [2, 1]
    assert double_elimination.drop_order(16, 2) == [2, 1, 4, 3]      # reverse_half_shift
    assert double_elimination.drop_order(16, 3) == [2, 1]            # reverse
    assert double_elimination.drop_order(32, 3) == [3, 4, 1, 2]      # half_shift


def test_double_elimination_losers_of_winners_round_two_cross_to_the_other_half():
    entries = make_entries(8)
    pairings, _ = play_out("double_elimination", entries, decide=lambda p, rng: min(p.home, p.away))
    by_label = {p.label: p for p in pairings}
    # Top seeds win: W2-1 is 1 v 4 (loser 4), W2-2 is 2 v 3 (loser 3).
    # Reverse order: the loser of W2-2 meets the survivor of L1-1 (from W1-1/W1-2).
    assert (by_label["L1-1"].home, by_label["L1-1"].away) == (8, 5)
    assert (by_label["L2-1"].home, by_label["L2-1"].away) == (3, 5)
    assert (by_label["L2-2"].home, by_label["L2-2"].away) == (4, 6)


def test_grand_final_reset_is_played_only_when_the_losers_champion_wins():
    entries = make_entries(4)
    top_wins = play_out("double_elimination", entries, decide=lambda p, rng: min(p.home, p.away))[0]
    assert "GF2" not in {p.label for p in top_wins}

    def challenger_wins_final(p, rng):
        return p.away if p.label == "GF" else min(p.home, p.away)
    pairings, results = play_out("double_elimination", entries, decide=challenger_wins_final)
    assert [p.label for p in pairings][-2:] == ["GF", "GF2"]
    places = double_elimination.places(entries, pairings, results, Options())
    assert sorted(places.values()) == [1, 2, 3, 4]


def test_double_elimination_without_reset_ends_after_one_grand_final():
    def challenger_wins_final(p, rng):
        return p.away if p.label == "GF" else min(p.home, p.away)
    pairings, results = play_out("double_elimination", make_entries(4),
                                 Options(grand_final_reset=False), decide=challenger_wins_final)
    assert pairings[-1].label == "GF"
    places = double_elimination.places(make_entries(4), pairings, results, Options(grand_final_reset=False))
    assert places[pairings[-1].away] == 1


def test_double_elimination_eliminates_after_two_losses():
    entries = make_entries(16)
    pairings, results = play_out("double_elimination", entries, seed=3)
    losses: dict = {}
    for p, r in zip([p for p in pairings if not p.is_bye], results):
        loser = p.away if r.winner == p.home else p.home
        losses[loser] = losses.get(loser, 0) + 1
    places = double_elimination.places(entries, pairings, results, Options())
    champion = [e for e, place in places.items() if place == 1]
    assert len(champion) == 1 and losses.get(champion[0], 0) <= 1
    assert all(count == 2 for e, count in losses.items() if e != champion[0])


def test_total_rounds_counts_the_possible_reset():
    assert single_elimination.total_rounds(16) == 4
    assert double_elimination.total_rounds(8) == 7
