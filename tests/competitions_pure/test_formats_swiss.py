"""Swiss pairing: score groups, no rematches, Dutch-style floaters, byes."""
from __future__ import annotations

import pytest

from tournaments.formats import Options, PairingImpossible, Result, get_format, swiss

from .conftest import make_entries

SWISS = get_format("swiss")


def pairs_of(pairings) -> set[frozenset]:
    return {frozenset((p.home, p.away)) for p in pairings if not p.is_bye}


def test_first_round_pairs_top_half_against_bottom_half():
    first = SWISS.next_round(make_entries(8), [], [], Options(rounds=3))
    assert pairs_of(first) == {frozenset(x) for x in [(1, 5), (2, 6), (3, 7), (4, 8)]}


def test_odd_group_floats_its_lowest_entry_to_the_best_opponent_not_yet_met():
    # Round 1: 1-4, 2-5, 3-6; winners 1, 2 and 6. Score group {1, 2, 6} is odd:
    # 6 floats down; it has met 3, so it meets 4; 3 meets 5. No rematch.
    entries = make_entries(6)
    first = SWISS.next_round(entries, [], [], Options(rounds=3))
    assert pairs_of(first) == {frozenset(x) for x in [(1, 4), (2, 5), (3, 6)]}
    by_pair = {frozenset((p.home, p.away)): p for p in first}
    results = [Result(by_pair[frozenset(k)].round, by_pair[frozenset(k)].slot, w)
               for k, w in [((1, 4), 1), ((2, 5), 2), ((3, 6), 6)]]
    second = SWISS.next_round(entries, list(first), results, Options(rounds=3))
    assert pairs_of(second) == {frozenset(x) for x in [(1, 2), (6, 4), (3, 5)]}
    assert not pairs_of(second) & pairs_of(first)


def test_bye_goes_to_the_lowest_ranked_entry_and_never_twice():
    entries = make_entries(5)
    pairings, results = [], []
    byes = []
    for _ in range(5):
        new = SWISS.next_round(entries, pairings, results, Options(rounds=5))
        pairings += new
        results += [Result(p.round, p.slot, min(p.home, p.away)) for p in new if not p.is_bye]
        byes += [p.home for p in new if p.is_bye]
    assert byes[0] == 5
    assert len(byes) == len(set(byes)) == 5


def test_bye_is_listed_last_and_labelled():
    first = SWISS.next_round(make_entries(7), [], [], Options(rounds=3))
    assert first[-1].is_bye and first[-1].label == "bye" and first[-1].home == 7


def test_pairing_is_impossible_when_everyone_has_met():
    entries = make_entries(4)
    pairings, results = [], []
    for _ in range(3):
        new = SWISS.next_round(entries, pairings, results, Options(rounds=4))
        pairings += new
        results += [Result(p.round, p.slot, p.home) for p in new]
    with pytest.raises(PairingImpossible):
        SWISS.next_round(entries, pairings, results, Options(rounds=4))


def test_home_goes_to_the_entry_that_has_been_home_less():
    entries = make_entries(4)
    first = SWISS.next_round(entries, [], [], Options(rounds=3))
    results = [Result(p.round, p.slot, p.home) for p in first]
    second = SWISS.next_round(entries, list(first), results, Options(rounds=3))
    h = swiss.history(list(first), results)
    for p in second:
        assert h.balance[p.home] <= h.balance[p.away]


def test_default_number_of_rounds_is_log2_of_the_field():
    assert SWISS.total_rounds(16, Options()) == 4
    assert SWISS.total_rounds(17, Options()) == 5
    assert SWISS.total_rounds(16, Options(rounds=7)) == 7


def test_competition_ends_after_the_set_number_of_rounds():
    entries = make_entries(6)
    pairings, results = [], []
    while new := SWISS.next_round(entries, pairings, results, Options(rounds=3)):
        pairings += new
        results += [Result(p.round, p.slot, p.home) for p in new if not p.is_bye]
    assert max(p.round for p in pairings) == 3
