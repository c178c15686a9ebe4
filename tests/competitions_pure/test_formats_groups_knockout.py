"""Groups then knockout (tournaments/formats/groups_knockout.py): the rules by name."""
from __future__ import annotations

import pytest

from tournaments.formats import Options, Result, RoundInProgress, get_format
from tournaments.formats import groups_knockout as gk
from tournaments.formats.bracket import standard_seed_order

from .conftest import make_entries, play_out

FOUR_TOP_TWO = Options(group_size=4, group_qualifiers=2)


def test_groups_are_filled_snake_wise_by_seed():
    groups = gk.draw_groups(make_entries(8), FOUR_TOP_TWO)
    assert [[e.id for e in g] for g in groups] == [[1, 4, 5, 8], [2, 3, 6, 7]]


def test_a_size_that_does_not_divide_makes_groups_differing_by_one_pair():
    assert gk.group_sizes(7, 4, 2) == [4, 3]
    assert gk.group_sizes(10, 4, 1) == [4, 3, 3]
    groups = gk.draw_groups(make_entries(7), FOUR_TOP_TWO)
    assert sorted(len(g) for g in groups) == [3, 4]


@pytest.mark.parametrize("count,size,qualifiers,reason", [
    (5, 4, 2, "small_group"),      # groups of 3 and 2: the pair of two would both go through
    (8, 4, 4, "qualifiers"),       # everyone goes through: no group is played for
    (8, 4, 0, "qualifiers"),
    (3, 4, 1, "too_few"),          # one group, one qualifier: no knockout
])
def test_groups_that_cannot_work_are_refused_with_the_reason(count, size, qualifiers, reason):
    with pytest.raises(gk.GroupsImpossible) as caught:
        gk.group_sizes(count, size, qualifiers)
    assert caught.value.reason == reason


def test_every_pair_meets_every_other_pair_of_its_group_once_and_no_one_else():
    entries = make_entries(8)
    pairings, _ = play_out("groups_knockout", entries, FOUR_TOP_TWO)
    groups = [{e.id for e in g} for g in gk.draw_groups(entries, FOUR_TOP_TWO)]
    group_games = [frozenset((p.home, p.away)) for p in pairings if p.bracket == gk.GROUPS]
    assert len(group_games) == len(set(group_games)) == 2 * 6
    assert all(any(game <= g for g in groups) for game in group_games)
    assert {p.round for p in pairings if p.bracket == gk.GROUPS} == {1, 2, 3}


def test_crossover_group_winners_meet_the_other_groups_runners_up():
    slots = gk.qualifier_slots(2, 2)
    order = standard_seed_order(4)
    first_round = [(slots[order[i] - 1], slots[order[i + 1] - 1]) for i in (0, 2)]
    assert first_round == [((0, 1), (1, 2)), ((1, 1), (0, 2))]   # A1-B2, B1-A2
    slots = gk.qualifier_slots(4, 2)
    order = standard_seed_order(8)
    pairs = {(slots[order[i] - 1], slots[order[i + 1] - 1]) for i in range(0, 8, 2)}
    assert pairs == {((0, 1), (1, 2)), ((3, 1), (2, 2)), ((1, 1), (0, 2)), ((2, 1), (3, 2))}


@pytest.mark.parametrize("groups,qualifiers", [(2, 2), (4, 2), (8, 2), (3, 2), (2, 3), (4, 1), (3, 1)])
def test_a_group_winner_and_runner_up_are_in_opposite_halves(groups, qualifiers):
    slots = gk.qualifier_slots(groups, qualifiers)
    size = 1 << (len(slots) - 1).bit_length()
    order = standard_seed_order(size)
    halves = [order[: size // 2], order[size // 2:]]
    for g in range(groups):
        winner = slots.index((g, 1)) + 1
        if qualifiers >= 2:
            runner_up = slots.index((g, 2)) + 1
            assert (winner in halves[0]) != (runner_up in halves[0])


def test_knockout_starts_after_the_groups_with_the_crossover_and_the_seeds_as_the_group_tables_say():
    entries, fmt = make_entries(8), get_format("groups_knockout")
    pairings, results = [], []
    for _ in range(3):  # the better seed always wins its group games
        new = fmt.next_round(entries, pairings, results, FOUR_TOP_TWO)
        assert all(p.bracket == gk.GROUPS for p in new)
        pairings += new
        results += [Result(p.round, p.slot, min(p.home, p.away), 2, 0) for p in new if p.away]
    knockout = fmt.next_round(entries, pairings, results, FOUR_TOP_TWO)
    # group A: 1, 4, 5, 8 -> A1 = 1, A2 = 4; group B: 2, 3, 6, 7 -> B1 = 2, B2 = 3
    assert [(p.round, p.home, p.away, p.label) for p in knockout] == [(4, 1, 3, "R1-1"), (4, 2, 4, "R1-2")]


def test_the_knockout_waits_for_every_group_result():
    entries, fmt = make_entries(8), get_format("groups_knockout")
    pairings, results = [], []
    for _ in range(3):
        pairings += fmt.next_round(entries, pairings, results, FOUR_TOP_TWO)
    results = [Result(p.round, p.slot, p.home, 2, 0) for p in pairings if p.away][1:]
    with pytest.raises(RoundInProgress):
        fmt.next_round(entries, pairings, results, FOUR_TOP_TWO)


@pytest.mark.parametrize("count,size,qualifiers", [(8, 4, 2), (7, 4, 2), (12, 3, 1), (16, 4, 2), (9, 3, 2), (6, 6, 4)])
def test_played_out_the_champion_is_a_qualifier_and_places_rank_the_rest_by_group_place(count, size, qualifiers):
    options = Options(group_size=size, group_qualifiers=qualifiers)
    entries = make_entries(count)
    pairings, results = play_out("groups_knockout", entries, options, seed=count)
    assert len({p.round for p in pairings}) == gk.total_rounds(count, options)
    places = gk.places(entries, pairings, results, options)
    tables = gk.group_tables(entries, pairings, results, options)
    through = {row.entry for table in tables for row in table[:qualifiers]}
    champion = [e for e, place in places.items() if place == 1]
    assert len(champion) == 1 and champion[0] in through
    assert all(places[e.id] > len(through) for e in entries if e.id not in through)
